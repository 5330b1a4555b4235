// Each named term of the performance model, tested on its own against the seed's facts (the
// compute and memory roofs: perf_roofs_test.cpp).
#include "catalog/catalog.h"
#include "common/errors.h"
#include "perf/model.h"
#include "perf/specs.h"
#include "perf/terms.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace advisor::perf {
namespace {

// A constant kept in a constants file at `section.key`: written and read back, refused when
// negative with an error naming the field, and read as `absent` from a file written before it.
void expectOptionalNonNegativeField(const std::string& section, const std::string& key,
                                    double ModelConstants::*member, double value, double absent) {
    ModelConstants c = consts();
    c.*member = value;
    auto j = c.toJson();
    EXPECT_DOUBLE_EQ(ModelConstants::fromJson(j, "c.json").*member, value) << key;
    j[section][key] = -0.1;
    try {
        ModelConstants::fromJson(j, "c.json");
        ADD_FAILURE() << "a negative " << key << " was accepted";
    } catch (const advisor::InputError& e) {
        EXPECT_NE(std::string(e.what()).find(section + "." + key), std::string::npos) << e.what();
    }
    j[section].erase(key);
    EXPECT_EQ(ModelConstants::fromJson(j, "c.json").*member, absent) << key;
}

TEST(DecodeBandwidth, SmsCapWhatABatchOneKernelDraws) {
    ModelConstants c = consts();
    c.decodeBandwidthEfficiency = 0.9;
    c.decodeBytesPerSmClock = 6.0;
    // A100 80GB PCIe: 108 SMs x 1.41 GHz = 152 SM-GHz -> 914 GB/s, under 0.9 x 1,935.
    const EffectiveSpecs a100 = specs("A100 80GB PCIe");
    EXPECT_NEAR(decodeBandwidthGbs(a100, c), 6.0 * 108 * 1.41, 2.0);
    // RTX 4090: 128 x 2.52 GHz could draw 1,935 GB/s, so its memory (0.9 x 1,008) bounds it.
    EXPECT_NEAR(decodeBandwidthGbs(specs("RTX 4090"), c), 0.9 * 1008, 1e-9);
    // No cap (files written before the term): peak x efficiency for every card.
    c.decodeBytesPerSmClock = 0;
    EXPECT_NEAR(decodeBandwidthGbs(a100, c), 0.9 * 1935, 1e-9);
}

TEST(DecodeBandwidth, ConstantsFileKeepsTheCapAndOlderFilesReadWithoutIt) {
    EXPECT_GT(consts().decodeBytesPerSmClock, 0.0); // the shipped calibration has it
    // Files written before the term: no cap.
    expectOptionalNonNegativeField("llm", "decode_bytes_per_sm_clock", &ModelConstants::decodeBytesPerSmClock, 7.5, 0.0);
}

TEST(DecodeHandOver, ConstantsFileKeepsItOlderFilesReadWithoutItAndNegativeIsRefused) {
    // The shipped figure is the table's median loss per card added (0.05-0.41 ms).
    EXPECT_GT(consts().decodeHopMs, 0.05);
    EXPECT_LT(consts().decodeHopMs, 0.41);
    // Files written before the term: extra cards of a layer split cost no time.
    expectOptionalNonNegativeField("llm", "decode_hop_ms", &ModelConstants::decodeHopMs, 0.3, 0.0);
}

TEST(DecodeCacheRead, ConstantsFileKeepsItOlderFilesReadAtTheWeightsRateAndOnlyAShareIsAccepted) {
    // Files written before the term: the cache read at the weights' rate.
    expectOptionalNonNegativeField("llm", "decode_cache_read_share", &ModelConstants::decodeCacheReadShare, 0.5, 1.0);
    for (const double bad : {0.0, 1.2}) {
        auto j = consts().toJson();
        j["llm"]["decode_cache_read_share"] = bad;
        try {
            ModelConstants::fromJson(j, "c.json");
            ADD_FAILURE() << "decode_cache_read_share " << bad << " was accepted";
        } catch (const advisor::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("llm.decode_cache_read_share"), std::string::npos) << e.what();
        }
    }
}

