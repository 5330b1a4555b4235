// A later TensorRT-LLM release's perf overview at full load, never fitted on: the serving engine,
// fitted on the 0.9 tables and checked on 1.0's, predicts its dense rows (Llama 3.3 70B at new
// lengths and GPU counts) about as well as perf says, and gives its mixtures of experts too fast,
// by as much as the band perf reports for them says.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "eval/full_load.h"
#include "eval/stats.h"
#include "perf/accuracy.h"
#include "perf/serving_engine.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

double errorPct(const FullLoadRun& r) {
    static const perf::PerfModel model(Catalog::builtin());
    return 100.0 * (predictFullLoad(model, Catalog::builtin().require(r.gpu), r) / r.outputTokensPerSecond - 1.0);
}

struct Errors {
    std::vector<double> dense, mixture;
    int mixtureFast = 0;
};

Errors laterReleaseErrors() {
    Errors e;
    for (const auto& r : builtinLaterFullLoadRuns()) {
        const double err = errorPct(r);
        if (r.mixtureOfExperts()) {
            e.mixture.push_back(std::fabs(err));
            e.mixtureFast += err > 0 ? 1 : 0;
        } else {
            e.dense.push_back(std::fabs(err));
        }
    }
    return e;
}

TEST(LaterRelease, TheShippedFileHoldsTheOverviewsRowsPerGpuTimesTheGpus) {
    const auto runs = builtinLaterFullLoadRuns();
    ASSERT_EQ(runs.size(), 74u);
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [](const FullLoadRun& r) { return r.mixtureOfExperts(); }), 50);
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [](const FullLoadRun& r) { return splitByLayers(r); }), 4);
    // The table gives output tokens/s per GPU: two H200s at 1000/1000 gave 2,587 each.
    const auto h200 = std::find_if(runs.begin(), runs.end(), [](const FullLoadRun& r) {
        return r.gpu == "H200 SXM" && r.model == "llama-3.1-70b" && r.inputTokens == 1000;
    });
    ASSERT_NE(h200, runs.end());
    EXPECT_EQ(h200->query.gpus, 2);
    EXPECT_DOUBLE_EQ(h200->outputTokensPerSecond, 2 * 2587.0);
    // gpt-oss on Hopper ran MXFP4 weights multiplied in 16 bits with a 16-bit cache.
    const auto oss = std::find_if(runs.begin(), runs.end(),
                                  [](const FullLoadRun& r) { return r.gpu == "H100 SXM5" && r.model == "gpt-oss-20b"; });
    ASSERT_NE(oss, runs.end());
    EXPECT_EQ(oss->query.llmWeights, perf::Precision::Int4);
    EXPECT_EQ(oss->query.llmKvCache, perf::KvCacheType::F16);
    EXPECT_EQ(oss->query.llmExperts, 32);
}

TEST(LaterRelease, ItsDenseRowsComeOutAsCloseAsTheEnginesBandsSay) {
    // Never fitted on: 24 rows of Llama 3.3 70B, on one B200, GB200 or RTX PRO 6000 in NVFP4, two
    // H100s or H200s in FP8, and two RTX PRO 6000s split by layers, at lengths up to 32,768 in.
    const Errors e = laterReleaseErrors();
    ASSERT_EQ(e.dense.size(), 24u);
    EXPECT_LT(median(e.dense), perf::kServingFullLoadAccuracy.medianPct);
    EXPECT_LT(percentile(e.dense, 90), perf::kServingFp4Accuracy.p90Pct);
    EXPECT_LT(*std::max_element(e.dense.begin(), e.dense.end()), 20.0);
}

TEST(LaterRelease, ItsMixturesOfExpertsComeOutTooFastByTheBandPerfReports) {
    const Errors e = laterReleaseErrors();
    ASSERT_EQ(e.mixture.size(), 50u);
    EXPECT_EQ(perf::kServingMixtureOfExpertsAccuracy.rows, 50);
    EXPECT_NEAR(median(e.mixture), perf::kServingMixtureOfExpertsAccuracy.medianPct, 0.05);
    EXPECT_NEAR(percentile(e.mixture, 90), perf::kServingMixtureOfExpertsAccuracy.p90Pct, 0.05);
    EXPECT_GE(e.mixtureFast, 49); // what the note on such predictions says
}

TEST(LaterRelease, PerfReportsTheMixturesBandForAnyMixtureInTheEngine) {
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmDecode;
    q.llmEngine = perf::LlmEngine::TensorRtLlm;
    q.llmExperts = 128;
    q.llmExpertsPerToken = 8;
    for (const auto weights : {perf::Precision::Fp4, perf::Precision::Int8}) {
        for (const int gpus : {1, 2}) {
            q.llmWeights = weights;
            q.gpus = gpus;
            EXPECT_DOUBLE_EQ(perf::shippedAccuracy().forQuery(q)->medianPct,
                             perf::kServingMixtureOfExpertsAccuracy.medianPct);
        }
    }
    q.llmExperts = 0; // a dense model keeps its own bands
    q.llmExpertsPerToken = 0;
    EXPECT_NE(perf::shippedAccuracy().forQuery(q)->medianPct, perf::kServingMixtureOfExpertsAccuracy.medianPct);
}

} // namespace
} // namespace advisor::eval
