// Tests for core/calc/kv_cache and the memory calculator's KV cache: the published figures of
// grouped-query, sliding-window and latent attention, the KV cache stored in 8 or 4 bits, and
// the attention FLOPs of a prompt.
#include "calc/kv_cache.h"
#include "calc/memory.h"
#include "calc/model_shapes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace advisor::calc {
namespace {

const ModelShape& shape(const char* id) {
    const ModelShape* m = findModelShape(id);
    EXPECT_NE(m, nullptr) << id;
    return *m;
}

double kvGb(const MemoryEstimate& e) {
    for (const auto& i : e.items) {
        if (i.name == "KV cache") {
            return i.gb;
        }
    }
    return -1;
}

TEST(KvCache, GroupedQueryAttentionKeepsKAndVPerKvHead) {
    // Llama 3.1 8B: 2 x 32 layers x 8 KV heads x 128 = 64K elements, the widely quoted 128 KiB per
    // token in 16 bits; Llama 2 7B without grouped-query attention keeps four times as much.
    EXPECT_DOUBLE_EQ(kvCacheValues(attentionShapeOf(shape("llama-3.1-8b")), 1), 65536.0);
    EXPECT_DOUBLE_EQ(kvCacheValues(attentionShapeOf(shape("llama-2-7b")), 1), 4 * 65536.0);
    // Qwen2.5 7B shares 4 KV heads over 28 layers: 28K per token, 0.44x Llama 3.1 8B's.
    EXPECT_DOUBLE_EQ(kvCacheValues(attentionShapeOf(shape("qwen2.5-7b")), 1000), 2.0 * 28 * 4 * 128 * 1000);
}

TEST(KvCache, SlidingWindowLayersKeepNoMoreThanTheirWindow) {
    const AttentionShape gemma = attentionShapeOf(shape("gemma-3-12b"));
    // Gemma 3 12B: 8 of 48 layers see the whole context, 40 the last 1,024 tokens; 8 KV heads of 256.
    EXPECT_EQ(gemma.slidingLayers, 40);
    const double perLayerToken = 2.0 * 8 * 256;
    EXPECT_DOUBLE_EQ(kvCacheValues(gemma, 32768), perLayerToken * (8 * 32768.0 + 40 * 1024.0));
    // Within the window every layer holds every token: as a model without windows.
    AttentionShape full = gemma;
    full.slidingLayers = 0;
    EXPECT_DOUBLE_EQ(kvCacheValues(gemma, 1000), kvCacheValues(full, 1000));
    // The windows save 5.2x at 32K tokens and 5.8x at the full 128K (towards 48 / 8 = 6x).
    EXPECT_NEAR(kvCacheValues(full, 32768) / kvCacheValues(gemma, 32768), 48 * 32768.0 / 303104, 1e-12);
    EXPECT_NEAR(kvCacheValues(full, 131072) / kvCacheValues(gemma, 131072), 5.77, 0.005);
    // Every Gemma 3 repeats five local layers and one global one from the first layer on, so a
    // sixth of its layers (rounded down) see the whole context: 5 of 34, 8 of 48, 10 of 62.
    for (const char* id : {"gemma-3-4b", "gemma-3-12b", "gemma-3-27b"}) {
        const ModelShape& m = shape(id);
        EXPECT_EQ(m.layers - m.slidingLayers, m.layers / 6) << id;
        EXPECT_EQ(m.slidingWindow, 1024) << id;
    }
    // gpt-oss-120b: every other layer of 36 has a 128-token band; 8 KV heads of 64.
    const AttentionShape oss = attentionShapeOf(shape("gpt-oss-120b"));
    EXPECT_DOUBLE_EQ(kvCacheValues(oss, 131072), 2.0 * 8 * 64 * (18 * 131072.0 + 18 * 128.0));
}

TEST(KvCache, LatentAttentionCachesOneCompressedVectorPerLayer) {
    // DeepSeek-V3's multi-head latent attention caches kv_lora_rank + qk_rope_head_dim = 512 + 64
    // elements per layer and token (DeepSeek-V2 paper: 4.5 head widths, "GQA with 2.25 groups"),
    // 61 layers: 35,136 per token, where 128 full K and V heads of 128 would keep 57x as many.
    const AttentionShape mla = attentionShapeOf(shape("deepseek-v3"));
    EXPECT_DOUBLE_EQ(kvValuesPerLayerToken(mla), 576.0);
    EXPECT_DOUBLE_EQ(kvValuesPerLayerToken(mla), 2.0 * 2.25 * 128);
    EXPECT_DOUBLE_EQ(kvCacheValues(mla, 1), 35136.0);
    AttentionShape expanded = mla;
    expanded.latentDim = 0;
    EXPECT_NEAR(kvCacheValues(expanded, 1) / kvCacheValues(mla, 1), 2.0 * 128 * 128 / 576.0, 1e-9);
}

TEST(KvCache, LinearAttentionLayersKeepAFixedStateInsteadOfACache) {
    // Qwen3.5 27B (config.json): 64 layers, every fourth full attention with 4 KV heads of 256; the
    // other 48 Gated DeltaNet, each keeping 48 value heads x 128 x 128 and its 4-tap convolution's
    // last 3 inputs of q, k (16 heads of 128 each) and v (48 of 128), in f32 as llama.cpp does.
    const AttentionShape qwen = attentionShapeOf(shape("qwen3.5-27b"));
    EXPECT_EQ(qwen.linearLayers, 48);
    EXPECT_EQ(fullAttentionLayers(qwen), 16);
    const double stateValues = 48.0 * 128 * 128 + 3.0 * (2 * 16 * 128 + 48 * 128);
    EXPECT_DOUBLE_EQ(qwen.linearStateValues, stateValues);
    EXPECT_DOUBLE_EQ(recurrentStateBytes(qwen), 48 * stateValues * 4.0); // 157 MB per sequence
    EXPECT_NEAR(recurrentStateBytes(qwen) / 1e6, 156.9, 0.05);
    // The cache grows with the 16 full layers only: 32 KiB per token, 17.2 GB at the 262,144
    // positions it was trained for, where 64 such layers would keep four times as much.
    EXPECT_DOUBLE_EQ(kvCacheValues(qwen, 1000), 2.0 * 4 * 256 * 16 * 1000);
    AttentionShape allFull = qwen;
    allFull.linearLayers = 0;
    EXPECT_DOUBLE_EQ(kvCacheValues(allFull, 1000) / kvCacheValues(qwen, 1000), 4.0);
    EXPECT_NEAR(kvCacheValues(qwen, 262144) * 2 / 1e9, 17.18, 0.01);
    // A prompt token attends through the 16 full layers only.
    EXPECT_DOUBLE_EQ(meanAttendedPositions(qwen, 1000), 16 * 500.5);
    // Windowed and linear layers together leave the rest full; none left is not negative.
    AttentionShape mixed = qwen;
    mixed.slidingWindow = 128;
    mixed.slidingLayers = 8;
    EXPECT_EQ(fullAttentionLayers(mixed), 8);
    mixed.linearLayers = 64;
    EXPECT_EQ(fullAttentionLayers(mixed), 0);
    EXPECT_DOUBLE_EQ(recurrentStateBytes(attentionShapeOf(shape("llama-3.1-8b"))), 0.0);
}

TEST(KvCache, QwenThreePointFiveNineBHoldsAQuarterOfALlamaLikeCache) {
    // Qwen3.5 9B (config.json's text_config): 32 layers, 8 of them full attention with 4 KV heads of
    // 256; 24 Gated DeltaNet with 32 value heads x 128 x 128 and the convolution's last 3 inputs of
    // q, k (16 heads of 128 each) and v (32 of 128), in f32: 2.2 MB each, 52.7 MB per sequence.
    const ModelShape& m = shape("qwen3.5-9b");
    EXPECT_DOUBLE_EQ(m.paramsBillion, 9.0);
    const AttentionShape qwen = attentionShapeOf(m);
    EXPECT_EQ(fullAttentionLayers(qwen), 8);
    const double stateValues = 32.0 * 128 * 128 + 3.0 * (2 * 16 * 128 + 32 * 128);
    EXPECT_DOUBLE_EQ(qwen.linearStateValues, stateValues);
    EXPECT_NEAR(recurrentStateBytes(qwen) / 1e6, 24 * stateValues * 4.0 / 1e6, 1e-9);
    EXPECT_NEAR(recurrentStateBytes(qwen) / 1e6, 52.7, 0.05);
    // 16 KiB of f16 cache per token: 8.6 GB at 262,144 positions, where the size law's Llama-like
    // 9B (64K values per token x sqrt(9/8)) would keep 36.4 GB.
    EXPECT_DOUBLE_EQ(kvCacheValues(qwen, 1000), 2.0 * 4 * 256 * 8 * 1000);
    EXPECT_NEAR(kvCacheValues(qwen, 262144) * 2 / 1e9, 8.59, 0.01);
}

TEST(PromptAttention, EachTokenAttendsToTheTokensBeforeItAndNoMoreThanItsWindow) {
    // Token t of an N-token prompt attends to t positions: (N + 1) / 2 on average, per layer.
    const AttentionShape llama = attentionShapeOf(shape("llama-3.1-8b"));
    EXPECT_DOUBLE_EQ(meanAttendedPositions(llama, 512), 32 * 256.5);
    // 4 FLOPs per position and width (q.k and p.v), 32 heads of 128: 4 x 4,096 x 32 x 256.5.
    EXPECT_DOUBLE_EQ(attentionFlopsPerPromptToken(llama, 512), 4.0 * 4096 * 32 * 256.5);
    // Gemma 3 12B's window layers: all 1,024 positions once the prompt is past the window,
    // (1,024 x 1,025 / 2 + (N - 1,024) x 1,024) / N on average; within it, as a full layer.
    const AttentionShape gemma = attentionShapeOf(shape("gemma-3-12b"));
    const double n = 32768;
    const double windowMean = (1024.0 * 1025 / 2 + (n - 1024) * 1024) / n;
    EXPECT_NEAR(meanAttendedPositions(gemma, n), 8 * (n + 1) / 2 + 40 * windowMean, 1e-6);
    EXPECT_DOUBLE_EQ(meanAttendedPositions(gemma, 1000), 48 * 500.5);
    EXPECT_DOUBLE_EQ(attentionFlopsPerPromptToken(gemma, 1000), 4.0 * 16 * 256 * 48 * 500.5);
}

TEST(PromptAttention, APromptAfterACachedContextAttendsToItAsWell) {
    // llama-bench's pp512@d32768: token t of the prompt sees the 32,768 cached tokens and t more.
    const AttentionShape llama = attentionShapeOf(shape("llama-3.1-8b"));
    EXPECT_DOUBLE_EQ(meanAttendedPositions(llama, 512, 32768), 32 * (32768 + 256.5));
    EXPECT_DOUBLE_EQ(attentionFlopsPerPromptToken(llama, 512, 32768), 4.0 * 4096 * 32 * (32768 + 256.5));
    EXPECT_DOUBLE_EQ(meanAttendedPositions(llama, 512, 0), meanAttendedPositions(llama, 512));
    // Gemma 3's window layers: a prompt after 800 tokens reaches the 1,024-token window at its
    // 224th token; counted position by position here.
    const AttentionShape gemma = attentionShapeOf(shape("gemma-3-12b"));
    for (const double depth : {0.0, 300.0, 800.0, 1024.0, 4096.0}) {
        double windowed = 0, full = 0;
        for (int t = 1; t <= 512; ++t) {
            windowed += std::min(depth + t, 1024.0);
            full += depth + t;
        }
        EXPECT_NEAR(meanAttendedPositions(gemma, 512, depth), (8 * full + 40 * windowed) / 512, 1e-9) << depth;
    }
    EXPECT_DOUBLE_EQ(meanAttendedPositions(gemma, 512, 4096), 8 * (4096 + 256.5) + 40 * 1024.0);
}

TEST(KvCache, MemoryCalculatorStoresTheCacheInTheChosenFormat) {
    MemoryInput in;
    in.model = findModelShape("llama-3.1-8b");
    in.contextTokens = 131072;
    const double f16 = kvGb(estimateMemory(in));
    EXPECT_NEAR(f16, 131072.0 * 131072 / 1e9, 1e-9); // 17.2 GB: more than the 8B's 16 GB of weights
    // ggml's q8_0 and q4_0 blocks: 32 values and one fp16 scale, 34 and 18 bytes.
    in.kvCache = perf::KvCacheType::Q8_0;
    EXPECT_NEAR(kvGb(estimateMemory(in)) / f16, 34.0 / 64.0, 1e-12);
    in.kvCache = perf::KvCacheType::Q4_0;
    const auto q4 = estimateMemory(in);
    EXPECT_NEAR(kvGb(q4) / f16, 18.0 / 64.0, 1e-12);
    EXPECT_NE(q4.items[1].detail.find("0.5625 bytes (q4_0)"), std::string::npos) << q4.items[1].detail;
    in.kvCache = perf::KvCacheType::Fp8;
    EXPECT_NEAR(kvGb(estimateMemory(in)) / f16, 0.5, 1e-12);
}

TEST(KvCache, MemoryCalculatorFollowsEachModelsAttention) {
    MemoryInput in;
    in.contextTokens = 131072;
    in.model = findModelShape("gemma-3-12b");
    const auto gemma = estimateMemory(in);
    EXPECT_EQ(gemma.headDim, 256);
    EXPECT_NEAR(kvGb(gemma), 2.0 * 8 * 256 * (8 * 131072.0 + 40 * 1024.0) * 2 / 1e9, 1e-9);
    EXPECT_NE(gemma.items[1].detail.find("+ 40 sliding-window layers x 1,024 tokens"), std::string::npos)
        << gemma.items[1].detail;
    // Qwen3.5 27B: the 16 full layers' cache, and its linear layers' state as an item of its own,
    // the same at any context.
    in.model = findModelShape("qwen3.5-27b");
    const auto qwen = estimateMemory(in);
    EXPECT_NEAR(kvGb(qwen), 2.0 * 4 * 256 * 16 * 131072.0 * 2 / 1e9, 1e-9);
    EXPECT_NE(qwen.items[1].detail.find("16 layers x 131,072 tokens"), std::string::npos) << qwen.items[1].detail;
    ASSERT_EQ(qwen.items[2].name, "recurrent state");
    EXPECT_NEAR(qwen.items[2].gb, 48 * 817152.0 * 4 / 1e9, 1e-9);
    in.contextTokens = 1024;
    EXPECT_DOUBLE_EQ(estimateMemory(in).items[2].gb, qwen.items[2].gb);
    in.contextTokens = 131072;
    in.model = findModelShape("deepseek-v3");
    const auto deepseek = estimateMemory(in);
    EXPECT_NEAR(kvGb(deepseek), 35136.0 * 131072 * 2 / 1e9, 1e-9); // 9.2 GB for 128K tokens
    EXPECT_NE(deepseek.items[1].detail.find("576 latent values"), std::string::npos) << deepseek.items[1].detail;
    // Giving K/V heads by hand describes ordinary attention: the latent vector no longer applies.
    in.kvHeads = 8;
    EXPECT_NEAR(kvGb(estimateMemory(in)), 2.0 * 61 * 8 * 128 * 131072 * 2 / 1e9, 1e-9);
    // A head width given by hand changes the cache and the query heads the shape has.
    in.kvHeads.reset();
    in.model = findModelShape("llama-3.1-8b");
    in.headDim = 64;
    const auto narrow = estimateMemory(in);
    EXPECT_EQ(narrow.headDim, 64);
    EXPECT_EQ(narrow.shapeBasis, "given shape");
    EXPECT_NEAR(kvGb(narrow), 131072.0 * 131072 / 2 / 1e9, 1e-9);
}

} // namespace
} // namespace advisor::calc
