// Tests for core/eval: the benchmark CSV reader, statistics, the solver and eval-model (the fitter:
// calibration_test.cpp).
#include "catalog/catalog.h"
#include "common/errors.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "eval/least_squares.h"
#include "eval/stats.h"
#include "../support/input_problems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace advisor::eval {
namespace {

const std::string kHeader = "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n";

std::vector<std::string> errorsOf(const std::string& text) {
    return testing::problemsOf([&] { readBenchmarks(text, "b.csv"); });
}

TEST(BenchmarkCsv, ReadsRowsAndBatches) {
    const auto rows = readBenchmarks(kHeader + "RTX 3090,2,bert,transformer,fp16,64,300,x\n"
                                               "RTX 3090,1,bert,transformer,fp16,,160,x\n"
                                               "RTX 3090,1,resnet,cnn,fp32,0,50,x\n",
                                     "b.csv");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].numGpus, 2);
    EXPECT_DOUBLE_EQ(*rows[0].perGpuBatch(), 32);
    EXPECT_FALSE(rows[1].batchSize);
    EXPECT_TRUE(rows[2].zeroBatch);
    EXPECT_EQ(rows[2].metric(), perf::Metric::Fp32Training);
}

TEST(BenchmarkCsv, ASemicolonFileReadsItsDecimalCommas) {
    const auto rows = readBenchmarks("gpu;num_gpus;workload;workload_class;precision;batch_size;throughput\n"
                                     "RTX 3090;1;llama;llm-decode;int4;1;111,25\n",
                                     "b.csv");
    EXPECT_DOUBLE_EQ(rows.at(0).throughput, 111.25);
}

TEST(BenchmarkCsv, PrecisionSaysWhatARowMeasures) {
    const auto rows = readBenchmarks(kHeader + "H100 SXM5,1,bert,transformer,bf16,,1,x\n"
                                               "H100 SXM5,1,bert,transformer,fp8,,1,x\n"
                                               "H100 SXM5,1,resnet,cnn,int8,,1,x\n"
                                               "H100 SXM5,1,llama,llm-decode,int8,1,1,x\n",
                                     "b.csv");
    EXPECT_EQ(rows[0].metric(), perf::Metric::Fp16Training);
    EXPECT_EQ(rows[1].metric(), perf::Metric::Int8Inference);
    EXPECT_EQ(rows[2].metric(), perf::Metric::Int8Inference);
    EXPECT_EQ(rows[3].metric(), perf::Metric::LlmDecode);
}

TEST(BenchmarkCsv, AnInferenceClassMeasuresInferenceInItsPrecision) {
    // "-inference" after a network class: 16-bit inference in fp16 or bf16, 8-bit in int8, fp8 or int4.
    const auto rows = readBenchmarks(kHeader + "RTX 4090,1,resnet50,cnn-inference,fp16,256,4495,x\n"
                                               "RTX 4090,1,swin,Transformer-Inference,bf16,256,1692,x\n"
                                               "RTX 4090,1,resnet50,cnn-inference,int8,256,9000,x\n"
                                               "RTX 4090,1,resnet50,cnn,fp16,256,1285,x\n",
                                     "b.csv");
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].metric(), perf::Metric::Fp16Inference);
    EXPECT_EQ(rows[0].networkClass(), perf::WorkloadClass::Cnn);
    EXPECT_TRUE(rows[0].isInference());
    EXPECT_EQ(rows[1].metric(), perf::Metric::Fp16Inference);
    EXPECT_EQ(rows[1].networkClass(), perf::WorkloadClass::Transformer);
    EXPECT_EQ(rows[2].metric(), perf::Metric::Int8Inference);
    EXPECT_EQ(rows[3].metric(), perf::Metric::Fp16Training);
    EXPECT_FALSE(rows[3].isInference());
    // No chart metric is 32-bit inference, and only a network class takes the suffix.
    EXPECT_EQ(errorsOf(kHeader + "RTX 4090,1,resnet50,cnn-inference,fp32,256,2310,x\n"
                                 "RTX 4090,1,llama,llm-decode-inference,int4,1,100,x\n"
                                 "RTX 4090,1,resnet50,-inference,fp16,256,1,x\n"),
              (std::vector<std::string>{
                  "b.csv:2: field 'precision': an inference row must be fp16, bf16, int8, fp8 or int4 (no metric is "
                  "32-bit inference), got 'fp32'",
                  "b.csv:3: field 'workload_class': must be transformer, cnn, rnn, recsys (training; with -inference, "
                  "inference), llm-decode, llm-prefill or gemm, got 'llm-decode-inference'",
                  "b.csv:4: field 'workload_class': must be transformer, cnn, rnn, recsys (training; with -inference, "
                  "inference), llm-decode, llm-prefill or gemm, got '-inference'"}));
}

