// A model split by experts in the serving engine (--split experts: attention data parallel with
// expert parallelism, DEP), each term on its own: a dense model copied on each card, a mixture's
// shared part on every card and its experts shared out, the busiest card's requests, and each
// mixture layer's exchange of the tokens.
#include "perf/accuracy.h"
#include "perf/llm_inference.h"
#include "perf/sequences_that_fit.h"
#include "perf/serving_engine.h"
#include "perf_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace advisor::perf {
namespace {

// The serving engine's tests' dense 10B at 8 bits (servingRoundNumbers), 64K cache values a token.
PerfQuery dense(int sequences) {
    return servingRoundNumbers(sequences);
}

// The same as a mixture of experts: 100B held, 28B a token, 8 experts of which 2 a token. So each
// expert is (100 - 28) / (8 - 2) = 12B, the 8 take 96B and the shared part is 4B.
PerfQuery mixture(int sequences) {
    PerfQuery q = dense(sequences);
    q.llmParamsBillion = 100;
    q.llmActiveParamsBillion = 28;
    q.llmExperts = 8;
    q.llmExpertsPerToken = 2;
    return q;
}

PerfQuery split(PerfQuery q, int gpus, LlmSplit how = LlmSplit::Experts) {
    q.gpus = gpus;
    q.llmSplit = how;
    return q;
}

double tokens(const char* gpu, const PerfQuery& q, const ServingConstants& k = {}) {
    const Gpu& g = cat().require(gpu);
    return servingThroughput(model().specs(g), g, q, consts(), nullptr, k);
}

TEST(ExpertSplit, ADenseModelSplitByExpertsIsAWholeCopyOnEachCard) {
    // Data parallel: each of 4 cards runs 16 of the 64 sequences on its own copy, nothing exchanged.
    EXPECT_NEAR(tokens("H100 SXM5", split(dense(64), 4)), 4 * tokens("H100 SXM5", dense(16)), 1e-9);
    // 65 sequences: the busiest card holds 17 and the step waits on it.
    EXPECT_NEAR(tokens("H100 SXM5", split(dense(65), 4)), 65 / (17 / tokens("H100 SXM5", dense(17))), 1e-9);
    // 2,031 over 4: 508 on the busiest, counted whole (its share times the tokens rounds above 508).
    EXPECT_NEAR(tokens("H100 SXM5", split(dense(2031), 4)), 2031 / (508 / tokens("H100 SXM5", dense(508))), 1e-9);
    // One prompt runs on one card, as fast as on one.
    PerfQuery prompt = dense(1);
    prompt.metric = Metric::LlmPrefill;
    EXPECT_NEAR(tokens("H100 SXM5", split(prompt, 4)), tokens("H100 SXM5", prompt), 1e-9);
    // Four copies of the weights: 40 GB held, so fewer sequences fit than split by tensors.
    EXPECT_DOUBLE_EQ(llmWeightBytesHeld(split(dense(1), 4)), 40e9);
    EXPECT_DOUBLE_EQ(llmWeightBytesHeld(split(dense(1), 4, LlmSplit::Tensors)), 10e9);
    const Gpu& g = cat().require("H100 SXM5");
    const int one = llmSequencesThatFit(g, dense(1));
    const int four = llmSequencesThatFit(g, split(dense(1), 4));
    EXPECT_GE(four, 4 * one);
    EXPECT_LT(four, 4 * one + 4); // the cards' rooms pooled: at most one more per card
    EXPECT_LT(four, llmSequencesThatFit(g, split(dense(1), 4, LlmSplit::Tensors)));
    // Its explanation says so, and perf gives it one card's band.
    const Prediction p = model().explain(g, split(dense(64), 4));
    const Factor* f = factorNamed(p, "split by experts over 4 GPUs");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->detail.find("data parallel"), std::string::npos) << f->detail;
    EXPECT_EQ(shippedAccuracy().forQuery(split(dense(64), 4))->medianPct,
              shippedAccuracy().forQuery(dense(64))->medianPct);
}

TEST(ExpertSplit, AMixturesSharedPartIsOnEveryCardAndItsExpertsAreSharedOut) {
    // 100 GB once, and the 4 GB shared part three times more.
    EXPECT_DOUBLE_EQ(llmWeightBytesHeld(split(mixture(1), 4)), 112e9);
    EXPECT_DOUBLE_EQ(llmWeightBytesHeld(split(mixture(1), 4, LlmSplit::Layers)), 100e9);
    // llama.cpp has no such split: its weights are held once.
    PerfQuery llamaCpp = split(mixture(1), 4);
    llamaCpp.llmEngine = LlmEngine::LlamaCpp;
    EXPECT_DOUBLE_EQ(llmWeightBytesHeld(llamaCpp), 100e9);
}

