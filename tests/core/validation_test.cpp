// The model on measurements it was never fitted to (tests/fixtures/validation): Lambda's
// 2022-23 and v2 PyTorch runs and llama.cpp on professional cards, within the error the docs report.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "eval/known_issues.h"
#include "eval/stats.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

TEST(Validation, LlamaCppOnProfessionalCardsStaysWithinTheDocumentedError) {
    // tests/fixtures/validation: llama.cpp on nine professional GPUs (XiongjieDai, May 2024),
    // never fitted. docs/performance-model.md: token generation 7.8% / 15.3% (median / p90)
    // relative to the RTX A6000; 8.7% / 56.3% before the SMs capped the bandwidth a batch-1
    // kernel draws (A100 and H100 up to 73% too fast).
    const auto ev = evaluateValidation("llamacpp-llama3-professional-2024.csv", "RTX A6000");
    EXPECT_TRUE(ev.unresolved.empty());
    std::vector<double> decode;
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.workloadClass == "llm-decode" && r.row.gpu != "RTX A6000") {
            decode.push_back(std::fabs(r.errorPct));
        }
    }
    ASSERT_EQ(decode.size(), 22u);
    EXPECT_LT(median(decode), 9.0);
    EXPECT_LT(percentile(decode, 90), 17.0);
}

TEST(Validation, LlamaCppOnATeslaP40AgainstAnRtx3090OfTheSameRun) {
    // tests/fixtures/validation/llamacpp-p40-2024.csv: one llama-bench table (llama.cpp PR #4766,
    // January 2024), never fitted. The P40 has no tensor cores; its quantized prompt processing
    // runs on dp4a: 0.268x the RTX 3090 measured, 0.056x before the term, 0.215x with it.
    const auto ev = evaluateValidation("llamacpp-p40-2024.csv", "RTX 3090");
    EXPECT_TRUE(ev.unresolved.empty());
    const auto p40 = evaluatedRowsOf(ev, "Tesla P40");
    ASSERT_EQ(p40.size(), 2u);
    for (const auto* r : p40) {
        const bool prefill = r->row.workloadClass == "llm-prefill";
        EXPECT_LT(std::fabs(r->errorPct), prefill ? 22.0 : 13.0) << r->row.workload;
    }
}

TEST(Validation, LlamaCppPromptProcessingOnProfessionalCardsInTokensPerSecond) {
    // The same file's prompt processing, in tokens/s (no reference card: its own error would
    // move every row), without the three cells its README calls broken: two F16 prompt runs at
    // 0.10x and 0.37x their card's Q4_K_M one (known-issues.json) and the A40's noisy 70B row.
    // docs/performance-model.md: 4.6% / 14.3% (median / p90); 19.0% / 80.9% with the seed's
    // clock ~ power^(1/3) for the matmuls and a fixed time per token (the 70B rows up to 2.5x too fast).
    const auto rows = validationRows("llamacpp-llama3-professional-2024.csv");
    const perf::PerfModel model(Catalog::builtin());
    std::vector<double> errors;
    size_t knownIssues = 0;
    for (const auto& r : rows) {
        knownIssues += knownIssueFor(r) != nullptr ? 1 : 0;
        if (r.workloadClass == "llm-prefill" && knownIssueFor(r) == nullptr &&
            !(r.gpu == "A40" && r.workload == "llama3-70b-q4km-pp512")) {
            const double predicted =
                model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false));
            errors.push_back(std::fabs(predicted / r.throughput - 1.0) * 100.0);
        }
    }
    EXPECT_EQ(knownIssues, 2u);
    ASSERT_EQ(errors.size(), 22u);
    EXPECT_LT(median(errors), 7.0);
    EXPECT_LT(percentile(errors, 90), 18.0);
}