TEST(BenchmarkCsv, TablesAreReadAsTheyAreWritten) {
    // Upper case, TF32 for fp32, and 0 for a cell that was not run (Lambda's tables).
    const auto rows = readBenchmarks(kHeader + "A100 40GB PCIe,1,bert,Transformer,TF32,32,100,x\n"
                                               "H100 SXM5,1,bert,transformer,FP32,32,0,x\n"
                                               "H100 PCIe,1,bert,transformer,fp32,32,180,x\n",
                                     "b.csv");
    EXPECT_EQ(rows[0].workloadClass, "transformer");
    EXPECT_EQ(rows[0].metric(), perf::Metric::Fp32Training);
    EXPECT_FALSE(rows[1].measured());
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("A100 40GB PCIe"));
    EXPECT_EQ(ev.singleGpu.rows, 1u); // the H100 PCIe; the row that was not run is listed, not scored
    ASSERT_EQ(ev.rows.size(), 3u);
    EXPECT_EQ(ev.rows[1].skipReason, "not run (throughput 0)");
    EXPECT_FALSE(ev.rows[1].evaluated);
}

TEST(EvalModel, EightBitRowsAreScoredAsEightBitInference) {
    // Seed: "the RTX 4090 is about 0.33x of an H100 SXM for 8-bit inference". Read as training,
    // the same rows would give the 16-bit training ratio (0.57x) and a 73% error. The seed's figure
    // is for transformers in general, so the rows name no calibration network (a name such as
    // "bert_large" would take BERT-Large's fitted profile: 0.32x).
    const auto rows = readBenchmarks(kHeader + "H100 SXM5,1,my_transformer,transformer,fp8,,100,x\n"
                                               "RTX 4090,1,my_transformer,transformer,fp8,,33,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("H100 SXM5"));
    ASSERT_EQ(ev.singleGpu.rows, 1u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 3.0);
}

TEST(BenchmarkCsv, EveryBadFieldIsReportedWithItsLine) {
    EXPECT_EQ(errorsOf(kHeader + "RTX 3090,0,bert,transformer,fp16,8,1,x\n"
                                 "RTX 3090,1,bert,vision,fp64,8,-1,x\n"),
              (std::vector<std::string>{
                  "b.csv:2: field 'num_gpus': must be a whole number from 1 to 1024, got '0'",
                  "b.csv:3: field 'workload_class': must be transformer, cnn, rnn, recsys (training; with -inference, "
                  "inference), llm-decode, llm-prefill or gemm, got 'vision'",
                  "b.csv:3: field 'precision': must be fp32 (or tf32), fp16, bf16, int8, fp8 or int4, got 'fp64'",
                  "b.csv:3: field 'throughput': must be zero (not run) or greater"}));
    EXPECT_EQ(errorsOf(kHeader + "RTX 3090,2,torch-matmul,gemm,fp16,,150,x\n"),
              (std::vector<std::string>{
                  "b.csv:2: field 'num_gpus': a gemm row measures one GPU's matrix multiply: must be 1, got '2'"}));
    // A token-generation row's batch is the sequences generated together; a prompt's is its tokens.
    EXPECT_EQ(errorsOf(kHeader + "RTX 3090,1,llama3-8b-q4km-tg128,llm-decode,int4,2.5,150,x\n"
                                 "RTX 3090,1,llama3-8b-q4km-pp512,llm-prefill,int4,512,3000,x\n"),
              (std::vector<std::string>{"b.csv:2: field 'batch_size': must be a whole number for llm-decode (the "
                                        "sequences generated together), got '2.5'"}));
    EXPECT_EQ(errorsOf("gpu,throughput\n"),
              (std::vector<std::string>{"b.csv:1: field 'num_gpus': required column is missing",
                                        "b.csv:1: field 'workload': required column is missing",
                                        "b.csv:1: field 'workload_class': required column is missing",
                                        "b.csv:1: field 'precision': required column is missing"}));
}

TEST(BenchmarkCsv, ShippedFilesParseAndNameTheirModelSizes) {
    const auto rows = builtinBenchmarks();
    EXPECT_EQ(rows.size(), 1030u);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("llama3-8b-q4km-tg512"), 8.03);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("mistral-7b-q8"), 7.0);
    EXPECT_FALSE(llmParamsBillion("resnet50"));
    EXPECT_DOUBLE_EQ(*llmParamsBillion("Llama_3_70B_Q4_K_M"), 70.0);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("Llama 3 70B tg128"), 70.0);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("mistral7b-q4_0-tg128"), 7.0); // size run together with the family
    EXPECT_DOUBLE_EQ(*llmParamsBillion("qwen2.5-1.5b-instruct"), 1.5);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("qwen2.5:14b"), 14.0);
    EXPECT_FALSE(llmParamsBillion("mixtral-8x7b")); // a mixture of experts: its total is not its size per token
    EXPECT_FALSE(llmParamsBillion("phi-3-mini"));
    // A mixture of experts is read from its published shape instead: held and active parameters.
    ASSERT_NE(mixtureOfExpertsIn("mixtral-8x7b-q4km-tg512"), nullptr);
    EXPECT_DOUBLE_EQ(mixtureOfExpertsIn("mixtral-8x7b-q4km-tg512")->paramsBillion, 46.7);
    EXPECT_DOUBLE_EQ(mixtureOfExpertsIn("Mixtral_8x7B_Instruct tg128")->activeParamsBillion, 12.9);
    EXPECT_EQ(mixtureOfExpertsIn("mixtral 8x22b q4_0")->id, "mixtral-8x22b");
    EXPECT_EQ(mixtureOfExpertsIn("llama3-70b-q4km-tg512"), nullptr); // dense
    EXPECT_EQ(mixtureOfExpertsIn("mistral-7b"), nullptr);
}

