// Token generation for several sequences at once (a server's concurrent requests): one step
// reads the weights once for all of them and each one's KV cache, and multiplies each one's
// tokens; a mixture of experts reads every expert at least one sequence's router picks.
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "perf/llm_inference.h"
#include "perf/model.h"
#include "perf_test_support.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace advisor::perf {
namespace {

PerfQuery decodeOf(const char* shape, int sequences, int contextTokens = 1024) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmWeights = Precision::Int4;
    q.llmContextTokens = contextTokens;
    calc::applyModelShape(q, *calc::findModelShape(shape));
    q.llmSequences = sequences;
    return q;
}

TEST(Sequences, OneStepReadsTheWeightsOnceAndEachSequencesCache) {
    const PerfQuery one = decodeOf("llama-3.1-8b", 1);
    const PerfQuery eight = decodeOf("llama-3.1-8b", 8);
    const double weights = 8.0e9 * 4.85 / 8.0; // Q4_K_M
    const double cache = 65536.0 * 1024 * 2;   // 64K f16 values per token, 1,024 tokens
    EXPECT_NEAR(llmBytesPerStep(one), weights + cache, 1.0);
    EXPECT_DOUBLE_EQ(llmBytesPerStep(one), llmBytesPerToken(one));
    EXPECT_NEAR(llmBytesPerStep(eight), weights + 8 * cache, 1.0);
    // Memory holds every sequence's cache.
    EXPECT_NEAR(llmBytesHeld(eight) - llmBytesHeld(one), 7 * cache, 1.0);
}

TEST(Sequences, EachSequenceOfAHybridModelKeepsAndReadsItsRecurrentState) {
    // Qwen3.5 27B: besides the 16 full layers' cache, each sequence holds and every token reads
    // the 48 linear layers' state (157 MB in f32), the same at 1K and 32K tokens of context.
    const PerfQuery one = decodeOf("qwen3.5-27b", 1);
    const double state = 48 * 817152.0 * 4;
    EXPECT_DOUBLE_EQ(one.llmRecurrentStateBytes, state);
    const double weights = 27e9 * 4.85 / 8.0;
    const double cache = 2.0 * 4 * 256 * 16 * 1024 * 2; // f16 K and V of the full layers
    EXPECT_NEAR(llmBytesPerToken(one), weights + cache + state, 1.0);
    const PerfQuery four = decodeOf("qwen3.5-27b", 4);
    EXPECT_NEAR(llmBytesPerStep(four), weights + 4 * (cache + state), 1.0);
    EXPECT_NEAR(llmBytesHeld(four), weights + 4 * (cache + state), 1.0);
    EXPECT_DOUBLE_EQ(decodeOf("qwen3.5-27b", 1, 32768).llmRecurrentStateBytes, state);
    EXPECT_NE(decodeBytesNote(one).find("with 0.16 GB of linear-attention state, the same at any context"),
              std::string::npos)
        << decodeBytesNote(one);
    EXPECT_EQ(decodeBytesNote(decodeOf("llama-3.1-8b", 1)).find("linear-attention"), std::string::npos);
}

TEST(Sequences, IndependentRequestsReadMoreOfAMixtureOfExperts) {
    // Mixtral 8x7B routes each token to 2 of 8 experts per layer: one sequence reads a quarter of
    // the routed weights, two read 1 - (3/4)^2, 32 nearly all of them.
    EXPECT_DOUBLE_EQ(routedShareRead(decodeOf("mixtral-8x7b", 1)), 0.25);
    EXPECT_DOUBLE_EQ(routedShareRead(decodeOf("mixtral-8x7b", 2)), 1.0 - 0.75 * 0.75);
    EXPECT_GT(routedShareRead(decodeOf("mixtral-8x7b", 32)), 0.9998);
    // gpt-oss-120b, 4 of 128: 32 sequences read 64% of the experts.
    EXPECT_NEAR(routedShareRead(decodeOf("gpt-oss-120b", 32)), 1.0 - std::pow(124.0 / 128.0, 32), 1e-12);
    EXPECT_NEAR(routedShareRead(decodeOf("gpt-oss-120b", 32)), 0.638, 0.001);
    EXPECT_DOUBLE_EQ(routedShareRead(decodeOf("llama-3.1-8b", 32)), 1.0); // dense: all of them

    // Held 46.7B, active 12.9B: an expert is (46.7 - 12.9) / 6 = 5.63B, the shared part 1.63B.
    // One sequence reads the active weights; the 32 read (nearly) all 46.7B.
    const PerfQuery one = decodeOf("mixtral-8x7b", 1, 1);
    const PerfQuery many = decodeOf("mixtral-8x7b", 32, 1);
    const double bytesPerParam = 4.85 / 8.0;
    EXPECT_NEAR(llmBytesPerStep(one) - kvCacheBytes(one), 12.9e9 * bytesPerParam, 1e3);
    EXPECT_NEAR(llmBytesPerStep(many) - 32 * kvCacheBytes(many), 46.7e9 * bytesPerParam, 0.01e9);

    // Without the expert counts the sequences are taken to share no expert (an upper bound).
    PerfQuery unknown = decodeOf("mixtral-8x7b", 2, 1);
    unknown.llmExperts = 0;
    unknown.llmExpertsPerToken = 0;
    EXPECT_NEAR(routedShareRead(unknown), 2 * 12.9 / 46.7, 1e-12);
}

TEST(Sequences, TogetherTheyGenerateMoreTokensEachOneFewer) {
    const Gpu& g = cat().require("RTX 4090");
    double previous = 0;
    for (int b : {1, 2, 4, 8, 16, 32}) {
        const Prediction p = model().explain(g, decodeOf("llama-3.1-8b", b));
        EXPECT_GT(p.throughput, previous) << b;
        if (b > 1) {
            EXPECT_LT(p.throughput / b, previous) << b; // each sequence slower than alone
            EXPECT_GT(p.computeShare, 0.0) << b;
        } else {
            EXPECT_EQ(p.computeShare, 0.0); // one sequence's multiplies hide under its reads
        }
        previous = p.throughput;
    }
    // Each further sequence adds its 2 x 8B FLOPs at the prompt's matmul rate and its cache's
    // bytes: the step grows linearly in the sequences.
    const auto step = [&](int b) { return b / model().throughput(g, decodeOf("llama-3.1-8b", b)); };
    EXPECT_NEAR(step(32) - step(16), 2 * (step(16) - step(8)), 1e-12);
    EXPECT_GT(step(2) - step(1), 0.0);
    // One sequence is what it was before sequences existed: its reads and the fixed time.
    const PerfQuery one = decodeOf("llama-3.1-8b", 1);
    const Prediction p = model().explain(g, one);
    EXPECT_NEAR(p.memoryShare + p.overheadShare, 1.0, 1e-12);
}

TEST(Sequences, ManyLongContextsNoLongerFit) {
    // Llama 3.1 8B at 32K tokens keeps 4 GiB of f16 cache per sequence: one fits a 24 GB card
    // beside its 4.9 GB of weights, eight do not.
    const Gpu& g = cat().require("RTX 4090");
    EXPECT_TRUE(llmFits(g, decodeOf("llama-3.1-8b", 1, 32768)));
    EXPECT_TRUE(llmFits(g, decodeOf("llama-3.1-8b", 4, 32768)));
    EXPECT_FALSE(llmFits(g, decodeOf("llama-3.1-8b", 8, 32768)));
}

} // namespace
} // namespace advisor::perf