TEST(Validation, LlamaCppAtADepthInTheCacheOnOneCardAndBuild) {
    // tests/fixtures/validation/llamacpp-depth-rx7900xtx.csv: pp2048 and tg64 on an RX 7900 XTX,
    // each on an empty cache and after 4,096 tokens, one build (llama.cpp PR #26284). Token
    // generation's slowdown is the KV cache read per token: within 5 points of the measured one,
    // now steeper (0.89 of depth 0 against 0.93; at the weights' rate 0.92): the one same-build
    // pair that fell less than the cache read at 65% of the weights' rate (experiments, round 53).
    // The prompt's is under-predicted (docs: 9% against 16%; that backend's flash attention ran
    // at under half the rate the model assumes): the model's slowdown is smaller, but not by more
    // than half.
    const auto rows = validationRows("llamacpp-depth-rx7900xtx.csv");
    ASSERT_EQ(rows.size(), 4u);
    const perf::PerfModel model(Catalog::builtin());
    std::map<std::string, double> predicted, measured;
    for (const auto& r : rows) {
        predicted[r.workload] =
            model.throughput(Catalog::builtin().require(r.gpu), queryFor(r, std::nullopt, false));
        measured[r.workload] = r.throughput;
        EXPECT_LT(std::fabs(predicted[r.workload] / r.throughput - 1.0), 0.3) << r.workload;
    }
    const auto ratio = [](std::map<std::string, double>& m, const std::string& test) {
        return m["llama3-8b-q4km-" + test + "@d4096"] / m["llama3-8b-q4km-" + test];
    };
    EXPECT_NEAR(ratio(predicted, "tg64"), ratio(measured, "tg64"), 0.05);
    EXPECT_LT(ratio(predicted, "tg64"), 0.95);
    const double modelSlowdown = 1.0 - ratio(predicted, "pp2048");
    const double measuredSlowdown = 1.0 - ratio(measured, "pp2048");
    EXPECT_LT(modelSlowdown, measuredSlowdown);
    EXPECT_GT(modelSlowdown, 0.5 * measuredSlowdown);
}

TEST(Validation, LlamaCppOnTwoToEightGeForceCardsStaysWithinTheDocumentedError) {
    // tests/fixtures/validation: the multi-GPU rows of the same README table as the calibration
    // file (2-8 RTX 3090 / 4090, LLaMA 3 8B and 70B), not calibrated on. The model splits the layers
    // over the cards at one card's speed plus a hand-over per boundary (ModelConstants::decodeHopMs,
    // the median loss per card these rows show, so token generation is in-sample for that one
    // figure); llama.cpp lost 0-11% per token on 8B going from one card to 2-8.
    // docs/performance-model.md: token generation 1.5% / 4.8% (3.2% / 8.6% without the hand-over),
    // prompt processing 15.8% / 21.1% (median / p90), relative to the RTX 3090, 70B relative to
    // the fewest 3090s that ran it.
    const auto ev = evaluateValidation("llamacpp-llama3-multigpu-2024.csv", "RTX 3090");
    EXPECT_TRUE(ev.unresolved.empty());
    std::map<std::string, std::vector<double>> errors;
    for (const auto& r : ev.rows) {
        ASSERT_TRUE(r.evaluated) << r.row.line << ": " << r.skipReason;
        if (r.row.numGpus > 1 && !r.isReferenceRow) {
            errors[r.row.workloadClass].push_back(std::fabs(r.errorPct));
        }
    }
    ASSERT_EQ(errors["llm-decode"].size(), 18u);
    EXPECT_LT(median(errors["llm-decode"]), 2.5);
    EXPECT_LT(percentile(errors["llm-decode"], 90), 6.0);
    ASSERT_EQ(errors["llm-prefill"].size(), 18u);
    EXPECT_LT(median(errors["llm-prefill"]), 17.0);
    EXPECT_LT(percentile(errors["llm-prefill"], 90), 23.0);
}