TEST(EvalModel, ATransformerNamedWithALanguageModelsSizeIsPredictedAsOne) {
    // Its size in the name ("mpt-7b", "760m" in millions) makes a training row a language model
    // (perf/llm_training.h); a small transformer, a row of another class or a name without a size
    // keeps the class's fitted shares.
    const auto sizeOf = [](const std::string& workload, const std::string& workloadClass) {
        BenchmarkRow r;
        r.gpu = "H100 SXM5";
        r.numGpus = 8;
        r.workload = workload;
        r.workloadClass = workloadClass;
        r.precision = perf::Precision::Bf16;
        r.throughput = 1.0;
        return queryFor(r, std::nullopt, false).llmTrainingParamsBillion;
    };
    EXPECT_DOUBLE_EQ(sizeOf("mpt-7b-seq2048", "transformer"), 7.0);
    EXPECT_DOUBLE_EQ(sizeOf("mpt-760m-seq2048", "transformer"), 0.76);
    EXPECT_DOUBLE_EQ(sizeOf("LLAMA3.1_405B pretrain", "transformer"), 405.0);
    EXPECT_DOUBLE_EQ(sizeOf("mixtral-8x7b-sft", "transformer"), 12.9); // the parameters each token uses
    EXPECT_EQ(sizeOf("gpt2-124m", "transformer"), 0.0);                 // under 0.5B: the class
    EXPECT_EQ(sizeOf("bert_large_squad", "transformer"), 0.0);
    EXPECT_EQ(sizeOf("vit-7b", "cnn"), 0.0);
    EXPECT_DOUBLE_EQ(*llmParamsBillion("mpt-760m-seq2048"), 0.76);
    EXPECT_FALSE(llmParamsBillion("llama3-q4km")); // "q4km" is a quantisation, not a size
}

