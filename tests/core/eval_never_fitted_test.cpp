// TensorRT-LLM 1.0's perf overview, the rows its file leaves out: mixtures of experts on 1-8 cards
// (Qwen3 30B-A3B and 235B-A22B, Llama 4 Scout and Maverick) and Llama 3.1 405B on eight RTX PRO 6000s split by
// layers. Nothing is fitted on them; with the later release's mixtures each held out they give perf's band for a
// mixture of experts, and they check two rules of the engine: Qwen3 235B-A22B's 4 KV heads held twice on eight cards,
// and a server's 16 PCIe lanes a card.
#include "catalog/catalog.h"
#include "eval/full_load.h"
#include "eval/stats.h"
#include "full_load_test_support.h"
#include "perf/accuracy.h"
#include "perf/serving_engine.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

const FullLoadRun& find(const std::vector<FullLoadRun>& runs, const std::string& gpu, const std::string& modelId,
                        int gpus, int in, int out) {
    const auto it = std::find_if(runs.begin(), runs.end(), [&](const FullLoadRun& r) {
        return r.gpu == gpu && r.model == modelId && r.query.gpus == gpus && r.inputTokens == in &&
               r.outputTokens == out;
    });
    if (it == runs.end()) {
        throw std::runtime_error("no such run: " + gpu + " " + modelId);
    }
    return *it;
}

TEST(NeverFitted, TheShippedFileHoldsTheOverviewsRowsTheOneZeroFileLeavesOut) {
    const auto runs = builtinNeverFittedFullLoadRuns();
    ASSERT_EQ(runs.size(), 155u);
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [](const FullLoadRun& r) { return r.mixtureOfExperts(); }), 149);
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [](const FullLoadRun& r) { return splitByLayers(r); }), 6);
    // Every mixture on several cards ran split by experts: the overview's recipe for mixtures sets
    // attention data parallel (enable_attention_dp), which with its --ep is what a later overview
    // calls DEP.
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [](const FullLoadRun& r) { return splitByExperts(r); }), 99);
    // Its tables give total output tokens/s: eight B200s gave 63,362 of Qwen3 235B-A22B at 128/128.
    EXPECT_DOUBLE_EQ(find(runs, "B200", "qwen3-235b-a22b", 8, 128, 128).outputTokensPerSecond, 63362);
    EXPECT_DOUBLE_EQ(find(runs, "H100 SXM5", "qwen3-235b-a22b", 8, 5000, 500).outputTokensPerSecond, 3225);
    const FullLoadRun& rtx = find(runs, "RTX PRO 6000 Blackwell Server Edition", "qwen3-30b-a3b", 8, 1000, 1000);
    EXPECT_DOUBLE_EQ(rtx.outputTokensPerSecond, 31785);
    EXPECT_EQ(rtx.query.llmSplit, perf::LlmSplit::Experts);
    EXPECT_EQ(rtx.query.interconnect.pcieLanes, 16); // a server's slots, as the 0.9 fit takes them
    EXPECT_EQ(rtx.query.llmWeights, perf::Precision::Fp4);
    EXPECT_EQ(rtx.query.llmKvCache, perf::KvCacheType::Fp8);
    EXPECT_EQ(find(runs, "H200 SXM", "qwen3-235b-a22b", 8, 1000, 1000).query.llmWeights, perf::Precision::Fp8);
    EXPECT_TRUE(splitByLayers(find(runs, "RTX PRO 6000 Blackwell Server Edition", "llama-3.1-405b", 8, 2048, 2048)));
    // Llama 4 Scout: 16 experts, one a token beside a shared one; four H200s gave 34,316 at 128/2048.
    const FullLoadRun& scout = find(runs, "H200 SXM", "llama-4-scout", 4, 128, 2048);
    EXPECT_DOUBLE_EQ(scout.outputTokensPerSecond, 34316);
    EXPECT_EQ(scout.query.llmExperts, 16);
    EXPECT_EQ(scout.query.llmExpertsPerToken, 1);
    // Llama 4 Maverick: 400B held, 17B a token (1 of 128 experts, in every other layer); eight B200s gave 124,323.
    const FullLoadRun& maverick = find(runs, "B200", "llama-4-maverick", 8, 128, 128);
    EXPECT_DOUBLE_EQ(maverick.outputTokensPerSecond, 124323);
    EXPECT_EQ(maverick.query.llmExperts, 128);
    EXPECT_DOUBLE_EQ(maverick.query.llmParamsBillion, 400);
    EXPECT_DOUBLE_EQ(find(runs, "H100 SXM5", "llama-4-maverick", 8, 5000, 500).outputTokensPerSecond, 3457);
}