TEST(Validation, MeasuredGemmsCheckTheComputeRoofOnItsOwn) {
    // tests/fixtures/validation/torch-gemm-fp16-2025.csv: PyTorch fp16 matmuls (FP32 accumulate,
    // 4096 x 4096) on 32 catalog GPUs, 2024-26, never fitted. docs/performance-model.md: 17.9% /
    // 46.6% (median / p90) relative to the RTX 4090, Spearman 0.97; the bandwidth rule 26.5% / 103.0%.
    const auto ev = evaluateValidation("torch-gemm-fp16-2025.csv", "RTX 4090");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 44u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 19.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 49.0);
    EXPECT_GT(ev.singleGpu.spearman, 0.95);
    EXPECT_GT(ev.singleGpuBandwidthBaseline.p90AbsErrorPct, 2.0 * ev.singleGpu.p90AbsErrorPct);
    // GeForce's half-rate FP32 accumulate: the RTX 4090 runs fp16 GEMMs at its 165.2 TFLOPS
    // FP32-accumulate rate (measured 162-171), so the A100 (312, full rate) is 1.57x it. At the
    // 4090's 330 FP16-accumulate rate the A100 would be 0.95x: twice as far off.
    const auto a100 = evaluatedRowsOf(ev, "A100 80GB SXM4");
    ASSERT_EQ(a100.size(), 1u);
    EXPECT_NEAR(a100[0]->predictedRelative, 312.0 / 165.2, 0.01);
    EXPECT_NEAR(a100[0]->measuredRelative, 258.74 / 165.08, 1e-9);
    const double fullRateError = std::fabs(312.0 / 330.3 / a100[0]->measuredRelative - 1.0) * 100.0;
    EXPECT_LT(std::fabs(a100[0]->errorPct), fullRateError / 1.5);
    // RDNA 3's WMMA rate (97-105 TFLOPS measured): within 30%; at the vector rate the model had
    // before (28.6 TFLOPS) it was 71-73% under. The A770's XMX peak (137.6) is reached only to 53%
    // at this size, where the 4090 reaches all of its own: 88% over, from 78% under (16.0).
    const auto xtx = evaluatedRowsOf(ev, "RX 7900 XTX");
    ASSERT_EQ(xtx.size(), 2u);
    for (const auto* r : xtx) {
        EXPECT_LT(std::fabs(r->errorPct), 30.0) << r->row.line;
    }
    // The cards short of power, converted after the rest (a clean hold-out), all come out slow:
    // clock ~ power is harsher than their GEMMs (L4 -24%, RTX A4000 -21%, A100 40GB PCIe -19%,
    // A10G -15%, A40 -6%).
    for (const char* lowPower : {"L4", "RTX A4000", "A100 40GB PCIe", "A10G", "A40"}) {
        const auto rows = evaluatedRowsOf(ev, lowPower);
        ASSERT_EQ(rows.size(), 1u) << lowPower;
        EXPECT_LT(rows[0]->errorPct, -5.0) << lowPower;
        EXPECT_GT(rows[0]->errorPct, -25.0) << lowPower;
    }
    const auto a770 = evaluatedRowsOf(ev, "Arc A770 16GB");
    ASSERT_EQ(a770.size(), 1u);
    EXPECT_NEAR(a770[0]->errorPct, 87.6, 0.5);
    // Blackwell GeForce, added last (a clean hold-out): the RTX 5060 Ti at its FP32-accumulate
    // peak, as the model has it (within 3%); the RTX 5080 reaches 0.79 of it at this size (+18%).
    const auto rtx5060Ti = evaluatedRowsOf(ev, "RTX 5060 Ti 16GB");
    ASSERT_EQ(rtx5060Ti.size(), 2u);
    for (const auto* r : rtx5060Ti) {
        EXPECT_LT(std::fabs(r->errorPct), 3.0) << r->row.line;
    }
    // RDNA 4: above what RDNA 3's matrix rate per CU allows (so the doubled rate holds), but only
    // two thirds of it under ROCm: the model, at the full peak, is 50-56% high (documented).
    const auto rx9070xt = evaluatedRowsOf(ev, "RX 9070 XT");
    ASSERT_EQ(rx9070xt.size(), 2u);
    const double rdna3RatePerCu = 64 * 512 * 2.97e-3; // TFLOPS, RDNA 3's 512 FLOPs per CU per clock
    for (const auto* r : rx9070xt) {
        EXPECT_GT(r->measuredRelative * 165.08, rdna3RatePerCu) << r->row.line;
        EXPECT_GT(r->errorPct, 45.0) << r->row.line;
        EXPECT_LT(r->errorPct, 60.0) << r->row.line;
    }
    // The RTX PRO 6000 Server Edition (nvidia-smi's name) is the Workstation Edition in a server:
    // the same prediction, and its measured matmul within 2% of the same table's Workstation run.
    const auto server = evaluatedRowsOf(ev, "RTX PRO 6000 Blackwell Server Edition");
    const auto workstation = evaluatedRowsOf(ev, "RTX PRO 6000 Blackwell");
    ASSERT_EQ(server.size(), 1u);
    ASSERT_EQ(workstation.size(), 2u);
    EXPECT_EQ(server[0]->gpuId, "rtx-pro-6000-blackwell-server");
    EXPECT_DOUBLE_EQ(server[0]->predictedRelative, workstation[0]->predictedRelative);
    EXPECT_NEAR(server[0]->measuredRelative / workstation[0]->measuredRelative, 1.0, 0.02);
    // Added with their catalog entries on 2026-11-27 and evaluated once: the RTX 4090 D at its SM
    // ratio (114/128 at the same clock; measured 152.6 where the same cloud's RTX 4090 ran 167.8),
    // and the RX 7900 XT as high as the XTX's run on the same ROCm 7.0 (+25.8% each): the ratio
    // between the two is right, RDNA 3's reach of its peak is what the model overstates.
    const auto rtx4090d = evaluatedRowsOf(ev, "RTX 4090 D");
    ASSERT_EQ(rtx4090d.size(), 1u);
    EXPECT_LT(std::fabs(rtx4090d[0]->errorPct), 5.0);
    const auto xt = evaluatedRowsOf(ev, "RX 7900 XT");
    const auto xtxRocm7 = evaluatedRowsOf(ev, "RX 7900 XTX");
    ASSERT_EQ(xt.size(), 1u);
    ASSERT_EQ(xtxRocm7.size(), 2u);
    EXPECT_NEAR(xt[0]->errorPct, xtxRocm7[1]->errorPct, 1.0);
    // The H20, added with its catalog entry on 2026-11-27 and evaluated once: its tensor rate capped
    // at 148 TFLOPS, run at 0.89 of its clock by board power (measured 133.2 at this size): -3.4%.
    const auto h20 = evaluatedRowsOf(ev, "H20");
    ASSERT_EQ(h20.size(), 1u);
    EXPECT_LT(std::fabs(h20[0]->errorPct), 5.0);
    // The explanation names the roof and, on a card short of power, the clock it runs at.
    const auto a6000 = evaluatedRowsOf(ev, "RTX A6000");
    ASSERT_EQ(a6000.size(), 1u);
    EXPECT_NE(a6000[0]->explanation.find("dense matmul roof"), std::string::npos);
    EXPECT_NE(a6000[0]->explanation.find("sustained clock"), std::string::npos);
}

