#include "eval/full_load.h"

#include "calc/kv_cache.h"
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "common/text.h"
#include "eval/least_squares.h"
#include "eval/row_fields.h"
#include "eval/serving_fit.h"
#include "perf/sequences_that_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace advisor::eval {
namespace {

constexpr const char* kRunsResource = "perf/tensorrt-llm-1.0-full-load.csv";
constexpr const char* kLaterRunsResource = "perf/tensorrt-llm-later-full-load.csv";
constexpr const char* kNeverFittedRunsResource = "perf/tensorrt-llm-1.0-never-fitted.csv";
constexpr const char* kExpertSplitRunsResource = "perf/tensorrt-llm-later-expert-split.csv";
/// trtllm-bench's ceiling on the requests an engine runs at once (its max batch size, capped so
/// the decoder's buffers stay small): TensorRT-LLM 1.0, tensorrt_llm/bench/build/tuning.py.
constexpr int kBenchMaxRequests = 4096;

} // namespace

std::vector<FullLoadRun> readFullLoadRuns(std::string_view text, const std::string& fileLabel) {
    const csv::Table table = csv::read(text, fileLabel);
    const auto col = csv::columnsRequiring(
        table, fileLabel,
        {"gpu", "model", "gpus", "weights", "kv_cache", "input_tokens", "output_tokens", "output_tokens_per_s"});
    std::vector<InputProblem> problems;
    std::vector<FullLoadRun> out;
    for (const auto& r : table.rows) {
        const RowFields fields(table, col, r, fileLabel, problems);
        FullLoadRun run;
        readRunIdentity(fields, r.line, run);
        perf::PerfQuery& q = run.query;
        q.llmEngine = perf::LlmEngine::TensorRtLlm;
        readWeightsAndCache(fields, q);
        q.gpus = fields.whole("gpus", true, 1, 64).value_or(1);
        q.interconnect.pcieLanes = 16; // servers give each PCIe card 16 lanes, as the 0.9 fit takes them
        run.inputTokens = fields.whole("input_tokens", true, 1, 1000000).value_or(1);
        run.outputTokens = fields.whole("output_tokens", true, 1, 1000000).value_or(1);
        run.outputTokensPerSecond = fields.number("output_tokens_per_s", true, 1e8).value_or(1);
        if (const std::string split = fields.cell("split"); !split.empty()) {
            if (const auto parsed = perf::parseLlmSplit(text::toLower(split))) {
                q.llmSplit = *parsed;
            } else {
                fields.bad("split", "must be tensors, layers or experts, got " + text::quoteForMessage(split));
            }
        }
        // The cache each step reads on average: the prompt and half the answer.
        q.llmContextTokens = static_cast<int>(std::lround(run.inputTokens + run.outputTokens / 2.0));
        if (const calc::ModelShape* shape = calc::findModelShape(run.model)) {
            calc::applyModelShape(q, *shape);
            const calc::AttentionShape attention = calc::attentionShapeOf(*shape);
            run.promptAttentionFlops = calc::attentionFlopsPerPromptToken(attention, run.inputTokens);
            if (run.outputTokens >= 2) {
                // The answer's later tokens read the prompt and the answer so far (the first comes
                // with the prompt): the mean over them, which a chunked layer's reads need.
                q.llmKvCacheValues = calc::meanKvCacheValuesRead(attention, run.inputTokens + 1.0,
                                                                 run.inputTokens + run.outputTokens - 1.0);
            }
        } else {
            fields.bad("model", "must be a published model's id (gpu-advisor memory --help lists them), got " +
                                    text::quoteForMessage(run.model));
        }
        out.push_back(std::move(run));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

namespace {

std::vector<FullLoadRun> runsFromResource(const char* name) {
    return readFullLoadRuns(*resources::find(name), std::string("resources/") + name);
}

} // namespace

std::vector<FullLoadRun> builtinFullLoadRuns() {
    return runsFromResource(kRunsResource);
}

std::vector<FullLoadRun> builtinLaterFullLoadRuns() {
    return runsFromResource(kLaterRunsResource);
}

std::vector<FullLoadRun> builtinNeverFittedFullLoadRuns() {
    return runsFromResource(kNeverFittedRunsResource);
}

std::vector<FullLoadRun> builtinExpertSplitFullLoadRuns() {
    return runsFromResource(kExpertSplitRunsResource);
}

bool splitByLayers(const FullLoadRun& run) {
    return run.query.gpus > 1 && run.query.llmSplit == perf::LlmSplit::Layers;
}

bool splitByExperts(const FullLoadRun& run) {
    return run.mixtureOfExperts() && run.query.gpus > 1 && run.query.llmSplit == perf::LlmSplit::Experts;
}

int fullLoadSequences(const Gpu& g, const FullLoadRun& run) {
    // TensorRT-LLM's default scheduler (GUARANTEED_NO_EVICT) admits a request only when the cache
    // has room for all of it, its prompt and its whole answer, so that none is ever paused: the
    // requests at once are those whose whole length fits, not their mean context.
    const calc::ModelShape* shape = calc::findModelShape(run.model);
    if (shape == nullptr) {
        throw std::invalid_argument("full-load run of an unknown model: " + run.model);
    }
    perf::PerfQuery whole = run.query;
    whole.llmContextTokens = run.inputTokens + run.outputTokens;
    calc::applyModelShape(whole, *shape);
    return std::clamp(perf::llmSequencesThatFit(g, whole), 1, kBenchMaxRequests);
}

double fullLoadErrorPct(const perf::PerfModel& model, const Gpu& g, const FullLoadRun& run,
                        const perf::ServingConstants& k) {
    return 100.0 * (predictFullLoad(model, g, run, k) / run.outputTokensPerSecond - 1.0);
}

double predictFullLoad(const perf::PerfModel& model, const Gpu& g, const FullLoadRun& run,
                       const perf::ServingConstants& k) {
    ServingRun served;
    served.query = run.query;
    served.query.llmSequences = fullLoadSequences(g, run);
    served.inputTokens = run.inputTokens;
    served.outputTokens = run.outputTokens;
    served.promptAttentionFlops = run.promptAttentionFlops;
    return predictServingRun(model, g, served, k) * std::max(1, run.query.gpus);
}

namespace {

struct FittedRow {
    const FullLoadRun* run = nullptr;
    const Gpu* gpu = nullptr;
    size_t index = 0; // in the runs
};

using Member = double perf::ServingConstants::*;

// The value of `member` in [lower, upper] that minimises the squared log errors of `rows`.
double fitOne(const perf::PerfModel& model, const std::vector<const FittedRow*>& rows, Member member, double lower,
              double upper) {
    LeastSquaresProblem problem;
    problem.parameters = 1;
    problem.lower = {lower};
    problem.upper = {upper};
    problem.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        perf::ServingConstants k;
        k.*member = x[0];
        r.clear();
        for (const auto* p : rows) {
            r.push_back(std::log(predictFullLoad(model, *p->gpu, *p->run, k) / p->run->outputTokensPerSecond));
        }
    };
    return solveLeastSquaresFromStarts(problem, {{lower + 0.2 * (upper - lower)}, {lower + 0.8 * (upper - lower)}})
        .x[0];
}

// Fits `member` on all `rows`, then again without each group's rows (as `groupOf` names it) to
// predict that group's: the held-out errors go to heldOutPct at each row's index.
template <typename GroupOf>
double fitWithGroupsHeldOut(const perf::PerfModel& model, const std::vector<FittedRow>& rows, Member member,
                            double lower, double upper, const GroupOf& groupOf,
                            std::vector<std::optional<double>>& heldOutPct) {
    std::vector<const FittedRow*> all;
    for (const auto& r : rows) {
        all.push_back(&r);
    }
    const double fitted = fitOne(model, all, member, lower, upper);
    std::map<decltype(groupOf(rows.front())), double> without; // each group's value, fitted once on the others
    for (const auto& heldOut : rows) {
        const auto group = groupOf(heldOut);
        if (!without.contains(group)) {
            std::vector<const FittedRow*> others;
            for (const auto& r : rows) {
                if (groupOf(r) != group) {
                    others.push_back(&r);
                }
            }
            if (others.empty()) {
                continue; // one group alone: nothing to fit it on
            }
            without[group] = fitOne(model, others, member, lower, upper);
        }
        perf::ServingConstants k;
        k.*member = without.at(group);
        heldOutPct[heldOut.index] = fullLoadErrorPct(model, *heldOut.gpu, *heldOut.run, k);
    }
    return fitted;
}

} // namespace

FullLoadFit fitFullLoad(const perf::PerfModel& model, const Catalog& catalog, const std::vector<FullLoadRun>& runs) {
    FullLoadFit fit;
    fit.heldOutPct.resize(runs.size());
    std::vector<FittedRow> fp4, pipeline;
    for (size_t i = 0; i < runs.size(); ++i) {
        const Gpu& g = catalog.require(runs[i].gpu, "a full-load run's gpu");
        fit.predictedTokensPerSecond.push_back(predictFullLoad(model, g, runs[i]));
        fit.errorsPct.push_back(100.0 * (fit.predictedTokensPerSecond.back() / runs[i].outputTokensPerSecond - 1.0));
        if (splitByLayers(runs[i])) {
            pipeline.push_back({&runs[i], &g, i});
        } else if (runs[i].query.llmWeights == perf::Precision::Fp4) {
            fp4.push_back({&runs[i], &g, i});
        }
    }
    if (!fp4.empty()) {
        fit.fp4RateShare = fitWithGroupsHeldOut(
            model, fp4, &perf::ServingConstants::fp4RateShare, 0.05, 1.0, [](const FittedRow& r) { return r.gpu; },
            fit.heldOutPct);
    }
    if (!pipeline.empty()) {
        fit.pipelineHandOverMs = fitWithGroupsHeldOut(
            model, pipeline, &perf::ServingConstants::pipelineHandOverMs, 0.0, 5.0,
            [](const FittedRow& r) { return r.run->query.gpus; }, fit.heldOutPct);
    }
    return fit;
}

RoutedShareFit fitRoutedMatmulShare(const perf::PerfModel& model, const Catalog& catalog,
                                    const std::vector<FullLoadRun>& runs) {
    RoutedShareFit fit;
    fit.heldOutPct.resize(runs.size());
    std::vector<FittedRow> rows;
    for (size_t i = 0; i < runs.size(); ++i) {
        const Gpu& g = catalog.require(runs[i].gpu, "a full-load run's gpu");
        if (runs[i].mixtureOfExperts() && g.warpgroupMma && !splitByLayers(runs[i])) {
            rows.push_back({&runs[i], &g, i});
        }
    }
    if (!rows.empty()) {
        fit.share = fitWithGroupsHeldOut(
            model, rows, &perf::ServingConstants::routedMatmulShare, 0.05, 1.0,
            [](const FittedRow& r) { return r.run->model; }, fit.heldOutPct);
    }
    return fit;
}

ExpertExchangeFit fitExpertExchange(const perf::PerfModel& model, const Catalog& catalog,
                                    const std::vector<FullLoadRun>& runs) {
    ExpertExchangeFit fit;
    fit.heldOutPct.resize(runs.size());
    std::vector<FittedRow> rows;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (splitByExperts(runs[i])) {
            rows.push_back({&runs[i], &catalog.require(runs[i].gpu, "a full-load run's gpu"), i});
        }
    }
    if (!rows.empty()) {
        fit.allReduces = fitWithGroupsHeldOut(
            model, rows, &perf::ServingConstants::expertExchangeAllReduces, 0.0, 8.0,
            [](const FittedRow& r) { return r.run->model; }, fit.heldOutPct);
    }
    return fit;
}

