// Prediction speed: every catalog GPU x every metric x 1/2/4/8 GPUs. Target (issue #3): < 1 ms.
#include "catalog/catalog.h"
#include "perf/model.h"

#include <benchmark/benchmark.h>

namespace {

void BM_PredictCatalog(benchmark::State& state) {
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
                    sum += model.throughput(g, q);
                    ++predictions;
                }
            }
        }
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(static_cast<int64_t>(predictions));
}
BENCHMARK(BM_PredictCatalog)->Unit(benchmark::kMicrosecond);

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

} // namespace

BENCHMARK_MAIN();