TEST(EvalModel, AMixtureOfExpertsIsPredictedByTheParametersEachTokenReads) {
    // Mixtral 8x7B on a 24 GB and an 80 GB card: the ratio is that of a dense 12.9B model with
    // Mixtral's attention (32 layers x 8 KV heads of 128: 64K cached elements per token) (the
    // per-token overhead weighs more against 7.8 GB of active weights than against 28 GB).
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,mixtral-8x7b-q4km-tg512,llm-decode,int4,1,50,x\n"
                                               "A100 80GB PCIe,1,mixtral-8x7b-q4km-tg512,llm-decode,int4,1,60,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    EXPECT_TRUE(ev.llmSizeAssumed.empty());
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmDecode;
    q.llmParamsBillion = 12.9;
    // tg512 generates 512 tokens into an empty cache, each reading it as it grows: 256 on average.
    q.llmKvCacheValues = 2.0 * 32 * 8 * 128 * 256;
    const auto tokens = [&](const char* gpu, double params) {
        q.llmParamsBillion = params;
        return model.throughput(Catalog::builtin().require(gpu), q);
    };
    ASSERT_TRUE(ev.rows[1].evaluated);
    EXPECT_NEAR(ev.rows[1].predictedRelative, tokens("A100 80GB PCIe", 12.9) / tokens("RTX 3090", 12.9), 1e-12);
    EXPECT_GT(std::fabs(ev.rows[1].predictedRelative - tokens("A100 80GB PCIe", 46.7) / tokens("RTX 3090", 46.7)),
              0.01);
}

TEST(Stats, MedianPercentileSpearman) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
    EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90), 9.1);
    EXPECT_DOUBLE_EQ(median({}), 0);
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
    EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
    EXPECT_NEAR(spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
}

TEST(LeastSquares, RecoversAKnownCurveDespiteAnOutlier) {
    // y = 2 * exp(0.3 x), one wild point; soft-L1 keeps it from dragging the fit.
    std::vector<double> xs, ys;
    for (int i = 0; i < 20; ++i) {
        xs.push_back(i * 0.25);
        ys.push_back(2.0 * std::exp(0.3 * i * 0.25));
    }
    ys[7] *= 5;
    LeastSquaresProblem p;
    p.parameters = 2;
    p.softL1Scale = 0.05;
    p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        r.resize(xs.size());
        for (size_t i = 0; i < xs.size(); ++i) {
            r[i] = std::log(x[0] * std::exp(x[1] * xs[i])) - std::log(ys[i]);
        }
    };
    p.lower = {0.1, -1};
    p.upper = {10, 1};
    const auto res = solveLeastSquares(p, {1.0, 0.0});
    EXPECT_NEAR(res.x[0], 2.0, 0.05);
    EXPECT_NEAR(res.x[1], 0.3, 0.01);
}

TEST(LeastSquares, SeveralStartsFindTheLowerOfTwoMinima) {
    // r = (x^2 - 1, 0.1 (x - 1)): a minimum at x = 1 (cost 0) and a worse one near x = -1.
    LeastSquaresProblem p;
    p.parameters = 1;
    p.residuals = [](const std::vector<double>& x, std::vector<double>& r) {
        r = {x[0] * x[0] - 1.0, 0.1 * (x[0] - 1.0)};
    };
    p.lower = {-3};
    p.upper = {3};
    const auto one = solveLeastSquares(p, {-0.8});
    EXPECT_NEAR(one.x[0], -1.0, 0.05) << "a single start from the left stays in the worse minimum";
    const auto best = solveLeastSquaresFromStarts(p, {{-0.8}, {0.8}});
    EXPECT_NEAR(best.x[0], 1.0, 1e-4);
    EXPECT_LT(best.cost, one.cost);
    // The order of the starts does not matter.
    EXPECT_NEAR(solveLeastSquaresFromStarts(p, {{0.8}, {-0.8}}).x[0], 1.0, 1e-4);
}

