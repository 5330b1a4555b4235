// The catalog's model_checks say, in words, how far the model was from measured runs of a GPU.
// Here those words are recomputed from the runs (tests/fixtures/validation), so a change of the
// model that moves a figure fails until the catalog says the new one.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/known_issues.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

namespace advisor::eval {
namespace {

std::string percent(double v) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f%%", std::fabs(v));
    return s;
}

// "8.6-10.5% below", "4.6-19.6% above", "from 8.7% below to 6.0% above", "0.4% above".
std::string howFar(double lowest, double highest) {
    if (percent(lowest) == percent(highest) && (lowest < 0) == (highest < 0)) {
        return percent(lowest) + (lowest < 0 ? " below" : " above");
    }
    if (highest < 0) {
        return percent(highest).substr(0, percent(highest).size() - 1) + "-" + percent(lowest) + " below";
    }
    if (lowest > 0) {
        return percent(lowest).substr(0, percent(lowest).size() - 1) + "-" + percent(highest) + " above";
    }
    return "from " + percent(lowest) + " below to " + percent(highest) + " above";
}

// Model over measured - 1, in percent, by GPU and metric, over the rows a file's checks count.
template <typename Skip>
std::map<std::pair<std::string, std::string>, std::pair<double, double>> ranges(const std::string& file, Skip skip) {
    const perf::PerfModel model(Catalog::builtin());
    std::map<std::pair<std::string, std::string>, std::pair<double, double>> out;
    for (const auto& r : validationRows(file)) {
        if (knownIssueFor(r) != nullptr || skip(r)) {
            continue;
        }
        const double e =
            (model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput - 1) *
            100.0;
        const auto key = std::make_pair(r.gpu, r.workloadClass);
        const auto it = out.find(key);
        out[key] = it == out.end() ? std::make_pair(e, e)
                                   : std::make_pair(std::min(it->second.first, e), std::max(it->second.second, e));
    }
    return out;
}

void expectTheCatalogSaysIt(const std::map<std::pair<std::string, std::string>, std::pair<double, double>>& found,
                            size_t gpus) {
    std::map<std::string, int> perGpu;
    for (const auto& [key, range] : found) {
        const Gpu& g = Catalog::builtin().require(key.first);
        const auto said = g.modelChecks.find(key.second);
        ASSERT_NE(said, g.modelChecks.end()) << key.first << " " << key.second;
        const std::string expected = "the model is " + howFar(range.first, range.second) + " its ";
        EXPECT_NE(said->second.find(expected), std::string::npos)
            << key.first << " " << key.second << ": expected '" << expected << "' in '" << said->second << "'";
        ++perGpu[key.first];
    }
    EXPECT_EQ(perGpu.size(), gpus);
}

TEST(ModelChecks, TheProfessionalCardsChecksSayWhatTheirRunsShow) {
    // XiongjieDai's May 2024 runs of nine professional cards; the two broken F16 prompt cells
    // (known-issues.json) and the A40's doubtful 70B prompt are left out, as the entries say.
    const auto found = ranges("llamacpp-llama3-professional-2024.csv", [](const BenchmarkRow& r) {
        return r.gpu == "A40" && r.workload == "llama3-70b-q4km-pp512";
    });
    EXPECT_EQ(found.size(), 18u);
    expectTheCatalogSaysIt(found, 9);
}

TEST(ModelChecks, TheTeslaP40sChecksSayWhatItsRunShows) {
    const auto found = ranges("llamacpp-p40-2024.csv", [](const BenchmarkRow& r) { return r.gpu != "Tesla P40"; });
    EXPECT_EQ(found.size(), 2u);
    expectTheCatalogSaysIt(found, 1);
}

TEST(ModelChecks, TheBattlemageCardsChecksSayWhatTheirRunsShow) {
    // The Arc Pro B70's SYCL runs (one of them on two cards) and the Arc B580's IPEX-LLM run.
    const auto found = ranges("llamacpp-intel-battlemage-2026.csv", [](const BenchmarkRow&) { return false; });
    EXPECT_EQ(found.size(), 4u);
    expectTheCatalogSaysIt(found, 2);
}

TEST(ModelChecks, PhrasesReadAsTheCatalogWritesThem) {
    EXPECT_EQ(howFar(-10.54, -8.6), "8.6-10.5% below");
    EXPECT_EQ(howFar(4.6, 19.6), "4.6-19.6% above");
    EXPECT_EQ(howFar(-8.7, 6.0), "from 8.7% below to 6.0% above");
    EXPECT_EQ(howFar(0.4, 0.4), "0.4% above");
}

// Whole percents, as the newer entries write them: "4-25% above", "from 1% below to 2% above",
// "7% above".
std::string wholePercent(double v) {
    return std::to_string(std::lround(std::fabs(v))) + "%";
}

std::string howFarWhole(double lowest, double highest) {
    if (wholePercent(lowest) == wholePercent(highest) && (lowest < 0) == (highest < 0)) {
        return wholePercent(lowest) + (lowest < 0 ? " below" : " above");
    }
    const auto bare = [](double v) { return std::to_string(std::lround(std::fabs(v))); };
    if (highest < 0) {
        return bare(highest) + "-" + wholePercent(lowest) + " below";
    }
    if (lowest > 0) {
        return bare(lowest) + "-" + wholePercent(highest) + " above";
    }
    return "from " + wholePercent(lowest) + " below to " + wholePercent(highest) + " above";
}

// Model over measured - 1, in percent: the least and the most over a file's single-sequence rows
// of one GPU and metric that `take` keeps.
template <typename Take>
std::pair<double, double> rangeOf(const std::string& file, const std::string& gpu, const std::string& metric,
                                  Take take) {
    const perf::PerfModel model(Catalog::builtin());
    double lowest = 1e9;
    double highest = -1e9;
    for (const auto& r : validationRows(file)) {
        if (r.gpu != gpu || r.workloadClass != metric || (metric == "llm-decode" && r.batchSize && *r.batchSize > 1) ||
            !take(r.workload)) {
            continue;
        }
        const double e =
            (model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput - 1) *
            100.0;
        lowest = std::min(lowest, e);
        highest = std::max(highest, e);
    }
    EXPECT_LT(lowest, 1e9) << file << " " << gpu << " " << metric;
    return {lowest, highest};
}

bool has(const std::string& workload, const char* part) {
    return workload.find(part) != std::string::npos;
}

void expectSaid(const std::string& gpu, const std::string& metric, const std::string& words) {
    const auto& checks = Catalog::builtin().require(gpu).modelChecks;
    const auto said = checks.find(metric);
    ASSERT_NE(said, checks.end()) << gpu << " " << metric;
    EXPECT_NE(said->second.find(words), std::string::npos)
        << gpu << " " << metric << ": expected '" << words << "' in '" << said->second << "'";
}

TEST(ModelChecks, TheLlmChecksInWholePercentsSayWhatTheirRunsShow) {
    // The DGX Spark's page, depths 0-32K: the dense model and the mixtures of experts apart.
    const std::string spark = "llamacpp-dgx-spark-2025.csv";
    const auto dense =
        rangeOf(spark, "DGX Spark", "llm-decode", [](const std::string& w) { return has(w, "qwen2.5"); });
    const auto moe = rangeOf(spark, "DGX Spark", "llm-decode",
                             [](const std::string& w) { return has(w, "gpt-oss") || has(w, "a3b"); });
    expectSaid("DGX Spark", "llm-decode",
               "the model is " + howFarWhole(dense.first, dense.second) + " Qwen2.5 7B Q8_0's token generation");
    expectSaid("DGX Spark", "llm-decode", "and " + howFarWhole(moe.first, moe.second) + " the mixtures of experts'");
    // Strix Halo: the dense models and gpt-oss apart, both backends.
    const std::string strix = "llamacpp-strix-halo-2025.csv";
    const std::string halo = "Ryzen AI Max+ 395";
    const auto haloDense = rangeOf(strix, halo, "llm-decode", [](const std::string& w) { return !has(w, "gpt-oss"); });
    const auto haloMoe = rangeOf(strix, halo, "llm-decode", [](const std::string& w) { return has(w, "gpt-oss"); });
    expectSaid(halo, "llm-decode",
               "the model is " + howFarWhole(haloDense.first, haloDense.second) +
                   " the dense models' token generation");
    expectSaid(halo, "llm-decode", "and " + howFarWhole(haloMoe.first, haloMoe.second) + " gpt-oss's");
    // The RX 7900 XTX at depth 0 and after 4,096 tokens.
    const std::string xtxFile = "llamacpp-depth-rx7900xtx.csv";
    const auto empty =
        rangeOf(xtxFile, "RX 7900 XTX", "llm-decode", [](const std::string& w) { return !has(w, "@d"); });
    const auto deep =
        rangeOf(xtxFile, "RX 7900 XTX", "llm-decode", [](const std::string& w) { return has(w, "@d4096"); });
    expectSaid("RX 7900 XTX", "llm-decode",
               "the model is " + howFarWhole(empty.first, empty.second) + " its token generation at depth 0 and " +
                   wholePercent(deep.first) + (deep.first < 0 ? " below" : " above") + " it after 4,096 tokens");
    // The 70 W Blackwell's page.
    const std::string sff = "llamacpp-rtx-pro-4000-sff-2026.csv";
    const std::string card = "RTX PRO 4000 Blackwell SFF";
    const auto ossTokens = rangeOf(sff, card, "llm-decode", [](const std::string& w) { return has(w, "gpt-oss"); });
    const auto qwenTokens = rangeOf(sff, card, "llm-decode", [](const std::string& w) { return has(w, "qwen3.5"); });
    expectSaid(card, "llm-decode",
               "the model is " + howFarWhole(ossTokens.first, ossTokens.second) +
                   " gpt-oss-20b's token generation and " + howFarWhole(qwenTokens.first, qwenTokens.second) +
                   " Qwen3.5 27B's");
    const auto qwenPrompts = rangeOf(sff, card, "llm-prefill", [](const std::string& w) { return has(w, "qwen3.5"); });
    const auto ossPrompts = rangeOf(sff, card, "llm-prefill", [](const std::string& w) { return has(w, "gpt-oss"); });
    expectSaid(card, "llm-prefill",
               "the model is " + howFarWhole(qwenPrompts.first, qwenPrompts.second) +
                   " Qwen3.5 27B's prompt processing");
    expectSaid(card, "llm-prefill", "and " + howFarWhole(ossPrompts.first, ossPrompts.second) + " gpt-oss-20b's");
    // MMBT's run of the RTX PRO 6000.
    const std::string mmbt = "llamacpp-blackwell-pro6000-2026.csv";
    const std::string pro = "RTX PRO 6000 Blackwell";
    const auto all = [](const std::string&) { return true; };
    const auto proTokens = rangeOf(mmbt, pro, "llm-decode", all);
    const auto proPrompt = rangeOf(mmbt, pro, "llm-prefill", all);
    expectSaid(pro, "llm-decode",
               "the model is " + howFarWhole(proTokens.first, proTokens.second) + " its token generation");
    expectSaid(pro, "llm-prefill",
               "the model is " + howFarWhole(proPrompt.first, proPrompt.second) + " its 1,024-token prompt");
}

TEST(ModelChecks, WholePercentPhrasesReadAsTheCatalogWritesThem) {
    EXPECT_EQ(howFarWhole(3.6, 24.7), "4-25% above");
    EXPECT_EQ(howFarWhole(-1.1, 2.2), "from 1% below to 2% above");
    EXPECT_EQ(howFarWhole(-43.0, -37.8), "38-43% below");
    EXPECT_EQ(howFarWhole(7.3, 7.3), "7% above");
}

} // namespace
} // namespace advisor::eval
