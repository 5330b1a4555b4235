// Prediction speed: every catalog GPU x every metric x 1/2/4/8 GPUs. Target (issue #3): < 1 ms.
#include "catalog/catalog.h"
#include "perf/model.h"

#include <benchmark/benchmark.h>

namespace {

// Arg 0: the transformer class's shares; arg 1: a language model (perf/llm_training.h), whose
// profile is built per prediction; arg 2: LLM inference in the serving engine (perf/serving_engine.h).
void BM_PredictCatalog(benchmark::State& state) {
    const double languageModel = state.range(0) == 1 ? 8.0 : 0.0;
    const auto engine =
        state.range(0) == 2 ? advisor::perf::LlmEngine::TensorRtLlm : advisor::perf::LlmEngine::LlamaCpp;
    const auto& catalog = advisor::Catalog::builtin();
    const advisor::perf::PerfModel model(catalog);
    using advisor::perf::Metric;
    const Metric metrics[] = {Metric::Int8Inference, Metric::Fp16Inference, Metric::Fp16Training,
                              Metric::Fp32Training,  Metric::LlmDecode,     Metric::LlmPrefill};
    size_t predictions = 0;
    for (auto _ : state) {
        double sum = 0;
        for (const auto& g : catalog.gpus()) {
            for (const auto m : metrics) {
                for (const int n : {1, 2, 4, 8}) {
                    advisor::perf::PerfQuery q;
                    q.metric = m;
                    q.gpus = n;
                    q.llmTrainingParamsBillion = languageModel;
                    q.llmEngine = engine;
                    sum += model.throughput(g, q);
                    ++predictions;
                }
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<int64_t>(predictions));
}
BENCHMARK(BM_PredictCatalog)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

void BM_ExplainOne(benchmark::State& state) {
    const auto& catalog = advisor::Catalog::builtin();
    const advisor::perf::PerfModel model(catalog);
    const auto& g = catalog.require("RTX 4090");
    advisor::perf::PerfQuery q;
    q.gpus = 4;
    for (auto _ : state) {
        benchmark::DoNotOptimize(model.explain(g, q));
    }
}
BENCHMARK(BM_ExplainOne)->Unit(benchmark::kMicrosecond);

// Token generation for every catalog GPU at as many sequences as each serves at 30 tokens/s apiece
// (--min-sequence-speed: a bisection over the model's own figures, up to 18 of them per GPU), in
// llama.cpp (arg 0) and the serving engine (arg 1): what the Charts page redraws on each change.
void BM_SequencesAtSpeedCatalog(benchmark::State& state) {
    const auto& catalog = advisor::Catalog::builtin();
    const advisor::perf::PerfModel model(catalog);
    advisor::perf::PerfQuery q;
    q.metric = advisor::perf::Metric::LlmDecode;
    q.llmContextTokens = 2048;
    q.llmSequencesFillMemory = true;
    q.llmMinSequenceSpeed = 30.0;
    q.llmEngine = state.range(0) == 1 ? advisor::perf::LlmEngine::TensorRtLlm : advisor::perf::LlmEngine::LlamaCpp;
    for (auto _ : state) {
        double sum = 0;
        for (const auto& g : catalog.gpus()) {
            sum += model.throughput(g, q);
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * catalog.gpus().size()));
}
BENCHMARK(BM_SequencesAtSpeedCatalog)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