TEST(Evaluate, ASingleGpuRowWithoutABatchTakesItsMultiGpuRunsBatch) {
    // Lambda's RTX A6000 single-GPU rows give no batch; its 2-8 GPU rows do, per GPU the same.
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                               "RTX A6000,1,bert,transformer,fp16,,130,x\n"
                                               "RTX A6000,2,bert,transformer,fp16,128,250,x\n"
                                               "RTX A6000,4,bert,transformer,fp16,256,480,x\n"
                                               "RTX A6000,8,bert,transformer,fp16,640,900,other source\n"
                                               "RTX A6000,1,gpt,transformer,fp16,0,40,x\n"
                                               "RTX A6000,2,gpt,transformer,fp16,64,70,x\n",
                                     "b.csv");
    const Gpu* rtx3090 = &Catalog::builtin().require("RTX 3090");
    const Gpu* a6000 = &Catalog::builtin().require("RTX A6000");
    const auto batches = perGpuBatches(rows, {rtx3090, a6000, a6000, a6000, a6000, a6000, a6000});
    ASSERT_EQ(batches.size(), rows.size());
    EXPECT_EQ(batches[0], 32.0);
    EXPECT_EQ(batches[1], 64.0) << "the median of 64 and 64 per GPU; the other source's 80 is not used";
    EXPECT_EQ(batches[2], 64.0);
    EXPECT_FALSE(batches[5].has_value()) << "batch 0 says the run did not fit: nothing to fill in";
    // A row whose GPU did not resolve is left as it is.
    EXPECT_FALSE(perGpuBatches(rows, {rtx3090, nullptr, a6000, a6000, a6000, a6000, a6000})[1].has_value());

    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    ASSERT_TRUE(ev.rows[1].evaluated);
    EXPECT_TRUE(ev.rows[1].batchFromMultiGpuRuns);
    EXPECT_FALSE(ev.rows[0].batchFromMultiGpuRuns);
    EXPECT_FALSE(ev.rows[2].batchFromMultiGpuRuns);
    perf::PerfQuery q;
    q.workloadName = "bert";
    q.batchMultiplier = 2.0; // 64 against the RTX 3090's 32
    const double expected = model.throughput(Catalog::builtin().require("RTX A6000"), q) /
                            model.throughput(Catalog::builtin().require("RTX 3090"), perf::PerfQuery{});
    EXPECT_NEAR(ev.rows[1].predictedRelative, expected, 1e-12);
}

TEST(Evaluate, ARowOfBatchZeroIsSkippedAsCalibrateSkipsIt) {
    // Lambda's batch tables give 0 where no run fitted in memory (the 2020-21 Quadro RTX 5000's
    // TransformerXL-large fp16: 979 tokens/s, below its fp32 run). Such a row is neither scored
    // nor anyone's reference.
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                               "RTX 4090,1,bert,transformer,fp16,0,10,x\n"
                                               "RTX 4090,1,gpt,transformer,fp16,32,100,x\n"
                                               "RTX 3090,1,gpt,transformer,fp16,0,500,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    ASSERT_EQ(ev.rows.size(), 4u);
    for (const size_t i : {1u, 3u}) {
        EXPECT_FALSE(ev.rows[i].evaluated) << i;
        EXPECT_EQ(ev.rows[i].skipReason, "batch size 0 (no valid run)") << i;
    }
    // With its RTX 3090 row out, gpt has one setup left: nothing to compare it with.
    EXPECT_FALSE(ev.rows[2].evaluated);
    EXPECT_EQ(ev.rows[2].skipReason, "only one GPU setup ran this workload and precision");
    EXPECT_TRUE(ev.rows[0].evaluated);
    EXPECT_EQ(ev.singleGpu.rows, 0u); // the reference's own row is not scored
}

