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
#include <vector>

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

// Whether a workload is one `pattern` picks: "" all, "a|b" either part in its name, "!a" not a.
bool picks(const std::string& pattern, const std::string& workload) {
    if (!pattern.empty() && pattern.front() == '!') {
        return !picks(pattern.substr(1), workload);
    }
    size_t from = 0;
    while (from <= pattern.size()) {
        const size_t bar = std::min(pattern.find('|', from), pattern.size());
        if (workload.find(pattern.substr(from, bar - from)) != std::string::npos) {
            return true;
        }
        from = bar + 1;
    }
    return false;
}

// How far the model is from a file's single-sequence rows of one GPU and metric that `pattern`
// picks (known issues left out, as ranges() leaves them), in the catalog's whole percents.
std::string howFarOn(const std::string& file, const std::string& gpu, const std::string& metric,
                     const std::string& pattern) {
    const auto found = ranges(file, [&](const BenchmarkRow& r) {
        return r.gpu != gpu || (metric == "llm-decode" && r.batchSize && *r.batchSize > 1) ||
               !picks(pattern, r.workload);
    });
    const auto range = found.find(std::make_pair(gpu, metric));
    EXPECT_NE(range, found.end()) << file << " " << gpu << " " << metric << " " << pattern;
    return range == found.end() ? std::string() : howFarWhole(range->second.first, range->second.second);
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
    const std::string gb10 = "DGX Spark";
    expectSaid(gb10, "llm-decode",
               "the model is " + howFarOn(spark, gb10, "llm-decode", "qwen2.5") +
                   " Qwen2.5 7B Q8_0's token generation");
    expectSaid(gb10, "llm-decode",
               "and " + howFarOn(spark, gb10, "llm-decode", "gpt-oss|a3b") + " the mixtures of experts'");
    // Strix Halo: the dense models and gpt-oss apart, both backends.
    const std::string strix = "llamacpp-strix-halo-2025.csv";
    const std::string halo = "Ryzen AI Max+ 395";
    expectSaid(halo, "llm-decode",
               "the model is " + howFarOn(strix, halo, "llm-decode", "!gpt-oss") +
                   " the dense models' token generation");
    expectSaid(halo, "llm-decode", "and " + howFarOn(strix, halo, "llm-decode", "gpt-oss") + " gpt-oss's");
    // The RX 7900 XTX at depth 0 and after 4,096 tokens.
    const std::string xtx = "llamacpp-depth-rx7900xtx.csv";
    expectSaid("RX 7900 XTX", "llm-decode",
               "the model is " + howFarOn(xtx, "RX 7900 XTX", "llm-decode", "!@d") +
                   " its token generation at depth 0 and " + howFarOn(xtx, "RX 7900 XTX", "llm-decode", "@d4096") +
                   " it after 4,096 tokens");
    // The 70 W Blackwell's page.
    const std::string sff = "llamacpp-rtx-pro-4000-sff-2026.csv";
    const std::string card = "RTX PRO 4000 Blackwell SFF";
    expectSaid(card, "llm-decode",
               "the model is " + howFarOn(sff, card, "llm-decode", "gpt-oss") + " gpt-oss-20b's token generation and " +
                   howFarOn(sff, card, "llm-decode", "qwen3.5") + " Qwen3.5 27B's");
    expectSaid(card, "llm-prefill",
               "the model is " + howFarOn(sff, card, "llm-prefill", "qwen3.5") + " Qwen3.5 27B's prompt processing");
    expectSaid(card, "llm-prefill", "and " + howFarOn(sff, card, "llm-prefill", "gpt-oss") + " gpt-oss-20b's");
    // MMBT's run of the RTX PRO 6000.
    const std::string mmbt = "llamacpp-blackwell-pro6000-2026.csv";
    const std::string pro = "RTX PRO 6000 Blackwell";
    expectSaid(pro, "llm-decode", "the model is " + howFarOn(mmbt, pro, "llm-decode", "") + " its token generation");
    expectSaid(pro, "llm-prefill",
               "the model is " + howFarOn(mmbt, pro, "llm-prefill", "") + " its 1,024-token prompt");
}

