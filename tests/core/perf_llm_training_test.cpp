// Training a language model of billions of parameters (perf/llm_training.h): an even split of
// matmuls and memory traffic with no GPU-independent time, against hand-computed ratios and
// measured LLM training runs (MosaicML 2023, NVIDIA NeMo 2025).
#include "perf/accuracy.h"
#include "perf/llm_training.h"
#include "perf/model.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace advisor::perf {
namespace {

PerfQuery languageModel(Metric m = Metric::Fp16Training, int gpus = 1) {
    PerfQuery q;
    q.metric = m;
    q.gpus = gpus;
    q.llmTrainingParamsBillion = 8.0;
    return q;
}

double ratio(const char* gpu, const char* reference, const PerfQuery& q) {
    return model().throughput(cat().require(gpu), q) / model().throughput(cat().require(reference), q);
}

TEST(LlmTraining, TheProfileHasNoTimeThatAFasterGpuCannotShorten) {
    const WorkloadProfile p = llmTrainingProfile();
    EXPECT_DOUBLE_EQ(p.shares.compute + p.shares.memory, 1.0);
    EXPECT_DOUBLE_EQ(p.shares.memory, 0.5);
    EXPECT_EQ(p.shares.overhead, 0.0);
    EXPECT_EQ(p.shares.vector, 0.0);
    EXPECT_EQ(p.shares.hostStep, 0.0);
    EXPECT_EQ(p.batchGainPerDoubling, 0.0);
}

TEST(LlmTraining, SameChipSamePowerMoreBandwidthGainsOnlyOnTheMemoryHalf) {
    // H200 SXM and H100 SXM5: one GH100 at 700 W with the same 50 MB L2, 4,800 against 3,350 GB/s.
    // Only the H100's memory time shrinks, by the bandwidth ratio.
    const Prediction h100 = model().explain(cat().require("H100 SXM5"), languageModel());
    EXPECT_NEAR(h100.computeShare + h100.memoryShare, 1.0, 1e-12);
    expectNear(ratio("H200 SXM", "H100 SXM5", languageModel()),
               1.0 / (h100.computeShare + h100.memoryShare * 3350.0 / 4800.0), 0.002, "H200 / H100");
}

TEST(LlmTraining, TheNewestCardsAreNotCappedByTheOldNetworksOverhead) {
    // A BERT-sized step keeps time no GPU shortens, so the class's shares put a B200 at 1.3x an
    // H100 SXM5. NVIDIA's NeMo runs of LLaMA 3 8B (2025, FP8) measured 2.12-2.13x.
    PerfQuery asClass;
    asClass.metric = Metric::Fp16Training;
    EXPECT_LT(ratio("B200", "H100 SXM5", asClass), 1.4);
    EXPECT_GT(ratio("B200", "H100 SXM5", languageModel()), 2.0);
    expectNear(ratio("B200", "H100 SXM5", languageModel(Metric::Int8Inference)), 2.12, 0.10, "B200 / H100 FP8");
}

TEST(LlmTraining, TwoA100sWithTheSameTensorRateTrainAlmostAlikeWhateverTheMicroBatch) {
    // MosaicML (2023): the A100 40GB SXM4 (1,555 GB/s) trained MPT models at 0.91-0.96 of the 80GB
    // SXM4's (2,039 GB/s) speed, often with a quarter of its micro-batch.
    const double same = ratio("A100 40GB SXM4", "A100 80GB SXM4", languageModel());
    EXPECT_GT(same, 0.85);
    EXPECT_LT(same, 0.97);
    PerfQuery quarter = languageModel();
    quarter.batchMultiplier = 0.25;
    const double smallBatch = model().throughput(cat().require("A100 40GB SXM4"), quarter) /
                              model().throughput(cat().require("A100 80GB SXM4"), languageModel());
    EXPECT_NEAR(smallBatch, same, 1e-12);
    // The class's seed batch gain (+13.6% per doubling) would cost it two doublings.
    PerfQuery asClass, asClassQuarter;
    asClass.metric = asClassQuarter.metric = Metric::Fp16Training;
    asClassQuarter.batchMultiplier = 0.25;
    EXPECT_LT(model().throughput(cat().require("A100 40GB SXM4"), asClassQuarter) /
                  model().throughput(cat().require("A100 80GB SXM4"), asClass),
              0.8);
}

TEST(LlmTraining, GeForceStillAccumulatesInFp32AtHalfRate) {
    // Seed: mixed-precision training on GeForce cards runs FP32 accumulate at half the FP16 rate.
    const Prediction p = model().explain(cat().require("RTX 4090"), languageModel());
    const Factor* halfRate = factorNamed(p, "GeForce half-rate FP32 accumulate");
    ASSERT_NE(halfRate, nullptr);
    EXPECT_LT(halfRate->effect, 0.8);
}

TEST(LlmTraining, TheExplanationSaysWhatItIsAndThatItIsNotFitted) {
    PerfQuery q = languageModel();
    q.batchMultiplier = 4.0; // no batch gain: the factor does not appear
    const Prediction p = model().explain(cat().require("H100 SXM5"), q);
    const Factor* scale = factorNamed(p, "language-model scale");
    ASSERT_NE(scale, nullptr);
    EXPECT_GT(scale->effect, 1.5); // without the BERT-sized overhead the H100 goes much further
    EXPECT_EQ(factorNamed(p, "batch size"), nullptr);
    bool noted = false;
    for (const auto& n : p.notes) {
        noted = noted || n.find("not fitted") != std::string::npos;
    }
    EXPECT_TRUE(noted);
    // No held-out error on the calibration data stands for it.
    ModelAccuracy accuracy;
    accuracy.singleGpu = ErrorBand{12.1, 37.4, 248};
    EXPECT_FALSE(accuracy.forQuery(q));
    q.llmTrainingParamsBillion = 0;
    EXPECT_TRUE(accuracy.forQuery(q));
}

TEST(LlmTraining, DataParallelEfficiencyFromGradientBytesAndTokensPerStep) {
    // Two GPUs at the reference's speed over a 10 GB/s link: a ring all-reduce sends 2 x 1/2 x 2
    // bytes per parameter (fp16 gradients) in 2e-10 s, against 65,536 tokens x 6 FLOPs per
    // parameter at 125 TFLOPS, 3.1457e-9 s: efficiency 1 / (1 + 0.06358) = 0.9402.
    Link link;
    link.gbPerSecond = 10.0;
    const ModelConstants& c = ModelConstants::builtin();
    EXPECT_NEAR(llmDataParallelEfficiency(1.0, 2, link, Metric::Fp16Training, c), 0.9402, 1e-4);
    EXPECT_NEAR(llmDataParallelEfficiency(1.0, 2, link, Metric::Fp32Training, c), 0.8872, 1e-4); // fp32 gradients
    EXPECT_DOUBLE_EQ(llmDataParallelEfficiency(1.0, 1, link, Metric::Fp16Training, c), 1.0);
    EXPECT_DOUBLE_EQ(llmDataParallelEfficiency(1.0, 8, link, Metric::Fp16Inference, c), 1.0);
    // 8 H100 SXM5 on NVLink lose little; 4 RTX 4090 on PCIe gen 4 x8 lose more.
    const Prediction nvlink = model().explain(cat().require("H100 SXM5"), languageModel(Metric::Fp16Training, 8));
    const Prediction pcie = model().explain(cat().require("RTX 4090"), languageModel(Metric::Fp16Training, 4));
    EXPECT_GT(nvlink.efficiency, 0.97);
    EXPECT_LT(pcie.efficiency, nvlink.efficiency);
    EXPECT_GT(pcie.efficiency, 0.8);
}

} // namespace
} // namespace advisor::perf