TEST(Validation, DataCentreMatmulPeaksByShapeSearch) {
    // tests/fixtures/validation/mamf-bf16-2025.csv (docs/performance-model.md): the NVIDIA modules
    // within 8% of their roofs' ratio to the H100 SXM5; AMD's CDNA 3 and Intel's A770 optimistic
    // by as much as the software release moves (MI300X 0.4% on ROCm 6.2, 18% on 6.3; MI325X 34%;
    // A770 21%).
    const auto ev = evaluateValidation("mamf-bf16-2025.csv", "H100 SXM5");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 8u);
    for (const auto& r : ev.rows) {
        ASSERT_TRUE(r.evaluated) << r.row.line << ": " << r.skipReason;
        const bool nvidia = r.row.gpu != "MI300X" && r.row.gpu != "MI325X" && r.row.gpu != "Arc A770 16GB";
        EXPECT_LT(std::fabs(r.errorPct), nvidia ? 8.0 : 35.0) << r.row.line;
        if (!nvidia) {
            EXPECT_GT(r.errorPct, -1.0) << r.row.line; // never below the measured
        }
    }
}

// Multi-GPU rows' error on their own scaling: (predicted n-GPU / predicted 1-GPU) against
// (measured n-GPU / the median measured 1-GPU run of the same GPU, workload and precision).
std::vector<double> scalingErrors(const Evaluation& ev) {
    std::map<std::string, std::vector<double>> measuredSingle;
    std::map<std::string, double> predictedSingle;
    const auto key = [](const EvaluatedRow& r) { return r.gpuId + "|" + r.row.workload; };
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.numGpus == 1) {
            measuredSingle[key(r)].push_back(r.measuredRelative);
            predictedSingle[key(r)] = r.predictedRelative;
        }
    }
    std::vector<double> errors;
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.numGpus > 1) {
            const double measured = r.measuredRelative / median(measuredSingle.at(key(r)));
            const double predicted = r.predictedRelative / predictedSingle.at(key(r));
            errors.push_back(std::fabs(predicted / measured - 1.0) * 100.0);
        }
    }
    return errors;
}

