#include "perf/constants.h"

#include "common/embedded_resources.h"
#include "common/errors.h"
#include "common/json_fields.h"

namespace advisor::perf {
namespace {

constexpr std::array<WorkloadClass, 4> kClasses = {WorkloadClass::Transformer, WorkloadClass::Cnn,
                                                   WorkloadClass::Rnn, WorkloadClass::Recsys};

TimeShares readShares(const JsonFields& f, const std::string& base) {
    TimeShares s;
    s.compute = f.optionalNonNegative(base + ".compute").value_or(0);
    s.memory = f.optionalNonNegative(base + ".memory").value_or(0);
    s.vector = f.optionalNonNegative(base + ".vector").value_or(0);
    s.overhead = f.optionalNonNegative(base + ".overhead").value_or(0);
    s.hostStep = f.optionalNonNegative(base + ".host_step").value_or(0);
    const double sum = s.compute + s.memory + s.vector + s.overhead;
    if (sum < 0.99 || sum > 1.01) {
        f.fail(base, "compute + memory + vector + overhead must add up to 1");
    }
    return s;
}

// A profile's FP32 matmul shares by benchmark source. Source names hold dots, so the object is
// walked here rather than addressed by path. Files written before there was one share per source
// hold a single "fp32_matmul_share" with its "fp32_matmul_source".
std::map<std::string, double> readFp32MatmulShares(const JsonFields& f, const std::string& base) {
    std::map<std::string, double> shares;
    const auto checked = [&](const std::string& field, const nlohmann::json& v) {
        if (!v.is_number() || v.get<double>() < 0.0 || v.get<double>() > 1.0) {
            f.fail(field, "must be a share between 0 and 1");
        }
        return v.get<double>();
    };
    if (const auto* bySource = f.find(base + ".fp32_matmul_shares")) {
        if (!bySource->is_object()) {
            f.fail(base + ".fp32_matmul_shares", "must be an object of benchmark sources");
        }
        for (const auto& [source, v] : bySource->items()) {
            shares[source] = checked(base + ".fp32_matmul_shares[\"" + source + "\"]", v);
        }
        return shares;
    }
    if (const auto* legacy = f.find(base + ".fp32_matmul_share")) {
        const double share = checked(base + ".fp32_matmul_share", *legacy);
        const std::string source = f.optionalString(base + ".fp32_matmul_source").value_or("");
        if (share > 0 && !source.empty()) {
            shares[source] = share;
        }
    }
    return shares;
}

// A profile's typical per-GPU batch by training metric (absent in files written before it).
std::map<std::string, double> readTypicalPerGpuBatch(const JsonFields& f, const std::string& base) {
    std::map<std::string, double> batches;
    const std::string field = base + ".typical_per_gpu_batch";
    const auto* byMetric = f.find(field);
    if (byMetric == nullptr) {
        return batches;
    }
    if (!byMetric->is_object()) {
        f.fail(field, "must be an object of training metrics");
    }
    for (const auto& [metric, v] : byMetric->items()) {
        const auto m = parseMetric(metric);
        if (!m || !isTraining(*m)) {
            f.fail(field + "." + metric, "must be fp16-training or fp32-training");
        }
        if (!v.is_number() || v.get<double>() <= 0.0) {
            f.fail(field + "." + metric, "must be a positive batch");
        }
        batches[metric] = v.get<double>();
    }
    return batches;
}

} // namespace

ModelConstants::ModelConstants() {
    // Priors before fitting: memory-bound, with some overhead (seed: tensor cores idle ~50%).
    for (auto& s : shares) {
        s = TimeShares{};
    }
}

const WorkloadProfile* ModelConstants::profileFor(const std::string& workloadName) const {
    if (workloadName.empty() || workloadProfiles.empty()) {
        return nullptr;
    }
    const auto it = workloadProfiles.find(workloadName);
    return it == workloadProfiles.end() ? nullptr : &it->second;
}

std::optional<double> ModelConstants::typicalPerGpuBatch(const std::string& workloadName, Metric m) const {
    const WorkloadProfile* profile = profileFor(workloadName);
    return profile == nullptr ? std::nullopt : profile->typicalPerGpuBatchFor(m);
}

double WorkloadProfile::fp32MatmulShareFor(const std::string& source) const {
    const auto it = source.empty() ? fp32MatmulShares.end() : fp32MatmulShares.find(source);
    return it == fp32MatmulShares.end() ? 0.0 : it->second;
}

std::optional<double> WorkloadProfile::typicalPerGpuBatchFor(Metric m) const {
    const auto it = typicalPerGpuBatch.find(toString(m));
    return it == typicalPerGpuBatch.end() ? std::nullopt : std::optional<double>(it->second);
}

nlohmann::json ModelConstants::toJson() const {
    nlohmann::json sh = nlohmann::json::object();
    nlohmann::json ar = nlohmann::json::object();
    nlohmann::json cm = nlohmann::json::object();
    for (const auto w : kClasses) {
        const auto& s = sharesFor(w);
        sh[toString(w)] = {{"compute", s.compute},   {"memory", s.memory},     {"vector", s.vector},
                           {"overhead", s.overhead}, {"host_step", s.hostStep}};
        ar[toString(w)] = allReduceCost[static_cast<size_t>(w)];
        cm[toString(w)] = cubeMeshOverhead[static_cast<size_t>(w)];
    }
    nlohmann::json profiles = nlohmann::json::object();
    for (const auto& [name, p] : workloadProfiles) {
        profiles[name] = {{"class", toString(p.workloadClass)},
                          {"compute", p.shares.compute},
                          {"memory", p.shares.memory},
                          {"vector", p.shares.vector},
                          {"overhead", p.shares.overhead},
                          {"host_step", p.shares.hostStep},
                          {"batch_gain_per_doubling", p.batchGainPerDoubling},
                          {"fp32_matmul_shares", p.fp32MatmulShares}};
        if (!p.typicalPerGpuBatch.empty()) {
            profiles[name]["typical_per_gpu_batch"] = p.typicalPerGpuBatch;
        }
    }
    return {{"format", "gpu-advisor-perf-constants"},
            {"version", 1},
            {"provenance", provenance},
            {"single_gpu",
             {{"time_shares", sh},
              {"workload_profiles", profiles},
              {"no_tensor_core_penalty", noTensorCorePenalty},
              {"async_copy_gain", asyncCopyGain},
              {"tma_eight_bit_gain", tmaEightBitGain},
              {"l2_cache_gain", l2CacheGain},
              {"l2_no_benefit_mb", l2NoBenefitMb},
              {"l2_full_benefit_mb", l2FullBenefitMb},
              {"fp32_bytes_multiplier", fp32BytesMultiplier},
              {"batch_gain_per_doubling", batchGainPerDoubling},
              {"inference_overhead_factor", inferenceOverheadFactor},
              {"inference_memory_factor", inferenceMemoryFactor},
              {"latency_bound_overhead_fraction", latencyBoundOverheadFraction},
              {"int8_efficiency_without_fp8", int8EfficiencyWithoutFp8},
              {"fp16_without_tensor_cores_as_fp32", fp16WithoutTensorCoresAsFp32}}},
            {"multi_gpu",
             {{"all_reduce_cost", ar},
              {"sync_latency", syncLatency},
              {"straggler_fraction", stragglerFraction},
              {"cube_mesh_overhead", cm}}},
            {"llm",
             {{"decode_bandwidth_efficiency", decodeBandwidthEfficiency},
              {"decode_overhead_ms", decodeOverheadMs},
              {"decode_bytes_per_sm_clock", decodeBytesPerSmClock},
              {"decode_hop_ms", decodeHopMs},
              {"decode_cache_read_share", decodeCacheReadShare},
              {"prefill_compute_efficiency_16bit", prefillComputeEfficiency[0]},
              {"prefill_overhead_us_per_billion_params_16bit", prefillOverheadUsPerBillionParams[0]},
              {"prefill_compute_efficiency_quantized", prefillComputeEfficiency[1]},
              {"prefill_overhead_us_per_billion_params_quantized", prefillOverheadUsPerBillionParams[1]},
              {"prefill_power_clock_exponent", prefillPowerClockExponent}}},
            {"reference",
             {{"compute_tflops", referenceComputeTflops},
              {"vector_tflops", referenceVectorTflops},
              {"sm_clock_ghz", referenceSmClockGhz},
              {"bandwidth_gbs", referenceBandwidthGbs}}}};
}

ModelConstants ModelConstants::fromJson(const nlohmann::json& j, const std::string& fileLabel) {
    const JsonFields f(j, {fileLabel, 0, "", ""});
    ModelConstants c;
    c.provenance = f.optionalString("provenance").value_or("");
    for (const auto w : kClasses) {
        c.shares[static_cast<size_t>(w)] = readShares(f, std::string("single_gpu.time_shares.") + toString(w));
        c.allReduceCost[static_cast<size_t>(w)] =
            f.optionalNonNegative(std::string("multi_gpu.all_reduce_cost.") + toString(w)).value_or(0);
        c.cubeMeshOverhead[static_cast<size_t>(w)] =
            f.optionalNonNegative(std::string("multi_gpu.cube_mesh_overhead.") + toString(w)).value_or(0);
    }
    if (const auto* profiles = f.find("single_gpu.workload_profiles")) {
        if (!profiles->is_object()) {
            f.fail("single_gpu.workload_profiles", "must be an object of workload names");
        }
        for (const auto& [name, value] : profiles->items()) {
            const std::string base = "single_gpu.workload_profiles." + name;
            WorkloadProfile p;
            const auto cls = parseWorkloadClass(f.requireString(base + ".class"));
            if (!cls) {
                f.fail(base + ".class", "must be transformer, cnn, rnn or recsys");
            }
            p.workloadClass = *cls;
            p.shares = readShares(f, base);
            p.batchGainPerDoubling = f.optionalNonNegative(base + ".batch_gain_per_doubling").value_or(0);
            p.fp32MatmulShares = readFp32MatmulShares(f, base);
            p.typicalPerGpuBatch = readTypicalPerGpuBatch(f, base);
            c.workloadProfiles.emplace(name, p);
        }
    }
    c.noTensorCorePenalty = f.requirePositive("single_gpu.no_tensor_core_penalty");
    c.asyncCopyGain = f.optionalNonNegative("single_gpu.async_copy_gain").value_or(0);
    c.tmaEightBitGain = f.optionalNonNegative("single_gpu.tma_eight_bit_gain").value_or(0);
    c.l2CacheGain = f.optionalNonNegative("single_gpu.l2_cache_gain").value_or(0);
    c.l2NoBenefitMb = f.requirePositive("single_gpu.l2_no_benefit_mb");
    c.l2FullBenefitMb = f.requirePositive("single_gpu.l2_full_benefit_mb");
    if (c.l2FullBenefitMb <= c.l2NoBenefitMb) {
        f.fail("single_gpu.l2_full_benefit_mb", "must be larger than l2_no_benefit_mb");
    }
    c.fp32BytesMultiplier = f.requirePositive("single_gpu.fp32_bytes_multiplier");
    c.batchGainPerDoubling = f.optionalNonNegative("single_gpu.batch_gain_per_doubling").value_or(0);
    c.inferenceOverheadFactor = f.optionalNonNegative("single_gpu.inference_overhead_factor").value_or(1);
    // Files written before the term read as they were fitted: inference memory as in training.
    c.inferenceMemoryFactor = f.optionalPositive("single_gpu.inference_memory_factor").value_or(1.0);
    // Absent in files written before the term: all overhead GPU-independent, as they were fitted.
    c.latencyBoundOverheadFraction = f.optionalNonNegative("single_gpu.latency_bound_overhead_fraction").value_or(0);
    if (c.latencyBoundOverheadFraction > 1.0) {
        f.fail("single_gpu.latency_bound_overhead_fraction", "must be a share between 0 and 1");
    }
    c.int8EfficiencyWithoutFp8 = f.requirePositive("single_gpu.int8_efficiency_without_fp8");
    c.fp16WithoutTensorCoresAsFp32 = f.optionalBool("single_gpu.fp16_without_tensor_cores_as_fp32", true);
    c.syncLatency = f.optionalNonNegative("multi_gpu.sync_latency").value_or(0);
    // Absent in files written before the term: all synchronisation a fixed time, as they were fitted.
    c.stragglerFraction = f.optionalNonNegative("multi_gpu.straggler_fraction").value_or(0);
    c.decodeBandwidthEfficiency = f.requirePositive("llm.decode_bandwidth_efficiency");
    c.decodeOverheadMs = f.optionalNonNegative("llm.decode_overhead_ms").value_or(0);
    c.decodeBytesPerSmClock = f.optionalNonNegative("llm.decode_bytes_per_sm_clock").value_or(0);
    // Absent in files written before the term: extra GPUs of a layer split cost no time.
    c.decodeHopMs = f.optionalNonNegative("llm.decode_hop_ms").value_or(0);
    // Absent in files written before the term: the cache read at the weights' rate.
    c.decodeCacheReadShare = f.optionalPositive("llm.decode_cache_read_share").value_or(1.0);
    if (c.decodeCacheReadShare > 1.0) {
        f.fail("llm.decode_cache_read_share", "must be a share above 0 and at most 1");
    }
    c.prefillComputeEfficiency[0] = f.requirePositive("llm.prefill_compute_efficiency_16bit");
    c.prefillComputeEfficiency[1] = f.requirePositive("llm.prefill_compute_efficiency_quantized");
    // Files written before the overhead grew with the model hold a fixed time per token, fitted
    // on LLaMA 3 8B rows only: per billion parameters it is that time over 8.03 (same figures at 8B).
    const auto overheadPerBillion = [&](const std::string& variant) {
        const auto perToken = f.optionalNonNegative("llm.prefill_overhead_us_" + variant).value_or(0);
        return f.optionalNonNegative("llm.prefill_overhead_us_per_billion_params_" + variant)
            .value_or(perToken / kLlama3_8bParamsBillion);
    };
    c.prefillOverheadUsPerBillionParams = {overheadPerBillion("16bit"), overheadPerBillion("quantized")};
    c.prefillPowerClockExponent = f.optionalPositive("llm.prefill_power_clock_exponent").value_or(3.0);
    c.referenceComputeTflops = f.requirePositive("reference.compute_tflops");
    c.referenceBandwidthGbs = f.requirePositive("reference.bandwidth_gbs");
    c.referenceVectorTflops = f.requirePositive("reference.vector_tflops");
    c.referenceSmClockGhz = f.optionalPositive("reference.sm_clock_ghz").value_or(c.referenceSmClockGhz);
    return c;
}

ModelConstants ModelConstants::fromCalibrationText(std::string_view text, const std::string& fileLabel) {
    const auto doc = parseJsonDocument(text, fileLabel);
    if (!doc.is_object() || !doc.contains("constants") || !doc["constants"].is_object()) {
        throw InputError({fileLabel, 0, "constants", ""},
                         "not a calibration file: no \"constants\" object (write one with `gpu-advisor calibrate --out`)");
    }
    return fromJson(doc["constants"], fileLabel);
}

const ModelConstants& ModelConstants::builtin() {
    static const ModelConstants c = [] {
        const auto data = resources::find("perf/calibration.json");
        if (!data) {
            return ModelConstants{};
        }
        return fromCalibrationText(*data, "resources/perf/calibration.json");
    }();
    return c;
}

} // namespace advisor::perf
