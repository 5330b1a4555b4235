// Cards added to the catalog on 2026-11-27 (benchmark tables name them): the names tables use
// reach them, the older cards' names stay where they were, and each card's predictions sit
// where its datasheet puts it against a sibling (ratios from the specs, not from the model).
#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf/specs.h"
#include "perf/terms.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace advisor::perf {
namespace {

constexpr Metric kAllMetrics[] = {Metric::Int8Inference, Metric::Fp16Inference, Metric::Fp16Training,
                                  Metric::Fp32Training,  Metric::LlmDecode,     Metric::LlmPrefill};

// Every other card's clocks, L2 and chip anchor are what they were before the cards of `added`
// entered the catalog.
void expectNoOtherCardMoves(const std::set<std::string>& added) {
    const Catalog without = editedCatalog([&](const Gpu& g) { return added.count(g.id) == 0; });
    EXPECT_EQ(without.gpus().size() + added.size(), cat().gpus().size());
    expectOtherCardsUnchanged(without);
}

TEST(CatalogAdditions, BenchmarkTableNamesReachTheNewCardsAndTheOldNamesStay) {
    const std::pair<const char*, const char*> cases[] = {
        {"NVIDIA RTX 4000 SFF Ada Generation", "rtx-4000-sff-ada"},
        {"RTX 4000 Ada Generation", "rtx-4000-ada"},
        {"Quadro RTX 4000", "quadro-rtx-4000"},
        {"GeForce RTX 3080 12GB", "rtx-3080-12gb"},
        {"RTX 3080", "rtx-3080-10gb"}, // Lambda's 2020-21 runs: the calibration's name for the 10 GB card
        {"3080", "rtx-3080-10gb"},     // a bare GeForce number takes the alias too, not "ambiguous"
        {"RTX 4060 Ti 8GB", "rtx-4060-ti-8gb"},
        {"4060 Ti 8GB", "rtx-4060-ti-8gb"},
        {"RTX 4060 Ti", "rtx-4060-ti-16gb"}, // as before the 8 GB entry
        {"4060 Ti", "rtx-4060-ti-16gb"},
        {"RTX 5060 Ti 8GB", "rtx-5060-ti-8gb"},
        {"RTX 5060 Ti", "rtx-5060-ti-16gb"},
        {"NVIDIA GeForce RTX 5060", "rtx-5060"},
        {"AMD Instinct MI355X", "mi355x"},
        {"AMD Instinct MI350X", "mi350x"},
        {"RTX PRO 4500", "rtx-pro-4500-blackwell"},
        {"NVIDIA RTX PRO 4000 Blackwell", "rtx-pro-4000-blackwell"},
        {"AMD Radeon RX 9060 XT", "rx-9060-xt-16gb"}, // the 8 GB card is not in the catalog
        {"RX 9070 XT", "rx-9070-xt"},
    };
    for (const auto& [name, id] : cases) {
        const Resolution r = cat().resolve(name);
        ASSERT_EQ(r.status, ResolveStatus::Found) << name << ": " << r.message();
        EXPECT_EQ(r.gpu->id, id) << name;
    }
}

TEST(CatalogAdditions, MemoryVariantsOfOneChipPredictAlikeWithTheirOwnMemorySize) {
    // The 8 GB RTX 4060 Ti has the 16 GB card's AD106 at 160 W instead of 165: within 3% on every
    // metric. The two RTX 5060 Ti differ only in memory: the same figures.
    for (const Metric m : kAllMetrics) {
        expectNear(speed("RTX 4060 Ti 8GB", m), speed("RTX 4060 Ti 16GB", m), 0.03, toString(m));
        EXPECT_DOUBLE_EQ(speed("RTX 5060 Ti 8GB", m), speed("RTX 5060 Ti 16GB", m)) << toString(m);
    }
    EXPECT_EQ(cat().require("RTX 4060 Ti 8GB").memoryGb, 8);
    EXPECT_EQ(cat().require("RTX 5060 Ti 8GB").memoryGb, 8);
}

TEST(CatalogAdditions, TheSmallFormFactorAdaRunsAtItsOwnClockAndBandwidth) {
    // 70 W for 48 SMs: the datasheet's 1,565 MHz boost is below what the power law allows against
    // the RTX 4070 Ti, so the card keeps it; its tensor figure (306.8, FP8 sparse) is 76.7 dense.
    const auto sff = specs("RTX 4000 SFF Ada");
    EXPECT_DOUBLE_EQ(sff.sustainedClock, 1.0);
    EXPECT_DOUBLE_EQ(sff.fp16InferTflops, 76.7);
    // Token generation reads the weights at 280 GB/s against the 130 W card's 360.
    expectNear(speed("RTX 4000 SFF Ada", Metric::LlmDecode) / speed("RTX 4000 Ada", Metric::LlmDecode), 280.0 / 360.0,
               0.05, "SFF / RTX 4000 Ada token generation");
    for (const Metric m : kAllMetrics) {
        EXPECT_LT(speed("RTX 4000 SFF Ada", m), speed("RTX 4000 Ada", m)) << toString(m);
    }
}

TEST(CatalogAdditions, SiblingsSitWhereTheirDatasheetsPutThem) {
    // RTX 3080 12GB: 70 SMs against 68, 912 GB/s against 760.
    const double r3080 = speed("RTX 3080 12GB", Metric::Fp16Training) / speed("RTX 3080 10GB", Metric::Fp16Training);
    EXPECT_GT(r3080, 70.0 / 68.0);
    EXPECT_LT(r3080, 912.0 / 760.0);
    // RTX 5060: the RTX 5060 Ti's 448 GB/s on 30 SMs at 2,497 MHz instead of 36 at 2,572.
    expectNear(speed("RTX 5060", Metric::LlmDecode), speed("RTX 5060 Ti 16GB", Metric::LlmDecode), 0.02,
               "RTX 5060 / 5060 Ti token generation");
    const double r5060 = speed("RTX 5060", Metric::Fp16Inference) / speed("RTX 5060 Ti 16GB", Metric::Fp16Inference);
    EXPECT_GT(r5060, 30.0 * 2497.0 / (36.0 * 2572.0));
    EXPECT_LT(r5060, 1.0);
    // Smaller cards of a line below the larger on every metric: fewer SMs, less bandwidth.
    const std::pair<const char*, const char*> smallerLarger[] = {
        {"Quadro RTX 4000", "Quadro RTX 5000"},
        {"RTX PRO 4000 Blackwell", "RTX PRO 4500 Blackwell"},
        {"RTX PRO 4500 Blackwell", "RTX PRO 5000 Blackwell 48GB"}};
    for (const auto& [smaller, larger] : smallerLarger) {
        for (const Metric m : kAllMetrics) {
            EXPECT_LT(speed(smaller, m), speed(larger, m)) << smaller << " vs " << larger << ", " << toString(m);
        }
    }
}

TEST(CatalogAdditions, TheRx9060XtIsHalfANavi48AtItsOwnClock) {
    // Navi 44: 32 CUs at 3.13 GHz against the RX 9070 XT's 64 at 2.97, 320 GB/s against 640; the
    // only Navi 44 card, so it keeps its boost clock.
    const auto small = specs("RX 9060 XT 16GB");
    const auto big = specs("RX 9070 XT");
    EXPECT_DOUBLE_EQ(small.sustainedClock, 1.0);
    EXPECT_NEAR(small.fp16TrainTflops / big.fp16TrainTflops, 32.0 * 3.13 / (64.0 * 2.97), 0.005);
    EXPECT_NEAR(small.vectorTflops / big.vectorTflops, 32.0 * 3.13 / (64.0 * 2.97), 0.005);
    // Token generation below the RTX 5060 Ti 16GB's (320 GB/s against 448; its 32 CUs keep 292 GB/s
    // in flight), near that ratio, which the fixed time per token evens a little; prompt processing
    // above it (102.6 against 94.8 TFLOPS).
    const double decode = speed("RX 9060 XT 16GB", Metric::LlmDecode) / speed("RTX 5060 Ti 16GB", Metric::LlmDecode);
    EXPECT_LT(decode, 1.0);
    EXPECT_GT(decode, 320.0 / 448.0 * 0.9);
    EXPECT_GT(speed("RX 9060 XT 16GB", Metric::LlmPrefill), speed("RTX 5060 Ti 16GB", Metric::LlmPrefill));
}

TEST(CatalogAdditions, TheRtx5060GeneratesTokensAtTheRateAUserMeasured) {
    // llmfit's community results (github.com/AlexsJones/llmfit, llmfit-core/data/community, 2026;
    // three runs each): an RTX 5060 on Ollama (Windows), Qwen2.5-Coder 7B Q4_K_M, 76.26 tokens/s
    // over 173 tokens after a short prompt (73.5-77.9); a GTX 1080 Ti on llama.cpp, Qwen2.5-Coder 14B
    // Q4_K_M, 27.83 (27.5-28.1). Within the token-generation error the docs give (LOAO p90 13.5%).
    const std::tuple<const char*, double, double> runs[] = {{"RTX 5060", 7.62, 76.26}, {"GTX 1080 Ti", 14.77, 27.83}};
    for (const auto& [gpu, paramsBillion, measured] : runs) {
        PerfQuery q;
        q.metric = Metric::LlmDecode;
        q.llmParamsBillion = paramsBillion;
        q.llmWeights = Precision::Int4;
        q.llmContextTokens = 256;
        expectNear(model().throughput(cat().require(gpu), q), measured, 0.10, gpu);
    }
}

TEST(CatalogAdditions, Mi355xDoublesTheMatrixRatesButHasNoTf32) {
    // CDNA 4: 256 CUs x 8,192 FP8 FLOPs per clock at 2.4 GHz (5.03 PF, the MI325X 2.61) on 8 TB/s
    // (6.0); no TF32, so fp32 training runs on the FP32 units, where the MI325X has TF32 matrices.
    const auto mi355 = specs("MI355X");
    EXPECT_FALSE(mi355.tf32);
    EXPECT_TRUE(specs("MI325X").tf32);
    // The class's 8-bit inference is mostly memory time on both: about the bandwidth ratio.
    expectNear(speed("MI355X", Metric::Int8Inference) / speed("MI325X", Metric::Int8Inference), 8000.0 / 6000.0, 0.10,
               "MI355X / MI325X 8-bit inference");
    EXPECT_GT(speed("MI355X", Metric::Fp16Inference), speed("MI325X", Metric::Fp16Inference));
    EXPECT_LT(speed("MI355X", Metric::Fp32Training), speed("MI325X", Metric::Fp32Training));
    // The air-cooled MI350X: the same CUs and memory at 2.2 GHz and 1,000 W. Below the MI355X
    // wherever the clock counts, level where the memory does.
    EXPECT_EQ(specs("MI350X").chipTopName, "MI355X");
    for (const Metric m : {Metric::Int8Inference, Metric::Fp16Inference, Metric::Fp16Training, Metric::LlmPrefill}) {
        EXPECT_LT(speed("MI350X", m), speed("MI355X", m)) << toString(m);
        EXPECT_GT(speed("MI350X", m), 0.85 * speed("MI355X", m)) << toString(m); // 2.2 / 2.4 = 0.92 of the clock
    }
}

TEST(CatalogAdditions, TheH20IsAHopperWhoseTensorRateIsCappedNotItsMemory) {
    // China's export Hopper (added 2026-11-27): GH100 with 78 SMs, 4.0 TB/s, and a tensor rate cut
    // to 148 TFLOPS where the H100 SXM5 has 989.4. The names benchmark tables use reach it, and the
    // H200's stay where they were.
    const std::pair<const char*, const char*> names[] = {
        {"NVIDIA H20", "h20"}, {"H20 96GB", "h20"}, {"H200", "h200-sxm"}, {"NVIDIA H200", "h200-sxm"}};
    for (const auto& [name, id] : names) {
        const Resolution r = cat().resolve(name);
        ASSERT_EQ(r.status, ResolveStatus::Found) << name << ": " << r.message();
        EXPECT_EQ(r.gpu->id, id) << name;
    }
    // 400 W for 78 SMs against the H100 SXM5's 700 W for 132: GH100's clock per SM (the FP32 rate
    // per SM) times (5.13 / 5.30)^(1/3), 0.89 of the 2.2 GHz its published 44 TFLOPS imply.
    const auto h20 = specs("H20");
    EXPECT_EQ(h20.chipTopName, "H100 SXM5");
    const double clockPerSm = (67.0 / 132.0) / (44.0 / 78.0);
    EXPECT_NEAR(h20.sustainedClock, clockPerSm * std::cbrt((400.0 / 78.0) / (700.0 / 132.0)), 1e-9);
    EXPECT_DOUBLE_EQ(specs("H100 SXM5").sustainedClock, 1.0); // it does not anchor GH100
    // The capped tensor cores: fp16 training's roof is 148 / 989.4 of the H100 SXM5's.
    EXPECT_NEAR(h20.fp16TrainTflops / specs("H100 SXM5").fp16TrainTflops, 148.0 / 989.4, 1e-9);
    // Token generation: both cards draw what their SMs keep in flight, not what the memory streams,
    // so the H20's 4.0 TB/s against 3.35 give it 44 / 67 of the H100 SXM5's rate (FP32 rate =
    // SMs x clock), not 1.19x.
    EXPECT_LT(decodeBandwidthGbs(h20, consts()), 0.5 * h20.bandwidthGbs);
    EXPECT_NEAR(decodeBandwidthGbs(h20, consts()) / decodeBandwidthGbs(specs("H100 SXM5"), consts()), 44.0 / 67.0,
                1e-9);
}

TEST(CatalogAdditions, TheH20AndStrixHaloMoveNoOtherCard) {
    // Neither anchors a chip's clock: the H20 has less power per SM than the H100 SXM5; Strix Halo
    // compares itself with the RX 7900 XTX (its configuration peer), not the other way round.
    expectNoOtherCardMoves({"h20", "ryzen-ai-max-395"});
    // Strix Halo's clocks against the XTX by the seed's law: 120 W for 40 CUs against 355 W for
    // 96, the XTX's 2.5 GHz (61.4 TFLOPS / 96 CUs) against its own 2.9 (29.7 / 40).
    const auto strix = specs("Ryzen AI Max+ 395");
    EXPECT_EQ(strix.chipTopName, "RX 7900 XTX");
    EXPECT_EQ(strix.chipTopScope, "the same kind of CU (Navi 31)");
    const double powerRatio = (120.0 / 40.0) / (355.0 / 96.0);
    const double clockRatio = (61.4 / 96.0) / (29.7 / 40.0);
    EXPECT_NEAR(strix.sustainedClock, clockRatio * std::cbrt(powerRatio), 1e-9);
    EXPECT_NEAR(strix.denseMatmulClock, clockRatio * powerRatio, 1e-9);
    EXPECT_EQ(specs("DGX Spark").chipTopScope, "the same SMs (GB205)"); // as many SMs as its peer
    // Two boxes train over their network (USB4's 40 Gb/s each way), not over a PCIe slot they lack.
    const Link link = linkBandwidth(cat().require("Ryzen AI Max+ 395"), 2, Interconnect{});
    EXPECT_STREQ(link.kind, "network");
    EXPECT_DOUBLE_EQ(link.gbPerSecond, 5.0);
}

TEST(CatalogAdditions, TheArcProCardsMoveNoOtherCardAndTheB60DoesNotAnchorItsChip) {
    expectNoOtherCardMoves({"arc-pro-b60", "arc-pro-b70"});
    // The B60 has more board power per Xe core than the B580 (200 W against 190 for 20) at a lower
    // clock (2.4 GHz against 2.67): its entry says why that power is no measure of its clock, so
    // the B580 keeps its boost clock and the B60 its own. Were it the anchor, the B580 would run
    // at the B60's clock per core lowered by the law, (12.29 / 13.7) x (190 / 200)^(1/3) = 88%.
    EXPECT_DOUBLE_EQ(specs("Arc B580").sustainedClock, 1.0);
    EXPECT_DOUBLE_EQ(specs("Arc Pro B60").sustainedClock, 1.0);
    EXPECT_EQ(specs("Arc Pro B60").chipTopName, "Arc B580");
    Catalog b60Anchors;
    for (Gpu g : cat().gpus()) {
        if (g.id == "arc-pro-b60") {
            ASSERT_FALSE(g.notAClockAnchor.empty());
            g.notAClockAnchor.clear();
        }
        b60Anchors.add(std::move(g));
    }
    const auto b580 = deriveSpecs(cat().require("Arc B580"), consts(), &b60Anchors);
    EXPECT_EQ(b580.chipTopName, "Arc Pro B60");
    EXPECT_NEAR(b580.sustainedClock, (12.29 / 13.7) * std::cbrt(190.0 / 200.0), 1e-3);
    // The B70, alone on BMG-G31, keeps its boost clock; with no published L2 it gets no cache term.
    const auto b70 = specs("Arc Pro B70");
    EXPECT_DOUBLE_EQ(b70.sustainedClock, 1.0);
    EXPECT_NE(std::find(b70.notes.begin(), b70.notes.end(), "L2 size not published; no cache benefit assumed"),
              b70.notes.end());
}

} // namespace
} // namespace advisor::perf