// The multi-GPU rows' own scaling stays within a median and p90 band (rows: how many).
void expectScalingWithin(const Evaluation& ev, size_t rows, double medianPct, double p90Pct) {
    const auto scaling = scalingErrors(ev);
    EXPECT_EQ(scaling.size(), rows);
    EXPECT_LT(median(scaling), medianPct);
    EXPECT_LT(percentile(scaling, 90), p90Pct);
}

TEST(Validation, NewerLambdaBenchmarkStaysWithinTheDocumentedError) {
    // tests/fixtures/validation: Lambda's 2022-2023 PyTorch benchmark (Ada, Hopper), never fitted.
    // docs/performance-model.md reports 9.7% / 19.9% (median / p90) for single GPUs and 11.3% / 29.4%
    // for 2-8 GPUs (4.4% / 22.9% on their own scaling), with each calibration network's rows at their
    // batch relative to its profile's typical one (before: 9.2% / 22.0%, 13.2% / 30.0% and 6.9% /
    // 23.4%, the A100 80GB's batch taken as typical; 8.9% / 25.0% own scaling before the wait for
    // the slowest GPU became a share of the step); guard against drift. Skipped as known issues
    // (known-issues.json): the tacotron2 and waveglow "fp16" rows, which ran without mixed precision
    // (all 62, on every GPU), as did the 80 GB cards' ncf rows (14), and BERT-base on 8 GPUs (3 rows,
    // 9.7-11.3x one GPU). NCF is then taken relative to the A10.
    const auto ev = evaluateValidation("lambda-pytorch-train-2023-fp16.csv");
    EXPECT_TRUE(ev.unresolved.empty());
    size_t withoutMixedPrecision = 0;
    size_t skipped = 0;
    for (const auto& r : ev.rows) {
        const bool speech = r.row.workload == "tacotron2" || r.row.workload == "waveglow";
        if (speech) {
            EXPECT_FALSE(r.evaluated) << r.row.line;
        }
        withoutMixedPrecision += r.skipReason.find("without mixed precision") != std::string::npos ? 1 : 0;
        skipped += r.evaluated ? 0 : 1;
    }
    EXPECT_EQ(withoutMixedPrecision, 62u + 14u);
    EXPECT_EQ(skipped, 62u + 14u + 3u);
    EXPECT_EQ(ev.singleGpu.rows, 84u); // 11 GPUs besides the reference x 7 networks + ncf on 7
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 10.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 21.0);
    EXPECT_GT(ev.singleGpu.spearman, 0.95);
    EXPECT_LT(ev.multiGpu.medianAbsErrorPct, 12.0);
    EXPECT_LT(ev.multiGpu.p90AbsErrorPct, 30.5);
    expectScalingWithin(ev, 139, 5.0, 24.0);
}

