// The compute and memory roofs by precision and hardware: tensor cores (GeForce half rate,
// TF32, FP8), GPUs without them (CUDA cores, dp4a, XMX, WMMA), and figures borrowed from the
// same chip. The other named terms are in perf_terms_test.cpp.
#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf/specs.h"
#include "perf/terms.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace advisor::perf {
namespace {

TEST(ComputeRoof, GeForceTrainsAtHalfRateButInfersAtFullRate) {
    const auto s = specs("RTX 4090");
    EXPECT_DOUBLE_EQ(computeRoofTflops(s, Metric::Fp16Training), 165.2);  // FP32 accumulate
    EXPECT_DOUBLE_EQ(computeRoofTflops(s, Metric::Fp16Inference), 330.3); // FP16 accumulate
    EXPECT_TRUE(s.fp16AccumulateHalfRate);
    const auto a6000 = specs("RTX A6000"); // professional card: full rate both ways
    EXPECT_DOUBLE_EQ(computeRoofTflops(a6000, Metric::Fp16Training), 154.8);
    EXPECT_FALSE(a6000.fp16AccumulateHalfRate);
}

TEST(ComputeRoof, Fp32TrainingUsesTf32WhereTheHardwareHasIt) {
    EXPECT_DOUBLE_EQ(computeRoofTflops(specs("A100 40GB SXM4"), Metric::Fp32Training), 156);
    // Volta has no TF32: FP32 CUDA cores at 235/504 of peak (seed's cycle example).
    EXPECT_NEAR(computeRoofTflops(specs("V100 SXM2 32GB"), Metric::Fp32Training), 15.7 * 235.0 / 504.0, 1e-9);
}

TEST(MatmulTime, MatmulsLeftInFp32RunAtTheFp32RoofTf32FromAmpereOn) {
    // Relative to the reference's 125 TFLOPS: a V100 runs its fp16 matmuls at 125 TFLOPS and
    // FP32 ones on the CUDA cores at 15.7 x 235/504 = 7.32; an A100 at 312 and (TF32) 156.
    const auto v100 = specs("V100 SXM2 32GB");
    const auto a100 = specs("A100 40GB SXM4");
    EXPECT_DOUBLE_EQ(matmulTimeFactor(v100, Metric::Fp16Training, 0.0, consts()), 1.0);
    EXPECT_NEAR(matmulTimeFactor(v100, Metric::Fp16Training, 0.5, consts()), 0.5 + 0.5 * 125.0 / (15.7 * 235.0 / 504.0),
                1e-9); // 9.04: half the FLOPs in FP32 make the matmuls 9x slower
    EXPECT_NEAR(matmulTimeFactor(a100, Metric::Fp16Training, 0.5, consts()), 0.5 * 125.0 / 312.0 + 0.5 * 125.0 / 156.0,
                1e-9); // 0.60: only 1.5x slower than all-fp16 (0.40)
    // The A100's lead over the V100 grows from 2.5x to 15x on such matmuls.
    EXPECT_NEAR(matmulTimeFactor(v100, Metric::Fp16Training, 0.5, consts()) /
                    matmulTimeFactor(a100, Metric::Fp16Training, 0.5, consts()),
                15.04, 0.01);
    // Only mixed-precision training has matmuls "left" in FP32; fp32 training is all FP32 anyway.
    EXPECT_DOUBLE_EQ(matmulTimeFactor(v100, Metric::Fp32Training, 0.5, consts()),
                     matmulTimeFactor(v100, Metric::Fp32Training, 0.0, consts()));
    EXPECT_DOUBLE_EQ(matmulTimeFactor(a100, Metric::Fp16Inference, 0.5, consts()), 125.0 / 312.0);
    // A share above 1 is read as 1: all matmuls in FP32.
    EXPECT_DOUBLE_EQ(matmulTimeFactor(a100, Metric::Fp16Training, 3.0, consts()), 125.0 / 156.0);
}

TEST(ComputeRoof, EightBitIsFp8OnAdaAndHopperAndAboutSixteenBitOnOlderCards) {
    // Seed: "with FP8 tensor cores you get 0.66 PFLOPS of compute for a RTX 4090".
    EXPECT_NEAR(computeRoofTflops(specs("RTX 4090"), Metric::Int8Inference), 660.6, 0.5);
    EXPECT_DOUBLE_EQ(computeRoofTflops(specs("H100 SXM5"), Metric::Int8Inference), 1978.9);
    EXPECT_TRUE(specs("RTX 4090").fp8);
    // Seed: "For old GPUs, Int8 inference performance is close to the 16-bit inference performance".
    const auto ampere = specs("RTX 3090");
    EXPECT_FALSE(ampere.fp8);
    EXPECT_NEAR(computeRoofTflops(ampere, Metric::Int8Inference) / computeRoofTflops(ampere, Metric::Fp16Inference),
                1.0, 0.01);
    // Volta has no INT8 tensor rate at all: 8-bit counts as 16-bit.
    const auto volta = specs("V100 SXM2 32GB");
    EXPECT_DOUBLE_EQ(computeRoofTflops(volta, Metric::Int8Inference), computeRoofTflops(volta, Metric::Fp16Inference));
}

TEST(ComputeRoof, GpusWithoutTensorCoresGetAnHonestFigureNotAnError) {
    const auto pascal = specs("GTX 1080 Ti");
    EXPECT_FALSE(pascal.tensorCores);
    EXPECT_NEAR(computeRoofTflops(pascal, Metric::Fp16Training), 11.3 * 235.0 / 504.0, 1e-9);
    EXPECT_FALSE(pascal.notes.empty());
    // Matrix units without a published or measured rate and no card of the same chip to borrow
    // from (as the Arc B580 was modelled until Intel's 233 INT8 TOPS entered its entry): packed
    // FP16 at 2x FP32 with the no-tensor-core matmul penalty, marked as estimated.
    Gpu unrated = cat().require("Arc B580");
    unrated.id = "unrated-xmx";
    unrated.tensor = {};
    unrated.chip.clear();
    const auto xmx = deriveSpecs(unrated, consts(), &cat());
    EXPECT_TRUE(xmx.tensorCores == false && xmx.estimated);
    EXPECT_NEAR(computeRoofTflops(xmx, Metric::Fp16Training), 2.0 * 13.7 * 235.0 / 504.0, 1e-9);
    // With Intel's figure: 160 XMX engines x 256 FP16 operations x 2.85 GHz.
    EXPECT_NEAR(computeRoofTflops(specs("Arc B580"), Metric::Fp16Training), 160 * 256 * 2.85e-3, 0.3);
}

TEST(ComputeRoof, PascalAndTuringWithoutTensorCoresRunEightBitOnDp4aDotProducts) {
    // dp4a (4 INT8 multiply-adds per lane per clock) needs compute capability 6.1 (NVIDIA, "8-bit
    // Inference with TensorRT", 2017: sm_61+, "Pascal TitanX, GTX 1080, Tesla P4, P40"). The P40's
    // datasheet: 47.0 TOPS INT8 against 11.8 TFLOPS FP32 (Dell EMC HPC lab, March 2017).
    const auto p40 = specs("Tesla P40");
    EXPECT_NEAR(p40.dp4aTops, 47.0, 0.1);
    EXPECT_NEAR(specs("GTX 1080 Ti").dp4aTops, 4.0 * 11.3, 1e-9);
    EXPECT_NEAR(specs("GTX 1660 Ti").dp4aTops, 4.0 * 5.44, 1e-9);
    // GP100 (sm_60) has no dp4a; tensor-core cards do 8-bit work on their tensor cores.
    EXPECT_EQ(specs("Tesla P100 PCIe 16GB").dp4aTops, 0.0);
    EXPECT_EQ(specs("RTX 3090").dp4aTops, 0.0);
    EXPECT_EQ(specs("Radeon PRO W7900").dp4aTops, 0.0);
    // The seed's CUDA-core matmul penalty applies to it as to FP32: 47 x 235/504 = 21.9 TOPS,
    // 4x the float matmul figure, for 8-bit inference and for prompt processing of quantized weights.
    EXPECT_NEAR(integerMatmulTflops(p40, consts()), 47.04 * 235.0 / 504.0, 1e-9);
    EXPECT_NEAR(computeRoofTflops(p40, Metric::Int8Inference) / computeRoofTflops(p40, Metric::Fp16Inference), 4.0,
                1e-9);
    EXPECT_DOUBLE_EQ(prefillMatmulTflops(p40, Precision::Int4, consts()), integerMatmulTflops(p40, consts()));
    EXPECT_DOUBLE_EQ(prefillMatmulTflops(p40, Precision::Int8, consts()), integerMatmulTflops(p40, consts()));
    EXPECT_DOUBLE_EQ(prefillMatmulTflops(p40, Precision::Fp16, consts()), p40.fp16InferTflops);
    const auto p100 = specs("Tesla P100 PCIe 16GB");
    EXPECT_DOUBLE_EQ(computeRoofTflops(p100, Metric::Int8Inference), computeRoofTflops(p100, Metric::Fp16Inference));
    EXPECT_DOUBLE_EQ(prefillMatmulTflops(p100, Precision::Int4, consts()), p100.fp16InferTflops);
    const auto ampere = specs("RTX 3090");
    EXPECT_DOUBLE_EQ(prefillMatmulTflops(ampere, Precision::Int4, consts()), ampere.fp16InferTflops);
}

TEST(ComputeRoof, TheA770RunsFp16MatmulsOnItsXmxEngines) {
    // 512 XMX engines x 64 FP16 multiply-adds x 2.1 GHz = 137.6 TFLOPS, which measured PyTorch
    // GEMMs reach 53-66% of (73-91 TFLOPS): far above its 34.4 TFLOPS packed-FP16 vector rate.
    const auto a770 = specs("Arc A770 16GB");
    EXPECT_TRUE(a770.tensorCores);
    EXPECT_DOUBLE_EQ(computeRoofTflops(a770, Metric::Fp16Training), 137.6);
    EXPECT_FALSE(a770.tf32); // TF32 GEMMs measured at the FP32 rate
}

TEST(ComputeRoof, Rdna3RunsFp16MatmulsOnItsWmmaUnitsButHasNoTf32) {
    // AMD's peak FP16 (96 CUs x 2.5 GHz x 512), which measured PyTorch fp16 GEMMs reach 79-86%
    // of (97-105 TFLOPS, FP32 accumulate): well above the 61.4 TFLOPS FP32 vector rate.
    const auto xtx = specs("RX 7900 XTX");
    EXPECT_TRUE(xtx.tensorCores);
    EXPECT_DOUBLE_EQ(computeRoofTflops(xtx, Metric::Fp16Training), 122.8);
    // No TF32 on RDNA 3 (measured TF32 GEMMs run at the FP32 rate): fp32 training stays on the
    // vector units, not at half the FP16 rate as NVIDIA's Ampere and Ada.
    EXPECT_FALSE(xtx.tf32);
    EXPECT_NEAR(computeRoofTflops(xtx, Metric::Fp32Training), 61.4 * 235.0 / 504.0, 1e-9);
    // The W7900 (same Navi 31) borrows the rate, scaled by its FP32 throughput.
    const auto w7900 = specs("Radeon PRO W7900");
    EXPECT_TRUE(w7900.estimated);
    EXPECT_NEAR(w7900.fp16TrainTflops, 122.8 * 61.3 / 61.4, 1e-9);
    // CDNA 2 has no TF32 either: fp32 matmuls run on its FP32 matrix cores (95.7 TFLOPS).
    EXPECT_DOUBLE_EQ(computeRoofTflops(specs("MI250X"), Metric::Fp32Training), 95.7);
}

TEST(ComputeRoof, UnpublishedFiguresAreBorrowedFromTheSameChip) {
    const auto h200nvl = specs("H200 NVL");
    EXPECT_TRUE(h200nvl.estimated);
    const double scale = 60.3 / 60.0; // FP32 of H200 NVL over its peer H100 NVL
    EXPECT_NEAR(h200nvl.fp16TrainTflops, 835 * scale, 0.5);
    EXPECT_NE(h200nvl.notes.front().find("H100 NVL"), std::string::npos);
    // FP32-accumulate rate not published for RTX A5000: assumed full rate, noted.
    const auto a5000 = specs("RTX A5000");
    EXPECT_DOUBLE_EQ(a5000.fp16TrainTflops, 111.1);
    EXPECT_TRUE(a5000.estimated);
}

TEST(MemoryRoof, BandwidthRatioIsTheSeedsBasicEstimate) {
    // Seed: "a basic estimate of speedup of an A100 vs V100 is 1555/900 = 1.73x".
    EXPECT_NEAR(specs("A100 40GB SXM4").bandwidthGbs / specs("V100 SXM2 32GB").bandwidthGbs, 1.73, 0.005);
}

} // namespace
} // namespace advisor::perf
