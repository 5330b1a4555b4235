// Tests for chunked attention (Llama 4's attention_chunk_size): a chunked layer attends to the
// tokens since its chunk began, so it reads fewer than it holds, and a prompt's tokens see fewer
// positions than under a sliding window of the same length.
#include "calc/kv_cache.h"
#include "calc/memory.h"
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "common/errors.h"
#include "perf/llm_inference.h"

#include <gtest/gtest.h>

namespace advisor::calc {
namespace {

// Llama 4 Scout's attention: 48 layers, 36 attending in chunks of 8,192, 8 KV heads of 128.
AttentionShape scout() {
    return attentionShapeOf(*findModelShape("llama-4-scout"));
}

constexpr double kPerLayerToken = 2.0 * 8 * 128; // K and V

TEST(ChunkedAttention, ALayerReadsTheTokensSinceItsChunkBeganAndHoldsUpToItsChunk) {
    const AttentionShape a = scout();
    ASSERT_TRUE(a.chunked);
    // At 9,000 tokens the chunked layers' second chunk began at 8,193: 808 tokens each.
    EXPECT_DOUBLE_EQ(kvCacheValuesRead(a, 9000), kPerLayerToken * (12 * 9000.0 + 36 * 808.0));
    EXPECT_DOUBLE_EQ(kvCacheValues(a, 9000), kPerLayerToken * (12 * 9000.0 + 36 * 8192.0));
    // Up to a chunk's end both are the whole context; a sliding window reads what it holds.
    EXPECT_DOUBLE_EQ(kvCacheValuesRead(a, 8192), kvCacheValues(a, 8192));
    EXPECT_DOUBLE_EQ(kvCacheValuesRead(a, 16384), kvCacheValues(a, 16384));
    AttentionShape sliding = a;
    sliding.chunked = false;
    EXPECT_DOUBLE_EQ(kvCacheValuesRead(sliding, 9000), kvCacheValues(sliding, 9000));
}

TEST(ChunkedAttention, AnAnswersMeanReadsFollowEachChunkFromItsStart) {
    const AttentionShape a = scout();
    // Answer tokens reading 8,193..9,216 cached tokens: a chunked layer 1..1,024 (512.5 on
    // average), a full layer the mean context; under a window of 8,192, 8,192 throughout.
    EXPECT_DOUBLE_EQ(meanKvCacheValuesRead(a, 8193, 9216), kPerLayerToken * (12 * 8704.5 + 36 * 512.5));
    AttentionShape sliding = a;
    sliding.chunked = false;
    EXPECT_DOUBLE_EQ(meanKvCacheValuesRead(sliding, 8193, 9216), kPerLayerToken * (12 * 8704.5 + 36 * 8192.0));
    // Over contexts 1..16,384, two whole chunks: 4,096.5 on average, the full layers 8,192.5.
    EXPECT_DOUBLE_EQ(meanKvCacheValuesRead(a, 1, 16384), kPerLayerToken * (12 * 8192.5 + 36 * 4096.5));
}

TEST(ChunkedAttention, APromptsTokensSeeTheirChunkOnly) {
    const AttentionShape a = scout();
    // A 16,384-token prompt: each chunked layer's tokens see 1..8,192 twice over (4,096.5 on
    // average); a window of 8,192 lets the second half see 8,192 each (6,144.25 on average).
    EXPECT_DOUBLE_EQ(meanAttendedPositions(a, 16384), 12 * 8192.5 + 36 * 4096.5);
    AttentionShape sliding = a;
    sliding.chunked = false;
    EXPECT_DOUBLE_EQ(meanAttendedPositions(sliding, 16384), 12 * 8192.5 + 36 * 6144.25);
    // After 8,192 cached tokens, a 1,000-token prompt starts a new chunk: 500.5 each.
    EXPECT_DOUBLE_EQ(meanAttendedPositions(a, 1000, 8192), 12 * (8192 + 500.5) + 36 * 500.5);
}

TEST(ChunkedAttention, PerfReadsTheChunkButCountsWhatEachSequenceHolds) {
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmDecode;
    q.llmWeights = perf::Precision::Int4;
    q.llmContextTokens = 9000;
    applyModelShape(q, *findModelShape("llama-4-scout"));
    ASSERT_TRUE(q.llmKvCacheValues && q.llmKvCacheValuesHeld);
    EXPECT_DOUBLE_EQ(*q.llmKvCacheValues, kvCacheValuesRead(scout(), 9000));
    EXPECT_DOUBLE_EQ(*q.llmKvCacheValuesHeld, kvCacheValues(scout(), 9000));
    // Each token reads 808 of the chunked layers' tokens; llama.cpp holds their 8,192 for each
    // sequence it fits, and the text says why the read is less.
    EXPECT_DOUBLE_EQ(perf::kvCacheBytes(q), *q.llmKvCacheValues * 2.0);
    EXPECT_DOUBLE_EQ(perf::reservedKvCacheBytes(q), *q.llmKvCacheValuesHeld * 2.0);
    EXPECT_DOUBLE_EQ(perf::heldKvCacheBytes(q), *q.llmKvCacheValuesHeld * 2.0);
    EXPECT_NE(perf::decodeBytesNote(q).find("chunked layers read only the tokens since their chunk began"),
              std::string::npos)
        << perf::decodeBytesNote(q);
    // A model without chunks holds what it reads.
    perf::PerfQuery dense = q;
    applyModelShape(dense, *findModelShape("llama-3.1-8b"));
    EXPECT_FALSE(dense.llmKvCacheValuesHeld);
    EXPECT_DOUBLE_EQ(perf::heldKvCacheBytes(dense), perf::kvCacheBytes(dense));
}

TEST(ChunkedAttention, TheMemoryCalculatorHoldsAWholeChunkAndSaysItIsOne) {
    MemoryInput in;
    in.model = findModelShape("llama-4-scout");
    in.contextTokens = 9000;
    const auto e = estimateMemory(in);
    const auto& cache = e.items[1];
    ASSERT_EQ(cache.name, "KV cache");
    EXPECT_DOUBLE_EQ(cache.gb, kvCacheValues(scout(), 9000) * 2.0 / 1e9); // f16, one sequence
    EXPECT_NE(cache.detail.find("+ 36 chunked layers x 8,192 tokens"), std::string::npos) << cache.detail;
}

TEST(ChunkedAttention, AShapeGivesChunksOrASlidingWindowNotBoth) {
    const std::string head = R"({"models": [{"id": "m", "label": "M", "params_billion": 8, "layers": 32,
        "hidden": 4096, "kv_heads": 8, "context_tokens": 131072, "source": "test", )";
    const auto shapes =
        parseModelShapes(head + R"("attention_chunk": 4096, "attention_chunk_layers": 24}]})", "s.json");
    ASSERT_EQ(shapes.size(), 1u);
    EXPECT_TRUE(shapes[0].chunkedAttention);
    EXPECT_EQ(shapes[0].slidingWindow, 4096);
    EXPECT_EQ(shapes[0].slidingLayers, 24);
    try {
        parseModelShapes(head + R"("sliding_window": 4096, "sliding_window_layers": 24, "attention_chunk": 4096,
            "attention_chunk_layers": 24}]})",
                         "s.json");
        FAIL() << "both accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("attention_chunk"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("s.json"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace advisor::calc