TEST(PromptProcessingConstants, RoundTripAndOlderFilesReadAsTheyWereFitted) {
    ModelConstants c = consts();
    c.prefillPowerClockExponent = 2.0;
    c.prefillOverheadUsPerBillionParams = {3.5, 7.5};
    auto j = c.toJson();
    const ModelConstants back = ModelConstants::fromJson(j, "c.json");
    EXPECT_DOUBLE_EQ(back.prefillPowerClockExponent, 2.0);
    EXPECT_DOUBLE_EQ(back.prefillOverheadUsPerBillionParams[1], 7.5);
    // Before these terms: a fixed time per token fitted on LLaMA 3 8B (8.03 B parameters) and
    // the seed's cube-root clock law; read so, the same figures come out at 8B.
    j["llm"].erase("prefill_power_clock_exponent");
    j["llm"].erase("prefill_overhead_us_per_billion_params_16bit");
    j["llm"].erase("prefill_overhead_us_per_billion_params_quantized");
    j["llm"]["prefill_overhead_us_16bit"] = 24.1;
    const ModelConstants old = ModelConstants::fromJson(j, "c.json");
    EXPECT_DOUBLE_EQ(old.prefillPowerClockExponent, kPowerClockExponent);
    EXPECT_NEAR(old.prefillOverheadUsPerBillionParams[0] * 8.03, 24.1, 1e-9);
    EXPECT_DOUBLE_EQ(old.prefillOverheadUsPerBillionParams[1], 0.0);
    j["llm"]["prefill_power_clock_exponent"] = 0;
    EXPECT_THROW(ModelConstants::fromJson(j, "c.json"), advisor::InputError);
}

TEST(FusedInference, LeavesAThirdOfTrainingsMemoryTimeForTheSameMatmulWork) {
    // About 2 passes over the activations for 1 pass of FLOPs, against 18 for 3 in training.
    EXPECT_NEAR(consts().inferenceMemoryFactor, (2.0 / 18.0) / (1.0 / 3.0), 1e-12);
    // A workload that is all memory time: inference runs it 3x as fast per unit of the share,
    // at the bytes of its precision (16-bit like fp16 training).
    ModelConstants c = consts();
    c.workloadProfiles.clear();
    c.shares[static_cast<size_t>(WorkloadClass::Transformer)] = TimeShares{0, 1, 0, 0, 0};
    const Gpu& gpu = cat().require("RTX A6000");
    const EffectiveSpecs s = deriveSpecs(gpu, c, &cat());
    PerfQuery q;
    q.metric = Metric::Fp16Training;
    const double training = modelThroughput(s, gpu, q, c);
    q.metric = Metric::Fp16Inference;
    EXPECT_NEAR(modelThroughput(s, gpu, q, c) / training, 3.0, 1e-9);
    c.inferenceMemoryFactor = 1;
    EXPECT_NEAR(modelThroughput(s, gpu, q, c) / training, 1.0, 1e-9);
    // The constants file keeps it; files from before the term read as they were fitted.
    auto j = consts().toJson();
    EXPECT_DOUBLE_EQ(ModelConstants::fromJson(j, "c.json").inferenceMemoryFactor, consts().inferenceMemoryFactor);
    j["single_gpu"].erase("inference_memory_factor");
    EXPECT_DOUBLE_EQ(ModelConstants::fromJson(j, "c.json").inferenceMemoryFactor, 1.0);
    j["single_gpu"]["inference_memory_factor"] = 0;
    EXPECT_THROW(ModelConstants::fromJson(j, "c.json"), advisor::InputError);
}

TEST(L2Cache, RampsFromNoBenefitToTheSeedsGainAtAdaSize) {
    ModelConstants c;
    c.l2CacheGain = 0.5;
    EXPECT_DOUBLE_EQ(l2CacheFactor(2.75, c), 1.0);
    EXPECT_DOUBLE_EQ(l2CacheFactor(6, c), 1.0);
    EXPECT_DOUBLE_EQ(l2CacheFactor(72, c), 1.5); // seed: Ada's 72 MB L2 -> 1.5-2.0x for matmuls
    EXPECT_DOUBLE_EQ(l2CacheFactor(128, c), 1.5);
    const double a100 = l2CacheFactor(40, c);
    EXPECT_GT(a100, 1.0);
    EXPECT_LT(a100, 1.5);
    EXPECT_LT(l2CacheFactor(40, c), l2CacheFactor(50, c));
}

