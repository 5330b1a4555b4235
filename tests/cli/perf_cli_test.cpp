// `gpu-advisor perf`, `eval-model` and `calibrate` through the real binary.
#include "cli_runner.h"

#include "common/file_io.h"
#include "common/format.h"

#include <gtest/gtest.h>

#include <map>

namespace advisor::testing {
namespace {

TEST(PerfCli, PredictionWithExplanationAsJson) {
    Cli cli;
    const auto doc = cli.json({"perf", "--gpu", "RTX 3090", "--gpus", "4", "--metric", "fp16-training"});
    EXPECT_EQ(doc.at("gpu_id"), "rtx-3090");
    EXPECT_EQ(doc.at("gpus"), 4);
    const auto& p = doc.at("predictions").at(0);
    EXPECT_EQ(p.at("metric"), "fp16-training");
    EXPECT_EQ(p.at("bound"), "memory bandwidth");
    EXPECT_GT(p.at("throughput").get<double>(), 3 * p.at("single_gpu").get<double>());
    EXPECT_LT(p.at("efficiency").get<double>(), 1.0);
    bool multi = false, halfRate = false;
    for (const auto& f : p.at("factors")) {
        multi |= f.at("name") == "4 GPUs";
        halfRate |= f.at("name") == "GeForce half-rate FP32 accumulate";
    }
    EXPECT_TRUE(multi);
    EXPECT_TRUE(halfRate);
}

TEST(PerfCli, DefaultsToTheFourChartMetricsAndReadsLlmOptions) {
    Cli cli;
    const auto all = cli.json({"perf", "--gpu", "H100 SXM"});
    EXPECT_EQ(all.at("predictions").size(), 4u);
    const auto llm = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--params-billion", "8",
                               "--weights", "int4"});
    const double tokens = llm.at("predictions").at(0).at("throughput");
    EXPECT_GT(tokens, 100);
    EXPECT_LT(tokens, 160);
    EXPECT_EQ(llm.at("predictions").at(0).at("unit"), "tokens/s");
    const auto human = cli.run({"perf", "--gpu", "GTX 1080 Ti", "--metric", "fp16-training"});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_NE(human.out.find("no tensor cores for this precision"), std::string::npos) << human.out;
}

TEST(PerfCli, ALanguageModelWorkloadTakesItsSizeAndClaimsNoHeldOutError) {
    Cli cli;
    const auto doc = cli.json({"perf", "--gpu", "B200", "--workload", "llm", "--model", "llama-3.1-70b", "--metric",
                               "fp16-training", "--reference", "H100 SXM5"});
    const auto& p = doc.at("predictions").at(0);
    EXPECT_DOUBLE_EQ(p.at("language_model").at("params_billion").get<double>(), 70.0);
    // NVIDIA's NeMo runs put a B200 at 2.1x an H100 SXM5 on LLaMA 3 8B; BERT-sized steps cap it near 1.3x.
    EXPECT_GT(p.at("relative_to_reference").get<double>(), 2.0);
    EXPECT_TRUE(p.at("expected_error").is_null());
    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--workload", "llm", "--params-billion", "7"});
    EXPECT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("language model of 7.0B parameters"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("language-model scale"), std::string::npos) << human.out;
    // --weights and --context describe LLM inference, not a model being trained.
    const auto weights = cli.run({"perf", "--gpu", "B200", "--workload", "llm", "--weights", "int4", "--metric",
                                  "fp16-training"});
    EXPECT_NE(weights.exitCode, 0);
    EXPECT_NE(weights.err.find("--workload llm takes the model's size"), std::string::npos) << weights.err;
}

