// `gpu-advisor gpus list|show`: the catalog.
#include "catalog/gpu_json.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/table.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/model.h"

#include <algorithm>
#include <optional>
#include <ostream>

namespace advisor::cli {
namespace {

std::string optionalNumber(const std::optional<double>& v, int decimals = 1) {
    return v ? format::number(*v, decimals) : "-";
}

int list(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const auto minMemory = args.number("min-memory", 0, 100000);
    std::optional<std::string> vendor;
    if (const auto v = args.value("vendor")) {
        vendor = ctx.catalog().requireVendor(*v, "--vendor");
    }
    // A form as the catalog writes it; "sxm" takes every SXM generation.
    std::optional<std::string> form;
    if (const auto f = args.value("form")) {
        static const std::vector<std::string> forms = {"pcie", "sxm", "oam", "superchip", "system"};
        form = text::toLower(*f);
        if (std::find(forms.begin(), forms.end(), *form) == forms.end()) {
            throw InputError({"--form", 0, "", ""}, "unknown form '" + *f + "'; forms: " + text::join(forms, ", "));
        }
    }
    std::vector<const Gpu*> shown;
    for (const auto& g : ctx.catalog().gpus()) {
        if (minMemory && g.memoryGb < *minMemory) {
            continue;
        }
        if (vendor && g.vendor != *vendor) {
            continue;
        }
        if (form && !text::startsWith(g.formCode, *form)) {
            continue;
        }
        shown.push_back(&g);
    }
    if (ctx.json()) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto* g : shown) {
            list.push_back(gpuToJson(*g));
        }
        ctx.printJson({{"count", shown.size()}, {"gpus", list}});
        return 0;
    }
    TextTable t({"ID", "NAME", "ARCHITECTURE", "MEMORY", "BANDWIDTH GB/s", "FP16 TFLOPS", "TDP W", "LAUNCH MSRP"});
    for (const size_t c : {3u, 4u, 5u, 6u, 7u}) {
        t.setRightAligned(c);
    }
    for (const auto* g : shown) {
        t.addRow({g->id, g->name, g->architecture, format::gigabytes(g->memoryGb),
                  format::number(g->memoryBandwidthGbs, 0), optionalNumber(g->tensor.fp16Fp32Acc),
                  format::number(g->tdpW, 0), g->launchMsrpUsd ? format::money(*g->launchMsrpUsd) : "-"});
    }
    t.print(ctx.out());
    ctx.out() << format::count(static_cast<long long>(shown.size()), "GPU") << '\n';
    return 0;
}

