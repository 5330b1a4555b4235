// `gpu-advisor perf` with part of a model in system RAM (--system-ram, --gpu-layers,
// --cpu-moe-layers) and `eval-offload`, through the real binary.
#include "cli_runner.h"

#include "common/csv.h"

#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

TEST(OffloadCli, SystemRamGivesTheOffloadedSpeedWithWhereTheModelSits) {
    Cli cli;
    const auto doc = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "llama-3.1-70b",
                               "--system-ram", "ddr5-5600"});
    const auto& p = doc.at("predictions").at(0);
    const double tokens = p.at("throughput");
    EXPECT_GT(tokens, 1.5);
    EXPECT_LT(tokens, 3.0);
    EXPECT_EQ(p.at("bound"), "the CPU's reads from system RAM");
    EXPECT_GT(p.at("time_shares").at("system_ram").get<double>(), 0.8);
    const auto& o = p.at("offload");
    EXPECT_DOUBLE_EQ(o.at("system_ram_gbs").get<double>(), 89.6);
    EXPECT_DOUBLE_EQ(o.at("tokens_per_s").get<double>(), tokens);
    EXPECT_EQ(o.at("layers"), 80);
    EXPECT_TRUE(o.at("output_head_in_ram").get<bool>());
    EXPECT_FALSE(o.at("experts_in_ram").get<bool>());
    EXPECT_NEAR(o.at("ram_held_gb").get<double>() + o.at("gpu_capacity_gb").get<double>(),
                o.at("held_gb").get<double>(), 0.5); // the GPU is full; the rest is in RAM
    EXPECT_FALSE(p.contains("if_offloaded"));

    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "llama-3.1-70b",
                                "--system-ram", "ddr5-5600"});
    EXPECT_NE(human.out.find("layers in system RAM: x0."), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("(llama.cpp -ngl "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("CPU and system RAM 9"), std::string::npos) << human.out;
}