TEST(L2Cache, AnUnpublishedSizeIsTakenFromTheSameChipConfiguration) {
    // The L40S publishes no L2; the L40 and RTX 6000 Ada (AD102, 142 SMs, 384-bit) publish
    // 96 MB. Taking "no benefit" instead put it at 0.55x an RTX 4090 for 8-bit inference.
    const auto l40s = specs("L40S");
    EXPECT_DOUBLE_EQ(l40s.l2Mb, 96);
    EXPECT_TRUE(l40s.estimated);
    ASSERT_FALSE(l40s.notes.empty());
    EXPECT_EQ(l40s.notes.back(), "L2 size not published; taken from RTX 6000 Ada (same AD102, 142 SMs, 384-bit bus): 96 MB");
    // Another configuration of the chip is no evidence: a 100-SM AD102 keeps "no benefit"
    // (a 128-SM one would take the RTX 4090's 72 MB).
    Gpu cut = cat().require("L40S");
    cut.id = "cut-l40s";
    cut.name = "Cut L40S";
    cut.aliases.clear();
    cut.computeUnits = 100;
    Catalog with = cat();
    with.add(cut);
    EXPECT_DOUBLE_EQ(deriveSpecs(*with.findById("cut-l40s"), consts(), &with).l2Mb, consts().l2NoBenefitMb);
    // Without the catalog to look in, nothing is borrowed.
    EXPECT_DOUBLE_EQ(deriveSpecs(cat().require("L40S"), consts(), nullptr).l2Mb, consts().l2NoBenefitMb);
}

TEST(AsyncCopyAndTma, ApplyToTheRightGenerations) {
    ModelConstants c;
    EXPECT_DOUBLE_EQ(asyncCopyFactor(specs("A100 40GB SXM4"), c), 1.15); // seed: ~15%
    EXPECT_DOUBLE_EQ(asyncCopyFactor(specs("RTX 4090"), c), 1.15);
    EXPECT_DOUBLE_EQ(asyncCopyFactor(specs("V100 SXM2 32GB"), c), 1.0);
    EXPECT_DOUBLE_EQ(asyncCopyFactor(specs("RTX 2080 Ti"), c), 1.0);
    EXPECT_DOUBLE_EQ(tmaFactor(specs("H100 SXM5"), Metric::Int8Inference, c), 1.15);
    EXPECT_DOUBLE_EQ(tmaFactor(specs("H100 SXM5"), Metric::Fp16Training, c), 1.0);
    EXPECT_DOUBLE_EQ(tmaFactor(specs("RTX 4090"), Metric::Int8Inference, c), 1.0); // Ada has no TMA
}

TEST(BytesMoved, Fp32MovesMoreAndEightBitHalf) {
    ModelConstants c;
    EXPECT_DOUBLE_EQ(bytesMultiplier(Metric::Fp16Training, c), 1.0);
    EXPECT_DOUBLE_EQ(bytesMultiplier(Metric::Fp32Training, c), c.fp32BytesMultiplier);
    EXPECT_DOUBLE_EQ(bytesMultiplier(Metric::Int8Inference, c), 0.5);
}