// "1.01-1.08x" (or "1.27x"): the lowest and highest of ratios, as the MLPerf and training checks write them.
std::string ratioRange(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    char s[48];
    std::snprintf(s, sizeof s, "%.2f", v.front());
    std::string out = s;
    std::snprintf(s, sizeof s, "%.2f", v.back());
    return (out == s ? out : out + "-" + s) + "x";
}

TEST(ModelChecks, TheMlperfV4ChecksSayWhatTheEightGpuRunsShow) {
    // NVIDIA's 8-GPU Offline runs of MLPerf Inference v4.0 and v4.1, per GPU against the
    // H100 SXM5's (experiments round 71): the H200 gains little on compute-bound networks
    // where the model gives it most of its 1.43x bandwidth, and more on Llama 2 70B.
    const auto ev = evaluateValidation("mlperf-inference-v4-nvidia-offline-8gpu.csv", "H100 SXM5");
    EXPECT_TRUE(ev.unresolved.empty());
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> byGpu;
    for (const auto& r : ev.rows) {
        if (!r.evaluated || r.row.gpu == "H100 SXM5") {
            continue;
        }
        const bool llama = r.row.workload.find("llama2-70b") != std::string::npos;
        const std::string key = r.row.gpu + (llama && r.row.gpu == "H200 SXM" ? " llama" : "");
        byGpu[key].first.push_back(r.measuredRelative);
        byGpu[key].second.push_back(r.predictedRelative);
    }
    ASSERT_EQ(byGpu.size(), 4u);
    EXPECT_EQ(byGpu["H200 SXM"].first.size(), 8u);
    for (const double m : byGpu["H200 SXM"].first) {
        EXPECT_LT(m, 1.10); // at most 8% over the H100 on the same compute
    }
    expectSaid("H200 SXM", "int8-inference",
               "ran " + ratioRange(byGpu["H200 SXM"].first) + ", where the model gives " +
                   ratioRange(byGpu["H200 SXM"].second) + "; Llama 2 70B ran " +
                   ratioRange(byGpu["H200 SXM llama"].first) + ", the model " +
                   ratioRange(byGpu["H200 SXM llama"].second));
    expectSaid("L40S", "int8-inference",
               "ran " + ratioRange(byGpu["L40S"].first) + ", where the model gives " +
                   ratioRange(byGpu["L40S"].second));
    expectSaid("H100 NVL", "int8-inference",
               "ran " + ratioRange(byGpu["H100 NVL"].first) + ", where the model gives " +
                   ratioRange(byGpu["H100 NVL"].second));
    // The shipped model's error on the file (docs/performance-model.md): 16.0% / 23.9%.
    EXPECT_NEAR(ev.multiGpu.medianAbsErrorPct, 16.0, 0.05);
    EXPECT_NEAR(ev.multiGpu.p90AbsErrorPct, 23.9, 0.05);
}

TEST(ModelChecks, TheNewerDataCentreTrainingChecksSayWhatLambdasRunsShow) {
    // Lambda's v2 runs of one B200, H200 and GH200 against the H100 SXM5's (experiments round 72);
    // the B200's fp16 CNNs and the GH200's BERT apart from their other networks, as the notes say.
    const auto ev = evaluateValidation("lambda-pytorch-train-v2-b200-h200.csv", "H100 SXM5");
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> found;
    for (const auto& r : ev.rows) {
        if (!r.evaluated || r.row.gpu == "H100 SXM5" || r.row.numGpus != 1) {
            continue;
        }
        const std::string precision = perf::toString(r.row.precision);
        const bool cnnApart = r.row.gpu == "B200" && precision == "fp16" && r.row.workloadClass == "cnn";
        const bool bertApart = r.row.gpu == "GH200" && r.row.workloadClass == "transformer";
        const std::string key = r.row.gpu + " " + precision + (cnnApart ? " cnn" : bertApart ? " bert" : "");
        found[key].first.push_back(r.measuredRelative);
        found[key].second.push_back(r.predictedRelative);
    }
    ASSERT_EQ(found.size(), 8u);
    const auto says = [&](const std::string& key) {
        return "ran " + ratioRange(found[key].first) + ", where the model gives " + ratioRange(found[key].second);
    };
    expectSaid("B200", "fp16-training", says("B200 fp16"));
    expectSaid("B200", "fp16-training", "SSD " + ratioRange(found["B200 fp16 cnn"].first) +
                                            ", where the model gives " + ratioRange(found["B200 fp16 cnn"].second));
    expectSaid("B200", "fp32-training", says("B200 fp32"));
    expectSaid("H200 SXM", "fp16-training", says("H200 SXM fp16"));
    expectSaid("H200 SXM", "fp32-training", says("H200 SXM fp32"));
    expectSaid("GH200", "fp16-training", says("GH200 fp16"));
    expectSaid("GH200", "fp32-training", says("GH200 fp32"));
    expectSaid("GH200", "fp32-training", "BERT-base and BERT-large " + ratioRange(found["GH200 fp32 bert"].first) +
                                             ", where the model gives " + ratioRange(found["GH200 fp32 bert"].second));
}

