// `gpu-advisor flowchart` and `gpu-advisor recommend` through the real binary and a real database.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace advisor::testing {
namespace {

TEST(FlowchartCli, FirstQuestionThenALeafWithItsPath) {
    Cli cli;
    const auto first = cli.json({"flowchart"});
    EXPECT_FALSE(first.at("finished").get<bool>());
    EXPECT_EQ(first.at("question").at("text"), "Are you an organization?");
    EXPECT_EQ(first.at("question").at("choices"), nlohmann::json({"yes", "no"}));
    EXPECT_FALSE(first.at("question").at("why").get<std::string>().empty());

    const auto leaf = cli.json({"flowchart", "--answers", "no,yes,yes,yes"});
    EXPECT_TRUE(leaf.at("finished").get<bool>());
    EXPECT_EQ(leaf.at("leaf").at("gpus").at(0).at("gpu_id"), "rtx-4090");
    const auto path = leaf.at("path");
    ASSERT_EQ(path.size(), 4u);
    EXPECT_EQ(path.at(3).at("node"), "budget_4090_train");
    EXPECT_FALSE(path.at(3).at("automatic").get<bool>());

    const auto text = cli.run({"flowchart", "--answers", "no,yes"});
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("Next question: Do you work with transformers?"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("--answers no,yes,yes"), std::string::npos) << text.out;
}

TEST(FlowchartCli, BudgetAnswersFromThePriceDatabaseAndYourAnswersWin) {
    Cli cli;
    // The seeded database prices a new RTX 4090 above $1,000 and a used RTX 3090 below.
    const auto automatic = cli.json({"flowchart", "--answers", "no,yes,yes", "--budget", "1000"});
    EXPECT_EQ(automatic.at("leaf").at("id"), "leaf_3090");
    const auto path = automatic.at("path");
    ASSERT_EQ(path.size(), 5u);
    EXPECT_TRUE(path.at(3).at("automatic").get<bool>());
    EXPECT_EQ(path.at(3).at("answer"), "no");
    EXPECT_NE(path.at(3).at("reason").get<std::string>().find("> budget $1,000"), std::string::npos);
    // The same budget, but the user says yes to the RTX 4090 question: the user wins.
    const auto overridden = cli.json({"flowchart", "--answers", "no,yes,yes,yes", "--budget", "1000"});
    EXPECT_EQ(overridden.at("leaf").at("id"), "leaf_4090");
    EXPECT_FALSE(overridden.at("path").at(3).at("automatic").get<bool>());
}

TEST(FlowchartCli, BadAnswersAreClearErrors) {
    Cli cli;
    const auto bad = cli.run({"flowchart", "--answers", "no,maybe"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_EQ(bad.err, "error: --answers: 'maybe' is not an answer to \"Do you plan to train "
                       "models?\"; choose yes or no\n");
    const auto tooMany = cli.run({"flowchart", "--answers", "no,yes,yes,yes,no"});
    EXPECT_EQ(tooMany.exitCode, 1);
    EXPECT_NE(tooMany.err.find("the chart ended after 4 answers; 'no' and later were not used"), std::string::npos)
        << tooMany.err;
}

TEST(RecommendCli, ShortlistWithinMemoryAndBudget) {
    Cli cli;
    const auto doc = cli.json({"recommend", "--memory-gb", "24", "--budget", "2000"});
    const auto candidates = doc.at("candidates");
    ASSERT_FALSE(candidates.empty());
    double previous = 1e9;
    for (const auto& c : candidates) {
        EXPECT_GE(c.at("memory_gb").get<double>() * c.at("count").get<int>(), 24);
        EXPECT_LE(c.at("total_price_usd").get<double>(), 2000);
        EXPECT_LE(c.at("perf_per_dollar").get<double>(), previous);
        previous = c.at("perf_per_dollar").get<double>();
        EXPECT_FALSE(c.at("reasons").empty());
        for (const char* k : {"gpu", "gpu_id", "price_usd", "condition", "tco_usd", "memory_headroom_gb", "caveats"}) {
            EXPECT_TRUE(c.contains(k)) << k;
        }
    }
    EXPECT_EQ(doc.at("runner_up").at("gpu_id"), candidates.at(1).at("gpu_id"));
    EXPECT_EQ(doc.at("metric"), "fp16-training");
    EXPECT_EQ(doc.at("rank_by"), "perf-per-dollar");
    EXPECT_TRUE(doc.at("cloud").contains("recommended"));
    EXPECT_FALSE(doc.at("alternatives").empty());
}

TEST(RecommendCli, AnUnpricedReferenceGpuStillGivesAPerfPerDollarScale) {
    Cli cli;
    ASSERT_EQ(cli.run({"settings", "set", "reference_gpu", "H100 SXM5"}).exitCode, 0); // no shipped price
    const auto doc = cli.json({"recommend", "--memory-gb", "16", "--budget", "2000"});
    const auto& candidates = doc.at("candidates");
    ASSERT_FALSE(candidates.empty());
    EXPECT_DOUBLE_EQ(candidates.at(0).at("perf_per_dollar").get<double>(), 1.0);
    for (const auto& c : candidates) {
        EXPECT_GT(c.at("perf_per_dollar").get<double>(), 0.2) << c.at("gpu"); // was 0.0002: no scale at all
    }
    const std::string anchor = doc.at("perf_per_dollar_anchor");
    EXPECT_EQ(anchor.rfind(candidates.at(0).at("gpu").get<std::string>() + " at $", 0), 0u) << anchor;
    const auto text = cli.run({"recommend", "--memory-gb", "16", "--budget", "2000"});
    EXPECT_NE(text.out.find("per dollar (" + anchor + ")"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("note: H100 SXM5 has no price"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("0.00 (H100 SXM5 = 1)"), std::string::npos) << text.out;
}

TEST(RecommendCli, SaysWhenNoCloudOfferCouldBeCompared) {
    Cli cli;
    // An organisation fits 3,000 GB on 16 MI300Xs, but no shipped offer holds it on one instance:
    // the line says so instead of "not needed - ".
    const auto text =
        cli.run({"recommend", "--memory-gb", "3000", "--budget", "100000000", "--gpus", "16", "--organization"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("Cloud: not compared - no cloud offer in your database holds 3,000 GB: no break-even to "
                            "compare\n"),
              std::string::npos)
        << text.out;
    // With an offer that holds the memory, the verdict is the break-even's.
    const auto usual = cli.run({"recommend", "--memory-gb", "24", "--budget", "2000"});
    EXPECT_NE(usual.out.find("Cloud: not needed - buying "), std::string::npos) << usual.out;
}

TEST(RecommendCli, OrganisationSpeedRankingAndMemoryFromParameters) {
    Cli cli;
    const auto org = cli.json({"recommend", "--memory-gb", "48", "--budget", "50000", "--organization", "--rank", "speed"});
    ASSERT_FALSE(org.at("candidates").empty());
    for (const auto& c : org.at("candidates")) {
        EXPECT_EQ(c.at("gpu").get<std::string>().find("GeForce"), std::string::npos);
        EXPECT_EQ(c.at("gpu").get<std::string>().rfind("RTX 4", 0), std::string::npos) << c.at("gpu");
        EXPECT_EQ(c.at("condition"), "new");
    }
    // 7B in 8-bit for inference: the memory calculator's figure (weights alone are 7.4 GB).
    const auto llm = cli.json({"recommend", "--params-billion", "7", "--task", "inference", "--domain", "llm",
                               "--precision", "8bit", "--budget", "1500"});
    EXPECT_GT(llm.at("memory_gb").get<double>(), 7.4);
    EXPECT_LT(llm.at("memory_gb").get<double>(), 12);
    EXPECT_EQ(llm.at("metric"), "llm-decode");
    EXPECT_EQ(llm.at("memory_basis"),
              (nlohmann::json{{"params_billion", 7.0}, {"model", nullptr}, {"mode", "inference"}, {"weights", "int8"}}));
    EXPECT_TRUE(org.at("memory_basis").is_null()); // --memory-gb was given
}

TEST(RecommendCli, SaysHowItSizedTheMemoryFromParameters) {
    // Fine-tuning is sized as QLoRA with 4-bit weights: the header says so, and `memory`
    // gives the same figure for the same inputs.
    Cli cli;
    const auto rec = cli.json({"recommend", "--params-billion", "13", "--task", "fine-tune", "--budget", "3000"});
    EXPECT_EQ(rec.at("memory_basis"), (nlohmann::json{{"params_billion", 13.0},
                                                      {"model", nullptr},
                                                      {"mode", "qlora"},
                                                      {"weights", "int4"}}));
    const auto mem = cli.json({"memory", "--params-billion", "13", "--mode", "qlora", "--precision", "int4"});
    EXPECT_DOUBLE_EQ(rec.at("memory_gb").get<double>(), mem.at("per_gpu_gb").get<double>());
    const auto text = cli.run({"recommend", "--params-billion", "13", "--task", "fine-tune", "--budget", "3000"});
    EXPECT_EQ(text.out.rfind("Needs 9.3 GB (13B parameters, qlora with int4 weights; 'gpu-advisor memory' itemises "
                             "it), budget $3,000",
                             0),
              0u)
        << text.out;
}

TEST(RecommendCli, APublishedModelIsSizedWithItsOwnShape) {
    Cli cli;
    // Llama 2 13B has no grouped-query attention: for inference its 40 KV heads need more than a
    // 13B model with a guessed shape, and `memory --model` gives the same figure.
    const std::vector<std::string> base = {"recommend", "--task", "inference", "--domain", "llm", "--budget", "5000"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = base;
        a.insert(a.end(), extra.begin(), extra.end());
        return cli.json(a);
    };
    const auto named = with({"--model", "llama-2-13b"});
    const auto guessed = with({"--params-billion", "13"});
    EXPECT_GT(named.at("memory_gb").get<double>(), guessed.at("memory_gb").get<double>());
    EXPECT_DOUBLE_EQ(named.at("memory_gb").get<double>(),
                     cli.json({"memory", "--model", "llama-2-13b"}).at("per_gpu_gb").get<double>());
    EXPECT_EQ(named.at("memory_basis").at("model"), "llama-2-13b");
    std::vector<std::string> text = base;
    text.insert(text.end(), {"--model", "Llama 2 13B"});
    EXPECT_EQ(cli.run(text).out.rfind("Needs ", 0), 0u);
    EXPECT_NE(cli.run(text).out.find("(Llama 2 13B: 13B parameters, inference with fp16 weights; "), std::string::npos)
        << cli.run(text).out;
    const auto both = cli.run({"recommend", "--model", "llama-2-13b", "--params-billion", "13", "--budget", "1000"});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_NE(both.err.find("--model cannot be combined with --params-billion"), std::string::npos) << both.err;
    EXPECT_EQ(cli.run({"recommend", "--model", "nope", "--budget", "1000"}).exitCode, 2);
}

TEST(RecommendCli, ThirtyGigabytesNewUnderAThousandDollarsIsIntelsArcProB70) {
    // The cheapest new 32 GB card ($949, March 2026): the RTX 5090 costs more, the Radeon AI PRO
    // R9700 has no default price, the 24 GB cards hold too little. What its runs said comes with it.
    Cli cli;
    const auto doc = cli.json(
        {"recommend", "--memory-gb", "30", "--budget", "1000", "--new-only", "--domain", "llm", "--task", "inference"});
    ASSERT_EQ(doc.at("candidates").size(), 1u) << doc.dump();
    const auto& b70 = doc.at("candidates").at(0);
    EXPECT_EQ(b70.at("gpu_id"), "arc-pro-b70");
    EXPECT_EQ(doc.at("metric"), "llm-decode");
    EXPECT_NE(b70.at("caveats").dump().find("the model is 4.3-18.7% above its token generation"), std::string::npos)
        << b70.at("caveats").dump();
    EXPECT_NE(b70.at("caveats").dump().find("Intel GPU: frameworks run (oneAPI/SYCL)"), std::string::npos);
}

TEST(RecommendCli, FourBitLlmInferenceSizesAndRanksForFourBitWeights) {
    Cli cli;
    const std::vector<std::string> llm70 = {"recommend", "--params-billion", "70", "--task", "inference", "--domain",
                                            "llm", "--budget", "5000", "--gpus", "4"};
    auto with = [&](const char* precision) {
        std::vector<std::string> a = llm70;
        a.insert(a.end(), {"--precision", precision});
        return cli.json(a);
    };
    // 70B in fp16 needs some 140 GB: no 4 cards within $5,000 hold it, only two 128 GB computers
    // (Strix Halo at $1,999) joined by a network. In 4-bit (4.85 bits per weight, llama.cpp Q4_K_M)
    // the weights are 42.4 GB, plus KV cache and CUDA context.
    const auto sixteen = with("16bit");
    ASSERT_EQ(sixteen.at("candidates").size(), 1u);
    const auto& twoComputers = sixteen.at("candidates").at(0);
    EXPECT_EQ(twoComputers.at("gpu_id"), "ryzen-ai-max-395");
    EXPECT_EQ(twoComputers.at("count"), 2);
    EXPECT_NE(twoComputers.at("caveats").dump().find("computers joined by a network (llama.cpp's RPC backend"),
              std::string::npos)
        << twoComputers.at("caveats").dump();
    const auto four = with("4bit");
    EXPECT_GT(four.at("memory_gb").get<double>(), 70 * 4.85 / 8);
    EXPECT_LT(four.at("memory_gb").get<double>(), 50);
    ASSERT_FALSE(four.at("candidates").empty());
    EXPECT_EQ(four.at("metric"), "llm-decode");
    // Fewer bytes per token than 8-bit: the same GPUs generate faster.
    const auto eight = with("8bit");
    ASSERT_FALSE(eight.at("candidates").empty());
    // Split by layers, extra cards add memory, not speed: compare a GPU's tokens/s at any count.
    const auto throughputOf = [](const nlohmann::json& doc, const std::string& id) {
        for (const auto& c : doc.at("candidates")) {
            if (c.at("gpu_id") == id) {
                return c.at("throughput").get<double>();
            }
        }
        return 0.0;
    };
    const double at8 = throughputOf(eight, "rtx-3090");
    const double at4 = throughputOf(four, "rtx-3090");
    ASSERT_GT(at8, 0);
    ASSERT_GT(at4, 0);
    EXPECT_NEAR(at4 / at8, 8.5 / 4.85, 0.1); // bandwidth-bound: bytes per token
    // 4-bit is an inference choice.
    const auto training = cli.run({"recommend", "--params-billion", "7", "--budget", "2000", "--precision", "4bit"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--precision 4bit is for LLM inference"), std::string::npos) << training.err;
}

// `recommend` for Llama 3.1 8B inference in 4 bits within `budget`, with `extra` options.
std::vector<std::string> llamaInference(const char* budget, std::initializer_list<const char*> extra) {
    std::vector<std::string> args = {"recommend", "--model",     "llama-3.1-8b", "--task",   "inference", "--domain",
                                     "llm",       "--precision", "4bit",         "--budget", budget};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(RecommendCli, ALongContextSizesTheKvCacheInTheMemoryAndTheSpeed) {
    // Llama 3.1 8B in 4 bits at 128K tokens: its KV cache (128 KiB per token) and whole-prompt
    // activations (8 bytes x 4,096 per token) grow from the default 4,096 tokens' by 20.8 GB, and
    // the 24 GB cards drop out; each candidate's tokens/s is perf's at that context.
    Cli cli;
    const auto shortContext = cli.json(llamaInference("3000", {"--top", "10"}));
    const auto longContext = cli.json(llamaInference("3000", {"--top", "10", "--context", "131072"}));
    EXPECT_EQ(longContext.at("memory_basis").at("context_tokens"), 131072);
    EXPECT_FALSE(shortContext.at("memory_basis").contains("context_tokens"));
    EXPECT_NEAR(longContext.at("memory_gb").get<double>() - shortContext.at("memory_gb").get<double>(),
                (131072.0 - 4096) * (131072 + 8 * 4096) / 1e9, 1e-6);
    ASSERT_FALSE(longContext.at("candidates").empty());
    for (const auto& c : longContext.at("candidates")) {
        EXPECT_GT(c.at("memory_gb").get<double>() * c.at("count").get<int>(), 27.0) << c.at("gpu");
        if (c.at("gpu") == "RTX 5090" && c.at("count") == 1) {
            const auto perf = cli.json({"perf", "--gpu", "RTX 5090", "--metric", "llm-decode", "--model",
                                        "llama-3.1-8b", "--context", "131072"});
            EXPECT_NEAR(c.at("throughput").get<double>(),
                        perf.at("predictions").at(0).at("throughput").get<double>(), 1e-9);
        }
    }
    const auto training = cli.run({"recommend", "--params-billion", "7", "--budget", "3000", "--context", "8192"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--context sizes an LLM's KV cache"), std::string::npos) << training.err;
}

TEST(RecommendCli, AsManyRequestsAsFitRanksEachCardAtItsOwnFullLoad) {
    // --sequences max: the memory needed is one request's, and each candidate is ranked by perf's
    // tokens/s for as many as its memory holds, which its reasons give.
    Cli cli;
    const auto one = cli.json(llamaInference("20000", {"--context", "8192", "--top", "10"}));
    const auto full = cli.json(llamaInference("20000", {"--context", "8192", "--top", "10", "--sequences", "max"}));
    EXPECT_EQ(full.at("memory_basis").at("sequences_fill_memory"), true);
    EXPECT_DOUBLE_EQ(full.at("memory_gb").get<double>(), one.at("memory_gb").get<double>());
    ASSERT_GE(full.at("candidates").size(), 2U);
    std::set<int> counts;
    for (const auto& c : full.at("candidates")) {
        const auto perf = cli.json({"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus",
                                    std::to_string(c.at("count").get<int>()), "--metric", "llm-decode", "--model",
                                    "llama-3.1-8b", "--weights", "int4", "--context", "8192", "--sequences", "max"});
        const auto& p = perf.at("predictions").at(0);
        EXPECT_NEAR(c.at("throughput").get<double>(), p.at("throughput").get<double>(), 1e-9);
        const int n = p.at("llm").at("sequences").get<int>();
        counts.insert(n);
        EXPECT_NE(c.at("reasons").dump().find(std::to_string(n) + " requests together (as many as fit)"),
                  std::string::npos)
            << c.at("reasons").dump();
    }
    EXPECT_GE(counts.size(), 2U); // cards of different memory hold different counts
}

TEST(RecommendCli, AReadingSpeedForEachRequestRanksCardsByTheRequestsTheyServeAtIt) {
    // --min-sequence-speed 30: each candidate ranked by perf's tokens/s for the requests it serves
    // with each at 30 tokens/s or more, which its reasons give.
    Cli cli;
    const auto served =
        cli.json(llamaInference("20000", {"--context", "8192", "--top", "10", "--min-sequence-speed", "30"}));
    EXPECT_EQ(served.at("memory_basis").at("min_sequence_speed"), 30.0);
    EXPECT_EQ(served.at("memory_basis").at("sequences_fill_memory"), true);
    ASSERT_GE(served.at("candidates").size(), 2U);
    int fewerThanFit = 0;
    for (const auto& c : served.at("candidates")) {
        std::vector<std::string> base = {"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus",
                                         std::to_string(c.at("count").get<int>())};
        base.insert(base.end(), {"--metric", "llm-decode", "--model", "llama-3.1-8b", "--weights", "int4", "--context",
                                 "8192", "--sequences", "max"});
        std::vector<std::string> atSpeed = base;
        atSpeed.insert(atSpeed.end(), {"--min-sequence-speed", "30"});
        const auto doc = cli.json(atSpeed);
        const auto& p = doc.at("predictions").at(0);
        EXPECT_NEAR(c.at("throughput").get<double>(), p.at("throughput").get<double>(), 1e-9);
        const int n = p.at("llm").at("sequences").get<int>();
        fewerThanFit += n < cli.json(base).at("predictions").at(0).at("llm").at("sequences").get<int>();
        if (n > 1) {
            EXPECT_NE(c.at("reasons").dump().find(std::to_string(n) +
                                                  " requests together (as many as fit and each get 30 tokens/s)"),
                      std::string::npos)
                << c.at("reasons").dump();
        }
    }
    EXPECT_GE(fewerThanFit, 1); // the speed, not the memory, limits some
    const auto training =
        cli.run({"recommend", "--params-billion", "7", "--budget", "3000", "--min-sequence-speed", "30"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--min-sequence-speed is the requests an LLM serves at once"), std::string::npos)
        << training.err;
}

TEST(RecommendCli, RequestsServedAtOnceEachKeepTheirCacheAndGenerateTogether) {
    // Sixteen requests of Llama 3.1 8B at 8,192 tokens: 16 caches of 1.07 GB in the memory, and
    // each candidate ranked by perf's tokens/s for 16 sequences.
    Cli cli;
    const auto one = cli.json(llamaInference("5000", {"--context", "8192"}));
    const auto sixteen = cli.json(llamaInference("5000", {"--context", "8192", "--sequences", "16"}));
    EXPECT_EQ(sixteen.at("memory_basis").at("sequences"), 16);
    EXPECT_FALSE(one.at("memory_basis").contains("sequences"));
    EXPECT_GT(sixteen.at("memory_gb").get<double>() - one.at("memory_gb").get<double>(), 15 * 1.07);
    ASSERT_FALSE(sixteen.at("candidates").empty());
    const auto& c = sixteen.at("candidates").at(0);
    const auto perf = cli.json({"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus",
                                std::to_string(c.at("count").get<int>()), "--metric", "llm-decode", "--model",
                                "llama-3.1-8b", "--weights", "int4", "--context", "8192", "--sequences", "16"});
    EXPECT_NEAR(c.at("throughput").get<double>(), perf.at("predictions").at(0).at("throughput").get<double>(), 1e-9);
    const auto training = cli.run({"recommend", "--params-billion", "7", "--budget", "3000", "--sequences", "8"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--sequences is the requests an LLM serves at once"), std::string::npos)
        << training.err;
}

TEST(RecommendCli, UsageAndInputErrors) {
    Cli cli;
    EXPECT_EQ(cli.run({"recommend", "--memory-gb", "24"}).exitCode, 2); // no --budget
    EXPECT_EQ(cli.run({"recommend", "--memory-gb", "24", "--budget", "1000", "--rank", "cheapest"}).exitCode, 2);
    const auto bad = cli.run({"recommend", "--memory-gb", "24", "--budget", "1000", "--utilization", "1.5"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_EQ(bad.err, "error: --utilization: must be more than 0 and at most 1\n");
    // The memory is given or computed, not both; a negative budget is refused everywhere.
    const auto both = cli.run({"recommend", "--memory-gb", "24", "--params-billion", "7", "--budget", "1000"});
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_NE(both.err.find("--memory-gb cannot be combined with --params-billion"), std::string::npos) << both.err;
    const auto flowBudget = cli.run({"flowchart", "--budget", "-1"});
    EXPECT_EQ(flowBudget.exitCode, 2);
    EXPECT_NE(flowBudget.err.find("option '--budget' must be a number from 0 to"), std::string::npos) << flowBudget.err;
    const auto nothing = cli.json({"recommend", "--memory-gb", "200", "--budget", "500"});
    EXPECT_TRUE(nothing.at("candidates").empty());
    EXPECT_TRUE(nothing.at("cloud").at("recommended").get<bool>());
}

} // namespace
} // namespace advisor::testing