TEST(Evaluate, RelativeToTheReferenceAndUnknownNamesListed) {
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                               "RTX 4090,1,bert,transformer,fp16,32,160,x\n"
                                               "RTX 3090,2,bert,transformer,fp16,64,190,x\n"
                                               "Mystery GPU 9000,1,bert,transformer,fp16,32,500,x\n"
                                               "RTX 4090,1,gpt,transformer,fp16,32,80,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    EXPECT_EQ(ev.referenceGpu, "RTX 3090");
    EXPECT_EQ(ev.unresolved, std::vector<std::string>{"Mystery GPU 9000"});
    ASSERT_EQ(ev.rows.size(), 5u);
    EXPECT_DOUBLE_EQ(ev.rows[1].measuredRelative, 1.6);
    EXPECT_DOUBLE_EQ(ev.rows[2].measuredRelative, 1.9);
    {
        perf::PerfQuery q;
        const double expected = model.throughput(Catalog::builtin().require("RTX 4090"), q) /
                                model.throughput(Catalog::builtin().require("RTX 3090"), q);
        EXPECT_NEAR(ev.rows[1].predictedRelative, expected, 1e-12);
        EXPECT_NEAR(ev.rows[1].errorPct, (expected / 1.6 - 1) * 100, 1e-9);
    }
    EXPECT_FALSE(ev.rows[3].evaluated);
    EXPECT_EQ(ev.rows[3].skipReason, "unknown GPU");
    EXPECT_FALSE(ev.rows[4].evaluated); // no reference row for "gpt"
    EXPECT_EQ(ev.singleGpu.rows, 1u);   // the 4090 row (the reference itself is excluded)
    EXPECT_EQ(ev.multiGpu.rows, 1u);
    // Default reference: the GPU with the most single-GPU rows.
    EXPECT_EQ(evaluate(rows, Catalog::builtin(), model).referenceGpu, "RTX 4090");
}

TEST(Evaluate, ANetworksTrainingAndInferenceAreEachRelativeToTheirOwnReferenceRow) {
    // timm's 2022 ResNet-50 in float16 on an RTX 3090 and 4090: training 890 and 1285, inference
    // 3017 and 4495 samples/s. Each metric is its own group, predicted as its own metric.
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,resnet50,cnn,fp16,256,890,x\n"
                                               "RTX 4090,1,resnet50,cnn,fp16,256,1285,x\n"
                                               "RTX 3090,1,resnet50,cnn-inference,fp16,256,3017,x\n"
                                               "RTX 4090,1,resnet50,cnn-inference,fp16,256,4495,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    ASSERT_EQ(ev.rows.size(), 4u);
    EXPECT_NEAR(ev.rows[1].measuredRelative, 1285.0 / 890.0, 1e-12);
    EXPECT_NEAR(ev.rows[3].measuredRelative, 4495.0 / 3017.0, 1e-12);
    const auto relative = [&](perf::Metric metric) {
        perf::PerfQuery q;
        q.metric = metric;
        q.workload = perf::WorkloadClass::Cnn;
        q.workloadName = "resnet50";
        return model.throughput(Catalog::builtin().require("RTX 4090"), q) /
               model.throughput(Catalog::builtin().require("RTX 3090"), q);
    };
    EXPECT_NEAR(ev.rows[1].predictedRelative, relative(perf::Metric::Fp16Training), 1e-12);
    EXPECT_NEAR(ev.rows[3].predictedRelative, relative(perf::Metric::Fp16Inference), 1e-12);
    EXPECT_GT(std::fabs(relative(perf::Metric::Fp16Inference) / relative(perf::Metric::Fp16Training) - 1), 0.1);
    EXPECT_EQ(ev.singleGpu.rows, 2u);
}

