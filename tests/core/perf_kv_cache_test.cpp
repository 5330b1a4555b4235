// The performance model's attention at long contexts: every generated token reads the weights
// and the whole KV cache, so the cache's size (the context, the model's attention, the bytes per
// element) sets token generation's speed; every prompt token attends to those before it, so
// prompt processing's FLOPs grow with the prompt.
#include "perf/model.h"
#include "perf/terms.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace advisor::perf {
namespace {

PerfQuery decode(double paramsBillion, int contextTokens) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmParamsBillion = paramsBillion;
    q.llmWeights = Precision::Int4;
    q.llmContextTokens = contextTokens;
    return q;
}

double secondsPerToken(const char* gpu, const PerfQuery& q) {
    return 1.0 / model().throughput(cat().require(gpu), q);
}

TEST(KvCache, WithoutAShapeTheCacheIsSizedFromTheParametersAsLlama3_8B) {
    // The size law gives an 8B model Llama 3 8B's 64K elements per token (32 layers x 8 KV heads
    // x 128 x K and V), the model the llama.cpp calibration ran.
    PerfQuery law = decode(8.0, 32768);
    PerfQuery shaped = law;
    shaped.llmKvCacheValues = 65536.0 * 32768;
    EXPECT_DOUBLE_EQ(model().throughput(cat().require("RTX 4090"), law),
                     model().throughput(cat().require("RTX 4090"), shaped));
}

TEST(KvCache, TokenGenerationSlowsWithTheContextByTheCachesBytesAndTheKernelsWorkPerValue) {
    // From 512 to 32,768 tokens the time per token grows by the added cache over the bandwidth:
    // its bytes (a q8_0 cache keeps 34 bytes per 32 values, q4_0 18) and the decode kernel's work
    // on each value, as long as reading 2 x (1 / 0.65 - 1) = 1.08 bytes whatever the type.
    const auto added = [](const PerfModel& m, KvCacheType type) {
        PerfQuery shortContext = decode(8.0, 512);
        shortContext.llmKvCache = type;
        PerfQuery longContext = shortContext;
        longContext.llmContextTokens = 32768;
        const Gpu& g = cat().require("RTX 4090");
        return 1.0 / m.throughput(g, longContext) - 1.0 / m.throughput(g, shortContext);
    };
    const double work = 2.0 * (1.0 / 0.65 - 1.0);
    EXPECT_NEAR(decodeCacheWorkBytes(consts()), work, 1e-12);
    const double f16 = added(model(), KvCacheType::F16);
    EXPECT_GT(f16, 0.0);
    EXPECT_NEAR(added(model(), KvCacheType::Q8_0) / f16, (34.0 / 32.0 + work) / (2.0 + work), 1e-9);
    EXPECT_NEAR(added(model(), KvCacheType::Q4_0) / f16, (18.0 / 32.0 + work) / (2.0 + work), 1e-9);
    EXPECT_NEAR(added(model(), KvCacheType::Fp8) / f16, (1.0 + work) / (2.0 + work), 1e-9);
    // So a cache of each type is read at its bytes' share of that time: f16 65%, q8_0 50%, q4_0 34%.
    EXPECT_NEAR(cacheReadShare(KvCacheType::F16, consts()), 0.65, 1e-12);
    EXPECT_NEAR(cacheReadShare(KvCacheType::Q8_0, consts()), 0.497, 0.001);
    EXPECT_NEAR(cacheReadShare(KvCacheType::Q4_0, consts()), 0.343, 0.001);
    // Read at the weights' rate (no work beyond the bytes), the added time is the bytes' alone.
    const PerfModel& bytesOnly = modelWithCacheAtWeightsRate();
    const double f16Bytes = added(bytesOnly, KvCacheType::F16);
    EXPECT_NEAR(added(bytesOnly, KvCacheType::Q8_0) / f16Bytes, 34.0 / 64.0, 1e-9);
    EXPECT_NEAR(added(bytesOnly, KvCacheType::Q4_0) / f16Bytes, 18.0 / 64.0, 1e-9);
    EXPECT_NEAR(added(bytesOnly, KvCacheType::Fp8) / f16Bytes, 0.5, 1e-9);
    // At 32K tokens an 8B model's f16 cache (4.3 GB) is about as large as its 4-bit weights
    // (4.9 GB), read at 65% of their rate, and a fixed time per token is paid at both lengths:
    // generation loses about half its speed.
    const double slowdown = secondsPerToken("RTX 4090", decode(8.0, 32768)) / secondsPerToken("RTX 4090", decode(8.0, 512));
    EXPECT_GT(slowdown, 1.8);
    EXPECT_LT(slowdown, 2.05);
}

