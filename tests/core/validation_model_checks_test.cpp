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

} // namespace
} // namespace advisor::eval