TEST(Evaluate, AWorkloadTheReferenceDidNotRunIsRelativeToTheGpuWithTheMostRows) {
    // 70B runs only on the big cards: the RTX 3090 (the reference) ran 8B alone.
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,llama3-8b-q4km-tg512,llm-decode,int4,1,110,x\n"
                                               "RTX 4090,1,llama3-8b-q4km-tg512,llm-decode,int4,1,128,x\n"
                                               "RTX A6000,1,llama3-8b-q4km-tg512,llm-decode,int4,1,102,x\n"
                                               "RTX A6000,1,llama3-70b-q4km-tg512,llm-decode,int4,1,15,x\n"
                                               "RTX 4090,1,llama3-70b-q4km-tg512,llm-decode,int4,1,0,x\n"
                                               "RTX 4090,1,llama3-70b-q4km-tg512,llm-decode,int4,1,19,x\n"
                                               "RTX A6000,2,llama3-70b-q4km-tg512,llm-decode,int4,1,14,x\n"
                                               "RTX 3090,2,llama3-70b-q4km-tg512,llm-decode,int4,1,16,x\n"
                                               "RTX 3090,1,mistral-7b-fp16,llm-decode,fp16,1,40,x\n"
                                               "A100 80GB PCIe,1,mixtral-8x7b-q4km,llm-decode,int4,1,60,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    ASSERT_EQ(ev.rows.size(), 10u);
    EXPECT_EQ(ev.rows[1].referenceGpu, "RTX 3090");
    // Two GPUs have two single-GPU rows each with a figure; the tie goes to the first catalog id
    // (rtx-4090 < rtx-a6000), and the 4090's unmeasured row does not count.
    ASSERT_EQ(ev.otherReferences.size(), 1u);
    EXPECT_EQ(ev.otherReferences[0].workload, "llama3-70b-q4km-tg512");
    EXPECT_EQ(ev.otherReferences[0].precision, perf::Precision::Int4);
    EXPECT_EQ(ev.otherReferences[0].gpu, "RTX 4090");
    EXPECT_EQ(ev.otherReferences[0].rows, 5u);
    for (const size_t i : {3u, 5u, 6u, 7u}) {
        ASSERT_TRUE(ev.rows[i].evaluated) << i << ": " << ev.rows[i].skipReason;
        EXPECT_EQ(ev.rows[i].referenceGpu, "RTX 4090") << i;
    }
    EXPECT_TRUE(ev.rows[5].isReferenceRow);
    EXPECT_DOUBLE_EQ(ev.rows[3].measuredRelative, 15.0 / 19.0);
    EXPECT_DOUBLE_EQ(ev.rows[7].measuredRelative, 16.0 / 19.0);
    const auto tokens = [&](const char* gpu, int n) {
        perf::PerfQuery q = queryFor(rows[3], std::nullopt, false);
        q.gpus = n;
        return model.throughput(Catalog::builtin().require(gpu), q);
    };
    EXPECT_NEAR(ev.rows[3].predictedRelative, tokens("RTX A6000", 1) / tokens("RTX 4090", 1), 1e-12);
    EXPECT_NEAR(ev.rows[7].predictedRelative, tokens("RTX 3090", 2) / tokens("RTX 4090", 1), 1e-12);
    EXPECT_GT(ev.rows[3].predictedRelative, 0.05); // a 70B model, not the 8B default
    EXPECT_LT(ev.rows[3].predictedRelative, 1.0);
    // A workload only one GPU setup ran has nothing to compare with; the reference's is its own row.
    EXPECT_TRUE(ev.rows[8].isReferenceRow);
    EXPECT_FALSE(ev.rows[9].evaluated);
    EXPECT_EQ(ev.rows[9].skipReason, "only one GPU setup ran this workload and precision");
    // Summarised: two 8B rows, the A6000's 70B row; multi-GPU: the two 2-GPU rows.
    EXPECT_EQ(ev.singleGpu.rows, 3u);
    EXPECT_EQ(ev.multiGpu.rows, 2u);
}