TEST(KvCache, TheCacheIsReadAtItsShareOfTheWeightsRate) {
    // Round 53's six same-build pairs fell as if the cache streamed at 0.52-0.77 of the weights'
    // rate; 0.65 ships. The time a longer context adds is the added cache at that share of the
    // bandwidth: 1 / 0.65 of what the cache's bytes alone take.
    EXPECT_DOUBLE_EQ(consts().decodeCacheReadShare, 0.65);
    const PerfModel& bytesOnly = modelWithCacheAtWeightsRate();
    const Gpu& g = cat().require("RTX 4090");
    const auto added = [&](const PerfModel& m) {
        return 1.0 / m.throughput(g, decode(8.0, 32768)) - 1.0 / m.throughput(g, decode(8.0, 512));
    };
    EXPECT_NEAR(added(model()) / added(bytesOnly), 1.0 / 0.65, 1e-9);
    // Without the term the slowdown is the bytes' alone (about 40%).
    const double slowdown = bytesOnly.throughput(g, decode(8.0, 512)) / bytesOnly.throughput(g, decode(8.0, 32768));
    EXPECT_GT(slowdown, 1.5);
    EXPECT_LT(slowdown, 1.8);
    // A linear-attention layer's state is read by another kernel at the weights' rate: the term
    // leaves a model whose cache is all state as it was.
    PerfQuery stateOnly = decode(8.0, 512);
    stateOnly.llmKvCacheValues = 0.0;
    stateOnly.llmRecurrentStateBytes = 50e6;
    EXPECT_DOUBLE_EQ(model().throughput(g, stateOnly), bytesOnly.throughput(g, stateOnly));
    // The explanation names the term and what it cost.
    const Prediction p = model().explain(g, decode(8.0, 32768));
    const Factor* f = factorNamed(p, "reading the KV cache");
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(f->effect, p.throughput / bytesOnly.throughput(g, decode(8.0, 32768)), 1e-12);
    EXPECT_LT(f->effect, 0.85);
    EXPECT_NE(f->detail.find("65% of the rate the weights stream at"), std::string::npos) << f->detail;
}

TEST(KvCache, FewerKvHeadsDecodeFasterAtLongContexts) {
    // Qwen2.5 7B keeps 28 layers x 4 KV heads: 28K elements per token, where the size law gives a
    // 7.6B model 63K. At 32K tokens its cache is 1.9 GB, not 4.2 GB.
    PerfQuery law = decode(7.6, 32768);
    PerfQuery qwen = law;
    qwen.llmKvCacheValues = 2.0 * 28 * 4 * 128 * 32768;
    const double speedup = secondsPerToken("RTX 3090", law) / secondsPerToken("RTX 3090", qwen);
    EXPECT_GT(speedup, 1.25);
    EXPECT_LT(speedup, 1.45);
}

PerfQuery prefill(int promptTokens) {
    PerfQuery q = decode(8.03, promptTokens);
    q.metric = Metric::LlmPrefill;
    return q;
}

TEST(PromptAttention, TimePerTokenGrowsLinearlyWithThePromptsLength) {
    // Attention's FLOPs per token grow as (N + 1) / 2, the weights' stay: time = a + b (N + 1) / 2.
    const auto t = [](int n) { return secondsPerToken("RTX 3090", prefill(n)); };
    EXPECT_NEAR((t(16384) - t(512)) / (t(8192) - t(512)), (16384.0 - 512) / (8192.0 - 512), 1e-9);
    // The size law gives an 8B model Llama 3.1 8B's own attention (32 layers x 32 heads of 128).
    PerfQuery shaped = prefill(4096);
    shaped.llmParamsBillion = 8.0;
    shaped.llmPrefillAttentionFlops = 4.0 * 4096 * 32 * (4096 + 1) / 2.0;
    PerfQuery law = shaped;
    law.llmPrefillAttentionFlops.reset();
    EXPECT_DOUBLE_EQ(secondsPerToken("RTX 3090", shaped), secondsPerToken("RTX 3090", law));
}