TEST(SustainedClock, DenseMatmulsFollowPowerLinearly) {
    // Prompt processing's chained matmuls: power ~ clock (voltage at its floor), not clock^3.
    EXPECT_DOUBLE_EQ(clockAtPowerRatio(0.6, 1.0), 0.6);
    EXPECT_NEAR(clockAtPowerRatio(0.6), 0.843, 0.001);
    EXPECT_DOUBLE_EQ(consts().prefillPowerClockExponent, 1.0);
    // RTX 6000 Ada: 300 W for 142 SMs against the RTX 4090's 450 W for 128 on AD102, at the
    // 4090's clock per SM over its own (82.6 / 128 vs 91.1 / 142 TFLOPS per SM).
    const double perSmClock = (82.6 / 128) / (91.1 / 142);
    const auto ada6000 = specs("RTX 6000 Ada");
    EXPECT_NEAR(ada6000.denseMatmulClock, perSmClock * (300.0 / 142) / (450.0 / 128), 1e-3);
    EXPECT_NEAR(ada6000.sustainedClock, perSmClock * std::cbrt((300.0 / 142) / (450.0 / 128)), 1e-3);
    EXPECT_NE(ada6000.denseMatmulClockDetail.find("clock ~ power, the voltage at its floor"), std::string::npos);
    // A100 80GB PCIe (300 W) against the SXM4's 400 W: same SMs and boost clock.
    EXPECT_NEAR(specs("A100 80GB PCIe").denseMatmulClock, 0.75, 1e-9);
    EXPECT_DOUBLE_EQ(specs("RTX 4090").denseMatmulClock, 1.0);
    EXPECT_TRUE(specs("RTX 4090").denseMatmulClockDetail.empty());
    // The DGX Spark's GB10 runs the RTX 5070's 48 SMs (another chip, its configuration peer) on
    // 140 W for the whole chip against the 5070's 250 W: same SMs, clock per SM 31.0 / 30.9.
    const auto spark = specs("DGX Spark");
    EXPECT_NEAR(spark.chipPowerPerSmRatio, 140.0 / 250.0, 1e-9);
    EXPECT_EQ(spark.chipTopName, "RTX 5070");
    EXPECT_NEAR(spark.denseMatmulClock, (30.9 / 31.0) * 140.0 / 250.0, 1e-9);
    EXPECT_NEAR(spark.sustainedClock, (30.9 / 31.0) * std::cbrt(140.0 / 250.0), 1e-9);
    EXPECT_NE(spark.denseMatmulClockDetail.find("on the same SMs (GB205)"), std::string::npos)
        << spark.denseMatmulClockDetail;
    EXPECT_DOUBLE_EQ(specs("RTX 5070").denseMatmulClock, 1.0); // the peer is not compared back
}

TEST(SustainedClock, FollowsTheSeedsPowerLawAgainstTheChipsBestFedCard) {
    // Seed: an RTX 2080 Ti limited by 50 W (250 -> 200 W) runs about 7% slower.
    EXPECT_NEAR(clockAtPowerRatio(200.0 / 250.0), 0.928, 0.001);
    EXPECT_DOUBLE_EQ(clockAtPowerRatio(1.5), 1.0);
    // A100 PCIe (250 W) and SXM4 (400 W): same chip, SMs and published boost clock.
    EXPECT_NEAR(specs("A100 40GB PCIe").sustainedClock, std::cbrt(250.0 / 400.0), 1e-9);
    EXPECT_DOUBLE_EQ(specs("A100 40GB SXM4").sustainedClock, 1.0);
    // A10: GA102 at 150 W for 72 SMs against the RTX 3090 Ti's 450 W for 84, and a lower boost
    // clock already in its published rates: top clock x (2.08 / 5.36 W per SM)^(1/3).
    const double a10 = (40.0 / 84) / (31.2 / 72) * std::cbrt((150.0 / 72) / (450.0 / 84));
    EXPECT_NEAR(specs("A10").sustainedClock, a10, 1e-9);
    EXPECT_NEAR(a10, 0.80, 0.01);
    const auto ada6000 = specs("RTX 6000 Ada"); // 300 W for 142 SMs vs RTX 4090's 450 W for 128
    EXPECT_LT(ada6000.sustainedClock, 0.9);
    EXPECT_NE(ada6000.sustainedClockDetail.find("RTX 4090"), std::string::npos);
    // The best-fed card of its chip, or a chip with one card: the published clock.
    EXPECT_DOUBLE_EQ(specs("RTX 4090").sustainedClock, 1.0);
    EXPECT_DOUBLE_EQ(specs("H100 SXM5").sustainedClock, 1.0);
    EXPECT_DOUBLE_EQ(specs("GTX 1080 Ti").sustainedClock, 1.0);
    EXPECT_TRUE(specs("GTX 1080 Ti").sustainedClockDetail.empty());
    // Without peers (a custom GPU outside the catalog) nothing is assumed.
    EXPECT_DOUBLE_EQ(deriveSpecs(cat().require("A10"), consts(), nullptr).sustainedClock, 1.0);
    // A GPU the user defines on a shipped chip is compared with the shipped cards but never
    // becomes their anchor, however much power it claims.
    Catalog withCustom = cat();
    Gpu mine = cat().require("A100 40GB SXM4");
    mine.id = "my-a100";
    mine.name = "My A100";
    mine.aliases.clear();
    mine.custom = true;
    mine.tdpW = 1000;
    withCustom.add(mine);
    EXPECT_DOUBLE_EQ(deriveSpecs(*withCustom.findById("a100-40gb-sxm4"), consts(), &withCustom).sustainedClock, 1.0);
    EXPECT_DOUBLE_EQ(deriveSpecs(*withCustom.findById("my-a100"), consts(), &withCustom).sustainedClock, 1.0);
    mine.id = "my-a100-200w";
    mine.name = "My A100 at 200 W";
    mine.tdpW = 200;
    withCustom.add(mine);
    EXPECT_NEAR(deriveSpecs(*withCustom.findById("my-a100-200w"), consts(), &withCustom).sustainedClock,
                std::cbrt(200.0 / 400.0), 1e-9);
}