TEST(Validation, NewerLambdaBenchmarkInFp32StaysWithinTheDocumentedError) {
    // The fp32/TF32 half of the same release, converted after the model was settled.
    // docs/performance-model.md: 8.2% / 22.5% single GPU (the bandwidth rule: 15.6% / 73.2%),
    // 10.0% / 34.2% for 2-8 GPUs (4.9% / 40.5% on their own scaling; with the A100 80GB's batch as
    // the typical one 8.4% / 22.7%, 11.6% / 32.9% and 7.9% / 34.5%, 9.2% / 32.9% own scaling before
    // the wait for the slowest GPU became a share of the step), with 4 multi-GPU rows skipped as known
    // issues (ncf on 8 GPUs at 11.7-11.8x one GPU, 4 RTX 6000 Ada on tacotron2 at 0.36x one).
    const auto ev = evaluateValidation("lambda-pytorch-train-2023-fp32.csv");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 110u);
    EXPECT_EQ(ev.multiGpu.rows, 190u - 4u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 9.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 23.5);
    EXPECT_GT(ev.singleGpu.spearman, 0.95);
    EXPECT_LT(ev.multiGpu.medianAbsErrorPct, 11.0);
    EXPECT_LT(ev.multiGpu.p90AbsErrorPct, 35.0);
    expectScalingWithin(ev, 186, 5.5, 41.5);
}

TEST(Validation, LanguageModelTrainingOnMosaicMlsMptRuns) {
    // tests/fixtures/validation/mosaicml-mpt-train-2023.csv: MPT models of 760M to 30B parameters on
    // 8 H100 SXM5, A100 80GB and 40GB SXM4, one software stack. docs/performance-model.md: 7.5% /
    // 20.4% relative to the A100 80GB SXM4 (the even split of perf/llm_training.h was chosen after
    // seeing this file; the class's shares gave 24.5% / 32.9%, FLOPs and bytes alone 31% / 57%).
    const auto ev = evaluateValidation("mosaicml-mpt-train-2023.csv");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.multiGpu.rows, 62u);
    EXPECT_LT(ev.multiGpu.medianAbsErrorPct, 8.0);
    EXPECT_LT(ev.multiGpu.p90AbsErrorPct, 21.0);
    std::vector<double> a100_40;
    for (const auto* r : evaluatedRowsOf(ev, "A100 40GB SXM4")) {
        EXPECT_NE(r->explanation.find("language-model scale"), std::string::npos) << r->row.line;
        a100_40.push_back(std::fabs(r->errorPct));
    }
    ASSERT_EQ(a100_40.size(), 25u);
    EXPECT_LT(median(a100_40), 6.5); // the class's shares and batch gain: about 20% slow
}

TEST(Validation, LanguageModelTrainingOnNvidiaNemoRuns) {
    // tests/fixtures/validation/nemo-llama3-8b-fp8-2025.csv: LLaMA 3 8B pre-training in FP8 on 8 H100
    // SXM5, B200 and GB200 (NeMo 25.09 and 25.11), never used to choose anything. The B200 measured
    // 2.12-2.13x the H100; predicted at the 8-bit roof, 2.31x. The GB200's extra 20% of power did not
    // show (1.03-1.04x the B200); the model gives it 1.09x.
    const auto ev = evaluateValidation("nemo-llama3-8b-fp8-2025.csv", "H100 SXM5");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.multiGpu.rows, 4u);
    for (const auto* r : evaluatedRowsOf(ev, "B200")) {
        EXPECT_GT(r->errorPct, 0.0) << r->row.line;
        EXPECT_LT(r->errorPct, 10.0) << r->row.line;
    }
    for (const auto* r : evaluatedRowsOf(ev, "GB200")) {
        EXPECT_LT(r->errorPct, 17.0) << r->row.line;
    }
}

