// Token generation with as many sequences as the memory holds (`--sequences max`): each card
// its own count, from 90% of its memory (vLLM's and TensorRT-LLM's default) less the weights,
// over one sequence's KV cache.
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "perf/llm_inference.h"
#include "perf/sequences_that_fit.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>
#include <string>

namespace advisor::perf {
namespace {

// 10B weights at 8 bits (10 GB) and 0.5G cached values per sequence (1 GB in f16).
PerfQuery roundNumbers(double paramsBillion = 10) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmParamsBillion = paramsBillion;
    q.llmWeights = Precision::Int8;
    q.llmWeightBits = 8.0;
    q.llmKvCacheValues = 0.5e9;
    q.llmSequencesFillMemory = true;
    return q;
}

PerfQuery llama8bAt(int contextTokens) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmContextTokens = contextTokens;
    calc::applyModelShape(q, *calc::findModelShape("llama-3.1-8b"));
    q.llmSequencesFillMemory = true;
    return q;
}

bool has(const std::vector<std::string>& notes, const std::string& text) {
    for (const auto& n : notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(SequencesThatFit, NinetyPercentOfTheMemoryLessTheWeightsOverOneSequencesCache) {
    const Gpu& g = cat().require("RTX 4090");
    ASSERT_DOUBLE_EQ(g.memoryGb, 24.0);
    EXPECT_EQ(llmSequencesThatFit(g, roundNumbers()), 11); // (21.6 - 10) / 1 = 11.6
    PerfQuery two = roundNumbers();
    two.gpus = 2;
    EXPECT_EQ(llmSequencesThatFit(g, two), 33); // (43.2 - 10) / 1
    PerfQuery fp8 = roundNumbers();
    fp8.llmKvCache = KvCacheType::Fp8;
    EXPECT_EQ(llmSequencesThatFit(g, fp8), 23); // (21.6 - 10) / 0.5
    EXPECT_EQ(llmSequencesThatFit(g, roundNumbers(20.6)), 1);
    EXPECT_EQ(llmSequencesThatFit(g, roundNumbers(20.7)), 0); // 20.7 + 1 > 21.6
}

TEST(SequencesThatFit, ThePredictionIsTheOneForThatManySequences) {
    // Llama 3.1 8B at 4.85 bits (4.85 GB) with 8,192 tokens of f16 cache (1.07 GB each):
    // (21.6 - 4.85) / 1.074 = 15.6 on an RTX 4090, (72 - 4.85) / 1.074 = 62.5 on an H100 SXM5.
    for (const auto& [name, expected] : {std::pair{"RTX 4090", 15}, std::pair{"H100 SXM5", 62}}) {
        const Gpu& g = cat().require(name);
        const Prediction p = model().explain(g, llama8bAt(8192));
        EXPECT_EQ(p.llmSequences, expected) << name;
        PerfQuery fixed = llama8bAt(8192);
        fixed.llmSequencesFillMemory = false;
        fixed.llmSequences = expected;
        EXPECT_DOUBLE_EQ(p.throughput, model().throughput(g, fixed)) << name;
        EXPECT_DOUBLE_EQ(model().throughput(g, llama8bAt(8192)), p.throughput) << name;
        EXPECT_TRUE(has(p.notes, "as many sequences as fit: " + std::to_string(expected) +
                                     ", each with 1.07 GB of KV cache (8,192 tokens of context), beside 4.85 GB of "
                                     "weights in 90% of"))
            << name;
        bool factor = false;
        for (const auto& f : p.factors) {
            factor |= f.name == std::to_string(expected) + " sequences at once";
        }
        EXPECT_TRUE(factor) << name;
    }
    // A fixed count says nothing of filling the memory.
    PerfQuery fixed = llama8bAt(8192);
    fixed.llmSequencesFillMemory = false;
    const Prediction one = model().explain(cat().require("RTX 4090"), fixed);
    EXPECT_EQ(one.llmSequences, 1);
    EXPECT_FALSE(has(one.notes, "as many sequences as fit"));
}

TEST(SequencesThatFit, MoreMemoryServesMoreAtFullLoadThanAtOneSequence) {
    // Alone, the H100 SXM5 generates 1.39x an RTX 4090's tokens; at full load its 80 GB hold four
    // times the sequences (62 against 15), and it serves 1.91x: memory buys speed here.
    const Gpu& small = cat().require("RTX 4090");
    const Gpu& large = cat().require("H100 SXM5");
    PerfQuery one = llama8bAt(8192);
    one.llmSequencesFillMemory = false;
    const double alone = model().throughput(large, one) / model().throughput(small, one);
    const double full = model().throughput(large, llama8bAt(8192)) / model().throughput(small, llama8bAt(8192));
    EXPECT_GT(full, 1.25 * alone) << alone << " " << full;
    // A shorter context holds more sequences, and more tokens/s together.
    EXPECT_GT(model().explain(small, llama8bAt(2048)).llmSequences, 4 * 15);
    EXPECT_GT(model().throughput(small, llama8bAt(2048)), model().throughput(small, llama8bAt(8192)));
}

TEST(SequencesThatFit, WhenNotOneFitsItIsShownForOneAndSaysSo) {
    const Gpu& g = cat().require("RTX 4090");
    PerfQuery big = roundNumbers(22);
    const Prediction p = model().explain(g, big);
    EXPECT_EQ(p.llmSequences, 1);
    big.llmSequencesFillMemory = false;
    EXPECT_DOUBLE_EQ(p.throughput, model().throughput(g, big));
    EXPECT_TRUE(has(p.notes, "as many sequences as fit: not one, as 22.00 GB of weights and one sequence's 1.00 GB "
                             "of KV cache exceed 90% of 24 GB"));
}

TEST(SequencesThatFit, OnlyTokenGenerationAndAtMostTheModelsCap) {
    const Gpu& g = cat().require("RTX 4090");
    PerfQuery prompt = roundNumbers();
    prompt.metric = Metric::LlmPrefill;
    PerfQuery plain = prompt;
    plain.llmSequencesFillMemory = false;
    EXPECT_DOUBLE_EQ(model().throughput(g, prompt), model().throughput(g, plain));
    EXPECT_EQ(model().explain(g, prompt).llmSequences, 0);
    EXPECT_EQ(withSequencesResolved(g, prompt).llmSequences, 1);

    PerfQuery tiny = roundNumbers(1);
    tiny.llmKvCacheValues = 1000; // 2 KB a sequence: millions would fit
    EXPECT_EQ(llmSequencesThatFit(g, tiny), kMaxLlmSequences);
    EXPECT_TRUE(has(model().explain(g, tiny).notes, "65536 (the most the model takes; more would fit)"));
}

// Split by tensors, TensorRT-LLM gives each card max(KV heads / cards, 1) heads: Qwen3 235B-A22B's
// 4 KV heads on 8 cards are held twice, Llama 3.1 70B's 8 once; DeepSeek-V3's latent cache is on
// every card; split by layers, or in llama.cpp, each card holds its own layers' cache once.
PerfQuery servedOn(const char* model, int gpus) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmEngine = LlmEngine::TensorRtLlm;
    q.llmWeights = Precision::Int8;
    q.llmContextTokens = 2048;
    q.gpus = gpus;
    calc::applyModelShape(q, *calc::findModelShape(model));
    q.llmSequencesFillMemory = true;
    return q;
}

TEST(SequencesThatFit, SplitByTensorsEachCardKeepsAtLeastOneKvHeadWhole) {
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("qwen3-235b-a22b", 8)), 2.0);
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("qwen3-235b-a22b", 4)), 1.0);
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("qwen3-235b-a22b", 1)), 1.0);
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("llama-3.1-70b", 8)), 1.0);
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("llama-3.1-70b", 3)), 9.0 / 8.0); // 3 heads a card, 9 held
    EXPECT_DOUBLE_EQ(kvCacheCopies(servedOn("deepseek-v3", 8)), 8.0);
    PerfQuery byLayers = servedOn("qwen3-235b-a22b", 8);
    byLayers.llmSplit = LlmSplit::Layers;
    EXPECT_DOUBLE_EQ(kvCacheCopies(byLayers), 1.0);
    PerfQuery llamaCpp = servedOn("qwen3-235b-a22b", 8);
    llamaCpp.llmEngine = LlmEngine::LlamaCpp;
    EXPECT_DOUBLE_EQ(kvCacheCopies(llamaCpp), 1.0);

    // Qwen3 235B-A22B at 2,048 tokens: 94 layers x 4 heads x 128 x 2 = 96,256 values a token, 197 MB
    // of fp8 cache a sequence, held twice on eight H200s: (8 x 141 x 0.9 - 235) / 0.394 = 1,978
    // sequences, where four KV heads' worth would hold 3,957.
    const Gpu& h200 = cat().require("H200 SXM");
    const PerfQuery q = [] {
        PerfQuery r = servedOn("qwen3-235b-a22b", 8);
        r.llmKvCache = KvCacheType::Fp8;
        return r;
    }();
    EXPECT_DOUBLE_EQ(*q.llmKvCacheValues, 94.0 * 4 * 128 * 2 * 2048);
    EXPECT_DOUBLE_EQ(kvCacheBytes(q), 2.0 * 94 * 4 * 128 * 2 * 2048);
    EXPECT_EQ(llmSequencesThatFit(h200, q), 1978);
    PerfQuery once = q;
    once.llmSplit = LlmSplit::Layers;
    EXPECT_EQ(llmSequencesThatFit(h200, once), 3957);
    EXPECT_TRUE(has(model().explain(h200, q).notes,
                    "held 2x over: each of the 8 cards keeps at least one of its 4 KV heads whole"));
    EXPECT_FALSE(has(model().explain(h200, once).notes, "held 2x over"));
}

} // namespace
} // namespace advisor::perf