TEST(LatencyBoundWork, RetiresAtSmCountTimesBoostClockDerivedFromTheFp32Rate) {
    // Published SM counts and boost clocks (NVIDIA/AMD data sheets), not the catalog's FP32 rates.
    const struct {
        const char* gpu;
        double sms, ghz;
    } cards[] = {{"V100 SXM2 32GB", 80, 1.530}, {"A100 40GB SXM4", 108, 1.410}, {"H100 SXM5", 132, 1.980},
                 {"RTX 4090", 128, 2.520},      {"RTX 2080 Ti", 68, 1.545},     {"GTX 1080 Ti", 28, 1.582},
                 {"MI300X", 304 * 0.5, 2.100},  {"MI100", 120 * 0.5, 1.502}}; // an AMD CU issues 64 threads
                                                                              // per clock, an SM 128
    for (const auto& card : cards) {
        EXPECT_NEAR(specs(card.gpu).smClockGhz / (card.sms * card.ghz), 1.0, 0.01) << card.gpu;
    }
    EXPECT_NEAR(specs("V100 SXM2 32GB").smClockGhz, consts().referenceSmClockGhz, 1e-9);
    // Every catalog GPU with a published unit count comes out at a boost clock a chip can have (the
    // highest, the RX 9060 XT's 3.13 GHz): a wrong count of FP32 lanes per SM would put it at half
    // or twice its clock.
    for (const auto& g : cat().gpus()) {
        if (!g.computeUnits) {
            continue;
        }
        const double perUnit = g.vendor == "AMD" ? 0.5 : 1.0;
        const double ghz = deriveSpecs(g, consts(), &cat()).smClockGhz / (*g.computeUnits * perUnit);
        EXPECT_TRUE(ghz > 1.0 && ghz < 3.3) << g.name << ": " << ghz << " GHz";
    }
}

TEST(MixedPrecision, NeedsTensorCoresToPayOff) {
    const ModelConstants& c = consts();
    EXPECT_EQ(metricRunOn(specs("GTX 1080 Ti"), Metric::Fp16Training, c), Metric::Fp32Training);
    EXPECT_EQ(metricRunOn(specs("GTX 1080 Ti"), Metric::Fp16Inference, c), Metric::Fp16Inference);
    EXPECT_EQ(metricRunOn(specs("V100 SXM2 32GB"), Metric::Fp16Training, c), Metric::Fp16Training);
    ModelConstants off = c;
    off.fp16WithoutTensorCoresAsFp32 = false;
    EXPECT_EQ(metricRunOn(specs("GTX 1080 Ti"), Metric::Fp16Training, off), Metric::Fp16Training);
}

TEST(BatchScaling, IsThirteenPointSixPercentPerDoubling) {
    ModelConstants c;
    EXPECT_DOUBLE_EQ(batchScaling(1, c), 1.0);
    EXPECT_NEAR(batchScaling(2, c), 1.136, 1e-12);
    EXPECT_NEAR(batchScaling(4, c), 1.136 * 1.136, 1e-12);
    EXPECT_NEAR(batchScaling(0.5, c), 1 / 1.136, 1e-12);
    EXPECT_DOUBLE_EQ(batchScaling(1000, c), batchScaling(16, c)); // clamped
}

