#include "catalog/gpu_json.h"

#include "common/json_fields.h"
#include "common/text.h"
#include "perf/workload.h"

#include <map>
#include <string>

namespace advisor {
namespace {

using nlohmann::json;

// "model_checks": an object of chart metric names (as perf::toString writes them) to what
// measurements of the GPU said about the model's figure for that metric.
std::map<std::string, std::string> parseModelChecks(const JsonFields& f) {
    std::map<std::string, std::string> checks;
    const json* object = f.find("model_checks");
    if (object == nullptr) {
        return checks;
    }
    if (!object->is_object()) {
        f.fail("model_checks", "must be an object of metric name to what measurements of the GPU said");
    }
    for (auto it = object->begin(); it != object->end(); ++it) {
        const std::string path = "model_checks." + it.key();
        const auto metric = perf::parseMetric(it.key());
        if (!metric || it.key() != perf::toString(*metric)) {
            f.fail(path, "is not a metric: use int8-inference, fp16-inference, fp16-training, fp32-training, "
                         "llm-decode or llm-prefill");
        }
        const auto said = f.optionalString(path);
        if (!said || text::trim(*said).empty()) {
            f.fail(path, "must say what measurements of the GPU showed against the model");
        }
        checks[it.key()] = *said;
    }
    return checks;
}

Segment parseSegment(const JsonFields& f) {
    const auto s = f.requireString("segment");
    if (s == "consumer") {
        return Segment::Consumer;
    }
    if (s == "workstation") {
        return Segment::Workstation;
    }
    if (s == "datacenter") {
        return Segment::Datacenter;
    }
    f.fail("segment", "must be one of consumer, workstation, datacenter; got '" + s + "'");
}

FormFactor parseForm(const JsonFields& f) {
    const auto s = f.requireString("board.form");
    if (s == "pcie") {
        return FormFactor::Pcie;
    }
    if (text::startsWith(s, "sxm")) {
        return FormFactor::Sxm;
    }
    if (s == "oam") {
        return FormFactor::Oam;
    }
    if (s == "superchip") {
        return FormFactor::Superchip;
    }
    if (s == "system") {
        return FormFactor::System;
    }
    f.fail("board.form", "must be one of pcie, sxm, sxm2, sxm4, sxm5, oam, superchip, system; got '" + s + "'");
}

InterconnectType parseInterconnect(const JsonFields& f) {
    const auto s = f.optionalString("interconnect.type").value_or("none");
    if (s == "none") {
        return InterconnectType::None;
    }
    if (s == "nvlink") {
        return InterconnectType::NvLink;
    }
    if (s == "infinity-fabric") {
        return InterconnectType::InfinityFabric;
    }
    f.fail("interconnect.type", "must be one of none, nvlink, infinity-fabric; got '" + s + "'");
}

void requireSlug(const JsonFields& f, const std::string& id) {
    for (const char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok) {
            f.fail("id", "must use only a-z, 0-9 and '-', got '" + id + "'");
        }
    }
}

json optionalToJson(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

json optionalToJson(const std::optional<int>& v) {
    return v ? json(*v) : json(nullptr);
}

json optionalText(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

} // namespace

Gpu gpuFromJson(const json& j, const InputLocation& where) {
    const JsonFields f(j, where);
    Gpu g;
    g.id = f.requireString("id");
    requireSlug(f, g.id);
    g.name = f.requireString("name");
    g.vendor = f.requireString("vendor");
    g.brand = f.optionalString("brand").value_or("");
    g.segment = parseSegment(f);
    g.architecture = f.requireString("architecture");
    g.chip = f.optionalString("chip").value_or("");
    g.launchYear = f.requireInt("launch_year", 1990, 2100);
    g.launchMsrpUsd = f.optionalPositive("launch_msrp_usd");

    g.memoryGb = f.requirePositive("memory.size_gb");
    g.memoryType = f.requireString("memory.type");
    g.memoryBusBits = f.optionalInt("memory.bus_bits", 32, 65536);
    g.memoryBandwidthGbs = f.requirePositive("memory.bandwidth_gbs");

    g.computeUnits = f.optionalInt("compute.units", 1, 100000);
    g.computeUnitName = f.optionalString("compute.unit_name").value_or("");
    g.tensorCoreGeneration = f.requireString("compute.tensor_cores");
    g.fp32Tflops = f.optionalPositive("compute.fp32_tflops");
    g.configurationPeer = f.optionalString("compute.configuration_peer").value_or("");
    g.notAClockAnchor = f.optionalString("compute.not_a_clock_anchor").value_or("");
    if (f.optionalString("compute.not_a_clock_anchor") && text::trim(g.notAClockAnchor).empty()) {
        f.fail("compute.not_a_clock_anchor", "must say why the card does not anchor its chip's clock");
    }

    g.tensor.fp16Fp32Acc = f.optionalPositive("tensor_tflops_dense.fp16_fp32acc");
    g.tensor.fp16Fp16Acc = f.optionalPositive("tensor_tflops_dense.fp16_fp16acc");
    g.tensor.bf16 = f.optionalPositive("tensor_tflops_dense.bf16");
    g.tensor.tf32 = f.optionalPositive("tensor_tflops_dense.tf32");
    g.tensor.fp8 = f.optionalPositive("tensor_tflops_dense.fp8");
    g.tensor.int8 = f.optionalPositive("tensor_tflops_dense.int8");
    g.tensor.fp4 = f.optionalPositive("tensor_tflops_dense.fp4");
    if (g.tensorCoreGeneration == "none" && g.hasTensorCores()) {
        f.fail("compute.tensor_cores", "is 'none' but tensor throughput figures are given");
    }

    g.l2CacheMb = f.optionalPositive("cache.l2_mb");
    g.sharedMemPerSmKb = f.optionalPositive("cache.shared_mem_per_sm_kb");

    g.tdpW = f.requirePositive("power.tdp_w");
    g.connectors.pcie6Pin = f.optionalInt("power.connectors.pcie_6pin", 0, 8).value_or(0);
    g.connectors.pcie8Pin = f.optionalInt("power.connectors.pcie_8pin", 0, 8).value_or(0);
    g.connectors.nv12Pin = f.optionalInt("power.connectors.nv_12pin", 0, 4).value_or(0);
    g.connectors.hpwr16Pin = f.optionalInt("power.connectors.12vhpwr", 0, 4).value_or(0);
    g.connectors.eps8Pin = f.optionalInt("power.connectors.eps_8pin", 0, 4).value_or(0);
    g.connectors.label = f.optionalString("power.connector_label").value_or("");

    g.form = parseForm(f);
    g.formCode = f.requireString("board.form");
    g.formLabel = f.optionalString("board.form_label").value_or(f.requireString("board.form"));
    g.slotWidth = f.optionalInt("board.slot_width", 1, 5);
    if (g.form == FormFactor::Pcie && !g.slotWidth) {
        f.fail("board.slot_width", "is required for PCIe cards (1-5 slots)");
    }
    g.pcieGen = f.optionalInt("board.pcie_gen", 1, 7).value_or(4);
    g.pcieLanes = f.optionalInt("board.pcie_lanes", 1, 16).value_or(16);

    g.interconnect = parseInterconnect(f);
    g.interconnectGbs = f.optionalPositive("interconnect.bandwidth_gbs");
    g.interconnectLabel = f.optionalString("interconnect.label").value_or("");

    g.asyncCopy = f.optionalBool("features.async_copy", false);
    g.tma = f.optionalBool("features.tma", false);
    g.warpgroupMma = f.optionalBool("features.warpgroup_mma", false);
    g.sparsity24 = f.optionalBool("features.sparsity_2_4", false);

    g.aliases = f.optionalStringArray("aliases");
    for (size_t i = 0; i < g.aliases.size(); ++i) {
        if (text::trim(g.aliases[i]).empty()) {
            f.fail("aliases[" + std::to_string(i) + "]", "must not be empty");
        }
    }
    g.confidence = f.optionalString("confidence").value_or("");
    g.derivedFields = f.optionalString("derived_fields").value_or("");
    g.sources = f.optionalStringArray("sources");
    g.notes = f.optionalString("notes").value_or("");
    g.modelChecks = parseModelChecks(f);
    return g;
}

json gpuToJson(const Gpu& g) {
    json j;
    j["id"] = g.id;
    j["name"] = g.name;
    j["vendor"] = g.vendor;
    j["brand"] = optionalText(g.brand);
    j["segment"] = toString(g.segment);
    j["architecture"] = g.architecture;
    j["chip"] = optionalText(g.chip);
    j["launch_year"] = g.launchYear;
    j["launch_msrp_usd"] = optionalToJson(g.launchMsrpUsd);
    j["memory"] = {{"size_gb", g.memoryGb},
                   {"type", g.memoryType},
                   {"bus_bits", optionalToJson(g.memoryBusBits)},
                   {"bandwidth_gbs", g.memoryBandwidthGbs}};
    j["compute"] = {{"units", optionalToJson(g.computeUnits)},
                    {"unit_name", optionalText(g.computeUnitName)},
                    {"tensor_cores", g.tensorCoreGeneration},
                    {"fp32_tflops", optionalToJson(g.fp32Tflops)}};
    if (!g.configurationPeer.empty()) {
        j["compute"]["configuration_peer"] = g.configurationPeer;
    }
    if (!g.notAClockAnchor.empty()) {
        j["compute"]["not_a_clock_anchor"] = g.notAClockAnchor;
    }
    j["tensor_tflops_dense"] = {{"fp16_fp32acc", optionalToJson(g.tensor.fp16Fp32Acc)},
                                {"fp16_fp16acc", optionalToJson(g.tensor.fp16Fp16Acc)},
                                {"bf16", optionalToJson(g.tensor.bf16)},
                                {"tf32", optionalToJson(g.tensor.tf32)},
                                {"fp8", optionalToJson(g.tensor.fp8)},
                                {"int8", optionalToJson(g.tensor.int8)},
                                {"fp4", optionalToJson(g.tensor.fp4)}};
    j["cache"] = {{"l2_mb", optionalToJson(g.l2CacheMb)},
                  {"shared_mem_per_sm_kb", optionalToJson(g.sharedMemPerSmKb)}};
    j["power"] = {{"tdp_w", g.tdpW},
                  {"connectors",
                   {{"pcie_6pin", g.connectors.pcie6Pin},
                    {"pcie_8pin", g.connectors.pcie8Pin},
                    {"nv_12pin", g.connectors.nv12Pin},
                    {"12vhpwr", g.connectors.hpwr16Pin},
                    {"eps_8pin", g.connectors.eps8Pin}}},
                  {"connector_label", optionalText(g.connectors.label)}};
    j["board"] = {{"form", g.formCode},
                  {"form_label", g.formLabel},
                  {"slot_width", optionalToJson(g.slotWidth)},
                  {"pcie_gen", g.pcieGen},
                  {"pcie_lanes", g.pcieLanes}};
    j["interconnect"] = {{"type", toString(g.interconnect)},
                         {"bandwidth_gbs", optionalToJson(g.interconnectGbs)},
                         {"label", optionalText(g.interconnectLabel)}};
    j["features"] = {
        {"async_copy", g.asyncCopy}, {"tma", g.tma}, {"warpgroup_mma", g.warpgroupMma}, {"sparsity_2_4", g.sparsity24}};
    j["aliases"] = g.aliases;
    j["confidence"] = optionalText(g.confidence);
    j["derived_fields"] = optionalText(g.derivedFields);
    j["sources"] = g.sources;
    j["notes"] = optionalText(g.notes);
    if (!g.modelChecks.empty()) {
        j["model_checks"] = g.modelChecks;
    }
    return j;
}

} // namespace advisor
