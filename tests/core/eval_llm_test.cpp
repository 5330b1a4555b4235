// Tests for eval-model's LLM rows: the llama-bench test and the published model a workload name
// gives, and rows at a depth predicted with the cache they ran with.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "perf/model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace advisor::eval {
namespace {

const std::string kHeader = "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n";

TEST(LlmWorkloadNames, GiveTheLlamaBenchTest) {
    const LlmTest tg = llmTestIn("llama2-7b-q4_0-tg128");
    EXPECT_EQ(tg.generatedTokens, 128);
    EXPECT_FALSE(tg.promptTokens);
    EXPECT_EQ(tg.depthTokens, 0);
    // As llama-bench prints it since mid-2025, and as a CSV name may spell it.
    const LlmTest deep = llmTestIn("llama 8B Q4_0 pp512@d32768");
    EXPECT_EQ(deep.promptTokens, 512);
    EXPECT_EQ(deep.depthTokens, 32768);
    EXPECT_EQ(llmTestIn("gpt-oss-20b-mxfp4-tg32-depth4096").depthTokens, 4096);
    EXPECT_EQ(llmTestIn("llama3-8b-q4km-tg512-d0").depthTokens, 0);
    // Nothing that is not a test: a quantisation, a size, a model's own digits.
    const LlmTest none = llmTestIn("deepseek-v3-q4_k_m-8x7b-d");
    EXPECT_FALSE(none.promptTokens);
    EXPECT_FALSE(none.generatedTokens);
    EXPECT_EQ(none.depthTokens, 0);
    EXPECT_FALSE(llmTestIn("llama3-8b-pp").promptTokens);
}

TEST(LlmWorkloadNames, NameThePublishedModelWithTheLongestId) {
    const auto idOf = [](const char* name) {
        const calc::ModelShape* m = modelShapeIn(name);
        return m != nullptr ? m->id : std::string("(none)");
    };
    EXPECT_EQ(idOf("llama2-7b-q4_0-tg128"), "llama-2-7b");
    EXPECT_EQ(idOf("Llama-2-70B-Q4_K_M-pp512"), "llama-2-70b"); // not the 7B its name begins with
    EXPECT_EQ(idOf("qwen3-30b-a3b-q4_0-tg128"), "qwen3-30b-a3b");
    EXPECT_EQ(idOf("Qwen2.5 72B Instruct"), "qwen2.5-72b");
    EXPECT_EQ(idOf("llama3-8b-q4km-tg512"), "(none)"); // Llama 3, not 3.1: the size law's own 8B
    EXPECT_EQ(idOf("mistral-7b-q4_0-tg128"), "(none)");
    EXPECT_EQ(mixtureOfExpertsIn("llama2-7b-q4_0-tg128"), nullptr); // dense
    ASSERT_NE(mixtureOfExpertsIn("gpt-oss-20b-mxfp4-tg128"), nullptr);
}

// The second row's prediction relative to the first row's GPU, `reference`.
double predictedRelative(const std::string& rows, const char* reference) {
    const perf::PerfModel model(Catalog::builtin());
    const auto ev =
        evaluate(readBenchmarks(kHeader + rows, "b.csv"), Catalog::builtin(), model, std::string(reference));
    EXPECT_TRUE(ev.rows.at(1).evaluated);
    return ev.rows.at(1).predictedRelative;
}

// An int4 LLM query of `paramsBillion`, to be given the cache and attention the row implies.
perf::PerfQuery int4Query(perf::Metric metric, double paramsBillion) {
    perf::PerfQuery q;
    q.metric = metric;
    q.llmWeights = perf::Precision::Int4;
    q.llmParamsBillion = paramsBillion;
    return q;
}

// `gpu`'s predicted tokens/s over `reference`'s for q.
double predictedRatio(const perf::PerfQuery& q, const char* gpu, const char* reference) {
    const perf::PerfModel model(Catalog::builtin());
    return model.throughput(Catalog::builtin().require(gpu), q) /
           model.throughput(Catalog::builtin().require(reference), q);
}

TEST(EvalLlm, APromptAtADepthIsPredictedWithTheCacheItAttendsTo) {
    // Llama 3.1 8B, pp512 after 32,768 tokens: each token attends to 32,768 + 256.5 positions in
    // 32 layers of 32 query heads of 128, 4 FLOPs per position and width.
    perf::PerfQuery q = int4Query(perf::Metric::LlmPrefill, 8.0);
    q.llmContextTokens = 512;
    q.llmDepthTokens = 32768;
    q.llmKvCacheValues = 65536.0 * (32768 + 512);
    q.llmPrefillAttentionFlops = 4.0 * 4096 * 32 * (32768 + 256.5);
    const double deep = predictedRelative("RTX 3090,1,llama-3.1-8b-q4_0-pp512@d32768,llm-prefill,int4,512,1471,x\n"
                                          "A100 80GB PCIe,1,llama-3.1-8b-q4_0-pp512@d32768,llm-prefill,int4,512,1,x\n",
                                          "RTX 3090");
    EXPECT_NEAR(deep, predictedRatio(q, "A100 80GB PCIe", "RTX 3090"), 1e-12);
    // Attention runs at the FP16 rate with FP32 sums, half rate on GeForce: at depth the A100
    // pulls further ahead of the RTX 3090 than on an empty cache.
    const double shallow = predictedRelative("RTX 3090,1,llama-3.1-8b-q4_0-pp512,llm-prefill,int4,512,1,x\n"
                                             "A100 80GB PCIe,1,llama-3.1-8b-q4_0-pp512,llm-prefill,int4,512,1,x\n",
                                             "RTX 3090");
    EXPECT_GT(deep, shallow * 1.1);
}

TEST(EvalLlm, TokenGenerationReadsTheCacheAsItGrows) {
    // Llama 2 7B keeps 32 KV heads (no grouped-query attention): 2 x 32 x 32 x 128 = 262,144
    // elements per token. tg128 after 4,096 tokens reads 4,096 + 64 of them on average.
    perf::PerfQuery q = int4Query(perf::Metric::LlmDecode, 6.7);
    q.llmKvCacheValues = 262144.0 * (4096 + 64);
    const double relative = predictedRelative("Tesla P40,1,llama2-7b-q4_0-tg128@d4096,llm-decode,int4,1,1,x\n"
                                              "RTX 3090,1,llama2-7b-q4_0-tg128@d4096,llm-decode,int4,1,1,x\n",
                                              "Tesla P40");
    EXPECT_NEAR(relative, predictedRatio(q, "RTX 3090", "Tesla P40"), 1e-12);
    // With the size law's 8B-like cache (a quarter of it) the ratio differs: the shape is used.
    q.llmKvCacheValues = 65536.0 * std::sqrt(6.7 / 8.0) * (4096 + 64);
    EXPECT_GT(std::fabs(relative - predictedRatio(q, "RTX 3090", "Tesla P40")), 1e-4);
}

} // namespace
} // namespace advisor::eval
