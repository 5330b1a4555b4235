// A mixture of experts split by its experts (--split experts: attention data parallel with expert
// parallelism) on the command line: perf's figure, explanation and band, recommend's fastest split,
// and eval-serving's check against a later release's runs so split, through the real binary.
#include "cli_runner.h"

#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <string>

namespace advisor::testing {
namespace {

const nlohmann::json* factorNamed(const nlohmann::json& prediction, const std::string& name) {
    for (const auto& f : prediction.at("factors")) {
        if (f.at("name") == name) {
            return &f;
        }
    }
    return nullptr;
}

nlohmann::json qwen3OnEightRtxPros(const Cli& cli, const std::string& split) {
    return cli
        .json({"perf",         "--gpu",     "RTX PRO 6000 Blackwell Server Edition",
               "--gpus",       "8",         "--metric",
               "llm-decode",   "--model",   "qwen3-30b-a3b",
               "--weights",    "fp4",       "--kv-cache",
               "fp8",          "--context", "1500",
               "--sequences",  "max",       "--engine",
               "tensorrt-llm", "--split",   split})
        .at("predictions")
        .at(0);
}

TEST(ExpertSplitCli, PerfSplitsAMixtureByItsExpertsAndSaysHowFarToTrustIt) {
    Cli cli;
    // The later release's eight RTX PRO 6000s (PCIe) ran Qwen3 30B-A3B split by experts at 3,985
    // tokens/s each at 1000/1000 (31,880 in all); split by tensors the model gives far less.
    const auto experts = qwen3OnEightRtxPros(cli, "experts");
    const auto tensors = qwen3OnEightRtxPros(cli, "tensors");
    EXPECT_EQ(experts.at("llm").at("split"), "experts");
    EXPECT_GT(experts.at("throughput").get<double>(), 1.15 * tensors.at("throughput").get<double>());
    // Each card holds its own sequences' whole cache (not Qwen3's 4 KV heads twice over on 8 cards).
    EXPECT_GT(experts.at("llm").at("sequences").get<int>(), tensors.at("llm").at("sequences").get<int>());
    const nlohmann::json* f = factorNamed(experts, "split by experts over 8 GPUs");
    ASSERT_NE(f, nullptr);
    const std::string detail = f->at("detail");
    for (const char* words : {"1/8 of the 128 routed experts", "48 mixture layers", "PCIe", "DEP"}) {
        EXPECT_NE(detail.find(words), std::string::npos) << words << "\n" << detail;
    }
    EXPECT_DOUBLE_EQ(experts.at("expected_error").at("median_abs_error_pct").get<double>(), 13.4);
    EXPECT_NE(experts.at("expected_error").at("basis").get<std::string>().find("split by experts (DEP)"),
              std::string::npos);
    // The text names the split.
    const auto text =
        cli.run({"perf", "--gpu", "B200", "--gpus", "4", "--metric", "llm-decode", "--model", "llama-4-maverick",
                 "--weights", "fp4", "--sequences", "max", "--engine", "tensorrt-llm", "--split", "experts"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("in TensorRT-LLM split by experts"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("each of the 24 mixture layers"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("split by tensors instead (--split tensors"), std::string::npos) << text.out;
}

TEST(ExpertSplitCli, RecommendsTheSplitByExpertsWhereItIsFastestForAMixture) {
    Cli cli;
    const auto doc =
        cli.json({"recommend", "--model",     "qwen3-30b-a3b", "--precision", "4bit",         "--task",  "inference",
                  "--domain",  "llm",         "--budget",      "80000",       "--gpus",       "8",       "--context",
                  "2000",      "--sequences", "max",           "--engine",    "tensorrt-llm", "--split", "fastest"});
    std::set<std::string> chosen;
    for (const char* list : {"candidates", "alternatives"}) {
        for (const auto& c : doc.at(list)) {
            if (c.at("llm_split").is_string()) {
                chosen.insert(c.at("llm_split").get<std::string>());
            }
        }
    }
    EXPECT_TRUE(chosen.contains("experts")) << doc.dump();
    // A dense model is never split by experts, even where a copy on each card would be faster.
    const auto dense =
        cli.json({"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--domain", "llm", "--budget", "80000",
                  "--gpus", "8", "--sequences", "max", "--engine", "tensorrt-llm", "--split", "fastest"});
    for (const char* list : {"candidates", "alternatives"}) {
        for (const auto& c : dense.at(list)) {
            EXPECT_NE(c.at("llm_split"), "experts") << c.at("gpu");
        }
    }
    // Asked to split a dense model too large for one card by experts, each setup of several cards
    // says why not (complete computers joined by a network are not split by the engine).
    const auto denseSplit =
        cli.json({"recommend", "--model", "llama-3.1-70b", "--task", "inference", "--domain", "llm", "--budget",
                  "20000", "--gpus", "4", "--engine", "tensorrt-llm", "--split", "experts"});
    int warned = 0;
    for (const auto& c : denseSplit.at("candidates")) {
        const std::string caveats = c.at("caveats").dump();
        if (c.at("count").get<int>() > 1 && caveats.find("computers joined by a network") == std::string::npos) {
            EXPECT_NE(caveats.find("a dense model is a whole copy on each card"), std::string::npos) << caveats;
            ++warned;
        }
    }
    EXPECT_GT(warned, 0);
}

TEST(ExpertSplitCli, EvalServingChecksTheSplitOnTheLaterReleasesRunsSoSplit) {
    Cli cli;
    const auto doc = cli.json({"eval-serving"}).at("expert_split");
    EXPECT_EQ(doc.at("rows").size(), 55u);
    const auto& band = doc.at("split_by_experts");
    EXPECT_EQ(band.at("exchange_all_reduces_shipped").get<double>(), 2.0);
    EXPECT_NEAR(band.at("exchange_all_reduces_fitted").get<double>(), 2.0, 0.1);
    EXPECT_NEAR(band.at("model_left_out").at("median_abs_error_pct").get<double>(), 14.2, 0.05);
    EXPECT_EQ(doc.at("perf_band").at("rows"), 154);
    EXPECT_NEAR(doc.at("perf_band").at("median_abs_error_pct").get<double>(), 13.4, 0.05);
    EXPECT_GT(band.at("one_all_reduce").at("median_abs_error_pct").get<double>(),
              band.at("median_abs_error_pct").get<double>());
    EXPECT_GT(doc.at("read_as_tensors").at("median_abs_error_pct").get<double>(),
              band.at("median_abs_error_pct").get<double>());
    for (const auto& row : doc.at("rows")) {
        EXPECT_EQ(row.at("split"), "experts");
        EXPECT_TRUE(row.at("model_left_out_error_pct").is_number());
    }
    // A file of its own, with a bad split, is refused naming the file, line and field.
    const std::string path = ::testing::TempDir() + "expert-split.csv";
    {
        std::ofstream f(path);
        f << "gpu,model,gpus,weights,kv_cache,input_tokens,output_tokens,output_tokens_per_s,source,split\n"
             "B200,qwen3-235b-a22b,4,fp4,fp8,1000,1000,23056,ok,experts\n"
             "B200,qwen3-235b-a22b,4,fp4,fp8,1000,1000,23056,bad,dep\n";
    }
    const auto bad = cli.run({"eval-serving", "--expert-split", path});
    EXPECT_EQ(bad.exitCode, 1) << bad.err;
    EXPECT_NE(bad.err.find(path + ":3: field 'split': must be tensors, layers or experts, got 'dep'"),
              std::string::npos)
        << bad.err;
}

} // namespace
} // namespace advisor::testing
