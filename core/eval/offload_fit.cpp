#include "eval/offload_fit.h"

#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "common/text.h"
#include "eval/row_fields.h"
#include "perf/llm_offload.h"

#include <cmath>
#include <limits>

namespace advisor::eval {
namespace {

constexpr const char* kRunsResource = "perf/llamacpp-partial-offload-2026.csv";

// A run's split and the GPU's side of its time, which the constants do not change: the model's
// time per token (one sequence, one GPU) less its CPU time with the shipped constants.
struct Prepared {
    perf::OffloadSplit split;
    double ramGbs = 0;
    double gpuSeconds = 0;
    double measured = 0;

    double predicted(double efficiency, double layerMs) const {
        return 1.0 / (gpuSeconds + perf::cpuSecondsPerStep(split, ramGbs, efficiency, layerMs));
    }
    double errorPct(double efficiency, double layerMs) const {
        return 100.0 * std::fabs(predicted(efficiency, layerMs) / measured - 1.0);
    }
};

struct Best {
    double efficiency = 0, layerMs = 0;
};

// The grid's best constants on every run but `leftOut`.
Best fitOn(const std::vector<Prepared>& runs, size_t leftOut) {
    Best best;
    double bestSum = std::numeric_limits<double>::infinity();
    for (int e = 200; e <= 900; e += 5) {
        for (int ms = 0; ms <= 150; ++ms) {
            double sum = 0;
            for (size_t i = 0; i < runs.size(); ++i) {
                sum += i == leftOut ? 0.0 : runs[i].errorPct(e / 1000.0, ms / 100.0);
            }
            if (sum < bestSum - 1e-9) {
                bestSum = sum;
                best = {e / 1000.0, ms / 100.0};
            }
        }
    }
    return best;
}

} // namespace

std::vector<OffloadRun> readOffloadRuns(std::string_view textIn, const std::string& fileLabel) {
    const csv::Table table = csv::read(textIn, fileLabel);
    const auto col = csv::columnsRequiring(table, fileLabel,
                                           {"gpu", "model", "params_billion", "active_params_billion", "experts",
                                            "experts_per_token", "layers", "vocab", "hidden", "bits_per_weight",
                                            "gpu_layers", "cpu_moe_layers", "system_ram_gbs", "tokens_per_s"});
    std::vector<InputProblem> problems;
    std::vector<OffloadRun> out;
    for (const auto& r : table.rows) {
        const RowFields fields(table, col, r, fileLabel, problems);
        OffloadRun run;
        readRunStart(fields, r.line, run);
        perf::PerfQuery& q = run.query;
        const auto experts = fields.whole("experts", false, 2, 100000);
        const auto perToken = fields.whole("experts_per_token", false, 1, 100000);
        if (experts.has_value() != perToken.has_value() || (experts && *perToken >= *experts)) {
            fields.bad("experts_per_token",
                       "give experts and experts_per_token together, fewer per token than experts");
        } else if (experts && q.llmActiveParamsBillion <= 0) {
            fields.bad("active_params_billion", "a mixture of experts gives its active parameters");
        } else if (experts && q.llmActiveParamsBillion * *experts < *perToken * q.llmParamsBillion) {
            fields.bad("experts_per_token", "more than the active parameters hold: active_params_billion is less than "
                                            "experts_per_token / experts of params_billion");
        } else if (experts) {
            q.llmExperts = *experts;
            q.llmExpertsPerToken = *perToken;
        }
        q.llmLayers = fields.whole("layers", true, 1, 1000).value_or(1);
        const auto vocab = fields.whole("vocab", false, 256, 10000000);
        const auto hidden = fields.whole("hidden", vocab.has_value(), 128, 1000000);
        if (vocab && hidden) {
            q.llmOutputHeadParamsBillion = static_cast<double>(*vocab) * *hidden / 1e9;
        }
        q.llmWeightBits = fields.number("bits_per_weight", true, 32);
        q.llmGpuLayers = fields.whole("gpu_layers", false, 0, q.llmLayers + 1);
        q.llmCpuMoeLayers = fields.whole("cpu_moe_layers", false, 0, q.llmLayers);
        if (q.llmGpuLayers.has_value() == q.llmCpuMoeLayers.has_value()) {
            fields.bad("gpu_layers",
                       "give gpu_layers (a dense model's -ngl) or cpu_moe_layers (--n-cpu-moe), one of them");
        } else if (q.llmCpuMoeLayers && q.llmExperts == 0) {
            fields.bad("cpu_moe_layers",
                       "only a mixture of experts (experts, experts_per_token) leaves experts in RAM");
        }
        q.systemRamGbs = fields.number("system_ram_gbs", true, perf::kMaxSystemRamGbs);
        run.tokensPerSecond = fields.number("tokens_per_s", true, 1e6).value_or(1);
        out.push_back(std::move(run));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<OffloadRun> builtinOffloadRuns() {
    return readOffloadRuns(*resources::find(kRunsResource), std::string("resources/") + kRunsResource);
}

OffloadConstantsFit fitOffloadConstants(const std::vector<OffloadRun>& runs, const Catalog& catalog,
                                        const perf::PerfModel& model) {
    std::vector<Prepared> prepared;
    for (const auto& r : runs) {
        const Gpu& g = catalog.require(r.gpu, "an offload run's gpu");
        Prepared p;
        p.split = perf::planOffload(g, r.query);
        p.ramGbs = r.query.systemRamGbs.value_or(perf::kDefaultSystemRamGbs);
        p.gpuSeconds = 1.0 / model.throughput(g, r.query) - perf::cpuSecondsPerStep(p.split, p.ramGbs);
        p.measured = r.tokensPerSecond;
        prepared.push_back(p);
    }
    OffloadConstantsFit fit;
    const Best all = fitOn(prepared, prepared.size());
    fit.ramReadEfficiency = all.efficiency;
    fit.cpuLayerMs = all.layerMs;
    for (size_t i = 0; i < prepared.size(); ++i) {
        fit.errorsPct.push_back(prepared[i].errorPct(all.efficiency, all.layerMs));
        const Best without = fitOn(prepared, i);
        fit.leaveOneOutErrorsPct.push_back(prepared[i].errorPct(without.efficiency, without.layerMs));
    }
    return fit;
}

} // namespace advisor::eval
