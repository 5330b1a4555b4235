// `gpu-advisor eval-offload`: token generation with part of a model in system RAM, predicted
// against llama.cpp runs, and the offload constants fitted again on them.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "cli/table.h"
#include "common/file_io.h"
#include "common/format.h"
#include "eval/offload_fit.h"
#include "eval/row_fields.h"
#include "eval/stats.h"
#include "perf/llm_offload.h"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json errorsJson(const std::vector<double>& errorsPct) {
    return {{"median_abs_error_pct", eval::median(errorsPct)},
            {"max_abs_error_pct", errorsPct.empty() ? 0.0 : *std::max_element(errorsPct.begin(), errorsPct.end())}};
}

std::string placementOf(const perf::PerfQuery& q) {
    return q.llmCpuMoeLayers ? "--n-cpu-moe " + std::to_string(*q.llmCpuMoeLayers)
                             : "-ngl " + std::to_string(q.llmGpuLayers.value_or(0));
}

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const auto file = args.value("runs");
    const auto runs = file ? eval::readOffloadRuns(files::readAll(*file), *file) : eval::builtinOffloadRuns();
    eval::requireRunGpus(ctx.catalog(), runs, file.value_or("the built-in offload runs"));
    const perf::PerfModel model(ctx.catalog(), modelConstants(args));
    const eval::OffloadConstantsFit fit = eval::fitOffloadConstants(runs, ctx.catalog(), model);
    std::vector<double> shippedErrors;
    nlohmann::json rows = nlohmann::json::array();
    TextTable t({"GPU", "MODEL", "PLACEMENT", "RAM GB/s", "MEASURED", "PREDICTED", "ERROR", "LEFT OUT"});
    for (const size_t c : {3u, 4u, 5u, 6u, 7u}) {
        t.setRightAligned(c);
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        const double predicted = model.throughput(ctx.catalog().require(r.gpu, "gpu"), r.query);
        const double errorPct = 100.0 * (predicted / r.tokensPerSecond - 1.0);
        shippedErrors.push_back(std::fabs(errorPct));
        rows.push_back({{"line", r.line},
                        {"gpu", r.gpu},
                        {"model", r.model},
                        {"placement", placementOf(r.query)},
                        {"system_ram_gbs", *r.query.systemRamGbs},
                        {"measured_tokens_per_s", r.tokensPerSecond},
                        {"predicted_tokens_per_s", predicted},
                        {"error_pct", errorPct},
                        {"leave_one_out_abs_error_pct", fit.leaveOneOutErrorsPct[i]}});
        t.addRow({r.gpu, r.model, placementOf(r.query), format::number(*r.query.systemRamGbs, 1),
                  format::number(r.tokensPerSecond, 1), format::number(predicted, 1), format::number(errorPct, 1) + "%",
                  format::number(fit.leaveOneOutErrorsPct[i], 1) + "%"});
    }
    if (ctx.json()) {
        ctx.printJson({{"rows", rows},
                       {"shipped",
                        {{"ram_read_efficiency", perf::kRamReadEfficiency},
                         {"cpu_layer_ms", perf::kCpuLayerMs},
                         {"errors", errorsJson(shippedErrors)}}},
                       {"fitted",
                        {{"ram_read_efficiency", fit.ramReadEfficiency},
                         {"cpu_layer_ms", fit.cpuLayerMs},
                         {"errors", errorsJson(fit.errorsPct)},
                         {"leave_one_out_errors", errorsJson(fit.leaveOneOutErrorsPct)}}}});
        return 0;
    }
    t.print(ctx.out());
    const auto summary = [&](const std::vector<double>& e) {
        return "median |error| " + format::number(eval::median(e), 1) + "%, largest " +
               format::number(*std::max_element(e.begin(), e.end()), 1) + "%";
    };
    ctx.out() << "\nshipped constants (" << format::percent(perf::kRamReadEfficiency, 1) << " of the RAM's bandwidth, "
              << format::number(perf::kCpuLayerMs, 2) << " ms per CPU layer): " << summary(shippedErrors) << '\n'
              << "fitted on these runs (" << format::percent(fit.ramReadEfficiency, 1) << ", "
              << format::number(fit.cpuLayerMs, 2) << " ms): " << summary(fit.errorsPct) << '\n'
              << "each run predicted by constants fitted without it (LEFT OUT): " << summary(fit.leaveOneOutErrorsPct)
              << '\n';
    return 0;
}

} // namespace

Command evalOffloadCommand() {
    return {"eval-offload", "token generation with part of a model in system RAM, against measured runs",
            "Usage: gpu-advisor eval-offload [--runs FILE.csv] [--constants calibration.json]\n\n"
            "Predicts llama.cpp runs that left layers (-ngl) or a mixture of experts' routed experts\n"
            "(--n-cpu-moe) in system RAM, from the GPU's side of the model and two constants: the share\n"
            "of the RAM's nominal bandwidth the CPU draws reading its part, and a fixed time per layer it\n"
            "runs for each token. Shows each run's error with the shipped constants, fits the two again on\n"
            "the runs (a grid), and predicts each run with constants fitted without it. --runs reads\n"
            "another file of the same columns (default resources/perf/llamacpp-partial-offload-2026.csv):\n"
            "  gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,vocab,\n"
            "  hidden,bits_per_weight,gpu_layers,cpu_moe_layers,system_ram_gbs,tokens_per_s,source\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return run(ctx, Args::parse(rest, {{"runs"}, {"constants"}}));
            }};
}

} // namespace advisor::cli
