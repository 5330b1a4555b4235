// TensorRT-LLM 0.9's published time to the first token of one request: the shipped file reads, and
// the serving engine's prompt step, with constants fitted on the throughput tables only, predicts
// it as closely as perf says.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "eval/first_token.h"
#include "eval/stats.h"
#include "perf/serving_engine.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace advisor::eval {
namespace {

const perf::PerfModel& model() {
    static const perf::PerfModel m(Catalog::builtin());
    return m;
}

const FirstTokenRun& find(const std::vector<FirstTokenRun>& runs, const std::string& gpu, const std::string& name,
                          int in) {
    const auto it = std::find_if(runs.begin(), runs.end(), [&](const FirstTokenRun& r) {
        return r.gpu == gpu && r.model == name && r.inputTokens == in;
    });
    EXPECT_NE(it, runs.end()) << gpu << " " << name << " " << in;
    return *it;
}

double predicted(const FirstTokenRun& r) {
    return predictFirstTokenMs(model(), Catalog::builtin().require(r.gpu), r);
}

TEST(FirstTokenRuns, TheShippedFileHoldsTheLowLatencyTables) {
    const auto runs = builtinFirstTokenRuns();
    ASSERT_EQ(runs.size(), 48u); // 12 rows for each of the four GPUs
    const auto moe = std::count_if(runs.begin(), runs.end(), [](const auto& r) { return r.mixtureOfExperts(); });
    EXPECT_EQ(moe, 8);
    // H100, LLaMA 7B, 128 tokens in: 6.3 ms; the prompt of one request as llm-prefill in the engine.
    const FirstTokenRun& r = find(runs, "H100 SXM5", "LLaMA 7B", 128);
    EXPECT_DOUBLE_EQ(r.firstTokenMs, 6.3);
    EXPECT_EQ(r.query.metric, perf::Metric::LlmPrefill);
    EXPECT_EQ(r.query.llmEngine, perf::LlmEngine::TensorRtLlm);
    EXPECT_EQ(r.query.llmContextTokens, 128);
    EXPECT_EQ(r.query.gpus, 1);
    // Attention: 4 FLOPs per attended position and unit of width in each of 32 layers, the i-th
    // token attending to i: (128 + 1) / 2 on average.
    EXPECT_DOUBLE_EQ(*r.query.llmPrefillAttentionFlops, 4.0 * 32 * 4096 * 64.5);
    EXPECT_EQ(find(runs, "L40S", "LLaMA 70B", 2048).query.gpus, 4);
}

TEST(FirstTokenRuns, TheTablesOwnFiguresAndRatiosComeOutClose) {
    const auto runs = builtinFirstTokenRuns();
    const FirstTokenRun& short100 = find(runs, "H100 SXM5", "LLaMA 7B", 128);
    const FirstTokenRun& long100 = find(runs, "H100 SXM5", "LLaMA 7B", 2048);
    const FirstTokenRun& longH200 = find(runs, "H200 SXM", "LLaMA 7B", 2048);
    EXPECT_NEAR(predicted(short100) / 6.3, 1.0, 0.15) << predicted(short100);
    EXPECT_NEAR(predicted(long100) / 30.8, 1.0, 0.15) << predicted(long100);
    // 16x the tokens took 4.9x the time: the weights' reads and the fixed time do not grow. At the
    // matmul rate alone it would be 16x.
    const double ratio = predicted(long100) / predicted(short100);
    EXPECT_NEAR(ratio / (30.8 / 6.3), 1.0, 0.1) << ratio;
    // A long prompt is compute-bound: the H200, an H100 with 43% more bandwidth, took as long (30.2
    // ms against 30.8), where its short prompt gained 10% (5.7 ms against 6.3).
    EXPECT_NEAR(predicted(longH200) / predicted(long100), 30.2 / 30.8, 0.03);
    EXPECT_NEAR(predicted(find(runs, "H200 SXM", "LLaMA 7B", 128)) / predicted(short100), 5.7 / 6.3, 0.05);
}

// The bands perf reports for the engine's prompts are the errors computed here, for dense models.
TEST(FirstTokenRuns, TheErrorsAreWhatPerfReportsAndMeetTheTargets) {
    std::vector<double> single, parallel;
    for (const auto& r : builtinFirstTokenRuns()) {
        if (!r.mixtureOfExperts()) {
            (r.query.gpus > 1 ? parallel : single).push_back(100.0 * std::fabs(predicted(r) / r.firstTokenMs - 1.0));
        }
    }
    ASSERT_EQ(single.size(), 24u);
    ASSERT_EQ(parallel.size(), 16u);
    EXPECT_LT(percentile(single, 90), 25.0);
    EXPECT_NEAR(median(single), perf::kServingPromptAccuracy.medianPct, 0.05);
    EXPECT_NEAR(percentile(single, 90), perf::kServingPromptAccuracy.p90Pct, 0.05);
    EXPECT_EQ(perf::kServingPromptAccuracy.rows, 24);
    EXPECT_NEAR(median(parallel), perf::kServingPromptTensorParallelAccuracy.medianPct, 0.05);
    EXPECT_NEAR(percentile(parallel, 90), perf::kServingPromptTensorParallelAccuracy.p90Pct, 0.05);
    EXPECT_EQ(perf::kServingPromptTensorParallelAccuracy.rows, 16);
}

TEST(FirstTokenRuns, ABadFileIsRefusedRowByRowNamingLineAndField) {
    const std::string header = "gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,"
                               "kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,input_tokens,first_token_ms,"
                               "source\n";
    const std::string file = header + "L40S,a,7,,,,32,4096,65536,fp8,8,fp8,1,128,14.1,ok\n" +
                             "L40S,b,7,,,,32,4096,65536,fp8,8,fp8,1,0,14.1,no prompt\n" +
                             "L40S,c,7,,,,32,4096,65536,fp8,8,fp8,1,128,-3,negative\n" +
                             ",d,7,,,,32,4096,65536,fp8,8,fp8,1,128,14.1,no GPU\n";
    try {
        readFirstTokenRuns(file, "latency.csv");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        for (const char* expected : {"latency.csv:3: field 'input_tokens': must be a whole number from 1 to 1000000",
                                     "latency.csv:4: field 'first_token_ms': must be a number above 0",
                                     "latency.csv:5: field 'gpu': must name a GPU"}) {
            EXPECT_NE(what.find(expected), std::string::npos) << expected << "\n" << what;
        }
        EXPECT_EQ(what.find("latency.csv:2:"), std::string::npos) << what;
    }
}

} // namespace
} // namespace advisor::eval
