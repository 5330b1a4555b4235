// llama.cpp runs with part of a model in system RAM: the shipped file reads, the two offload
// constants are what fitting them gives, and the error they leave, in and out of sample.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "eval/offload_fit.h"
#include "eval/stats.h"
#include "perf/llm_offload.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace advisor::eval {
namespace {

const perf::PerfModel& model() {
    static const perf::PerfModel m(Catalog::builtin());
    return m;
}

double largest(const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end());
}

TEST(OffloadRuns, TheShippedFileHoldsDenseAndMixtureOfExpertsRuns) {
    const auto runs = builtinOffloadRuns();
    ASSERT_EQ(runs.size(), 10u);
    const auto moe = std::count_if(runs.begin(), runs.end(),
                                   [](const OffloadRun& r) { return r.query.llmCpuMoeLayers.has_value(); });
    EXPECT_EQ(moe, 3);
    const auto& qwen = runs[4];
    EXPECT_EQ(qwen.model, "qwen3-14b");
    EXPECT_EQ(qwen.query.llmLayers, 40);
    EXPECT_EQ(qwen.query.llmGpuLayers, 32);
    EXPECT_DOUBLE_EQ(*qwen.query.llmOutputHeadParamsBillion, 151936.0 * 5120 / 1e9);
    EXPECT_DOUBLE_EQ(*qwen.query.systemRamGbs, 102.0);
    EXPECT_DOUBLE_EQ(qwen.tokensPerSecond, 16.9);
}

TEST(OffloadRuns, TheShippedConstantsAreWhatFittingTheRunsGives) {
    const OffloadConstantsFit fit = fitOffloadConstants(builtinOffloadRuns(), Catalog::builtin(), model());
    EXPECT_DOUBLE_EQ(fit.ramReadEfficiency, perf::kRamReadEfficiency);
    EXPECT_DOUBLE_EQ(fit.cpuLayerMs, perf::kCpuLayerMs);
}

TEST(OffloadRuns, TheErrorInAndOutOfSampleIsReported) {
    const OffloadConstantsFit fit = fitOffloadConstants(builtinOffloadRuns(), Catalog::builtin(), model());
    ASSERT_EQ(fit.errorsPct.size(), 10u);
    ASSERT_EQ(fit.leaveOneOutErrorsPct.size(), 10u);
    // docs/performance-model.md: 4.7% median and 21.7% at most in sample; 7.6% and 21.7% for
    // each run predicted by constants fitted without it.
    EXPECT_LT(median(fit.errorsPct), 6.0);
    EXPECT_LT(largest(fit.errorsPct), 25.0);
    EXPECT_LT(median(fit.leaveOneOutErrorsPct), 10.0);
    EXPECT_LT(largest(fit.leaveOneOutErrorsPct), 25.0);
}

TEST(OffloadRuns, ABadFileIsRefusedRowByRowNamingLineAndField) {
    const std::string header = "gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,vocab,"
                               "hidden,bits_per_weight,gpu_layers,cpu_moe_layers,system_ram_gbs,tokens_per_s,source\n";
    const std::string file = header + "RTX 2080,a,14,,,,40,,,4.85,32,,102,16.9,ok\n" +
                             "RTX 2080,b,14,,,,40,,,4.85,,,102,16.9,neither placement\n" +
                             "RTX 2080,c,14,,,,40,,,4.85,,10,102,16.9,experts of a dense model\n" +
                             "RTX 2080,d,14,,,,40,,,4.85,32,,0,16.9,no RAM\n" +
                             "RTX 2080,e,14,,,,40,,,4.85,32,,102,fast,not a number\n" +
                             "RTX 2080,f,14,,,,40,100000,,4.85,32,,102,16.9,vocab without hidden\n" +
                             "RTX 4090,g,60,3,128,8,48,,,4.85,,48,89.6,10,8 of 128 experts are more than 3B\n";
    try {
        readOffloadRuns(file, "runs.csv");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        for (const char* expected :
             {"runs.csv:3: field 'gpu_layers': give gpu_layers (a dense model's -ngl) or cpu_moe_layers",
              "runs.csv:4: field 'cpu_moe_layers': only a mixture of experts",
              "runs.csv:5: field 'system_ram_gbs': must be a number above 0 and at most 2000, got '0'",
              "runs.csv:6: field 'tokens_per_s': must be a number above 0",
              "runs.csv:7: field 'hidden': must be a whole number from 128",
              "runs.csv:8: field 'experts_per_token': more than the active parameters hold"}) {
            EXPECT_NE(what.find(expected), std::string::npos) << expected << "\n" << what;
        }
        EXPECT_EQ(what.find("runs.csv:2:"), std::string::npos) << what;
    }
}

} // namespace
} // namespace advisor::eval