TEST(ModelChecks, TheNewerDataCentreScalingChecksSayWhatLambdasRunsShow) {
    // The B200's 2-, 4- and 8-GPU runs and the H200's 8-GPU ones over the same card's single-GPU
    // run, at the same batch per GPU (experiments rounds 72-74), by precision, as the notes say.
    const auto ev = evaluateValidation("lambda-pytorch-train-v2-b200-h200.csv", "H100 SXM5");
    // "gpu precision" -> GPU count -> (measured, predicted) n GPUs over one
    std::map<std::string, std::map<int, std::pair<std::vector<double>, std::vector<double>>>> scaling;
    for (const std::string gpu : {"B200", "H200 SXM"}) {
        for (const auto& s : scalingOf(ev, gpu)) {
            auto& at = scaling[gpu + " " + s.precision][s.gpus];
            at.first.push_back(s.measured);
            at.second.push_back(s.predicted);
        }
    }
    ASSERT_EQ(scaling.size(), 4u);
    const auto says = [&](const std::string& gpu, const std::string& precision, const std::string& count) {
        const auto& byCount = scaling[gpu + " " + precision];
        std::vector<std::string> measured, predicted;
        for (const auto& [n, ratios] : byCount) {
            measured.push_back(ratioRange(ratios.first));
            predicted.push_back(ratioRange(ratios.second));
        }
        const auto join = [](const std::vector<std::string>& v) { // "a", "a and b", "a, b and c"
            std::string out = v.front();
            for (std::size_t i = 1; i < v.size(); ++i) {
                out += (i + 1 == v.size() ? " and " : ", ") + v[i];
            }
            return out;
        };
        const std::string card = gpu == "B200" ? "B200" : "H200";
        return "Over NVLink at the same batch per GPU, " + count + " " + card + "s ran " + join(measured) + " one " +
               card + ", where the model gives " + join(predicted);
    };
    ASSERT_EQ(scaling["B200 fp16"].size(), 3u);
    ASSERT_EQ(scaling["H200 SXM fp32"].size(), 1u);
    expectSaid("B200", "fp16-training", says("B200", "fp16", "2, 4 and 8"));
    expectSaid("B200", "fp32-training", says("B200", "fp32", "2, 4 and 8"));
    expectSaid("H200 SXM", "fp16-training", says("H200 SXM", "fp16", "8"));
    expectSaid("H200 SXM", "fp32-training", says("H200 SXM", "fp32", "8"));
}

TEST(ModelChecks, WholePercentPhrasesReadAsTheCatalogWritesThem) {
    EXPECT_EQ(howFarWhole(3.6, 24.7), "4-25% above");
    EXPECT_EQ(howFarWhole(-1.1, 2.2), "from 1% below to 2% above");
    EXPECT_EQ(howFarWhole(-43.0, -37.8), "38-43% below");
    EXPECT_EQ(howFarWhole(7.3, 7.3), "7% above");
}

} // namespace
} // namespace advisor::eval
