// The performance model's KV cache in token generation: every generated token reads the
// weights and the whole KV cache, so the cache's size (the context, the model's attention, the
// bytes per element) sets the speed at long contexts.
#include "perf/model.h"
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

TEST(KvCache, TokenGenerationSlowsWithTheContextByTheCachesBytes) {
    // From 512 to 32,768 tokens the time per token grows by the added cache over the bandwidth:
    // a q8_0 cache (34 bytes per 32 values) adds 34/64 of what an f16 one does, q4_0 18/64.
    const auto added = [](KvCacheType type) {
        PerfQuery shortContext = decode(8.0, 512);
        shortContext.llmKvCache = type;
        PerfQuery longContext = shortContext;
        longContext.llmContextTokens = 32768;
        return secondsPerToken("RTX 4090", longContext) - secondsPerToken("RTX 4090", shortContext);
    };
    const double f16 = added(KvCacheType::F16);
    EXPECT_GT(f16, 0.0);
    EXPECT_NEAR(added(KvCacheType::Q8_0) / f16, 34.0 / 64.0, 1e-9);
    EXPECT_NEAR(added(KvCacheType::Q4_0) / f16, 18.0 / 64.0, 1e-9);
    EXPECT_NEAR(added(KvCacheType::Fp8) / f16, 0.5, 1e-9);
    // At 32K tokens an 8B model's f16 cache (4.3 GB) is about as large as its 4-bit weights
    // (4.9 GB) and a fixed time per token is paid at both lengths: generation loses about 40%.
    const double slowdown = secondsPerToken("RTX 4090", decode(8.0, 32768)) / secondsPerToken("RTX 4090", decode(8.0, 512));
    EXPECT_GT(slowdown, 1.5);
    EXPECT_LT(slowdown, 1.8);
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