TEST(PromptAttention, GeForceCardsPayTheirHalfRateForIt) {
    // Attention sums in FP32, at the FP16-with-FP32-accumulate tensor rate: half the FP16 rate the
    // quantized weights' matmuls get on a GeForce card, all of it on an RTX A6000 or an L40S. So a
    // 32K-token prompt adds more to the RTX 3090's time than to the A6000's (same GA102), and the
    // RTX 4090's than the L40S's (same AD102).
    const auto added = [](const char* gpu) {
        return secondsPerToken(gpu, prefill(32768)) / secondsPerToken(gpu, prefill(512)) - 1.0;
    };
    EXPECT_GT(added("RTX 3090"), 0.5);
    EXPECT_GT(added("RTX 3090"), 1.5 * added("RTX A6000"));
    EXPECT_GT(added("RTX 4090"), 1.5 * added("L40S"));
    const Prediction geforce = model().explain(cat().require("RTX 3090"), prefill(32768));
    const Factor* attention = factorNamed(geforce, "attention over the prompt");
    ASSERT_NE(attention, nullptr);
    EXPECT_LT(attention->effect, 0.7);
    EXPECT_NE(attention->detail.find("8.61 GFLOP per token beside the weights' 16.1 for a 32,768-token prompt"),
              std::string::npos)
        << attention->detail;
    EXPECT_NE(attention->detail.find("half rate"), std::string::npos);
    const Prediction a100 = model().explain(cat().require("A100 80GB SXM4"), prefill(32768));
    ASSERT_NE(factorNamed(a100, "attention over the prompt"), nullptr);
    EXPECT_EQ(factorNamed(a100, "attention over the prompt")->detail.find("half rate"), std::string::npos);
}

TEST(PromptAttention, SlidingWindowsKeepLongPromptsFast) {
    // Gemma 3 12B attends over the whole prompt on 8 of its 48 layers and over 1,024 tokens on the
    // rest: at 32K tokens the attention adds 4.6x less time than if every layer saw everything.
    PerfQuery none = prefill(32768);
    none.llmParamsBillion = 12;
    none.llmPrefillAttentionFlops = 0.0;
    PerfQuery windows = none;
    const double windowMean = (1024.0 * 1025 / 2 + 31744.0 * 1024) / 32768;
    windows.llmPrefillAttentionFlops = 4.0 * 16 * 256 * (8 * 16384.5 + 40 * windowMean);
    PerfQuery everyLayer = none;
    everyLayer.llmPrefillAttentionFlops = 4.0 * 16 * 256 * 48 * 16384.5;
    const double base = secondsPerToken("RTX 4090", none);
    EXPECT_NEAR((secondsPerToken("RTX 4090", everyLayer) - base) / (secondsPerToken("RTX 4090", windows) - base),
                48 * 16384.5 / (8 * 16384.5 + 40 * windowMean), 1e-9);
}

TEST(Explanation, TokenGenerationSaysWhatEachTokenReads) {
    PerfQuery q = decode(8.03, 131072);
    q.llmKvCacheValues = 65536.0 * 131072; // Llama 3.1 8B's own attention at 128K tokens
    const Gpu& g = cat().require("RTX 4080");
    auto notesOf = [&](const PerfQuery& query) {
        std::string all;
        for (const auto& n : model().explain(g, query).notes) {
            all += n + "\n";
        }
        return all;
    };
    // 8.03B x 4.85 bits = 4.87 GB of weights; 64K x 131,072 x 2 bytes = 17.18 GB of cache.
    const std::string f16 = notesOf(q);
    EXPECT_NE(f16.find("each token reads 22.05 GB: 4.87 GB of weights and 17.18 GB of KV cache (131,072 tokens of "
                       "context, f16, the model's own attention shape)"),
              std::string::npos)
        << f16;
    EXPECT_NE(f16.find("does not fit"), std::string::npos) << f16; // 22 GB on a 16 GB card
    // In q4_0 the cache is 4.83 GB and the model fits.
    q.llmKvCache = KvCacheType::Q4_0;
    const std::string q4 = notesOf(q);
    EXPECT_NE(q4.find("4.83 GB of KV cache (131,072 tokens of context, q4_0"), std::string::npos) << q4;
    EXPECT_EQ(q4.find("does not fit"), std::string::npos) << q4;
    // Without a shape the note says the cache was sized from the parameters.
    EXPECT_NE(notesOf(decode(8.0, 512)).find("sized from the parameters"), std::string::npos);
}

} // namespace
} // namespace advisor::perf