TEST(Evaluate, AWorkloadNoGpuRanAloneIsRelativeToTheSetupWithTheFewestGpus) {
    // LLaMA 3 70B Q4_K_M tg512 on 24 GB cards, tokens/s (XiongjieDai/GPU-Benchmarks-on-LLM-Inference
    // README, May 2024): it takes two of them, so no single-GPU row exists to normalise to.
    const auto rows = readBenchmarks(kHeader + "RTX 3090,2,llama3-70b-q4km-tg512,llm-decode,int4,1,16.57,x\n"
                                               "RTX 4090,2,llama3-70b-q4km-tg512,llm-decode,int4,1,19.22,x\n"
                                               "RTX 3090,4,llama3-70b-q4km-tg512,llm-decode,int4,1,17.07,x\n"
                                               "RTX 4090,4,llama3-70b-q4km-tg512,llm-decode,int4,1,19.80,x\n"
                                               "RTX 3090,6,llama3-70b-q4km-tg512,llm-decode,int4,1,17.09,x\n"
                                               "RTX 4090,8,llama3-70b-q4km-tg512,llm-decode,int4,1,18.94,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    // No GPU has a single-GPU row: the default reference is the GPU with the most rows (a tie of 3,
    // to the first catalog id), and the group is relative to its 2-GPU setup.
    const auto ev = evaluate(rows, Catalog::builtin(), model);
    EXPECT_EQ(ev.referenceGpu, "RTX 3090");
    ASSERT_EQ(ev.otherReferences.size(), 1u);
    EXPECT_EQ(ev.otherReferences[0].gpu, "RTX 3090");
    EXPECT_EQ(ev.otherReferences[0].numGpus, 2);
    ASSERT_EQ(ev.rows.size(), 6u);
    for (const auto& r : ev.rows) {
        ASSERT_TRUE(r.evaluated) << r.row.line << ": " << r.skipReason;
        EXPECT_EQ(r.referenceNumGpus, 2);
    }
    EXPECT_TRUE(ev.rows[0].isReferenceRow);
    EXPECT_DOUBLE_EQ(ev.rows[1].measuredRelative, 19.22 / 16.57);
    const auto tokens = [&](const char* gpu, int n) {
        perf::PerfQuery q = queryFor(rows[0], std::nullopt, false);
        q.gpus = n;
        return model.throughput(Catalog::builtin().require(gpu), q);
    };
    EXPECT_NEAR(ev.rows[1].predictedRelative, tokens("RTX 4090", 2) / tokens("RTX 3090", 2), 1e-12);
    // The 4090 streams the 70B weights about 16% faster than the 3090 (2 cards each), as measured.
    EXPECT_LT(std::fabs(ev.rows[1].errorPct), 5.0);
    EXPECT_EQ(ev.multiGpu.rows, 5u);
    // A reference GPU that ran it alone still comes first; here the 4090 on one card would be
    // the reference row of the group, ahead of every 2-GPU setup.
    auto withSingle = rows;
    withSingle.push_back(readBenchmarks(kHeader + "RTX 4090,1,llama3-70b-q4km-tg512,llm-decode,int4,1,9,x\n",
                                        "b.csv")[0]);
    const auto single = evaluate(withSingle, Catalog::builtin(), model, std::string("RTX 3090"));
    ASSERT_EQ(single.otherReferences.size(), 1u);
    EXPECT_EQ(single.otherReferences[0].gpu, "RTX 4090");
    EXPECT_EQ(single.otherReferences[0].numGpus, 1);
}

TEST(Evaluate, SummarisesTheSingleGpuRowsByArchitecture) {
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                               "RTX 4090,1,bert,transformer,fp16,32,170,x\n"
                                               "RTX 4080,1,bert,transformer,fp16,32,120,x\n"
                                               "RTX A6000,1,bert,transformer,fp16,32,95,x\n"
                                               "RTX 4090,2,bert,transformer,fp16,64,320,x\n"
                                               "RTX 3090,1,resnet,cnn,fp16,32,100,x\n"
                                               "H100 PCIe,1,resnet,cnn,fp16,32,210,x\n",
                                     "b.csv");
    const perf::PerfModel model(Catalog::builtin());
    const auto ev = evaluate(rows, Catalog::builtin(), model, std::string("RTX 3090"));
    std::map<std::string, ErrorSummary> by(ev.singleGpuByArchitecture.begin(), ev.singleGpuByArchitecture.end());
    ASSERT_EQ(by.size(), 3u);
    EXPECT_EQ(by.at("Ada").rows, 2u);    // the 4090 and 4080 single-GPU rows; not the 2-GPU row
    EXPECT_EQ(by.at("Ampere").rows, 1u); // the A6000; the reference's own rows are left out
    EXPECT_EQ(by.at("Hopper").rows, 1u);
    const auto ada = summarize({&ev.rows[1], &ev.rows[2]});
    EXPECT_DOUBLE_EQ(by.at("Ada").medianAbsErrorPct, ada.medianAbsErrorPct);
    EXPECT_DOUBLE_EQ(by.at("Ada").medianAbsErrorPct,
                     (std::fabs(ev.rows[1].errorPct) + std::fabs(ev.rows[2].errorPct)) / 2);
    EXPECT_DOUBLE_EQ(by.at("Hopper").medianAbsErrorPct, std::fabs(ev.rows[6].errorPct));
}

} // namespace
} // namespace advisor::eval
