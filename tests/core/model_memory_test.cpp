// Tests for core/advisor/model_memory: how a model's size or name becomes the memory a
// recommendation needs, for the task, the context and the requests served at once.
#include "advisor/model_memory.h"
#include "advisor/recommender.h"
#include "catalog/catalog.h"
#include "support/price_fixtures.h"

#include <gtest/gtest.h>

namespace advisor::advice {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

const std::vector<Price>& prices() {
    static const std::vector<Price> p = {testing::observedPrice("rtx-4090", 1600, Condition::New, "2025-01"),
                                         testing::observedPrice("rtx-5090", 2700, Condition::New, "2026-06"),
                                         testing::observedPrice("rtx-a6000", 4000, Condition::New, "2025-01")};
    return p;
}

TEST(ModelMemory, TheTaskDecidesHowAModelSizeBecomesGigabytes) {
    RecommendInput in;
    in.task = Task::FineTune;
    auto m = memoryInputFor(in, 13);
    EXPECT_EQ(m.mode, calc::MemoryMode::Qlora);
    EXPECT_EQ(m.weights, perf::Precision::Int4);
    in.eightBit = true;
    EXPECT_EQ(memoryInputFor(in, 13).weights, perf::Precision::Int8);
    in.task = Task::Inference;
    in.llmWeights = perf::Precision::Int4;
    m = memoryInputFor(in, 70);
    EXPECT_EQ(m.mode, calc::MemoryMode::Inference);
    EXPECT_EQ(m.weights, perf::Precision::Int4);
    in = RecommendInput{};
    EXPECT_EQ(memoryInputFor(in, 7).mode, calc::MemoryMode::FullTraining);
    EXPECT_EQ(memoryInputFor(in, 7).weights, perf::Precision::Fp16);
    // Sizing sets the memory and the model size the LLM metrics use.
    const auto used = sizeMemoryForModel(in, 7);
    EXPECT_GT(in.memoryGb, 7 * 16.0); // fp16 weights and gradients, fp32 master copy, two Adam moments
    EXPECT_EQ(in.llmParamsBillion, 7.0);
    EXPECT_EQ(describeMemoryBasis(used), "7B parameters, full-training with fp16 weights");
    EXPECT_FALSE(in.llmActiveParamsBillion);
    EXPECT_THROW(sizeMemoryForModel(in, 0), InputError);
    // A mixture of experts: memory for every expert, token generation reads the active ones.
    in = RecommendInput{};
    in.task = Task::Inference;
    in.domain = Domain::Llm;
    in.llmWeights = perf::Precision::Int4;
    sizeMemoryForModel(in, 0, calc::findModelShape("mixtral-8x7b"));
    EXPECT_EQ(in.llmParamsBillion, 46.7);
    EXPECT_EQ(in.llmActiveParamsBillion, 12.9);
    EXPECT_GT(in.memoryGb, 24.0); // 46.7B at 4.85 bits: 28 GB of weights
    const auto q = queryFor(in);
    EXPECT_EQ(q.metric, perf::Metric::LlmDecode);
    EXPECT_DOUBLE_EQ(q.llmActiveParamsBillion, 12.9);
    sizeMemoryForModel(in, 13); // a dense size afterwards forgets the experts
    EXPECT_FALSE(in.llmActiveParamsBillion);
}

TEST(ModelMemory, RequestsServedTogetherEachKeepTheirCache) {
    // Llama 3.1 8B at 8,192 tokens keeps 1.07 GB of f16 cache per request: 16 requests need
    // 15 x 1.07 GB more than one, and are ranked by their tokens/s together.
    RecommendInput in;
    in.task = Task::Inference;
    in.domain = Domain::Llm;
    in.llmWeights = perf::Precision::Int4;
    in.llmContextTokens = 8192;
    const calc::ModelShape* llama = calc::findModelShape("llama-3.1-8b");
    sizeMemoryForModel(in, 0, llama);
    const double one = in.memoryGb;
    in.llmSequences = 16;
    const auto sixteen = sizeMemoryForModel(in, 0, llama);
    EXPECT_EQ(sixteen.batch, 16);
    EXPECT_EQ(describeMemoryBasis(sixteen),
              "Llama 3.1 8B: 8B parameters, inference with int4 weights (Q4_K_M), 8,192 tokens of context, 16 "
              "requests at once");
    EXPECT_GT(in.memoryGb - one, 15 * 65536.0 * 8192 * 2 / 1e9);
    EXPECT_EQ(queryFor(in).llmSequences, 16);

    const perf::PerfModel model(cat());
    in.budgetUsd = 10000;
    const Recommendation rec = recommend(cat(), model, prices(), {}, in);
    ASSERT_FALSE(rec.shortlist.empty());
    for (const auto& c : rec.shortlist) {
        EXPECT_GE(c.gpu->memoryGb * c.count, in.memoryGb) << c.gpu->name;
    }
    const Candidate& first = rec.shortlist.front();
    EXPECT_DOUBLE_EQ(first.throughput, model.throughput(*first.gpu, queryFor(in)));
    bool says = false;
    for (const auto& r : first.reasons) {
        says |= r.find("(llm-decode, 16 requests together: ") != std::string::npos;
    }
    EXPECT_TRUE(says);
    // The engine's own files size the weights, as perf reads them: TensorRT-LLM's INT4 AWQ is
    // 4.125 bits against Q4_K_M's 4.85; a CNN's inference is sized without an engine.
    const double q4km = in.memoryGb;
    in.llmEngine = perf::LlmEngine::TensorRtLlm;
    sizeMemoryForModel(in, 0, llama);
    EXPECT_NEAR(q4km - in.memoryGb, 8.0 * (4.85 - 4.125) / 8, 1e-9);
    EXPECT_EQ(memoryInputFor(in, 8, llama).engine, perf::LlmEngine::TensorRtLlm);
    EXPECT_NE(describeMemoryBasis(memoryInputFor(in, 8, llama)).find("int4 weights (INT4 AWQ)"), std::string::npos);
    // A model's own 4-bit release keeps its own format's name and size in any engine.
    EXPECT_NE(describeMemoryBasis(memoryInputFor(in, 0, calc::findModelShape("gpt-oss-120b"))).find("(MXFP4)"),
              std::string::npos);
    in.domain = Domain::Cnn;
    EXPECT_FALSE(memoryInputFor(in, 8).engine);
    in.domain = Domain::Llm;
    in.llmEngine = perf::LlmEngine::LlamaCpp;
    // A mixture of experts brings its routing with it.    // A mixture of experts brings its routing with it.
    sizeMemoryForModel(in, 0, calc::findModelShape("mixtral-8x7b"));
    EXPECT_EQ(queryFor(in).llmExperts, 8);
    EXPECT_EQ(queryFor(in).llmExpertsPerToken, 2);
    in.llmSequences = 0;
    EXPECT_THROW(recommend(cat(), model, {}, {}, in), InputError);
}

} // namespace
} // namespace advisor::advice
