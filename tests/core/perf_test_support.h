#pragma once
// Helpers shared by the performance-model tests: the shipped catalog and calibration, a
// near-compare that prints both values, and a prediction's factor by name.
#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf/specs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

namespace advisor::perf {

inline const Catalog& cat() {
    return Catalog::builtin();
}

inline const ModelConstants& consts() {
    return ModelConstants::builtin();
}

// The roofs the model derives for a catalog GPU.
inline EffectiveSpecs specs(const char* gpu) {
    return deriveSpecs(cat().require(gpu), consts(), &cat());
}

// The shipped catalog with each GPU passed through `edit` (which may drop it by returning false).
template <typename Edit> Catalog editedCatalog(Edit edit) {
    Catalog c;
    for (Gpu g : cat().gpus()) {
        if (edit(g)) {
            c.add(std::move(g));
        }
    }
    return c;
}

// Every GPU of `without` (the shipped catalog less some cards) has in the shipped catalog the
// clocks, L2 and chip anchor it has without them: what those cards must leave alone.
inline void expectOtherCardsUnchanged(const Catalog& without) {
    for (const Gpu& g : without.gpus()) {
        const auto before = deriveSpecs(g, consts(), &without);
        const auto now = deriveSpecs(cat().require(g.name), consts(), &cat());
        EXPECT_DOUBLE_EQ(now.sustainedClock, before.sustainedClock) << g.name;
        EXPECT_DOUBLE_EQ(now.denseMatmulClock, before.denseMatmulClock) << g.name;
        EXPECT_DOUBLE_EQ(now.l2Mb, before.l2Mb) << g.name;
        EXPECT_EQ(now.chipTopName, before.chipTopName) << g.name;
    }
}

// The serving engine's tests' model: a dense 10B at 8 bits (10 GB read a step) with 32 layers of width 4,096 and Llama
// 3 8B's cache (64K f16 values, 128 KiB, a token; attention: 4 x 32 x 4,096 FLOPs per cached position), at 512 tokens
// of context, in TensorRT-LLM.
inline PerfQuery servingRoundNumbers(int sequences = 1, int context = 512) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmEngine = LlmEngine::TensorRtLlm;
    q.llmParamsBillion = 10;
    q.llmWeights = Precision::Int8;
    q.llmWeightBits = 8.0;
    q.llmContextTokens = context;
    q.llmKvCacheValues = 65536.0 * context;
    q.llmLayers = 32;
    q.llmHidden = 4096;
    q.llmSequences = sequences;
    q.llmDecodeAttention = DecodeAttention::CudaCores; // as the 0.9 tables ran it; XQA has its own test
    return q;
}

inline const PerfModel& model() {
    static const PerfModel m(cat());
    return m;
}

/// The shipped model with the KV cache read at the weights' rate (no decode-kernel work beyond
/// its bytes, as before round 55): what the cache term's tests compare against.
inline const PerfModel& modelWithCacheAtWeightsRate() {
    static const PerfModel m = [] {
        ModelConstants c = consts();
        c.decodeCacheReadShare = 1.0;
        return PerfModel(cat(), c);
    }();
    return m;
}

inline double speed(const char* gpu, Metric m, WorkloadClass w = WorkloadClass::Transformer, int gpus = 1) {
    PerfQuery q;
    q.metric = m;
    q.workload = w;
    q.gpus = gpus;
    return model().throughput(cat().require(gpu), q);
}

// Near-compare that prints both values and the tolerance.
inline void expectNear(double actual, double expected, double relTol, const std::string& what) {
    EXPECT_LE(std::fabs(actual / expected - 1.0), relTol)
        << what << ": model " << actual << ", expected " << expected << " (tolerance " << relTol * 100 << "%)";
}

// The explanation's factor of that name, or nullptr when the prediction does not list it.
inline const Factor* factorNamed(const Prediction& p, const std::string& name) {
    for (const auto& f : p.factors) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}
// The factor would point into a prediction destroyed at the end of the statement.
const Factor* factorNamed(const Prediction&& p, const std::string& name) = delete;

} // namespace advisor::perf