TEST(PerfCli, AMixtureOfExpertsByNameOrByItsActiveParameters) {
    Cli cli;
    const auto tokensOf = [](const nlohmann::json& doc) {
        return doc.at("predictions").at(0).at("throughput").get<double>();
    };
    const auto named = cli.json({"perf", "--gpu", "RTX 3090", "--gpus", "2", "--metric", "llm-decode", "--model",
                                 "mixtral-8x7b"});
    const auto& llm = named.at("predictions").at(0).at("llm");
    EXPECT_DOUBLE_EQ(llm.at("params_billion").get<double>(), 46.7);
    EXPECT_DOUBLE_EQ(llm.at("active_params_billion").get<double>(), 12.9);
    const auto byHand = cli.json({"perf", "--gpu", "RTX 3090", "--gpus", "2", "--metric", "llm-decode",
                                  "--params-billion", "46.7", "--active-params-billion", "12.9"});
    // The same weights read per token; the named model's KV cache is its own attention's (64K
    // elements per token), the sizes' an estimate from 12.9B (83K): a little more to read.
    EXPECT_GT(tokensOf(named), tokensOf(byHand));
    EXPECT_NEAR(tokensOf(named) / tokensOf(byHand), 1.0, 0.005);
    const auto dense = cli.json({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--params-billion", "46.7"});
    EXPECT_TRUE(dense.at("predictions").at(0).at("llm").at("active_params_billion").is_null());
    EXPECT_GT(tokensOf(named), 2.8 * tokensOf(dense)); // reads 12.9B of the 46.7B per token
    const auto human = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--model", "Mixtral 8x7B"});
    EXPECT_NE(human.out.find("(46.7B parameters, 12.9B active, int4 weights"), std::string::npos) << human.out;
    // More active than held, both a model and a size, an unknown model: refused with the reason.
    const auto tooMany = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--params-billion", "8",
                                  "--active-params-billion", "9"});
    EXPECT_EQ(tooMany.exitCode, 2);
    EXPECT_NE(tooMany.err.find("at most --params-billion (8)"), std::string::npos) << tooMany.err;
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 3090", "--model", "mixtral-8x7b", "--params-billion", "8"}).exitCode, 2);
    const auto unknown = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--model", "gpt-5"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("--model must be one of llama-2-7b"), std::string::npos) << unknown.err;
    // The size range is the memory calculator's: 20,000B passes, 1e6 is refused with it.
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--params-billion", "20000"}).exitCode,
              0);
    const auto huge = cli.run({"perf", "--gpu", "RTX 3090", "--metric", "llm-decode", "--params-billion", "1e6"});
    EXPECT_NE(huge.err.find("--params-billion must be more than 0 and at most 100,000"), std::string::npos) << huge.err;
}