TEST(Validation, LambdaV2RunsOnH100SxmAndPcieStayWithinTheDocumentedError) {
    // tests/fixtures/validation: Lambda's "v2" runs (H100 PCIe once, H100 SXM5 on 16 machines,
    // 1-8 GPUs; fp16 and fp32), converted after the model was settled and never used to change
    // it. docs/performance-model.md: relative to the H100 PCIe the SXM5 is under-predicted on
    // every network (single GPU 10.4% / 17.5% fp16, 14.8% / 21.9% fp32; 12.5% / 17.5% and 15.2% /
    // 28.2% with the H100 PCIe's batch as the typical one; the bands below stop drift, not
    // improvement), its NVLink scaling is close (1.3% / 3.4%, 1.3% / 3.8%; 3.3% / 7.9% and 3.3% /
    // 7.8% with the PCIe card's batch as the typical one, 5.1% / 11.0% and 4.4% / 9.5% with all
    // synchronisation a fixed time per step). Skipped
    // as known issues: the NCF multi-GPU rows and 8-GPU BERT-base fp16, which scale impossibly,
    // and the "fp16" tacotron2, waveglow and ncf runs, which ran without mixed precision.
    for (const std::string precision : {"fp16", "fp32"}) {
        SCOPED_TRACE(precision);
        const bool fp16 = precision == "fp16";
        const auto ev = evaluateValidation("lambda-pytorch-train-v2-h100-" + precision + ".csv", "H100 PCIe");
        EXPECT_TRUE(ev.unresolved.empty());
        size_t knownIssues = 0;
        std::set<std::string> workloads;
        for (const auto& r : ev.rows) {
            knownIssues += r.skipReason.rfind("known issue", 0) == 0 ? 1 : 0;
            if (r.evaluated && r.row.numGpus == 1 && r.row.gpu == "H100 SXM5") {
                workloads.insert(r.row.workload);
                // Measured 1.41-1.56x: the model must at least rank the SXM5 above the PCIe card.
                EXPECT_GT(r.predictedRelative, 1.05) << r.row.workload;
                EXPECT_GT(r.measuredRelative, 1.3) << r.row.workload;
            }
        }
        EXPECT_EQ(workloads.size(), fp16 ? 5u : 8u);
        EXPECT_EQ(knownIssues, fp16 ? 16u + 62u + 17u : 14u);     // + 31 tacotron2, 31 waveglow and 17 more ncf rows
        EXPECT_EQ(ev.singleGpu.rows, fp16 ? 80u : 128u);          // 16 SXM5 runs x 5 or 8 networks
        EXPECT_LT(ev.singleGpu.medianAbsErrorPct, fp16 ? 11.5 : 16.0);
        EXPECT_LT(ev.singleGpu.p90AbsErrorPct, fp16 ? 19.0 : 23.5);
        expectScalingWithin(ev, fp16 ? 68 : 98, 2.0, 4.5);
    }
}

TEST(Validation, MlperfInferenceOnFiveDataCentreGpusStaysWithinTheDocumentedError) {
    // tests/fixtures/validation: MLPerf Inference v3.0, NVIDIA's Offline runs (TensorRT, 8-bit)
    // of ResNet-50, RetinaNet and BERT-large on five GPUs. docs/performance-model.md: 7.5% /
    // 19.3% relative to the A100 80GB SXM4 with fused inference (14.4% / 36.0% before the term,
    // the H100s 12-21% slow; the bandwidth ratio 26.0% / 48.0%). The L4, at 72 W, stays slow on
    // every network.
    const auto ev = evaluateValidation("mlperf-inference-v3.0-nvidia-offline.csv");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 12u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 9.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 21.0);
    for (const auto& r : ev.rows) {
        if (!r.evaluated || r.row.gpu == "A100 80GB SXM4") {
            continue;
        }
        if (r.row.gpu == "L4") {
            EXPECT_LT(r.errorPct, -10.0) << r.row.workload;
        } else {
            EXPECT_LT(std::fabs(r.errorPct), 13.0) << r.row.gpu << " " << r.row.workload;
        }
    }
}

