// Tests for inference's memory over several GPUs as TensorRT-LLM splits a model (calc::MemoryInput::
// split): what the busiest GPU holds split by tensors, by layers and by experts.
#include "calc/memory.h"
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "catalog/catalog.h"
#include "perf/llm_inference.h"
#include "support/input_problems.h"

#include <gtest/gtest.h>

namespace advisor::calc {
namespace {

const MemoryItem& itemOf(const MemoryEstimate& e, const std::string& name) {
    for (const auto& i : e.items) {
        if (i.name == name) {
            return i;
        }
    }
    throw std::runtime_error("no item " + name);
}

// Qwen3 235B-A22B in TensorRT-LLM's FP8 (one byte a weight), 10 requests of 4,096 tokens.
MemoryInput qwen3OverEight(std::optional<perf::LlmSplit> split) {
    MemoryInput in;
    in.model = findModelShape("qwen3-235b-a22b");
    in.weights = perf::Precision::Int8;
    in.engine = perf::LlmEngine::TensorRtLlm;
    in.contextTokens = 4096;
    in.batch = 10;
    in.shardGpus = 8;
    in.split = split;
    return in;
}

TEST(MemorySplit, ByExpertsEachGpuHoldsTheSharedPartWholeAndAnEighthOfTheRoutedExperts) {
    // The model card's 235B total and 22B active with 8 of 128 experts a token: each expert
    // (235 - 22) / (128 - 8) = 1.775B, the 128 routed 227.2B, the shared part 7.8B.
    const double expert = (235.0 - 22.0) / (128 - 8);
    const double shared = 235.0 - 128 * expert;
    ASSERT_NEAR(shared, 7.8, 1e-9);
    const auto experts = estimateMemory(qwen3OverEight(perf::LlmSplit::Experts));
    EXPECT_NEAR(itemOf(experts, "weights").gb, shared + 128 * expert / 8, 1e-6); // 36.2 GB
    EXPECT_NE(itemOf(experts, "weights")
                  .detail.find("the shared 7.8B (7.8 GB) whole on each, 1/8 of the routed "
                               "experts' 227.2B"),
              std::string::npos)
        << itemOf(experts, "weights").detail;
    // Split by tensors (or unnamed) each GPU holds an eighth of everything.
    EXPECT_NEAR(itemOf(estimateMemory(qwen3OverEight(perf::LlmSplit::Tensors)), "weights").gb, 235.0 / 8, 1e-6);
    EXPECT_NEAR(itemOf(estimateMemory(qwen3OverEight(std::nullopt)), "weights").gb, 235.0 / 8, 1e-6);
    // The same bytes the serving engine counts as held when it fits sequences beside them.
    perf::PerfQuery q;
    q.llmWeights = perf::Precision::Int8;
    q.llmEngine = perf::LlmEngine::TensorRtLlm;
    q.llmSplit = perf::LlmSplit::Experts;
    q.gpus = 8;
    applyModelShape(q, *findModelShape("qwen3-235b-a22b"));
    EXPECT_NEAR(itemOf(experts, "weights").gb * 8, perf::llmWeightBytesHeld(q) / 1e9, 1e-6);
}

TEST(MemorySplit, ByExpertsEachGpuKeepsItsOwnRequestsCacheWholeAndEveryTokensActivations) {
    // 10 requests over 8 GPUs: the busiest keeps 2 whole, as one GPU with 2 would, although 4 KV
    // heads over 8 GPUs split by tensors are held twice (2 x 10 / 8 = 2.5 requests' worth).
    MemoryInput one = qwen3OverEight(std::nullopt);
    one.shardGpus = 1;
    one.batch = 2;
    const double twoRequests = itemOf(estimateMemory(one), "KV cache").gb;
    const auto experts = estimateMemory(qwen3OverEight(perf::LlmSplit::Experts));
    EXPECT_NEAR(itemOf(experts, "KV cache").gb, twoRequests, 1e-9);
    EXPECT_NE(itemOf(experts, "KV cache").detail.find("its own 2 of the 10 requests"), std::string::npos);
    const auto tensors = estimateMemory(qwen3OverEight(perf::LlmSplit::Tensors));
    EXPECT_NEAR(itemOf(tensors, "KV cache").gb, twoRequests / 2 * 10 * 2 / 8, 1e-9);
    // After the exchange a GPU holds every request's tokens: one GPU's activations for all 10.
    one.batch = 10;
    EXPECT_NEAR(itemOf(experts, "activations").gb, itemOf(estimateMemory(one), "activations").gb, 1e-12);
    EXPECT_NEAR(itemOf(tensors, "activations").gb, itemOf(estimateMemory(one), "activations").gb / 8, 1e-12);
    EXPECT_NE(experts.notes.back().find("split by experts"), std::string::npos) << experts.notes.back();
}

TEST(MemorySplit, ByLayersEachGpuHoldsAnEighthOfTheCacheOnceAndALayersWholeWidth) {
    MemoryInput one = qwen3OverEight(std::nullopt);
    one.shardGpus = 1;
    const auto whole = estimateMemory(one);
    const auto layers = estimateMemory(qwen3OverEight(perf::LlmSplit::Layers));
    EXPECT_NEAR(itemOf(layers, "weights").gb, itemOf(whole, "weights").gb / 8, 1e-9);
    EXPECT_NEAR(itemOf(layers, "KV cache").gb, itemOf(whole, "KV cache").gb / 8, 1e-9); // not held twice
    EXPECT_NEAR(itemOf(layers, "activations").gb, itemOf(whole, "activations").gb, 1e-12);
    EXPECT_NE(layers.notes.back().find("split by layers"), std::string::npos) << layers.notes.back();
}

TEST(MemorySplit, ADenseModelSplitByExpertsIsAWholeCopyOnEachGpu) {
    MemoryInput in;
    in.model = findModelShape("llama-3.1-70b");
    in.weights = perf::Precision::Int8;
    in.engine = perf::LlmEngine::TensorRtLlm;
    in.batch = 4;
    MemoryInput one = in;
    in.shardGpus = 4;
    in.split = perf::LlmSplit::Experts;
    const auto copies = estimateMemory(in);
    EXPECT_NEAR(itemOf(copies, "weights").gb, itemOf(estimateMemory(one), "weights").gb, 1e-9);
    EXPECT_NE(itemOf(copies, "weights").detail.find("a whole copy on each of the 4 GPUs"), std::string::npos);
    one.batch = 1; // each GPU its one request
    EXPECT_NEAR(itemOf(copies, "KV cache").gb, itemOf(estimateMemory(one), "KV cache").gb, 1e-9);
}

TEST(MemorySplit, SplitByExpertsNeedsAtLeastAsManyGpusAsByTensors) {
    const Catalog catalog = Catalog::builtin();
    MemoryInput tensors = qwen3OverEight(perf::LlmSplit::Tensors);
    tensors.shardGpus = 1;
    tensors.batch = 1;
    MemoryInput experts = tensors;
    experts.split = perf::LlmSplit::Experts;
    const auto byTensors = gpusThatFit(catalog, tensors);
    const auto byExperts = gpusThatFit(catalog, experts);
    ASSERT_FALSE(byExperts.empty());
    int more = 0;
    for (const auto& f : byExperts) {
        const auto same =
            std::find_if(byTensors.begin(), byTensors.end(), [&](const GpuFit& t) { return t.gpu == f.gpu; });
        ASSERT_NE(same, byTensors.end()) << f.gpu->name;
        EXPECT_GE(f.gpusNeeded, same->gpusNeeded) << f.gpu->name;
        more += f.gpusNeeded > same->gpusNeeded ? 1 : 0;
    }
    EXPECT_GT(more, 0); // the shared 7.8 GB on every card costs some GPU a doubling
}

TEST(MemorySplit, TheGpusThatFitAModelSplitOverEightAreEightCards) {
    // Each card's share is for 8 of them: an RTX A6000 holds it as one of 8, not alone.
    const auto fits = gpusThatFit(Catalog::builtin(), qwen3OverEight(perf::LlmSplit::Experts));
    ASSERT_FALSE(fits.empty());
    for (const auto& f : fits) {
        EXPECT_EQ(f.gpusNeeded, 8) << f.gpu->name;
    }
}

TEST(MemorySplit, ASplitIsRefusedWithoutTensorRtLlmsInference) {
    MemoryInput in = qwen3OverEight(perf::LlmSplit::Experts);
    in.engine = perf::LlmEngine::LlamaCpp;
    auto problems = testing::problemsOf([&] { estimateMemory(in); });
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("field 'split'"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("llama.cpp splits it by layers"), std::string::npos) << problems[0];
    in.engine.reset();
    EXPECT_EQ(testing::problemsOf([&] { estimateMemory(in); }).size(), 1u);
    in = qwen3OverEight(perf::LlmSplit::Layers);
    in.mode = MemoryMode::FullTraining;
    in.engine.reset();
    in.weights = perf::Precision::Fp16;
    problems = testing::problemsOf([&] { estimateMemory(in); });
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("ZeRO-3 / FSDP"), std::string::npos) << problems[0];
}

} // namespace
} // namespace advisor::calc