int show(Context& ctx, const Args& args) {
    args.expectPositionals(1, "a GPU name (e.g. 'RTX 4090')");
    const Gpu& g = ctx.catalog().require(args.positionals().front());
    if (ctx.json()) {
        ctx.printJson(gpuToJson(g));
        return 0;
    }
    auto& o = ctx.out();
    const auto line = [&](const std::string& k, const std::string& v) { o << k << ": " << v << '\n'; };
    line("Name", g.name + (g.custom ? " (your GPU)" : ""));
    line("Id", g.id);
    line("Vendor", g.vendor + (g.brand.empty() ? "" : " " + g.brand) + " (" + toString(g.segment) + ")");
    line("Architecture", g.architecture + (g.chip.empty() ? "" : " (" + g.chip + ")"));
    line("Launch", std::to_string(g.launchYear) +
                       (g.launchMsrpUsd ? ", " + format::money(*g.launchMsrpUsd) + " MSRP" : ""));
    line("Memory", format::gigabytes(g.memoryGb) + " " + g.memoryType + ", " +
                       format::number(g.memoryBandwidthGbs, 0) + " GB/s");
    line("Compute", (g.computeUnits ? std::to_string(*g.computeUnits) + " " + g.computeUnitName + ", " : "") +
                        "FP32 " + optionalNumber(g.fp32Tflops) + " TFLOPS");
    line("Tensor cores", g.tensorCoreGeneration);
    line("Tensor TFLOPS (dense)",
         "FP16/FP32acc " + optionalNumber(g.tensor.fp16Fp32Acc) + ", FP16/FP16acc " +
             optionalNumber(g.tensor.fp16Fp16Acc) + ", BF16 " + optionalNumber(g.tensor.bf16) + ", TF32 " +
             optionalNumber(g.tensor.tf32) + ", FP8 " + optionalNumber(g.tensor.fp8) + ", INT8 " +
             optionalNumber(g.tensor.int8) + " TOPS, FP4 " + optionalNumber(g.tensor.fp4));
    line("Cache", (g.l2CacheMb ? "L2 " + optionalNumber(g.l2CacheMb) + " MB" : std::string("L2 not published")) +
                      ", shared memory " +
                      optionalNumber(g.sharedMemPerSmKb, 0) + " KB per SM");
    line("Power", format::number(g.tdpW, 0) + " W" +
                      (g.connectors.label.empty() ? "" : ", " + g.connectors.label));
    line("Board",
         g.formLabel + (g.slotWidth ? ", " + std::to_string(*g.slotWidth) + "-slot" : "") +
             (g.isCompleteSystem() ? std::string()
                                   : ", PCIe " + std::to_string(g.pcieGen) + ".0 x" + std::to_string(g.pcieLanes)));
    line("Interconnect", g.interconnectLabel.empty() ? toString(g.interconnect) : g.interconnectLabel);
    if (!g.aliases.empty()) {
        line("Also known as", text::join(g.aliases, ", "));
    }
    if (!g.confidence.empty()) {
        line("Data confidence", g.confidence + (g.derivedFields.empty() ? "" : "; derived: " + g.derivedFields));
    }
    if (!g.notes.empty()) {
        line("Notes", g.notes);
    }
    if (!g.notAClockAnchor.empty()) {
        line("Not a clock anchor", g.notAClockAnchor);
    }
    for (const auto& [metric, said] : g.modelChecks) {
        line("Measured (" + metric + ")", said);
    }
    for (const auto& s : g.sources) {
        line("Source", s);
    }
    // What the performance model fills in or assumes for this GPU, as 'perf' notes it.
    for (const auto& n : perf::PerfModel(ctx.catalog()).specs(g).notes) {
        line("Model assumes", n);
    }
    return 0;
}

} // namespace

Command gpusCommand() {
    return {"gpus", "list the GPU catalog or show one GPU",
            "Usage: gpu-advisor gpus list [--min-memory GB] [--vendor NVIDIA|AMD|Intel]\n"
            "                             [--form pcie|sxm|oam|superchip|system]\n"
            "       gpu-advisor gpus show NAME\n\n"
            "NAME may be a name, alias or id; case, spaces, punctuation and brand words\n"
            "(NVIDIA, GeForce, Tesla, Quadro, AMD, Radeon, Instinct) do not matter, and memory\n"
            "size or form ('80GB', 'SXM5', 'PCIe') select a variant. Ambiguous names are reported,\n"
            "except where an alias keeps the card a name always meant: 'RTX 3080' is the 10 GB card,\n"
            "'RTX 4060 Ti' and 'RTX 5060 Ti' the 16 GB ones (add '12GB' or '8GB' for the others).\n"
            "A trailing S after a GeForce number is Super ('RTX 4080S').\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                if (rest.empty()) {
                    throw UsageError("missing subcommand: list or show");
                }
                const std::string sub = rest.front();
                const std::vector<std::string> tail(rest.begin() + 1, rest.end());
                if (sub == "list") {
                    return list(ctx, Args::parse(tail, {{"min-memory"}, {"vendor"}, {"form"}}));
                }
                if (sub == "show") {
                    return show(ctx, Args::parse(tail, {}));
                }
                throw UsageError("unknown subcommand '" + sub + "'; use list or show");
            }};
}

} // namespace advisor::cli
