#include "eval/serving_fit.h"

#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "eval/least_squares.h"
#include "eval/row_fields.h"

#include <cmath>
#include <set>

namespace advisor::eval {
namespace {

constexpr const char* kRunsResource = "perf/tensorrt-llm-0.9-throughput.csv";

struct Prepared {
    const ServingRun* run = nullptr;
    const Gpu* gpu = nullptr;
    bool tensorParallel = false;
};

double logError(const perf::PerfModel& model, const Prepared& p, const perf::ServingConstants& k) {
    return std::log(predictServingRun(model, *p.gpu, *p.run, k) / p.run->tokensPerSecondPerGpu);
}

// The matmul efficiency and time per doubling on the single-GPU rows in `rows`, then the link's
// efficiency and the all-reduce's latency on the tensor-parallel ones.
using Member = double perf::ServingConstants::*;

// Sets `members` of k to what minimises the squared log errors of `rows` (the others as in k): the
// best of a grid of starts, since a fit without one architecture can have more than one minimum.
void solveFor(const perf::PerfModel& model, const std::vector<const Prepared*>& rows, perf::ServingConstants& k,
              const std::vector<Member>& members, const std::vector<std::vector<double>>& startValues,
              std::vector<double> lower, std::vector<double> upper) {
    if (rows.empty()) {
        return;
    }
    LeastSquaresProblem problem;
    problem.parameters = members.size();
    problem.lower = std::move(lower);
    problem.upper = std::move(upper);
    problem.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        perf::ServingConstants trial = k;
        for (size_t i = 0; i < members.size(); ++i) {
            trial.*members[i] = x[i];
        }
        r.clear();
        for (const auto* p : rows) {
            r.push_back(logError(model, *p, trial));
        }
    };
    // Every combination of each member's start values.
    std::vector<std::vector<double>> starts{{}};
    for (const auto& values : startValues) {
        std::vector<std::vector<double>> longer;
        for (const auto& s : starts) {
            for (const double v : values) {
                longer.push_back(s);
                longer.back().push_back(v);
            }
        }
        starts = std::move(longer);
    }
    const auto result = solveLeastSquaresFromStarts(problem, starts);
    for (size_t i = 0; i < members.size(); ++i) {
        k.*members[i] = result.x[i];
    }
}

// The matmul efficiency, the time per doubling and the attention rate on the single-GPU rows in
// `rows`, then the link's efficiency and the all-reduce's latency on the tensor-parallel ones. No
// fit starts from the shipped constants, so that reproducing them says something.
perf::ServingConstants fitOn(const perf::PerfModel& model, const std::vector<const Prepared*>& rows) {
    std::vector<const Prepared*> single, parallel;
    for (const auto* p : rows) {
        (p->tensorParallel ? parallel : single).push_back(p);
    }
    perf::ServingConstants k;
    using C = perf::ServingConstants;
    solveFor(model, single, k, {&C::matmulEfficiency, &C::stepMsPerDoubling, &C::attentionEfficiency},
             {{0.3, 0.6, 0.9}, {0.3, 1.5}, {0.1, 0.4, 1.5}}, {0.05, 0.0, 0.001}, {1.0, 10.0, 5.0});
    solveFor(model, parallel, k, {&C::linkEfficiency, &C::allReduceUs}, {{0.3, 0.8}, {5.0, 50.0, 200.0}}, {0.05, 0.0},
             {1.0, 1000.0});
    return k;
}

} // namespace

int readServedModel(const RowFields& fields, perf::PerfQuery& q) {
    q.llmEngine = perf::LlmEngine::TensorRtLlm;
    // The tables' runs ran decode attention on the CUDA cores: their engines were built without the
    // paged KV cache, which 0.9's XQA kernel needed (experiments round 78).
    q.llmDecodeAttention = perf::DecodeAttention::CudaCores;
    const auto experts = fields.whole("experts", false, 2, 100000);
    const auto perToken = fields.whole("experts_per_token", false, 1, 100000);
    if (experts.has_value() != perToken.has_value() || (experts && *perToken >= *experts) ||
        experts.has_value() != (q.llmActiveParamsBillion > 0)) {
        fields.bad("experts_per_token", "a mixture of experts gives experts, experts_per_token (fewer) and "
                                        "active_params_billion together; a dense model none of them");
    } else if (experts) {
        q.llmExperts = *experts;
        q.llmExpertsPerToken = *perToken;
    }
    q.llmLayers = fields.whole("layers", true, 1, 1000).value_or(1);
    q.llmHidden = fields.whole("hidden", true, 64, 1000000);
    const int kvValuesPerToken = fields.whole("kv_values_per_token", true, 1, 100000000).value_or(1);
    readWeightsAndCache(fields, q);
    q.llmWeightBits = fields.number("bits_per_weight", true, 32);
    q.gpus = fields.whole("gpus", true, 1, 64).value_or(1);
    q.interconnect.pcieLanes = 16; // the tables' PCIe servers (L40S) give each card 16 lanes
    return kvValuesPerToken;
}