TEST(ExpertSplit, TheBusiestCardsStepAddsUpFromItsParts) {
    // 64 sequences on 4 H100s, 16 a card. Each card reads the shared 4 GB and a quarter of the
    // experts 64 tokens pick; multiplies its 16 tokens through the shared part and a quarter of
    // all 64 tokens' routed work; reads its 16 caches; and exchanges all 64 tokens in each layer.
    const Gpu& g = cat().require("H100 SXM5");
    const EffectiveSpecs s = model().specs(g);
    const PerfQuery q = split(mixture(64), 4);
    const double bandwidth = s.bandwidthGbs * consts().decodeBandwidthEfficiency * 1e9;
    const double shared = 4e9;
    const double reads = (shared + (llmWeightBytesRead(q, 64) - shared) / 4) / bandwidth;
    const double rate = s.eightBitTflops * s.denseMatmulClock * 1e12 * kServingMatmulEfficiency;
    const double routed = servingMultipliedBillion(s, q) - 4; // the routed 24B at their share's rate
    EXPECT_GT(routed, 24);                                    // H100: warpgroup MMA
    const double multiplies = 2e9 * (16 * 4 + 64 * routed / 4) / rate;
    const double cache = 16 * kvCacheBytes(q) / bandwidth;
    const double attention =
        16 * servingDecodeAttentionFlops(q) / (s.vectorTflops * 1e12 * kServingAttentionEfficiency);
    const double fixed = (consts().decodeOverheadMs + kServingStepMsPerDoubling * 4) / 1000; // log2 16
    const double exchange = servingExpertExchangeSeconds(g, q, 64);
    const double step = std::max(reads, multiplies) + std::max(cache, attention) + fixed + exchange;
    EXPECT_NEAR(tokens("H100 SXM5", q) / (64 / step), 1.0, 1e-9);
}

TEST(ExpertSplit, EachMixtureLayerExchangesItsTokensAtTwoAllReducesTime) {
    const Gpu& g = cat().require("H100 SXM5");
    PerfQuery q = split(mixture(64), 4);
    // An all-gather and a reduce-scatter a layer, each an all-reduce's time; tensor parallelism
    // has two all-reduces a layer, so the exchange takes as long in every layer.
    EXPECT_DOUBLE_EQ(kServingExpertExchangeAllReduces, 2.0);
    EXPECT_NEAR(servingExpertExchangeSeconds(g, q, 64), servingAllReduceSeconds(g, q, 64, true), 1e-15);
    // Experts in every other layer (Llama 4 Maverick): half the layers exchange.
    q.llmMoeLayerStep = 2;
    EXPECT_EQ(servingMixtureLayers(q), 16);
    EXPECT_NEAR(servingExpertExchangeSeconds(g, q, 64), servingAllReduceSeconds(g, q, 64, true) / 2, 1e-15);
    // At their bytes alone (one all-reduce's) it takes half as long.
    ServingConstants bytesAlone;
    bytesAlone.expertExchangeAllReduces = 1.0;
    EXPECT_NEAR(servingExpertExchangeSeconds(g, q, 64, bytesAlone), servingAllReduceSeconds(g, q, 64, true) / 4, 1e-15);
    // Over PCIe it takes longer than over NVLink.
    EXPECT_GT(servingExpertExchangeSeconds(cat().require("L40S"), q, 64), servingExpertExchangeSeconds(g, q, 64));
}

TEST(ExpertSplit, EachCardHoldsWholeHeadsOfItsOwnSequences) {
    // Qwen3's 4 KV heads on 8 cards: split by tensors each card keeps one whole head, the cache twice
    // over; split by experts each card holds its own sequences' whole cache, once.
    PerfQuery q = split(mixture(1), 8, LlmSplit::Tensors);
    q.llmKvHeads = 4;
    EXPECT_DOUBLE_EQ(kvCacheCopies(q), 2.0);
    q.llmSplit = LlmSplit::Experts;
    EXPECT_DOUBLE_EQ(kvCacheCopies(q), 1.0);
}

TEST(ExpertSplit, TheExplanationNamesTheSplitItsExchangeAndTheOtherSplit) {
    const Gpu& g = cat().require("H100 SXM5");
    const PerfQuery q = split(mixture(64), 4);
    const Prediction p = model().explain(g, q);
    const Factor* f = factorNamed(p, "split by experts over 4 GPUs");
    ASSERT_NE(f, nullptr);
    for (const char* words : {"its own 16 of the 64 sequences", "4.0 GB", "1/4 of the 8 routed experts",
                              "28.0 GB a card", "32 mixture layers", "NVLink", "DEP"}) {
        EXPECT_NE(f->detail.find(words), std::string::npos) << words << "\n" << f->detail;
    }
    EXPECT_TRUE(std::any_of(p.notes.begin(), p.notes.end(), [](const std::string& n) {
        return n.rfind("split by tensors instead (--split tensors", 0) == 0;
    }));
    // Split by tensors, a mixture's explanation names what the split by experts would give.
    const Prediction tensors = model().explain(g, split(mixture(64), 4, LlmSplit::Tensors));
    EXPECT_TRUE(std::any_of(tensors.notes.begin(), tensors.notes.end(), [](const std::string& n) {
        return n.rfind("split by experts instead (--split experts", 0) == 0;
    }));
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->medianPct, kServingExpertSplitAccuracy.medianPct);
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->p90Pct, kServingExpertSplitAccuracy.p90Pct);
    // One card is not split: a mixture's own band.
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(split(mixture(64), 1))->medianPct,
                     kServingMixtureOfExpertsAccuracy.medianPct);
}

TEST(ExpertSplit, ParsesAndNamesItsSplit) {
    EXPECT_EQ(parseLlmSplit("experts"), LlmSplit::Experts);
    EXPECT_STREQ(toString(LlmSplit::Experts), "experts");
    EXPECT_FALSE(parseLlmSplit("dep").has_value());
}

} // namespace
} // namespace advisor::perf