TEST(Interconnect, LinkBandwidthByFormBridgeAndPcie) {
    const auto h100 = linkBandwidth(cat().require("H100 SXM5"), 8, {});
    EXPECT_STREQ(h100.kind, "NVLink (SXM)");
    EXPECT_DOUBLE_EQ(h100.gbPerSecond, 450); // 900 GB/s total, per direction
    // GH200 and GB200 are modules with a CPU, not SXM boards; their GPUs still talk over NVLink.
    EXPECT_STREQ(linkBandwidth(cat().require("GH200"), 8, {}).kind, "NVLink (superchip)");
    // Two DGX Sparks join over their ConnectX-7 ports: 200 Gb/s each way.
    EXPECT_STREQ(linkBandwidth(cat().require("DGX Spark"), 2, {}).kind, "network");
    EXPECT_DOUBLE_EQ(linkBandwidth(cat().require("DGX Spark"), 2, {}).gbPerSecond, 25);
    Interconnect bridge;
    bridge.nvlinkBridge = true;
    const Gpu& rtx3090 = cat().require("RTX 3090");
    EXPECT_STREQ(linkBandwidth(rtx3090, 2, bridge).kind, "NVLink bridge");
    EXPECT_DOUBLE_EQ(linkBandwidth(rtx3090, 2, bridge).gbPerSecond, 56.25);
    EXPECT_STREQ(linkBandwidth(rtx3090, 4, bridge).kind, "PCIe"); // bridges join pairs only
    EXPECT_NEAR(linkBandwidth(rtx3090, 4, {}).gbPerSecond, 0.985 * 8 * 2, 1e-9); // gen 4 x8 by default
    EXPECT_NEAR(linkBandwidth(rtx3090, 1, {}).gbPerSecond, 0.985 * 16 * 2, 1e-9);
    Interconnect slow;
    slow.pcieGen = 3;
    slow.pcieLanes = 4;
    EXPECT_NEAR(linkBandwidth(rtx3090, 4, slow).gbPerSecond, 0.985 * 4, 1e-9);
    EXPECT_TRUE(linkBandwidth(cat().require("V100 SXM2 32GB"), 8, {}).cubeMesh);
    EXPECT_FALSE(linkBandwidth(cat().require("V100 SXM2 32GB"), 4, {}).cubeMesh);
    EXPECT_FALSE(linkBandwidth(cat().require("A100 40GB SXM4"), 8, {}).cubeMesh);
}

TEST(DataParallel, EfficiencyFallsWithGpusAndRisesWithBandwidthAndBatch) {
    const auto& c = consts();
    const Link pcie{15.76, "PCIe", 8, 4, false};
    const Link fast{300, "NVLink (SXM)", 16, 4, false};
    EXPECT_DOUBLE_EQ(dataParallelEfficiency(1.0, 1, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 1, c), 1.0);
    const double e2 = dataParallelEfficiency(1.0, 2, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 1, c);
    const double e4 = dataParallelEfficiency(1.0, 4, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 1, c);
    const double e8 = dataParallelEfficiency(1.0, 8, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 1, c);
    EXPECT_GT(e2, e4);
    EXPECT_GT(e4, e8);
    EXPECT_LT(e8, dataParallelEfficiency(1.0, 8, fast, WorkloadClass::Transformer, Metric::Fp16Training, 1, c));
    EXPECT_LT(e8, dataParallelEfficiency(1.0, 8, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 2, c));
    // A faster GPU spends relatively more of its step communicating.
    EXPECT_GT(e8, dataParallelEfficiency(3.0, 8, pcie, WorkloadClass::Transformer, Metric::Fp16Training, 1, c));
    // Inference replicas do not synchronise.
    EXPECT_DOUBLE_EQ(dataParallelEfficiency(1.0, 8, pcie, WorkloadClass::Transformer, Metric::Int8Inference, 1, c), 1.0);
}

