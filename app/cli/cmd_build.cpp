// `gpu-advisor build`: check a multi-GPU build.
#include "calc/build_check.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "common/format.h"

#include <ostream>

namespace advisor::cli {
namespace {

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    calc::BuildInput in;
    in.gpu = &ctx.catalog().require(args.required("gpu"), "--gpu");
    in.count = gpuCount(args, 16).value_or(1);
    if (const auto extra = args.value("extra-gpu")) {
        in.extraGpu = &ctx.catalog().require(*extra, "--extra-gpu");
    }
    in.extraCount = args.integer("extra-count", 1, 15).value_or(in.extraGpu != nullptr ? 1 : 0);
    in.pcieLanesPerGpu = args.integer("pcie-lanes", 1, 16).value_or(0);
    in.slotSpacing = args.integer("slot-spacing", 1, 6).value_or(0);
    in.blowerOrWaterCooled = args.has("blower") || args.has("water");
    in.extenders = args.has("extenders");
    in.cpuThreads = args.integer("cpu-threads", 1, 1024);
    in.ramGb = args.number("ram-gb");
    in.machines = args.integer("machines", 1, 10000).value_or(1);
    in.networkGbps = args.number("network-gbps");
    in.cpuWatts = args.number("cpu-watts").value_or(ctx.settings().cpuWatts);
    in.powerLimitWatts = args.number("limit-watts");
    in.psuWatts = args.number("psu-watts");
    const auto reference = args.value("reference");
    in.reference = reference ? &ctx.catalog().require(*reference, "--reference")
                             : ctx.catalog().findById(ctx.settings().referenceGpu);
    const perf::PerfModel model(ctx.catalog());
    const auto r = calc::checkBuild(in, model);
    int critical = 0;
    for (const auto& f : r.findings) {
        critical += f.severity == calc::Severity::Critical ? 1 : 0;
    }
    if (ctx.json()) {
        nlohmann::json findings = nlohmann::json::array();
        for (const auto& f : r.findings) {
            findings.push_back({{"severity", calc::toString(f.severity)},
                                {"topic", f.topic},
                                {"message", f.message},
                                {"reason", f.reason}});
        }
        ctx.printJson({{"gpu", in.gpu->name},
                       {"count", in.count},
                       {"findings", findings},
                       {"critical", critical},
                       {"recommended_psu_watts", r.psu.recommendedPsuWatts},
                       {"throughput", r.throughput},
                       {"efficiency", r.efficiency},
                       {"power_limit_factor", r.powerLimitFactor},
                       {"mixed_pacing_loss", r.mixedPacingLoss},
                       {"reference", in.reference != nullptr ? nlohmann::json(in.reference->name) : nlohmann::json()},
                       {"speed_vs_reference", r.referenceThroughput > 0
                                                  ? nlohmann::json(r.throughput / r.referenceThroughput)
                                                  : nlohmann::json()}});
        return 0;
    }
    ctx.out() << in.count << " x " << in.gpu->name
              << (in.extraGpu ? " + " + std::to_string(in.extraCount) + " x " + in.extraGpu->name : "") << '\n';
    for (const auto& f : r.findings) {
        ctx.out() << "[" << calc::toString(f.severity) << "] " << f.topic << ": " << f.message << "\n    why: "
                  << f.reason << '\n';
    }
    ctx.out() << "Modelled speed: " << calc::describeSpeed(in, r) << '\n';
    return 0;
}

} // namespace

Command buildCommand() {
    return {"build", "check a (multi-)GPU build: fit, cooling, PCIe, CPU, RAM, power, network",
            "Usage: gpu-advisor build --gpu NAME [--count N | --gpus N] [--extra-gpu NAME --extra-count M]\n"
            "                         [--pcie-lanes L] [--slot-spacing S] [--blower|--water] [--extenders]\n"
            "                         [--cpu-threads T] [--ram-gb R] [--cpu-watts W] [--limit-watts W]\n"
            "                         [--psu-watts W] [--machines M] [--network-gbps G] [--reference GPU]\n\n"
            "Each finding has a severity (critical, warning, info) and the reason from the seed or the\n"
            "hardware guide. --cpu-watts defaults to your cpu_watts setting, as in the window.\n"
            "The modelled speed is fp16 transformer training of one machine: all its GPUs in one\n"
            "data-parallel job, paced by the slowest, at the power limit; against one --reference\n"
            "GPU (default: your reference_gpu setting). JSON: throughput in model units (one V100\n"
            "SXM2 = 1) and speed_vs_reference.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return run(ctx, Args::parse(rest, {{"gpu"},           {"count"},        {"gpus"},         {"extra-gpu"},
                                                   {"extra-count"},   {"pcie-lanes"},   {"slot-spacing"},
                                                   {"blower", false}, {"water", false}, {"extenders", false},
                                                   {"cpu-threads"},   {"ram-gb"},       {"machines"},
                                                   {"network-gbps"},  {"cpu-watts"},    {"limit-watts"},
                                                   {"psu-watts"},     {"reference"}}));
            }};
}

} // namespace advisor::cli
