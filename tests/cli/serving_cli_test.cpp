// The serving engine on the command line: `--engine tensorrt-llm` in perf, value and chart, its
// errors, and `eval-serving` against TensorRT-LLM's published tables, through the real binary.
#include "cli_runner.h"
#include "common/csv.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace advisor::testing {
namespace {

nlohmann::json decode(const Cli& cli, const std::string& gpu, const std::string& engine) {
    return cli
        .json({"perf", "--gpu", gpu, "--metric", "llm-decode", "--model", "llama-2-7b", "--weights", "int8",
               "--kv-cache", "fp8", "--sequences", "120", "--depth", "640", "--engine", engine})
        .at("predictions")
        .at(0);
}

bool hasFactor(const nlohmann::json& prediction, const std::string& name) {
    for (const auto& f : prediction.at("factors")) {
        if (f.at("name") == name) {
            return true;
        }
    }
    return false;
}

TEST(ServingCli, PerfRunsTheServingEngineAndSaysHowFarToTrustIt) {
    Cli cli;
    // TensorRT-LLM 0.9's H100 ran LLaMA 7B at 120 sequences and 1,152 tokens of context at 6,944
    // tokens/s (its table's 128 in / 2,048 out); llama.cpp's kernels are far below it.
    const auto serving = decode(cli, "H100 SXM5", "tensorrt-llm");
    const auto llamaCpp = decode(cli, "H100 SXM5", "llama.cpp");
    EXPECT_EQ(serving.at("llm").at("engine"), "tensorrt-llm");
    EXPECT_EQ(llamaCpp.at("llm").at("engine"), "llama.cpp");
    EXPECT_NEAR(serving.at("throughput").get<double>() / 6944, 1.0, 0.2) << serving.at("throughput");
    EXPECT_GT(serving.at("throughput").get<double>() / llamaCpp.at("throughput").get<double>(), 2.0);
    EXPECT_TRUE(hasFactor(serving, "TensorRT-LLM's kernels"));
    EXPECT_FALSE(hasFactor(serving, "bytes in flight per SM"));
    const auto& error = serving.at("expected_error");
    EXPECT_NE(error.at("basis").get<std::string>().find("TensorRT-LLM's published throughput"), std::string::npos);
    EXPECT_DOUBLE_EQ(error.at("median_abs_error_pct").get<double>(), 6.7);
    EXPECT_EQ(error.at("rows"), 51);

    const auto text = cli.run({"perf", "--gpu", "L40S", "--metric", "llm-decode", "--sequences", "64", "--engine",
                               "TensorRT-LLM", "--gpus", "2"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("64 sequences at once, in TensorRT-LLM): "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("tensor parallel over 2 GPUs: x"), std::string::npos) << text.out;
    // The 8B model's grouped-query attention runs on the tensor cores (XQA), as current releases run
    // it: its expected error is their full-load check's.
    EXPECT_NE(text.out.find("expected error: about 6% (median), 12% or more for 1 in 10 - on TensorRT-LLM 1.0's "
                            "published full-load throughput"),
              std::string::npos)
        << text.out;
}

TEST(ServingCli, AnUnknownEngineOrALlamaCppOptionWithItIsRefusedByName) {
    Cli cli;
    const auto unknown = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--engine", "vllm"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("option '--engine' must be llama.cpp or tensorrt-llm, got 'vllm'"), std::string::npos)
        << unknown.err;
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--metric", "llm-prefill", "--ubatch", "2048"},
          std::vector<std::string>{"--metric", "llm-decode", "--system-ram", "ddr5-5600"}}) {
        std::vector<std::string> args = {"perf", "--gpu", "RTX 4090", "--engine", "tensorrt-llm"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto refused = cli.run(args);
        EXPECT_EQ(refused.exitCode, 2) << extra[2];
        EXPECT_NE(refused.err.find(extra[2] + " is llama.cpp's: TensorRT-LLM runs a whole prompt at once"),
                  std::string::npos)
            << refused.err;
    }
    const auto training =
        cli.run({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--engine", "tensorrt-llm"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--ubatch and --engine describe an LLM"), std::string::npos) << training.err;
}

TEST(ServingCli, ValueAndChartRankTheCardsInTheEngine) {
    Cli cli;
    const auto value = cli.run({"value", "--metric", "llm-decode", "--model", "llama-3.1-8b", "--weights", "int8",
                                "--sequences", "max", "--engine", "tensorrt-llm", "--all"});
    ASSERT_EQ(value.exitCode, 0) << value.err;
    EXPECT_NE(value.out.find("as many sequences generating together as the memory holds, in TensorRT-LLM)"),
              std::string::npos)
        << value.out;
    const auto json = cli.json({"value", "--metric", "llm-decode", "--engine", "tensorrt-llm"});
    EXPECT_EQ(json.at("llm_engine"), "tensorrt-llm");
    EXPECT_TRUE(cli.json({"value", "--metric", "fp16-training"}).at("llm_engine").is_null());
    const auto chart = cli.run({"chart", "--metric", "llm-decode", "--engine", "tensorrt-llm", "--sequences", "64",
                                "--reference", "L40S", "--out", cli.file("serving.csv")});
    ASSERT_EQ(chart.exitCode, 0) << chart.err;
    const csv::Table table = csv::read(cli.read("serving.csv"), "serving.csv");
    const auto column =
        size_t(std::find(table.header.begin(), table.header.end(), "relative_llm-decode") - table.header.begin());
    ASSERT_LT(column, table.header.size());
    // The H100's bar against the L40S: its own decode at 64 sequences in the engine over the L40S's.
    const auto relative = [&](const std::string& name) {
        for (const auto& r : table.rows) {
            if (r.fields.at(0) == name) {
                return std::stod(r.fields.at(column));
            }
        }
        return -1.0;
    };
    const auto one = [&](const std::string& gpu) {
        return cli
            .json({"perf", "--gpu", gpu, "--metric", "llm-decode", "--sequences", "64", "--engine", "tensorrt-llm"})
            .at("predictions")
            .at(0)
            .at("throughput")
            .get<double>();
    };
    EXPECT_NEAR(relative("H100 SXM5"), one("H100 SXM5") / one("L40S"), 1e-9);
    EXPECT_NEAR(relative("L40S"), 1.0, 1e-12);
}

TEST(ServingCli, RecommendRanksByTheEnginesSpeed) {
    // Llama 3.1 70B in fp16 for 16 requests: each candidate ranked by perf's tokens/s in the engine,
    // several cards split by tensors.
    Cli cli;
    const auto doc = cli.json({"recommend", "--model", "llama-3.1-70b", "--task", "inference", "--domain", "llm",
                               "--budget", "80000", "--gpus", "4", "--context", "4096", "--sequences", "16", "--engine",
                               "tensorrt-llm", "--top", "5"});
    EXPECT_EQ(doc.at("memory_basis").at("engine"), "tensorrt-llm");
    ASSERT_FALSE(doc.at("candidates").empty());
    bool several = false;
    for (const auto& c : doc.at("candidates")) {
        const int count = c.at("count").get<int>();
        several = several || count > 1;
        const auto perf = cli.json({"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus", std::to_string(count),
                                    "--metric", "llm-decode", "--model", "llama-3.1-70b", "--weights", "fp16",
                                    "--context", "4096", "--sequences", "16", "--engine", "tensorrt-llm"});
        EXPECT_NEAR(c.at("throughput").get<double>(), perf.at("predictions").at(0).at("throughput").get<double>(), 1e-9)
            << c.at("gpu");
    }
    EXPECT_TRUE(several);
    const auto text = cli.run({"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--domain", "llm",
                               "--budget", "5000", "--engine", "tensorrt-llm"});
    EXPECT_NE(text.out.find(", ranked by llm-decode in TensorRT-LLM per dollar ("), std::string::npos) << text.out;
    const auto refused =
        cli.run({"recommend", "--params-billion", "7", "--budget", "3000", "--engine", "tensorrt-llm"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("--engine is the software serving an LLM"), std::string::npos) << refused.err;
}

TEST(ServingCli, RecommendSplitsSeveralCardsByLayersWhenAsked) {
    // Llama 3.1 70B in 8-bit at full load on up to four cards split by layers: each setup of
    // several cards is ranked at perf's pipeline figure, which is not the split by tensors'.
    Cli cli;
    const std::vector<std::string> ask = {"recommend", "--model",      "llama-3.1-70b", "--task",      "inference",
                                          "--domain",  "llm",          "--budget",      "60000",       "--gpus",
                                          "4",         "--context",    "2000",          "--sequences", "max",
                                          "--engine",  "tensorrt-llm", "--precision",   "8bit"};
    auto byLayers = ask;
    byLayers.insert(byLayers.end(), {"--split", "layers"});
    const auto doc = cli.json(byLayers);
    EXPECT_EQ(doc.at("memory_basis").at("split"), "layers");
    EXPECT_FALSE(cli.json(ask).at("memory_basis").contains("split")); // the object stays as it was
    int several = 0;
    for (const auto& c : doc.at("candidates")) {
        const int count = c.at("count").get<int>();
        if (count < 2) {
            continue;
        }
        ++several;
        const auto perfOf = [&](const char* split) {
            return cli
                .json({"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus", std::to_string(count), "--metric",
                       "llm-decode", "--model", "llama-3.1-70b", "--weights", "int8", "--context", "2000",
                       "--sequences", "max", "--engine", "tensorrt-llm", "--split", split})
                .at("predictions")
                .at(0)
                .at("throughput")
                .get<double>();
        };
        EXPECT_NEAR(c.at("throughput").get<double>(), perfOf("layers"), 1e-9) << c.at("gpu");
        // A handful of requests per card leaves decoding bound by the reads: each stage reads its
        // layers once per micro-batch, so tensors (every card reading at once) is well ahead.
        EXPECT_GT(perfOf("tensors"), 1.5 * c.at("throughput").get<double>()) << c.at("gpu");
        bool told = false;
        for (const auto& caveat : c.at("caveats")) {
            told = told || caveat.get<std::string>().find("each a run of whole layers") != std::string::npos;
        }
        EXPECT_TRUE(told) << c;
    }
    EXPECT_GE(several, 2);
    const auto text = cli.run(byLayers);
    EXPECT_NE(text.out.find("in TensorRT-LLM (several cards split by layers) per dollar"), std::string::npos)
        << text.out;
    const auto noEngine = cli.run({"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--domain", "llm",
                                   "--budget", "3000", "--split", "layers"});
    EXPECT_EQ(noEngine.exitCode, 2);
    EXPECT_NE(noEngine.err.find("--split chooses how the serving engine splits a model"), std::string::npos)
        << noEngine.err;
    const auto notLlm = cli.run({"recommend", "--params-billion", "7", "--budget", "3000", "--split", "layers"});
    EXPECT_EQ(notLlm.exitCode, 2);
    EXPECT_NE(notLlm.err.find("--split is how a serving engine splits an LLM"), std::string::npos) << notLlm.err;
}

TEST(ServingCli, RecommendSplitsEachSetupWhicheverWayRunsItFaster) {
    // --split fastest: each setup of several cards at the faster of perf's two splits, named in
    // its llm_split; one card is not split. Llama 3.3 70B in NVFP4 at full load on up to 8 cards.
    Cli cli;
    const auto doc = cli.json({"recommend",    "--model",     "llama-3.1-70b", "--task",   "inference", "--domain",
                               "llm",          "--precision", "fp4",           "--gpus",   "8",         "--sequences",
                               "max",          "--context",   "2000",          "--budget", "60000",     "--engine",
                               "tensorrt-llm", "--split",     "fastest",       "--top",    "8"});
    EXPECT_EQ(doc.at("memory_basis").at("split"), "fastest");
    std::set<std::string> chosen;
    for (const auto& c : doc.at("candidates")) {
        const int count = c.at("count").get<int>();
        if (count < 2) {
            EXPECT_TRUE(c.at("llm_split").is_null()) << c.at("gpu");
            continue;
        }
        const auto perfOf = [&](const char* split) {
            return cli
                .json({"perf", "--gpu", c.at("gpu").get<std::string>(), "--gpus", std::to_string(count), "--metric",
                       "llm-decode", "--model", "llama-3.1-70b", "--weights", "fp4", "--context", "2000", "--sequences",
                       "max", "--engine", "tensorrt-llm", "--split", split})
                .at("predictions")
                .at(0)
                .at("throughput")
                .get<double>();
        };
        const double tensors = perfOf("tensors");
        const double layers = perfOf("layers");
        EXPECT_NEAR(c.at("throughput").get<double>(), std::max(tensors, layers), 1e-9) << c.at("gpu");
        EXPECT_EQ(c.at("llm_split"), layers > tensors ? "layers" : "tensors") << c.at("gpu");
        chosen.insert(c.at("llm_split").get<std::string>());
    }
    EXPECT_EQ(chosen.size(), 2u); // some setups run faster split by layers, some by tensors
    const auto perfRefuses = cli.run({"perf", "--gpu", "L40S", "--gpus", "2", "--metric", "llm-decode", "--engine",
                                      "tensorrt-llm", "--split", "fastest"});
    EXPECT_NE(perfRefuses.err.find("option '--split' must be tensors, layers or experts, got 'fastest'"),
              std::string::npos)
        << perfRefuses.err;
    const auto bad = cli.run({"recommend", "--model", "llama-3.1-8b", "--task", "inference", "--domain", "llm",
                              "--budget", "3000", "--engine", "tensorrt-llm", "--split", "data"});
    EXPECT_NE(bad.err.find("option '--split' must be tensors, layers, experts or fastest, got 'data'"),
              std::string::npos)
        << bad.err;
}

TEST(ServingCli, RecommendRanksFourBitFloatsAtTheFp4TensorCoresWhereACardHasThem) {
    // Llama 3.1 70B in NVFP4 at full load: sized at 4.5 bits, each card ranked at perf's figure
    // for --weights fp4, and a card without FP4 tensor cores says it was ranked at 16 bits.
    Cli cli;
    const auto doc = cli.json({"recommend", "--model",  "llama-3.1-70b",  "--task",      "inference",
                               "--domain",  "llm",      "--precision",    "fp4",         "--budget",
                               "20000",     "--engine", "tensorrt-llm",   "--sequences", "max",
                               "--context", "2000",     "--organization", "--top",       "8"});
    EXPECT_EQ(doc.at("memory_basis").at("weights"), "fp4");
    // 70B parameters at NVFP4's 4.5 bits are 39.4 GB of weights; at INT4 AWQ's 4.125 bits, 36.1.
    EXPECT_NEAR(doc.at("memory_gb").get<double>() -
                    cli.json({"recommend", "--model", "llama-3.1-70b", "--task", "inference", "--domain", "llm",
                              "--precision", "4bit", "--budget", "20000", "--engine", "tensorrt-llm", "--sequences",
                              "max", "--context", "2000", "--organization"})
                        .at("memory_gb")
                        .get<double>(),
                70.0 * (4.5 - 4.125) / 8, 0.01);
    bool blackwell = false;
    bool withoutFp4 = false;
    for (const auto& c : doc.at("candidates")) {
        const auto gpu = c.at("gpu").get<std::string>();
        const auto p = cli.json({"perf", "--gpu", gpu, "--gpus", std::to_string(c.at("count").get<int>()), "--metric",
                                 "llm-decode", "--model", "llama-3.1-70b", "--weights", "fp4", "--sequences", "max",
                                 "--context", "2000", "--engine", "tensorrt-llm"})
                           .at("predictions")
                           .at(0);
        EXPECT_NEAR(c.at("throughput").get<double>(), p.at("throughput").get<double>(), 1e-9) << gpu;
        const bool noFp4 = p.at("notes").dump().find("this card has none") != std::string::npos;
        bool told = false;
        for (const auto& caveat : c.at("caveats")) {
            told = told || caveat.get<std::string>().find("no FP4 tensor cores") != std::string::npos;
        }
        EXPECT_EQ(told, noFp4) << gpu;
        blackwell = blackwell || !noFp4;
        withoutFp4 = withoutFp4 || noFp4;
    }
    EXPECT_TRUE(blackwell && withoutFp4);
    const auto training = cli.run({"recommend", "--params-billion", "7", "--budget", "2000", "--precision", "fp4"});
    EXPECT_EQ(training.exitCode, 2);
    EXPECT_NE(training.err.find("--precision fp4 is for LLM inference"), std::string::npos) << training.err;
    const auto bad = cli.run({"recommend", "--params-billion", "7", "--budget", "2000", "--precision", "fp3"});
    EXPECT_NE(bad.err.find("or 4bit or fp4 for --task inference --domain llm), got 'fp3'"), std::string::npos)
        << bad.err;
}

TEST(ServingCli, EvalServingReportsEachArchitectureHeldOut) {
    Cli cli;
    const auto doc = cli.json({"eval-serving"});
    EXPECT_EQ(doc.at("rows").size(), 96u);
    const auto& single = doc.at("leave_one_architecture_out").at("single_gpu");
    EXPECT_EQ(single.at("rows"), 51);
    EXPECT_NEAR(single.at("median_abs_error_pct").get<double>(), 6.7, 0.05);
    EXPECT_LT(single.at("p90_abs_error_pct").get<double>(), 25.0);
    EXPECT_NEAR(doc.at("fitted").at("constants").at("matmul_efficiency").get<double>(), 0.660, 0.0033);
    // The first-token latencies of one request, never fitted on: the bands perf reports for prompts.
    const auto& firstToken = doc.at("first_token");
    EXPECT_EQ(firstToken.at("rows").size(), 48u);
    EXPECT_NEAR(firstToken.at("single_gpu").at("median_abs_error_pct").get<double>(), 10.8, 0.05);
    EXPECT_EQ(firstToken.at("tensor_parallel").at("rows"), 16);
    // A current release at full load, never fitted on: the bands perf reports for grouped-query models.
    const auto& fullLoad = doc.at("full_load");
    EXPECT_EQ(fullLoad.at("rows").size(), 140u);
    const auto& byLayers = fullLoad.at("split_by_layers");
    EXPECT_NEAR(byLayers.at("hand_over_ms_fitted").get<double>(), 0.511, 0.001);
    EXPECT_NEAR(byLayers.at("cards_left_out").at("median_abs_error_pct").get<double>(), 12.1, 0.05);
    EXPECT_EQ(byLayers.at("cards_left_out").at("rows"), 30);
    // Its NVFP4 rows fit the one constant fitted on them; each GPU held out gives perf's band.
    EXPECT_NEAR(fullLoad.at("fp4").at("rate_share_fitted").get<double>(), 0.582, 0.001);
    EXPECT_NEAR(fullLoad.at("fp4").at("gpu_left_out").at("median_abs_error_pct").get<double>(), 7.2, 0.05);
    EXPECT_EQ(fullLoad.at("fp4").at("gpu_left_out").at("rows"), 50);
    EXPECT_NEAR(fullLoad.at("single_gpu").at("median_abs_error_pct").get<double>(), 8.0, 0.05);
    // Requests at once are those whose whole length fits, as TensorRT-LLM's scheduler admits them.
    const auto longAnswers = std::find_if(fullLoad.at("rows").begin(), fullLoad.at("rows").end(), [](const auto& r) {
        return r.at("gpu") == "H200 SXM" && r.at("model") == "llama-3.1-70b" && r.at("output_tokens") == 4096;
    });
    ASSERT_NE(longAnswers, fullLoad.at("rows").end());
    EXPECT_EQ(longAnswers->at("sequences"), 82); // 159 at the mean context
    const auto text = cli.run({"eval-serving"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("a current release at full load"), std::string::npos);
    EXPECT_NE(text.out.find("time to the first token at one sequence (no constant fitted on it)"), std::string::npos);
    EXPECT_NE(text.out.find("each architecture predicted by constants fitted without it"), std::string::npos);
    EXPECT_NE(text.out.find("not fitted"), std::string::npos); // the mixture of experts' rows
    // A bad file names its line and field and changes nothing.
    const std::string path = cli.write(
        "bad.csv", "gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,"
                   "kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,sequences,input_tokens,output_tokens,"
                   "tokens_per_s_per_gpu,source\nL40S,x,7,,,,32,4096,65536,fp8,8,fp8,1,0,128,2048,1654,zero\n");
    const auto bad = cli.run({"eval-serving", "--runs", path});
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("bad.csv:2: field 'sequences': must be a whole number from 1 to 65536, got '0'"),
              std::string::npos)
        << bad.err;
    const std::string firstTokenHeader =
        "gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,"
        "kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,input_tokens,first_token_ms,source\n";
    const std::string latency =
        cli.write("latency.csv", firstTokenHeader + "L40S,x,7,,,,32,4096,65536,fp8,8,fp8,1,128,soon,not a number\n");
    const std::string unknownGpu =
        cli.write("unknown.csv", firstTokenHeader + "H101 SXM,x,7,,,,32,4096,65536,fp8,8,fp8,1,128,6.3,no such card\n");
    const auto unknown = cli.run({"eval-serving", "--first-token", unknownGpu});
    EXPECT_NE(unknown.exitCode, 0);
    EXPECT_NE(unknown.err.find("unknown.csv:2: field 'gpu': unknown GPU 'H101 SXM'"), std::string::npos) << unknown.err;
    EXPECT_EQ(unknown.out, "");
    const auto badLatency = cli.run({"eval-serving", "--first-token", latency});
    EXPECT_NE(badLatency.exitCode, 0);
    EXPECT_NE(badLatency.err.find("latency.csv:2: field 'first_token_ms': must be a number above 0"), std::string::npos)
        << badLatency.err;
}

TEST(ServingCli, GroupedQueryModelsRunAttentionOnTheTensorCores) {
    Cli cli;
    // Llama 3.1 8B (8 KV heads for 32 query heads) at 3,000 tokens of context, 256 at once: XQA.
    const auto args = std::vector<std::string>{
        "perf",       "--gpu", "H100 SXM5", "--metric", "llm-decode",  "--model", "llama-3.1-8b", "--weights",   "int8",
        "--kv-cache", "fp8",   "--context", "3000",     "--sequences", "256",     "--engine",     "tensorrt-llm"};
    const auto p = cli.json(args).at("predictions").at(0);
    EXPECT_TRUE(hasFactor(p, "attention on the tensor cores (XQA)"));
    EXPECT_NE(p.at("expected_error").at("basis").get<std::string>().find("full-load"), std::string::npos);
    // Llama 2 7B's multi-head attention stays on the CUDA cores, as its expected error says.
    const auto mha = decode(cli, "H100 SXM5", "tensorrt-llm");
    EXPECT_FALSE(hasFactor(mha, "attention on the tensor cores (XQA)"));
    EXPECT_NE(mha.at("expected_error").at("basis").get<std::string>().find("leave-one-architecture-out"),
              std::string::npos);
}

TEST(ServingCli, PerfGivesAPromptsTimeAndTheFirstTokenLatenciesError) {
    Cli cli;
    // TensorRT-LLM 0.9's H100 took 6.3 ms to the first token of LLaMA 7B's 128-token prompt.
    const auto p = cli.json({"perf", "--gpu", "H100 SXM5", "--metric", "llm-prefill", "--model", "llama-2-7b",
                             "--weights", "int8", "--kv-cache", "fp8", "--context", "128", "--engine", "tensorrt-llm"})
                       .at("predictions")
                       .at(0);
    const double ms = p.at("prompt_ms").get<double>();
    EXPECT_NEAR(ms, 1000.0 * 128 / p.at("throughput").get<double>(), 1e-9);
    EXPECT_NEAR(ms / 6.3, 1.0, 0.2) << ms;
    const auto& error = p.at("expected_error");
    EXPECT_NE(error.at("basis").get<std::string>().find("first-token latencies"), std::string::npos);
    EXPECT_EQ(error.at("rows"), 24);
    const auto text = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--context", "1024"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("(a prompt of 1,024 tokens in "), std::string::npos) << text.out;
}

// NVFP4 weights in the engine: Llama 3.3 70B on one B200 at TensorRT-LLM 1.0's full load, with the
// band of its fp4 rows each GPU held out; a bad --weights names the choices.
TEST(ServingCli, Fp4WeightsRunOnBlackwellsFp4TensorCores) {
    Cli cli;
    const auto p =
        cli.json({"perf", "--gpu", "B200", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--weights", "fp4",
                  "--kv-cache", "fp8", "--context", "2000", "--sequences", "max", "--engine", "tensorrt-llm"})
            .at("predictions")
            .at(0);
    EXPECT_EQ(p.at("llm").at("weights"), "fp4");
    const auto& error = p.at("expected_error");
    EXPECT_NE(error.at("basis").get<std::string>().find("NVFP4"), std::string::npos) << error;
    EXPECT_EQ(error.at("rows"), 50);
    // 374 requests of 2,000 tokens fit beside 39.4 GB of 4.5-bit weights in 0.9 x 180 GB.
    EXPECT_EQ(p.at("llm").at("sequences"), 374);
    // Four RTX PRO 6000s split by layers: the pipeline's figure and band; --split is the engine's.
    const auto split = cli.json({"perf", "--gpu", "RTX PRO 6000 Blackwell Server Edition", "--gpus", "4", "--metric",
                                 "llm-decode", "--model", "llama-3.1-70b", "--weights", "fp4", "--kv-cache", "fp8",
                                 "--sequences", "max", "--engine", "tensorrt-llm", "--split", "layers"})
                           .at("predictions")
                           .at(0);
    EXPECT_EQ(split.at("llm").at("split"), "layers");
    EXPECT_EQ(split.at("expected_error").at("rows"), 30);
    const auto llamaCpp =
        cli.run({"perf", "--gpu", "RTX 4090", "--gpus", "2", "--metric", "llm-decode", "--split", "layers"});
    EXPECT_NE(llamaCpp.exitCode, 0);
    EXPECT_NE(llamaCpp.err.find("--split chooses how the serving engine splits a model"), std::string::npos)
        << llamaCpp.err;
    const auto badSplit = cli.run({"perf", "--gpu", "L40S", "--gpus", "2", "--metric", "llm-decode", "--engine",
                                   "tensorrt-llm", "--split", "pipeline"});
    EXPECT_NE(badSplit.err.find("option '--split' must be tensors, layers or experts, got 'pipeline'"),
              std::string::npos)
        << badSplit.err;
    const auto bad = cli.run({"perf", "--gpu", "B200", "--metric", "llm-decode", "--weights", "fp3"});
    EXPECT_NE(bad.exitCode, 0);
    EXPECT_NE(bad.err.find("--weights must be fp16, bf16, int8, fp8, int4 or fp4, got 'fp3'"), std::string::npos)
        << bad.err;
}

// A later release's perf overview: eval-serving predicts its dense rows (never fitted on) close,
// fits the routed experts' matmul share on its mixtures of experts and holds each model out; perf
// gives a mixture of experts in the engine that band and the share's factor on a warpgroup-MMA card
// only; a bad --later file names its line and field.
TEST(ServingCli, EvalServingPredictsALaterReleaseAndFitsItsMixturesRoutedShare) {
    Cli cli;
    const auto doc = cli.json({"eval-serving"});
    const auto& later = doc.at("later_release");
    EXPECT_EQ(later.at("rows").size(), 74u);
    EXPECT_EQ(later.at("dense").at("rows"), 24);
    EXPECT_LT(later.at("dense").at("median_abs_error_pct").get<double>(), 8.0);
    EXPECT_EQ(later.at("dense_split_by_layers").at("rows"), 4);
    const auto& moe = later.at("mixture_of_experts");
    EXPECT_EQ(moe.at("rows"), 50);
    EXPECT_NEAR(moe.at("routed_matmul_share_fitted").get<double>(), 0.262, 0.001);
    EXPECT_NEAR(moe.at("model_left_out").at("median_abs_error_pct").get<double>(), 17.8, 0.05);
    const auto held = std::find_if(later.at("rows").begin(), later.at("rows").end(), [](const auto& r) {
        return r.at("gpu") == "B200" && r.at("model") == "qwen3-30b-a3b";
    });
    ASSERT_NE(held, later.at("rows").end());
    EXPECT_TRUE(held->at("model_left_out_error_pct").is_number());
    // The 1.0 release's rows its file leaves out, never fitted; with the later mixtures, perf's band.
    EXPECT_EQ(doc.at("never_fitted").at("rows").size(), 155u);
    EXPECT_EQ(doc.at("never_fitted").at("mixture_of_experts").at("tensor_parallel").at("rows"), 99);
    const auto& band = doc.at("mixture_of_experts_band");
    EXPECT_EQ(band.at("rows"), 100); // the several-card rows are split by experts: their own band
    EXPECT_NEAR(band.at("median_abs_error_pct").get<double>(), band.at("shipped_median_abs_error_pct"), 0.05);
    const auto text = cli.run({"eval-serving"});
    EXPECT_NE(text.out.find("the 1.0 release's rows left out of its file at full load"), std::string::npos);
    EXPECT_NE(text.out.find("a later release at full load (its dense rows never fitted on)"), std::string::npos);
    EXPECT_NE(text.out.find("each model predicted by the share fitted without it"), std::string::npos);
    const auto p =
        cli.json({"perf", "--gpu", "B200", "--metric", "llm-decode", "--model", "qwen3-30b-a3b", "--weights", "fp4",
                  "--kv-cache", "fp8", "--context", "2000", "--sequences", "max", "--engine", "tensorrt-llm"})
            .at("predictions")
            .at(0);
    EXPECT_EQ(p.at("expected_error").at("rows"), 100);
    EXPECT_NE(p.at("expected_error").at("basis").get<std::string>().find("mixtures of experts"), std::string::npos);
    EXPECT_TRUE(hasFactor(p, "routed experts' grouped matmuls"));
    const auto rtxPro =
        cli.json({"perf", "--gpu", "RTX PRO 6000 Blackwell Server Edition", "--metric", "llm-decode", "--model",
                  "qwen3-30b-a3b", "--weights", "fp4", "--sequences", "max", "--engine", "tensorrt-llm"})
            .at("predictions")
            .at(0);
    EXPECT_FALSE(hasFactor(rtxPro, "routed experts' grouped matmuls")); // warp-level MMA: the dense rate
    EXPECT_EQ(rtxPro.at("expected_error").at("rows"), 100);
    const std::string bad =
        cli.write("later.csv", "gpu,model,gpus,weights,kv_cache,input_tokens,output_tokens,output_tokens_per_s,source\n"
                               "B200,gpt-oss-20b,1,fp5,fp8,1000,1000,53812,typo\n");
    const auto refused = cli.run({"eval-serving", "--later", bad});
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("later.csv:2: field 'weights'"), std::string::npos) << refused.err;
    const auto neverRefused = cli.run({"eval-serving", "--never-fitted", bad});
    EXPECT_NE(neverRefused.err.find("later.csv:2: field 'weights'"), std::string::npos) << neverRefused.err;
    EXPECT_TRUE(neverRefused.out.empty());
    EXPECT_EQ(refused.out, "");
}

} // namespace
} // namespace advisor::testing