TEST(NeverFitted, WithTheLaterReleasesMixturesEachHeldOutTheyGivePerfsBand) {
    const std::vector<double> errors = mixtureOfExpertsHeldOutErrors(
        fullLoadModel(), Catalog::builtin(), builtinLaterFullLoadRuns(), builtinNeverFittedFullLoadRuns());
    ASSERT_EQ(errors.size(), 100u); // 50 of the later release's, 50 of these on one card
    EXPECT_EQ(perf::kServingMixtureOfExpertsAccuracy.rows, 100);
    EXPECT_NEAR(median(errors), perf::kServingMixtureOfExpertsAccuracy.medianPct, 0.05);
    EXPECT_NEAR(percentile(errors, 90), perf::kServingMixtureOfExpertsAccuracy.p90Pct, 0.05);
    // These alone, as shipped: 16.4% / 44.9%; on several cards (split by experts) 11.5% / 32.0%.
    // Read as split by tensors, as the tables label them, those were 20.4% / 43.5%.
    std::vector<double> these, several, severalAsTensors;
    for (const auto& r : builtinNeverFittedFullLoadRuns()) {
        if (r.mixtureOfExperts()) {
            these.push_back(std::fabs(fullLoadErrorPct(r)));
        }
        if (splitByExperts(r)) {
            several.push_back(std::fabs(fullLoadErrorPct(r)));
            FullLoadRun asTensors = r;
            asTensors.query.llmSplit = perf::LlmSplit::Tensors;
            severalAsTensors.push_back(std::fabs(fullLoadErrorPct(asTensors)));
        }
    }
    EXPECT_NEAR(median(these), 16.45, 0.05);
    EXPECT_NEAR(percentile(these, 90), 44.9, 0.05);
    EXPECT_NEAR(median(several), 11.5, 0.05);
    EXPECT_NEAR(percentile(several, 90), 32.0, 0.05);
    EXPECT_NEAR(median(severalAsTensors), 20.4, 0.05);
    EXPECT_NEAR(percentile(severalAsTensors, 90), 43.5, 0.05);
}

TEST(NeverFitted, ReadAsSplitByTensorsEightCardsHoldQwen3sFourKvHeadsTwiceAndTheRowsSpreadLess) {
    // The rule for a split by tensors, on the rows read so (as the tables label them): Qwen3 235B-A22B
    // at 20,000 in and 2,000 out on eight H200s, 94 x 4 x 128 x 2 x 22,000 values, 2.12 GB of fp8
    // cache a request, held twice: (8 x 141 x 0.9 - 235) / 4.24 = 184 requests.
    auto runs = builtinNeverFittedFullLoadRuns();
    for (auto& r : runs) {
        r.query.llmSplit = perf::LlmSplit::Tensors;
    }
    const FullLoadRun& longest = find(runs, "H200 SXM", "qwen3-235b-a22b", 8, 20000, 2000);
    const double perRequest = 2.0 * 94 * 4 * 128 * 2 * 22000;
    EXPECT_EQ(fullLoadSequences(Catalog::builtin().require("H200 SXM"), longest),
              static_cast<int>((8 * 141 * 0.9e9 - 235e9) / perRequest));
    // Held once, the long rows came out 20-40% faster than the short ones (a spread of 64-73 points
    // on the B200 and H200); held twice each card's rows keep within 50 points, and within 30 on the
    // B200 and H100.
    std::map<std::string, std::pair<double, double>> range;
    for (const auto& r : runs) {
        if (r.model != "qwen3-235b-a22b") {
            continue;
        }
        const double e = fullLoadErrorPct(r);
        auto [it, added] = range.try_emplace(r.gpu, e, e);
        it->second.first = std::min(it->second.first, e);
        it->second.second = std::max(it->second.second, e);
    }
    ASSERT_EQ(range.size(), 3u);
    for (const auto& [gpu, minMax] : range) {
        EXPECT_LT(minMax.second - minMax.first, gpu == "H200 SXM" ? 50.0 : 30.0) << gpu;
    }
}