TEST(DataParallel, TheWaitForTheSlowestGpuIsAShareOfTheStepOnAnyGpuBatchAndLink) {
    ModelConstants c = consts();
    c.allReduceCost.fill(0.0);
    c.syncLatency = 0.0;
    c.stragglerFraction = 0.01;
    const Link pcie{15.76, "PCIe", 8, 4, false};
    const Link fast{450, "NVLink (SXM)", 16, 5, false};
    for (const int n : {2, 4, 8}) {
        const double expected = 1.0 / (1.0 + 0.01 * std::log2(n));
        for (const double speed : {0.5, 1.0, 5.0}) {
            for (const double batch : {0.25, 1.0, 4.0}) {
                for (const Link& link : {pcie, fast}) {
                    EXPECT_NEAR(dataParallelEfficiency(speed, n, link, WorkloadClass::Cnn, Metric::Fp32Training, batch, c),
                                expected, 1e-12)
                        << n << " GPUs, speed " << speed << ", batch " << batch << ", " << link.kind;
                }
            }
        }
    }
    // Beside it, the fixed times per step still weigh more on a faster GPU.
    c.syncLatency = 0.02;
    const double slow = dataParallelEfficiency(1.0, 8, fast, WorkloadClass::Cnn, Metric::Fp16Training, 1, c);
    const double quick = dataParallelEfficiency(3.0, 8, fast, WorkloadClass::Cnn, Metric::Fp16Training, 1, c);
    EXPECT_NEAR(1.0 / slow - 1.0, 0.03 + 0.06, 1e-12);
    EXPECT_NEAR(1.0 / quick - 1.0, 0.03 + 3.0 * 0.06, 1e-12);
    // The shipped calibration fits it: a few percent at 8 GPUs, less than the fixed part on a V100.
    EXPECT_GT(consts().stragglerFraction, 0.002);
    EXPECT_LT(consts().stragglerFraction * 3.0, 0.05);
}

TEST(DataParallel, ConstantsFileKeepsTheStragglerShareOlderFilesReadWithoutItAndNegativeIsRefused) {
    // Files fitted before the term: all their synchronisation was a fixed time, and stays so.
    expectOptionalNonNegativeField("multi_gpu", "straggler_fraction", &ModelConstants::stragglerFraction, 0.02, 0.0);
}

TEST(Sparsity, OnlySparseTensorCoresOfAmpereAndLaterSpeedUpTwoToFourWeights) {
    EXPECT_DOUBLE_EQ(kSparseMatmulSpeedup, 2.0); // seed: "effectively yields a 2x speedup"
    for (const char* gpu : {"A100 80GB SXM4", "RTX 3090", "RTX 4090", "H100 SXM5"}) {
        const auto s = specs(gpu);
        for (const auto m :
             {Metric::Int8Inference, Metric::Fp16Inference, Metric::Fp16Training, Metric::Fp32Training}) {
            EXPECT_TRUE(sparseMatmulsApply(s, m)) << gpu << " " << toString(m);
        }
        // llama.cpp-style LLM inference runs dense weights.
        EXPECT_FALSE(sparseMatmulsApply(s, Metric::LlmDecode)) << gpu;
        EXPECT_FALSE(sparseMatmulsApply(s, Metric::LlmPrefill)) << gpu;
    }
    for (const char* gpu : {"V100 SXM2 32GB", "RTX 2080 Ti", "GTX 1080 Ti", "T4"}) {
        EXPECT_FALSE(sparseMatmulsApply(specs(gpu), Metric::Fp16Inference)) << gpu; // no sparse tensor cores
    }
    // A card with sparse tensor cores but FP32 matmuls on its CUDA cores gains nothing in fp32.
    auto noTf32 = specs("A100 80GB SXM4");
    noTf32.tf32 = false;
    EXPECT_FALSE(sparseMatmulsApply(noTf32, Metric::Fp32Training));
    EXPECT_TRUE(sparseMatmulsApply(noTf32, Metric::Fp16Training));
}

TEST(MixedPacing, RunsAtTheSlowestGpu) {
    const double speeds[] = {1.0, 0.5, 0.8};
    EXPECT_DOUBLE_EQ(mixedPacing(speeds, 3), 1.5);
    EXPECT_DOUBLE_EQ(mixedPacing(speeds, 0), 0.0);
}

} // namespace
} // namespace advisor::perf