std::vector<double> mixtureOfExpertsHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                                  const std::vector<FullLoadRun>& later,
                                                  const std::vector<FullLoadRun>& neverFitted) {
    const auto shippedErrorPct = [&](const FullLoadRun& r) {
        return fullLoadErrorPct(model, catalog.require(r.gpu, "a full-load run's gpu"), r);
    };
    std::vector<double> errors;
    const RoutedShareFit fit = fitRoutedMatmulShare(model, catalog, later);
    for (size_t i = 0; i < later.size(); ++i) {
        if (later[i].mixtureOfExperts() && !splitByExperts(later[i])) {
            errors.push_back(std::fabs(fit.heldOutPct[i] ? *fit.heldOutPct[i] : shippedErrorPct(later[i])));
        }
    }
    for (const auto& r : neverFitted) {
        if (r.mixtureOfExperts() && !splitByExperts(r)) {
            errors.push_back(std::fabs(shippedErrorPct(r)));
        }
    }
    return errors;
}

std::vector<double> expertSplitHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                             const std::vector<FullLoadRun>& expertSplit,
                                             const std::vector<FullLoadRun>& neverFitted) {
    return expertSplitHeldOutErrors(model, catalog, fitExpertExchange(model, catalog, expertSplit), neverFitted);
}

std::vector<double> expertSplitHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                             const ExpertExchangeFit& fit,
                                             const std::vector<FullLoadRun>& neverFitted) {
    std::vector<double> errors;
    for (const auto& heldOut : fit.heldOutPct) {
        if (heldOut) {
            errors.push_back(std::fabs(*heldOut));
        }
    }
    for (const auto& r : neverFitted) {
        if (splitByExperts(r)) {
            errors.push_back(std::fabs(fullLoadErrorPct(model, catalog.require(r.gpu, "a full-load run's gpu"), r)));
        }
    }
    return errors;
}

} // namespace advisor::eval