TEST(NeverFitted, ARunsPromptAndAnswerAttendAsTheModelDoes) {
    // Qwen3 235B-A22B's 64 query heads of 128 (8,192 wide, though its hidden is 4,096) in each of 94
    // layers: a 1,000-token prompt's attention is 4 x 8,192 x 94 x 1,001 / 2 FLOPs a token, as perf
    // --model counts it, not the row's width.
    const auto runs = builtinNeverFittedFullLoadRuns();
    const FullLoadRun& qwen3 = find(runs, "H200 SXM", "qwen3-235b-a22b", 8, 1000, 1000);
    EXPECT_DOUBLE_EQ(qwen3.promptAttentionFlops, 4.0 * 64 * 128 * 94 * 1001 / 2);
    // Llama 4 Scout's 20,000-token prompts: the 36 chunked layers' tokens see their chunk's (two
    // whole chunks of 8,192 and 3,616 more), the 12 others all before them.
    const FullLoadRun& scout = find(runs, "B200", "llama-4-scout", 1, 20000, 2000);
    const double chunked = (2 * 8192.0 * 8193 / 2 + 3616.0 * 3617 / 2) / 20000;
    EXPECT_DOUBLE_EQ(scout.promptAttentionFlops, 4.0 * 40 * 128 * (12 * 20001.0 / 2 + 36 * chunked));
    // Its answer's tokens read 20,001..21,999 cached tokens: a chunked layer's third chunk began at
    // 16,385, so they read 3,617..5,615 (4,616 on average) of the 8,192 each holds at most.
    EXPECT_DOUBLE_EQ(*scout.query.llmKvCacheValues, 2.0 * 8 * 128 * (12 * 21000.0 + 36 * 4616.0));
}

TEST(NeverFitted, FourServerCardsComeWithinAFifthAtSixteenLanesEach) {
    // Qwen3 30B-A3B on four RTX PRO 6000s split by experts: each card's 16 PCIe 5.0 lanes carry the
    // exchanges; at 8 lanes, a desktop's, the rows come out more than 10 points slower.
    std::vector<double> four;
    for (const auto& r : builtinNeverFittedFullLoadRuns()) {
        if (r.model == "qwen3-30b-a3b" && r.query.gpus == 4) {
            const double e = fullLoadErrorPct(r);
            four.push_back(std::fabs(e));
            FullLoadRun desktop = r;
            desktop.query.interconnect.pcieLanes = 8;
            EXPECT_LT(fullLoadErrorPct(desktop), e - 10.0) << r.inputTokens << "/" << r.outputTokens;
        }
    }
    ASSERT_EQ(four.size(), 10u);
    EXPECT_LT(*std::max_element(four.begin(), four.end()), 25.0);
    EXPECT_LT(median(four), 12.0);
}

TEST(NeverFitted, SplitByExpertsEightH100sHoldFewerRequestsAsMeasured) {
    // Eight H100s' Llama 4 Maverick rows, read as split by tensors, came out 30-88% fast: the
    // measured tokens follow the requests each card holds. Split by experts, each 80 GB card also
    // holds Maverick's 14 GB shared part, so they hold fewer, and come within 20%.
    const Gpu& h100 = Catalog::builtin().require("H100 SXM5");
    for (const auto& r : builtinNeverFittedFullLoadRuns()) {
        if (r.model != "llama-4-maverick" || r.gpu != "H100 SXM5") {
            continue;
        }
        ASSERT_TRUE(splitByExperts(r));
        FullLoadRun asTensors = r;
        asTensors.query.llmSplit = perf::LlmSplit::Tensors;
        EXPECT_LT(fullLoadSequences(h100, r), fullLoadSequences(h100, asTensors)) << r.inputTokens;
        EXPECT_GT(fullLoadErrorPct(asTensors), 29.0) << r.inputTokens << "/" << r.outputTokens;
        EXPECT_LT(std::fabs(fullLoadErrorPct(r)), 20.0) << r.inputTokens << "/" << r.outputTokens;
    }
}

TEST(NeverFitted, Llama4sGroupOfFiveQueryHeadsRunsOnTheTensorCoresAsTheCurrentXqaKernelsTakeIt) {
    // Llama 4's 40 query heads share 8 KV heads, a group of 5: the current XQA kernels take any group
    // up to 32. On the B200, GB200 and H200 its rows come within a fifth by the median; with the group
    // left on the CUDA cores (the 0.9 kernel's groups, which divide 64) they were a third slow.
    std::vector<double> tensorCores;
    std::vector<double> cudaCores;
    for (const auto& r : builtinNeverFittedFullLoadRuns()) {
        if (r.model.rfind("llama-4-", 0) != 0 || r.gpu == "H100 SXM5") {
            continue;
        }
        ASSERT_EQ(r.query.llmQueryGroup, 5);
        ASSERT_TRUE(perf::servingAttentionOnTensorCores(r.query));
        tensorCores.push_back(std::fabs(fullLoadErrorPct(r)));
        FullLoadRun onCudaCores = r;
        onCudaCores.query.llmDecodeAttention = perf::DecodeAttention::CudaCores;
        cudaCores.push_back(std::fabs(fullLoadErrorPct(onCudaCores)));
    }
    ASSERT_EQ(tensorCores.size(), 48u); // Scout 30, Maverick 18
    EXPECT_LT(median(tensorCores), 20.0);
    EXPECT_GT(median(cudaCores), 25.0);
}

} // namespace
} // namespace advisor::eval