TEST(OffloadCli, WithoutSystemRamTheJsonCarriesTheNotesEstimateBesideTheAsIfItFittedSpeed) {
    Cli cli;
    const auto doc = cli.json({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--model", "gpt-oss-120b"});
    const auto& p = doc.at("predictions").at(0);
    EXPECT_FALSE(p.contains("offload"));
    const auto& estimate = p.at("if_offloaded");
    EXPECT_DOUBLE_EQ(estimate.at("system_ram_gbs").get<double>(), 89.6);
    EXPECT_TRUE(estimate.at("experts_in_ram").get<bool>());
    EXPECT_LT(estimate.at("tokens_per_s").get<double>(), 0.5 * p.at("throughput").get<double>());
    const auto given = cli.json(
        {"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--model", "gpt-oss-120b", "--system-ram", "89.6"});
    EXPECT_DOUBLE_EQ(given.at("predictions").at(0).at("throughput").get<double>(),
                     estimate.at("tokens_per_s").get<double>());
}

TEST(OffloadCli, APromptWithTheRestInRamCopiesTheExpertsEachStepPicksOverPcie) {
    // gpt-oss-120b on an RTX 3090 (PCIe 4.0 x16): with RAM given, its prompt is predicted with each
    // micro-batch's copy; without, the JSON carries the same figure as the notes' estimate.
    Cli cli;
    const std::vector<std::string> base = {"perf",         "--gpu",     "RTX 3090", "--metric", "llm-prefill",
                                           "--model",      "gpt-oss-120b", "--context", "4096"};
    auto withRam = base;
    withRam.insert(withRam.end(), {"--system-ram", "ddr5-5600"});
    const auto p = cli.json(withRam).at("predictions").at(0);
    EXPECT_EQ(p.at("bound"), "copying from system RAM to the GPU");
    const auto& o = p.at("offload");
    EXPECT_TRUE(o.at("experts_in_ram").get<bool>());
    EXPECT_NEAR(o.at("experts_picked_share").get<double>(), 0.648, 0.001); // 83 of 128 at 512 a step
    EXPECT_NEAR(o.at("copied_gb_per_step").get<double>(), 0.648 * o.at("ram_held_gb").get<double>(), 0.05);
    EXPECT_DOUBLE_EQ(o.at("pcie_gbs").get<double>(), 31.52);
    EXPECT_NEAR(o.at("copy_gbs").get<double>(), 31.52 * 0.86, 1e-9);
    EXPECT_FALSE(o.at("ram_binds_copy").get<bool>());
    // 4,096 tokens in 8 steps, each copying 26.7 GB at 27 GB/s beside the GPU's 0.28 s: about 400
    // tokens/s.
    const double tokens = p.at("throughput");
    EXPECT_GT(tokens, 380);
    EXPECT_LT(tokens, 440);
    const auto asIfFits = cli.json(base).at("predictions").at(0);
    EXPECT_FALSE(asIfFits.contains("offload"));
    EXPECT_DOUBLE_EQ(asIfFits.at("if_offloaded").at("tokens_per_s").get<double>(), tokens);
    EXPECT_DOUBLE_EQ(asIfFits.at("if_offloaded").at("copied_gb_per_step").get<double>(),
                     o.at("copied_gb_per_step").get<double>());
    EXPECT_GT(asIfFits.at("throughput").get<double>(), 4 * tokens);
    // Slow RAM binds the copy, and the explanation says so.
    auto slow = base;
    slow.insert(slow.end(), {"--system-ram", "ddr4-2133"});
    EXPECT_TRUE(cli.json(slow).at("predictions").at(0).at("offload").at("ram_binds_copy").get<bool>());
    const auto human = cli.run(slow);
    EXPECT_NE(human.out.find("what the 34.1 GB/s RAM gives at 53% of its rate"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("copies from system RAM 8"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("int4 weights, 4,096 tokens of context"), std::string::npos) << human.out;
    const auto value = cli.run({"value", "--metric", "llm-prefill", "--model", "llama-3.1-70b", "--system-ram",
                                "ddr5-5600"});
    EXPECT_EQ(value.exitCode, 0) << value.err;
    EXPECT_NE(value.out.find("marked (+RAM) process prompts with part of the model in system RAM of 89.6 GB/s"),
              std::string::npos)
        << value.out;
}

TEST(OffloadCli, PlacementsAreLlamaCppsAndBadOnesAreRefusedByName) {
    Cli cli;
    const auto moe = cli.json({"perf", "--gpu", "RTX 2080", "--metric", "llm-decode", "--model", "qwen3-30b-a3b",
                               "--system-ram", "102", "--cpu-moe-layers", "36"});
    EXPECT_EQ(moe.at("predictions").at(0).at("offload").at("cpu_moe_layers"), 36);
    EXPECT_EQ(moe.at("predictions").at(0).at("offload").at("moe_layer_step"), 1);
    EXPECT_EQ(moe.at("predictions").at(0).at("offload").at("cpu_layers_run"), 36);
    // Llama 4 Maverick's experts sit in every other layer: the first 46 layers hold 23 of them.
    const auto interleaved = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model",
                                       "llama-4-maverick", "--system-ram", "256", "--cpu-moe-layers", "46"});
    const auto& offload = interleaved.at("predictions").at(0).at("offload");
    EXPECT_EQ(offload.at("moe_layer_step"), 2);
    EXPECT_EQ(offload.at("cpu_moe_layers"), 46);
    EXPECT_EQ(offload.at("cpu_layers_run"), 23);
    const auto ngl = cli.json(
        {"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--model", "llama-3.1-8b", "--gpu-layers", "16"});
    EXPECT_EQ(ngl.at("predictions").at(0).at("offload").at("gpu_layers"), 16);
    EXPECT_DOUBLE_EQ(ngl.at("predictions").at(0).at("offload").at("system_ram_gbs").get<double>(), 89.6);

    struct Bad {
        std::vector<std::string> args;
        const char* message;
    };
    const std::vector<Bad> bad = {
        {{"--system-ram", "ddr6-5600"}, "--system-ram: expected a DDR kind and speed such as ddr5-5600"},
        {{"--system-ram", "ddr5-5600x0"}, "--system-ram: channels must be a whole number from 1 to 24"},
        {{"--gpu-layers", "82"}, "--gpu-layers"},
        {{"--cpu-moe-layers", "4"}, "--cpu-moe-layers leaves a mixture of experts' routed experts in RAM"},
        {{"--gpu-layers", "4", "--cpu-moe-layers", "4"}, "--gpu-layers"},
    };
    for (const auto& b : bad) {
        std::vector<std::string> args = {"perf",       "--gpu",   "RTX 4090",     "--metric",
                                         "llm-decode", "--model", "llama-3.1-70b"};
        args.insert(args.end(), b.args.begin(), b.args.end());
        const auto r = cli.run(args);
        EXPECT_EQ(r.exitCode, 2) << b.message;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    const auto training = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--system-ram", "89.6"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("give --metric llm-decode or llm-prefill (or no --metric)"), std::string::npos)
        << training.err;
}

TEST(OffloadCli, ValueAndChartTakeTheSystemRamAndMarkTheCardsThatUseIt) {
    Cli cli;
    const auto value = cli.json({"value", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--system-ram",
                                 "ddr5-5600"});
    int inRam = 0, onCards = 0;
    for (const auto& r : value.at("rows")) {
        EXPECT_TRUE(r.at("holds_model").get<bool>()) << r.at("gpu");
        const bool partly = r.at("partly_in_ram");
        EXPECT_EQ(partly, r.at("memory_gb").get<double>() < 42.6) << r.at("gpu");
        (partly ? inRam : onCards) += 1;
    }
    EXPECT_GT(inRam, 10);
    EXPECT_GT(onCards, 10);
    const auto text = cli.run({"value", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--system-ram",
                               "ddr5-5600"});
    EXPECT_NE(text.out.find("RTX 3090 (+RAM)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("marked (+RAM) generate tokens with part of the model in system RAM of 89.6 GB/s"),
              std::string::npos)
        << text.out;

    const auto chart = cli.run({"chart", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--system-ram",
                                "ddr5-5600", "--out", cli.file("llm.csv")});
    ASSERT_EQ(chart.exitCode, 0) << chart.err;
    const csv::Table table = csv::read(cli.read("llm.csv"), "llm.csv");
    ASSERT_EQ(table.header.back(), "partly_in_ram");
    const auto column = [&](const char* name) {
        return size_t(std::find(table.header.begin(), table.header.end(), name) - table.header.begin());
    };
    bool sawRtx4090 = false, sawRtx6000Ada = false;
    for (const auto& row : table.rows) {
        if (row.fields[column("gpu")] == "RTX 4090") {
            sawRtx4090 = true;
            EXPECT_EQ(row.fields[column("partly_in_ram")], "yes");
            EXPECT_EQ(row.fields[column("relative_llm-decode")], "1");
            EXPECT_EQ(row.fields[column("relative_llm-prefill")], "1"); // charted, with its copies over PCIe
        }
        if (row.fields[column("gpu")] == "RTX 6000 Ada") { // 48 GB: it holds the model, copies nothing
            sawRtx6000Ada = true;
            EXPECT_EQ(row.fields[column("partly_in_ram")], "no");
            EXPECT_GT(std::stod(row.fields[column("relative_llm-prefill")]), 1.5);
        }
    }
    EXPECT_TRUE(sawRtx4090);
    EXPECT_TRUE(sawRtx6000Ada);

    const auto training = cli.run({"value", "--metric", "fp16-training", "--system-ram", "ddr5-5600"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--system-ram describes LLM inference"), std::string::npos) << training.err;
    const auto badChart = cli.run({"chart", "--out", cli.file("x.csv"), "--system-ram", "ddr5-5600"});
    EXPECT_EQ(badChart.exitCode, 2);
    EXPECT_NE(badChart.err.find("--system-ram describes LLM inference"), std::string::npos) << badChart.err;
}

TEST(OffloadCli, RecommendRanksCardsTooSmallForTheModelWithTheRestInRam) {
    Cli cli;
    const std::vector<std::string> args = {"recommend",    "--task",      "inference", "--domain", "llm", "--model",
                                           "gpt-oss-120b", "--precision", "4bit",      "--budget", "2000"};
    auto withRam = args;
    withRam.insert(withRam.end(), {"--system-ram", "ddr5-5600"});
    const auto doc = cli.json(withRam);
    ASSERT_GE(doc.at("candidates").size(), 2u);
    // Strix Halo's 128 GB at $1,999 holds all 66.5 GB; the cards after it keep the rest in RAM.
    const auto& whole = doc.at("candidates").at(0);
    EXPECT_EQ(whole.at("gpu_id"), "ryzen-ai-max-395");
    EXPECT_FALSE(whole.at("partly_in_ram").get<bool>());
    const auto& best = doc.at("candidates").at(1);
    EXPECT_TRUE(best.at("partly_in_ram").get<bool>());
    EXPECT_EQ(best.at("count"), 1);
    const auto text = cli.run(withRam);
    EXPECT_NE(text.out.find(" + system RAM ("), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("stay in system RAM: the routed experts of"), std::string::npos) << text.out;
    const auto without = cli.json(args);
    ASSERT_EQ(without.at("candidates").size(), 1u); // no card under $2,000 holds 66.5 GB: only that computer
    EXPECT_EQ(without.at("candidates").at(0).at("gpu_id"), "ryzen-ai-max-395");

    // A complete computer has no RAM beside its unified memory: a model it cannot hold (Qwen3 235B
    // at 4 bits, 144 GB) is not put partly "in system RAM" on it, as it is on a card.
    const auto big = cli.json({"recommend", "--task", "inference", "--domain", "llm", "--model", "qwen3-235b-a22b",
                               "--precision", "4bit", "--budget", "4000", "--system-ram", "ddr5-5600"});
    for (const auto& c : big.at("candidates")) {
        EXPECT_NE(c.at("gpu_id"), "ryzen-ai-max-395");
        EXPECT_NE(c.at("gpu_id"), "dgx-spark");
    }

    const auto training = cli.run({"recommend", "--memory-gb", "24", "--budget", "2000", "--system-ram", "ddr5-5600"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--system-ram lets a card too small for an LLM keep the rest in RAM"),
              std::string::npos)
        << training.err;
}

TEST(OffloadCli, EvalOffloadReportsEachRunAndTheFitInAndOutOfSample) {
    Cli cli;
    const auto doc = cli.json({"eval-offload"});
    ASSERT_EQ(doc.at("rows").size(), 10u);
    const auto& first = doc.at("rows").at(0);
    EXPECT_EQ(first.at("model"), "gemma-2-9b");
    EXPECT_EQ(first.at("placement"), "-ngl 36");
    EXPECT_DOUBLE_EQ(first.at("measured_tokens_per_s").get<double>(), 23.7);
    EXPECT_DOUBLE_EQ(doc.at("fitted").at("ram_read_efficiency").get<double>(),
                     doc.at("shipped").at("ram_read_efficiency").get<double>());
    EXPECT_DOUBLE_EQ(doc.at("fitted").at("cpu_layer_ms").get<double>(),
                     doc.at("shipped").at("cpu_layer_ms").get<double>());
    EXPECT_LT(doc.at("fitted").at("leave_one_out_errors").at("median_abs_error_pct").get<double>(), 10.0);
    const auto human = cli.run({"eval-offload"});
    EXPECT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("each run predicted by constants fitted without it (LEFT OUT): median |error| "),
              std::string::npos)
        << human.out;
    const auto missing = cli.run({"eval-offload", "--runs", "/nonexistent/runs.csv"});
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.err.find("/nonexistent/runs.csv"), std::string::npos) << missing.err;
    // A GPU the catalog does not know is named with its file, line and field before any fit.
    const std::string path = cli.write(
        "runs.csv", "gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,vocab,hidden,"
                    "bits_per_weight,gpu_layers,cpu_moe_layers,system_ram_gbs,tokens_per_s,source\n"
                    "RTX 2080,gemma-2-9b,9.24,,,,42,256000,3584,4.85,36,,102,23.7,ok\n"
                    "RTX 2090,gemma-2-9b,9.24,,,,42,256000,3584,4.85,36,,102,23.7,no such card\n");
    const auto unknown = cli.run({"eval-offload", "--runs", path});
    EXPECT_NE(unknown.exitCode, 0);
    EXPECT_NE(unknown.err.find("runs.csv:3: field 'gpu': unknown GPU 'RTX 2090'"), std::string::npos) << unknown.err;
    EXPECT_EQ(unknown.out, "");
}

} // namespace
} // namespace advisor::testing