TEST(Validation, MlperfInferenceV11OnAmpereDataCentreGpusStaysWithinTheDocumentedError) {
    // MLPerf Inference v1.1 (TensorRT 8.0): ResNet-50, SSD-ResNet34 and BERT-large on the A10,
    // A30, A100 40GB PCIe, A100 80GB PCIe and A100 80GB SXM4. docs/performance-model.md: 4.1% /
    // 22.3% relative to the SXM4; the GA100 cards within 10%, the A10 (150 W) 20-32% slow.
    const auto ev = evaluateValidation("mlperf-inference-v1.1-nvidia-offline.csv");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 12u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 5.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 24.0);
    const auto a10 = evaluatedRowsOf(ev, "A10");
    EXPECT_EQ(a10.size(), 3u);
    for (const auto* r : a10) {
        EXPECT_LT(r->errorPct, -15.0) << r->row.workload;
    }
    for (const char* gpu : {"A30", "A100 40GB PCIe", "A100 80GB PCIe"}) {
        for (const auto* r : evaluatedRowsOf(ev, gpu)) {
            EXPECT_LT(std::fabs(r->errorPct), 10.0) << gpu << " " << r->row.workload;
        }
    }
}

TEST(Validation, MlperfInferenceV07OnT4AndA100StaysWithinTheDocumentedError) {
    // MLPerf Inference v0.7 (TensorRT 7.2): the same kinds of networks on a T4 (70 W) and the
    // A100 40GB PCIe (250 W) and SXM4 (400 W). docs/performance-model.md: 1.0% / 10.1% relative
    // to the SXM4 (the bandwidth ratio: 22.4% / 51.9%); the PCIe card at the board-power term's
    // 0.86 of the module within 3%.
    const auto ev = evaluateValidation("mlperf-inference-v0.7-nvidia-offline.csv", "A100 40GB SXM4");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 6u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 3.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 12.0);
    // The two A100s have the same 1,555 GB/s: the rule calls them equal, 15-17% off.
    EXPECT_NEAR(ev.singleGpuBandwidthBaseline.medianAbsErrorPct, 22.4, 0.1);
    EXPECT_NEAR(ev.singleGpuBandwidthBaseline.p90AbsErrorPct, 51.9, 0.1);
    const auto pcie = evaluatedRowsOf(ev, "A100 40GB PCIe");
    EXPECT_EQ(pcie.size(), 3u);
    for (const auto* r : pcie) {
        EXPECT_LT(std::fabs(r->errorPct), 3.0) << r->row.workload;
    }
}

TEST(Validation, MlperfInferenceV31OnHopperAndL4StaysWithinTheDocumentedError) {
    // The same networks in MLPerf Inference v3.1 (H100 SXM5, H100 PCIe, L4, GH200 96GB).
    // docs/performance-model.md: 8.2% / 27.6% relative to the H100 SXM5, the Hopper rows 3.1% /
    // 9.0%; the GH200 (4 TB/s against 3.35) within 4.3% on every network, the L4 slow.
    const auto ev = evaluateValidation("mlperf-inference-v3.1-nvidia-offline.csv", "H100 SXM5");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 9u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 10.0);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 30.0);
    const auto gh200 = evaluatedRowsOf(ev, "GH200");
    EXPECT_EQ(gh200.size(), 3u);
    for (const auto* r : gh200) {
        EXPECT_LT(std::fabs(r->errorPct), 6.0) << r->row.workload;
        EXPECT_GT(r->measuredRelative, 1.0) << r->row.workload;
    }
}

} // namespace
} // namespace advisor::eval