perf::PerfQuery servedPromptQuery(const perf::PerfQuery& q, int inputTokens) {
    perf::PerfQuery prompt = q;
    prompt.metric = perf::Metric::LlmPrefill;
    prompt.llmContextTokens = inputTokens;
    // 4 FLOPs per attended position and unit of width in each layer; the i-th token attends to i.
    prompt.llmPrefillAttentionFlops = 4.0 * q.llmLayers * q.llmHidden.value_or(0) * (inputTokens + 1) / 2.0;
    return prompt;
}

std::vector<ServingRun> readServingRuns(std::string_view text, const std::string& fileLabel) {
    const csv::Table table = csv::read(text, fileLabel);
    const auto col = csv::columnsRequiring(table, fileLabel,
                                           {"gpu", "model", "params_billion", "active_params_billion", "experts",
                                            "experts_per_token", "layers", "hidden", "kv_values_per_token", "weights",
                                            "bits_per_weight", "kv_cache", "gpus", "sequences", "input_tokens",
                                            "output_tokens", "tokens_per_s_per_gpu"});
    std::vector<InputProblem> problems;
    std::vector<ServingRun> out;
    for (const auto& r : table.rows) {
        const RowFields fields(table, col, r, fileLabel, problems);
        ServingRun run;
        readRunStart(fields, r.line, run);
        perf::PerfQuery& q = run.query;
        run.kvValuesPerToken = readServedModel(fields, q);
        q.llmSequences = fields.whole("sequences", true, 1, 65536).value_or(1);
        run.inputTokens = fields.whole("input_tokens", true, 1, 1000000).value_or(1);
        run.outputTokens = fields.whole("output_tokens", true, 1, 1000000).value_or(1);
        // The cache each step reads on average: the prompt and half the answer.
        const double context = run.inputTokens + run.outputTokens / 2.0;
        q.llmContextTokens = static_cast<int>(std::lround(context));
        q.llmKvCacheValues = run.kvValuesPerToken * context;
        run.tokensPerSecondPerGpu = fields.number("tokens_per_s_per_gpu", true, 1e7).value_or(1);
        out.push_back(std::move(run));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<ServingRun> builtinServingRuns() {
    return readServingRuns(*resources::find(kRunsResource), std::string("resources/") + kRunsResource);
}

double predictServingRun(const perf::PerfModel& model, const Gpu& g, const ServingRun& run,
                         const perf::ServingConstants& k) {
    const perf::EffectiveSpecs s = model.specs(g);
    const double decode = perf::servingThroughput(s, g, run.query, model.constants(), nullptr, k);
    perf::PerfQuery prompt = servedPromptQuery(run.query, run.inputTokens);
    if (run.promptAttentionFlops) {
        prompt.llmPrefillAttentionFlops = *run.promptAttentionFlops;
    }
    const double sequences = run.query.llmSequences;
    const double seconds = perf::servingPromptSeconds(s, g, prompt, model.constants(), sequences * run.inputTokens, k) +
                           run.outputTokens * sequences / decode;
    return sequences * run.outputTokens / seconds / run.query.gpus;
}

ServingFit fitServingConstants(const std::vector<ServingRun>& runs, const Catalog& catalog,
                               const perf::PerfModel& model) {
    std::vector<Prepared> prepared;
    for (const auto& r : runs) {
        prepared.push_back({&r, &catalog.require(r.gpu, "a serving run's gpu"), r.query.gpus > 1});
    }
    std::vector<const Prepared*> dense;
    std::set<std::string> architectures;
    for (const auto& p : prepared) {
        if (!p.run->mixtureOfExperts()) {
            dense.push_back(&p);
            architectures.insert(p.gpu->architecture);
        }
    }
    ServingFit fit;
    fit.constants = fitOn(model, dense);
    fit.errorsPct.resize(prepared.size());
    fit.leaveOneArchitectureOutPct.resize(prepared.size());
    for (size_t i = 0; i < prepared.size(); ++i) {
        fit.errorsPct[i] = 100.0 * (std::exp(logError(model, prepared[i], fit.constants)) - 1.0);
        fit.leaveOneArchitectureOutPct[i] = std::fabs(fit.errorsPct[i]);
    }
    for (const auto& architecture : architectures) {
        std::vector<const Prepared*> others;
        for (const auto* p : dense) {
            if (p->gpu->architecture != architecture) {
                others.push_back(p);
            }
        }
        const perf::ServingConstants without = fitOn(model, others);
        for (size_t i = 0; i < prepared.size(); ++i) {
            if (!prepared[i].run->mixtureOfExperts() && prepared[i].gpu->architecture == architecture) {
                fit.leaveOneArchitectureOutPct[i] =
                    100.0 * std::fabs(std::exp(logError(model, prepared[i], without)) - 1.0);
            }
        }
    }
    return fit;
}

} // namespace advisor::eval