TEST(PerfCli, EveryPredictionSaysHowFarSuchPredictionsWereOff) {
    // The figures come from the calibration's leave-one-architecture-out report.
    const auto calibration = nlohmann::json::parse(
        advisor::files::readAll(std::string(ADVISOR_SOURCE_DIR) + "/resources/perf/calibration.json"));
    const auto& acc = calibration.at("fit").at("accuracy");
    const auto loao = [&](const char* kind, const char* which) {
        // A workload class is predicted from the class's shares alone.
        const char* figure =
            std::string(kind) == "single_gpu" ? "leave_one_architecture_out_class_shares" : "leave_one_architecture_out";
        return acc.at(kind).at(figure).at(which).get<double>();
    };
    Cli cli;
    const auto doc = cli.json({"perf", "--gpu", "RTX 4090", "--gpus", "4", "--metric", "fp16-training"});
    const auto& p = doc.at("predictions").at(0);
    EXPECT_DOUBLE_EQ(p.at("expected_error").at("median_abs_error_pct").get<double>(),
                     loao("single_gpu", "median_abs_error_pct"));
    EXPECT_DOUBLE_EQ(p.at("expected_error").at("p90_abs_error_pct").get<double>(),
                     loao("single_gpu", "p90_abs_error_pct"));
    EXPECT_DOUBLE_EQ(p.at("expected_scaling_error").at("median_abs_error_pct").get<double>(),
                     loao("multi_gpu_scaling", "median_abs_error_pct"));
    const auto llm = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode"});
    EXPECT_DOUBLE_EQ(llm.at("predictions").at(0).at("expected_error").at("median_abs_error_pct").get<double>(),
                     loao("llm_decode", "median_abs_error_pct"));

    const auto human = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "int8-inference"});
    const std::string line = "expected error: about " +
                             advisor::format::number(loao("single_gpu", "median_abs_error_pct"), 0) + "% (median), " +
                             advisor::format::number(loao("single_gpu", "p90_abs_error_pct"), 0) +
                             "% or more for 1 in 10 - leave-one-architecture-out on training measurements "
                             "(none of them inference; docs/performance-model.md checks 8-bit inference on MLPerf)";
    EXPECT_NE(human.out.find(line), std::string::npos) << human.out;
    const auto sixteen = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "fp16-inference"});
    EXPECT_NE(sixteen.out.find("(none of them inference; docs/performance-model.md checks 16-bit inference on "
                               "timm's PyTorch runs)"),
              std::string::npos)
        << sixteen.out;

    // A network of the calibration data is predicted with its fitted profile, and says how far
    // those predictions were off.
    const auto named = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--workload", "resnet50"});
    const auto& n = named.at("predictions").at(0);
    EXPECT_EQ(n.at("workload"), "cnn");
    EXPECT_EQ(n.at("benchmark_workload"), "resnet50");
    EXPECT_DOUBLE_EQ(n.at("expected_error").at("median_abs_error_pct").get<double>(),
                     acc.at("single_gpu").at("leave_one_architecture_out").at("median_abs_error_pct").get<double>());
    EXPECT_NE(n.at("throughput").get<double>(),
              cli.json({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--workload", "cnn"})
                  .at("predictions")
                  .at(0)
                  .at("throughput")
                  .get<double>());
    const auto unknown = cli.run({"perf", "--gpu", "RTX 4090", "--workload", "resnet5"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("or a calibration workload (bert_base_squad"), std::string::npos) << unknown.err;

    // A calibration without its report (hand-written constants) claims no accuracy.
    auto bare = calibration;
    bare.erase("fit");
    const auto file = cli.write("bare.json", bare.dump());
    const auto none = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--constants", file});
    EXPECT_TRUE(none.at("predictions").at(0).at("expected_error").is_null());
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 4090", "--constants", file}).out.find("expected error"),
              std::string::npos);
}

TEST(PerfCli, BadOptionsAreUsageErrors) {
    Cli cli;
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 4090", "--metric", "speed"}).exitCode, 2);
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 4090", "--gpus", "9"}).exitCode, 2);
    const auto amb = cli.run({"perf", "--gpu", "A100"});
    EXPECT_EQ(amb.exitCode, 1);
    EXPECT_NE(amb.err.find("ambiguous"), std::string::npos);
    // Options the chosen metric does not use are refused, not silently ignored.
    const auto llmOptionOnTraining = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--params-billion", "7"});
    EXPECT_EQ(llmOptionOnTraining.exitCode, 2);
    EXPECT_NE(llmOptionOnTraining.err.find("apply to --metric llm-decode and llm-prefill, not fp16-training"),
              std::string::npos)
        << llmOptionOnTraining.err;
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-decode", "--batch", "2"}).exitCode, 2);
    // 2:4 sparsity speeds up the chart metrics' matmuls; llama.cpp-style LLM inference is dense.
    const auto sparseLlm = cli.run({"perf", "--gpu", "RTX 4090", "--metric", "llm-prefill", "--sparsity"});
    EXPECT_EQ(sparseLlm.exitCode, 2);
    EXPECT_NE(sparseLlm.err.find("--sparsity describe network training and inference"), std::string::npos)
        << sparseLlm.err;
    // Commands whose numbers it would not change do not take it.
    EXPECT_EQ(cli.run({"power-limit", "--gpu", "RTX 3090", "--limit-watts", "300", "--sparsity"}).exitCode, 2);
    EXPECT_EQ(cli.run({"value", "--metric", "llm-decode", "--workload", "cnn"}).exitCode, 2);
    // Without --metric the chart metrics are shown, and with an LLM option the LLM metrics too, so
    // both kinds of option have a use.
    EXPECT_EQ(cli.run({"perf", "--gpu", "RTX 4090", "--params-billion", "7", "--batch", "2"}).exitCode, 0);
    const auto both = cli.json({"perf", "--gpu", "RTX 4090", "--model", "mixtral-8x7b", "--batch", "2"});
    ASSERT_EQ(both.at("predictions").size(), 6u);
    EXPECT_EQ(both.at("predictions").at(4).at("metric"), "llm-decode");
    EXPECT_DOUBLE_EQ(both.at("predictions").at(5).at("llm").at("active_params_billion").get<double>(), 12.9);
    EXPECT_EQ(cli.json({"perf", "--gpu", "RTX 4090", "--batch", "2"}).at("predictions").size(), 4u);
}

TEST(EvalModelCli, WritesEveryRowAndTheSummary) {
    Cli cli;
    const std::string file = std::string(ADVISOR_SOURCE_DIR) + "/resources/benchmarks/llamacpp-llama3-8b-2024.csv";
    const auto doc = cli.json({"eval-model", "--benchmarks", file, "--reference", "RTX 3090"});
    EXPECT_EQ(doc.at("reference"), "RTX 3090");
    ASSERT_EQ(doc.at("rows").size(), 20u);
    for (const auto& r : doc.at("rows")) {
        for (const char* k : {"gpu", "num_gpus", "workload", "workload_class", "precision", "measured_relative",
                              "predicted_relative", "error_pct"}) {
            EXPECT_TRUE(r.contains(k)) << k;
        }
    }
    const auto& s = doc.at("summary");
    EXPECT_LT(s.at("median_abs_error_pct").get<double>(), 15.0);
    EXPECT_GT(s.at("spearman").get<double>(), 0.8);
    EXPECT_TRUE(doc.at("unresolved").empty());
    // The rule of thumb on the same rows, for comparison: peak bandwidth over the reference's.
    for (const auto& r : doc.at("rows")) {
        if (r.at("gpu") == "RTX 4090") {
            EXPECT_NEAR(r.at("bandwidth_relative").get<double>(), 1008.0 / 936.0, 1e-9);
        }
    }
    const auto& rule = s.at("single_gpu_baseline_bandwidth_ratio");
    EXPECT_EQ(rule.at("rows"), s.at("single_gpu").at("rows"));
    EXPECT_GT(rule.at("median_abs_error_pct").get<double>(), 0.0);
    const auto human = cli.run({"eval-model", "--benchmarks", file, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("\nsingle GPU, baseline 'speed ratio = bandwidth ratio': 16 rows, median |error| "),
              std::string::npos)
        << human.out;
}

TEST(EvalModelCli, SaysWhichRowsWerePredictedAsLanguageModels) {
    Cli cli;
    const auto f = cli.write("lm.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                       "A100 80GB SXM4,8,mpt-7b-seq2048,transformer,bf16,48,37130,x\n"
                                       "H100 SXM5,8,mpt-7b-seq2048,transformer,bf16,48,85144,x\n"
                                       "A100 80GB SXM4,1,bert_large_squad,transformer,fp16,32,100,x\n"
                                       "H100 SXM5,1,bert_large_squad,transformer,fp16,32,200,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "A100 80GB SXM4"});
    std::map<std::string, nlohmann::json> size;
    for (const auto& r : doc.at("rows")) {
        size[r.at("workload")] = r.at("language_model_params_billion");
    }
    EXPECT_DOUBLE_EQ(size.at("mpt-7b-seq2048").get<double>(), 7.0);
    EXPECT_TRUE(size.at("bert_large_squad").is_null());
    const auto text = cli.run({"eval-model", "--benchmarks", f, "--reference", "A100 80GB SXM4"});
    EXPECT_NE(text.out.find("predicted as language models, their name giving a size of 0.5B or more (2 of 4 "
                            "evaluated rows): mpt-7b-seq2048"),
              std::string::npos)
        << text.out;
}

TEST(EvalModelCli, SaysWhichRowsUsedTheirNetworksFittedProfile) {
    Cli cli;
    const auto f = cli.write("n.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,resnet50,cnn,fp16,256,1000,x\n"
                                      "RTX 4090,1,resnet50,cnn,fp16,256,1500,x\n"
                                      "RTX 3090,1,mynet,cnn,fp16,256,1000,x\n"
                                      "RTX 4090,1,mynet,cnn,fp16,256,1500,x\n"
                                      "RTX 3090,1,ResNet-50 v1.5,cnn,fp16,256,1000,x\n"
                                      "RTX 4090,1,ResNet-50 v1.5,cnn,fp16,256,1500,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    std::map<std::string, bool> profiled;
    std::map<std::string, nlohmann::json> profile;
    std::map<std::string, double> predicted;
    for (const auto& r : doc.at("rows")) {
        if (r.at("gpu") == "RTX 4090") {
            profiled[r.at("workload")] = r.at("workload_profile").get<bool>();
            profile[r.at("workload")] = r.at("profile");
            predicted[r.at("workload")] = r.at("predicted_relative").get<double>();
        }
    }
    EXPECT_TRUE(profiled.at("resnet50"));
    EXPECT_EQ(profile.at("resnet50"), "resnet50");
    EXPECT_FALSE(profiled.at("mynet"));
    EXPECT_TRUE(profile.at("mynet").is_null());
    // Each row says which roof bound its prediction and what moved it most.
    for (const auto& r : doc.at("rows")) {
        EXPECT_EQ(r.at("explanation").get<std::string>().rfind("bound by ", 0), 0u) << r.dump();
    }
    EXPECT_NE(predicted.at("resnet50"), predicted.at("mynet")); // the profile is not the class
    // Another spelling of the same network (resources/perf/workload_names.json) gets its profile.
    EXPECT_EQ(profile.at("ResNet-50 v1.5"), "resnet50");
    EXPECT_DOUBLE_EQ(predicted.at("ResNet-50 v1.5"), predicted.at("resnet50"));
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("predicted with their network's fitted profile (4 of 6 evaluated rows): "
                             "ResNet-50 v1.5 (as resnet50), resnet50; other rows with their class's shares"),
              std::string::npos)
        << human.out;
    // perf --workload takes the same spellings.
    const auto spelled = cli.json({"perf", "--gpu", "RTX 4090", "--metric", "fp16-training", "--workload", "RN50"});
    EXPECT_EQ(spelled.at("predictions").at(0).at("benchmark_workload"), "resnet50");
}

TEST(EvalModelCli, SaysWhichSingleGpuRowsTookTheirBatchFromMultiGpuRuns) {
    Cli cli;
    const auto f = cli.write("m.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                      "RTX A6000,1,bert,transformer,fp16,,130,x\n"
                                      "RTX A6000,2,bert,transformer,fp16,128,250,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    std::map<int, bool> filled;
    for (const auto& r : doc.at("rows")) {
        filled[r.at("num_gpus").get<int>() * 10 + (r.at("gpu") == "RTX A6000" ? 1 : 0)] =
            r.at("batch_from_multi_gpu_runs").get<bool>();
    }
    EXPECT_TRUE(filled.at(11));  // the A6000's single-GPU row
    EXPECT_FALSE(filled.at(21)); // its 2-GPU row gives its own batch
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("batch size taken from the same GPU's multi-GPU runs (1 single-GPU row without one): "
                             "RTX A6000"),
              std::string::npos)
        << human.out;
}

TEST(EvalModelCli, ListsTheWorkloadsTakenRelativeToAnotherGpu) {
    Cli cli;
    const auto f = cli.write("o.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                      "RTX 4090,1,bert,transformer,fp16,32,170,x\n"
                                      "H100 PCIe,1,gpt-big,transformer,bf16,32,400,x\n"
                                      "A100 80GB PCIe,1,gpt-big,transformer,bf16,32,300,x\n"
                                      "H100 PCIe,1,bert,transformer,fp16,32,330,x\n"
                                      "RTX 3090,2,llama-70b,llm-decode,int4,1,16.57,x\n"
                                      "RTX 4090,2,llama-70b,llm-decode,int4,1,19.22,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_EQ(doc.at("reference"), "RTX 3090");
    ASSERT_EQ(doc.at("other_references").size(), 2u);
    const auto& other = doc.at("other_references")[0];
    EXPECT_EQ(other.at("workload"), "gpt-big");
    EXPECT_EQ(other.at("precision"), "bf16");
    EXPECT_EQ(other.at("reference"), "H100 PCIe"); // two single-GPU rows against one
    EXPECT_EQ(other.at("reference_num_gpus"), 1);
    EXPECT_EQ(other.at("rows"), 2);
    // A 70B model that no card ran alone: relative to the reference GPU's 2-GPU setup.
    const auto& pair = doc.at("other_references")[1];
    EXPECT_EQ(pair.at("workload"), "llama-70b");
    EXPECT_EQ(pair.at("reference"), "RTX 3090");
    EXPECT_EQ(pair.at("reference_num_gpus"), 2);
    std::map<std::string, std::string> referenceOf;
    std::map<std::string, double> measuredOf;
    for (const auto& r : doc.at("rows")) {
        const std::string key = r.at("gpu").get<std::string>() + "/" + r.at("workload").get<std::string>();
        referenceOf[key] = r.at("reference");
        measuredOf[key] = r.at("measured_relative");
    }
    EXPECT_EQ(referenceOf.at("RTX 4090/bert"), "RTX 3090");
    EXPECT_EQ(referenceOf.at("A100 80GB PCIe/gpt-big"), "H100 PCIe");
    EXPECT_DOUBLE_EQ(measuredOf.at("A100 80GB PCIe/gpt-big"), 0.75);
    EXPECT_DOUBLE_EQ(measuredOf.at("RTX 4090/llama-70b"), 19.22 / 16.57);
    EXPECT_EQ(doc.at("summary").at("rows"), 4); // 4090 and H100 on bert, A100 on gpt-big, 2x 4090 on 70B
    const auto& byArchitecture = doc.at("summary").at("single_gpu_by_architecture");
    EXPECT_EQ(byArchitecture.at("Ada").at("rows"), 1);
    EXPECT_EQ(byArchitecture.at("Hopper").at("rows"), 1); // its gpt-big row is that group's reference
    EXPECT_EQ(byArchitecture.at("Ampere").at("rows"), 1);
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("where RTX 3090 has no single-GPU row, relative to: gpt-big bf16: H100 PCIe (2 rows), "
                             "llama-70b int4: 2x RTX 3090 (2 rows)"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("\n  single GPU, Hopper: 1 row, median |error| "), std::string::npos) << human.out;
}

TEST(EvalModelCli, SummarisesEachWorkloadClassWhenAFileMixesThem) {
    Cli cli;
    // llama.cpp tg512 / pp512 of LLaMA 3 8B Q4_K_M (XiongjieDai README, May 2024).
    const auto f = cli.write("mix.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                        "RTX 3090,1,llama3-8b-q4km-tg512,llm-decode,int4,1,115.42,x\n"
                                        "RTX 4090,1,llama3-8b-q4km-tg512,llm-decode,int4,1,130.58,x\n"
                                        "RTX 4080,1,llama3-8b-q4km-tg512,llm-decode,int4,1,108.15,x\n"
                                        "RTX 3090,1,llama3-8b-q4km-pp512,llm-prefill,int4,512,4030.40,x\n"
                                        "RTX 4090,1,llama3-8b-q4km-pp512,llm-prefill,int4,512,7138.99,x\n"
                                        "RTX 4090,2,llama3-8b-q4km-tg512,llm-decode,int4,1,124.65,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    const auto& byClass = doc.at("summary").at("single_gpu_by_class");
    EXPECT_EQ(byClass.at("llm-decode").at("rows"), 2);  // 4090 and 4080 against the 3090
    EXPECT_EQ(byClass.at("llm-prefill").at("rows"), 1);
    EXPECT_EQ(doc.at("summary").at("multi_gpu_by_class").at("llm-decode").at("rows"), 1);
    EXPECT_FALSE(doc.at("summary").at("multi_gpu_by_class").contains("llm-prefill"));
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("\n  single GPU, llm-decode: 2 rows, median |error| "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("\n  single GPU, llm-prefill: 1 row, median |error| "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("\n  multi GPU, llm-decode: 1 row, median |error| "), std::string::npos) << human.out;
    // One class: the per-class lines would repeat the totals, so they are left out.
    const auto one = cli.write("one.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                          "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                          "RTX 4090,1,bert,transformer,fp16,32,170,x\n");
    EXPECT_EQ(cli.run({"eval-model", "--benchmarks", one}).out.find("single GPU, transformer"), std::string::npos);
}

TEST(EvalModelCli, AGemmRowIsComparedWithTheComputeRoofAlone) {
    Cli cli;
    // torch.matmul fp16 at 4096 x 4096 (tests/fixtures/validation/torch-gemm-fp16-2025.csv).
    const auto f = cli.write("gemm.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                         "RTX 4090,1,torch-matmul-fp16,gemm,fp16,,165.08,x\n"
                                         "A100 80GB SXM4,1,torch-matmul-fp16,gemm,fp16,,258.74,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 4090"});
    const auto& a100 = doc.at("rows").at(1);
    EXPECT_EQ(a100.at("workload_class"), "gemm");
    // The roofs' ratio: 312 TFLOPS (full rate) over the 4090's 165.2 (GeForce: FP32 accumulate at half rate).
    EXPECT_NEAR(a100.at("predicted_relative").get<double>(), 312.0 / 165.2, 1e-3);
    EXPECT_EQ(a100.at("explanation"), "dense matmul roof 312.0 TFLOPS (the fp16-training rate: 16-bit inputs, FP32 "
                                      "accumulate)");
}

TEST(EvalModelCli, SaysWhichLlmWorkloadsNameNoSize) {
    Cli cli;
    const auto f = cli.write("llm.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                        "RTX 3090,1,phi-mini-tg128,llm-decode,int4,1,150,x\n"
                                        "RTX 4090,1,phi-mini-tg128,llm-decode,int4,1,180,x\n"
                                        "RTX 3090,1,llama-70b-tg128,llm-decode,int4,1,10,x\n"
                                        "RTX 4090,1,llama-70b-tg128,llm-decode,int4,1,12,x\n"
                                        "RTX 3090,1,mixtral-8x7b-tg128,llm-decode,int4,1,60,x\n"
                                        "RTX 4090,1,mixtral-8x7b-tg128,llm-decode,int4,1,70,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    // Mixtral's size comes from resources/presets/model_shapes.json, not assumed.
    EXPECT_EQ(doc.at("llm_size_assumed_8b"), nlohmann::json::array({"phi-mini-tg128"}));
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_NE(human.out.find("predicted as 8B models: phi-mini-tg128\n"), std::string::npos) << human.out;
}

TEST(EvalModelCli, AnAmbiguousGpuNameIsSkippedWithTheGpusItMatches) {
    Cli cli;
    const auto f = cli.write("b.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                      "RTX 4090,1,bert,transformer,fp16,32,170,x\n"
                                      "A100,1,bert,transformer,fp16,32,250,x\n"
                                      "Voodoo 5 6000,1,bert,transformer,fp16,32,1,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_EQ(doc.at("unresolved"), nlohmann::json::array({"A100", "Voodoo 5 6000"}));
    const auto& detail = doc.at("unresolved_detail");
    ASSERT_EQ(detail.size(), 2u);
    EXPECT_EQ(detail[0].at("gpu"), "A100");
    EXPECT_NE(detail[0].at("reason").get<std::string>().find("'A100' is ambiguous; it matches A100 40GB PCIe"),
              std::string::npos)
        << detail;
    EXPECT_NE(detail[1].at("reason").get<std::string>().find("unknown GPU 'Voodoo 5 6000'"), std::string::npos)
        << detail;
    const auto human = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    ASSERT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("rows skipped: 1 (ambiguous GPU name), 1 (unknown GPU)"), std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("\n  'A100' is ambiguous; it matches A100 40GB PCIe, A100 40GB SXM4"), std::string::npos)
        << human.out;
    // One evaluated row: no rank correlation claimed, and no error figures for the empty multi-GPU set.
    EXPECT_NE(human.out.find("single GPU: 1 row, median |error| "), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("Spearman - (fewer than 3 rows)\n"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("\nmulti GPU: 0 rows\n"), std::string::npos) << human.out;
}

TEST(EvalModelCli, UnknownGpusAreListedNotFatal) {
    Cli cli;
    const auto f = cli.write("b.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                      "RTX 4090,1,bert,transformer,fp16,32,170,x\n"
                                      "Voodoo 5 6000,1,bert,transformer,fp16,32,1,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f});
    EXPECT_EQ(doc.at("unresolved"), nlohmann::json::array({"Voodoo 5 6000"}));
    EXPECT_EQ(doc.at("rows").size(), 2u);
    // In text, every skipped row is counted by its reason.
    const auto g = cli.write("g.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                      "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                      "RTX 4090,1,bert,transformer,fp16,32,0,x\n"
                                      "Voodoo 5 6000,1,bert,transformer,fp16,32,1,x\n");
    const auto human = cli.run({"eval-model", "--benchmarks", g, "--reference", "RTX 3090"});
    ASSERT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("rows skipped: 1 (not run (throughput 0)), 1 (unknown GPU)"), std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("GPU names not resolved (rows skipped): Voodoo 5 6000\n  unknown GPU 'Voodoo 5 6000'"),
              std::string::npos)
        << human.out;
    const auto bad = cli.write("bad.csv", "gpu,num_gpus\nRTX 3090,one\n");
    const auto r = cli.run({"eval-model", "--benchmarks", bad});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(bad + ":1: field 'workload': required column is missing"), std::string::npos) << r.err;
}

TEST(CalibrateCli, RefitsAndReportsLeaveOneArchitectureOut) {
    Cli cli;
    const auto r = cli.run({"calibrate", "--out", cli.file("c.json"), "--report", cli.file("r.md")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("leave-one-architecture-out"), std::string::npos);
    const auto doc = nlohmann::json::parse(cli.read("c.json"));
    EXPECT_TRUE(doc.at("constants").contains("single_gpu"));
    EXPECT_TRUE(doc.at("fit").at("accuracy").contains("by_held_out_architecture"));
    EXPECT_NE(cli.read("r.md").find("| Turing |"), std::string::npos);
}

} // namespace
} // namespace advisor::testing
