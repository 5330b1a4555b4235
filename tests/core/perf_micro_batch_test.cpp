// A prompt's micro-batch reads the weights its tokens use once (perf::prefillWeightTime).
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/llm_throughput.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace advisor::perf {
namespace {

PerfQuery prompt(const char* modelId, int tokens, int microBatch, Precision weights = Precision::Int4) {
    PerfQuery q;
    q.metric = Metric::LlmPrefill;
    q.llmWeights = weights; // before the shape too: a published file's bits are its 4-bit file's
    q.llmContextTokens = tokens; // before the shape: its attention and KV cache are the prompt's
    if (modelId != nullptr) {
        calc::applyModelShape(q, *calc::findModelShape(modelId));
    }
    q.llmMicroBatchTokens = microBatch;
    return q;
}

// The shipped constants with the prompt's weight reads (round 58) or each routed expert's tiles
// (round 61) left out.
ModelConstants without(bool reads, bool tiles) {
    ModelConstants c = consts();
    c.prefillWeightReads = !reads;
    c.prefillExpertTiles = !tiles;
    return c;
}
ModelConstants withoutReads() { return without(true, false); }
ModelConstants withoutTiles() { return without(false, true); }
ModelConstants withoutReadsOrTiles() { return without(true, true); }

// The weights' time per prompt token with the reads and with the multiplies alone.
double weightSeconds(const char* gpu, const PerfQuery& q, const ModelConstants& c = consts()) {
    return prefillWeightTime(deriveSpecs(cat().require(gpu), c, &cat()), q, c).total();
}

TEST(MicroBatch, ADenseModelsPromptNeverWaitsOnItsReadsAtLlamaCppsDefault) {
    // An 8B model's 512-token step multiplies each weight 512 times (1,024 FLOPs per weight, 2,000
    // per byte of 4-bit weights, 512 of fp16): no card's matmuls outrun its memory by that much.
    for (const Gpu& g : cat().gpus()) {
        for (Precision w : {Precision::Int4, Precision::Fp16}) {
            PerfQuery q = prompt(nullptr, 512, kDefaultMicroBatchTokens);
            q.llmWeights = w;
            const EffectiveSpecs s = deriveSpecs(g, consts(), &cat());
            EXPECT_EQ(prefillWeightTime(s, q, consts()).readWaitSeconds, 0.0) << g.name << " " << toString(w);
        }
    }
}

TEST(MicroBatch, ATinyMicroBatchWaitsOnTheWeightsBytesAtTheMemorysRate) {
    // Four tokens a step of an 8B fp16 model on an RTX 4090: each step reads the 16 GB once, so a
    // token waits a quarter of 16 GB at the rate the memory streams (1,008 GB/s x the calibrated
    // efficiency), 40x its multiplies.
    PerfQuery q = prompt(nullptr, 8, 4);
    q.llmWeights = Precision::Fp16;
    const EffectiveSpecs s = specs("RTX 4090");
    const double streamed = s.bandwidthGbs * consts().decodeBandwidthEfficiency * 1e9;
    EXPECT_DOUBLE_EQ(s.bandwidthGbs, 1008.0);
    expectNear(weightSeconds("RTX 4090", q), 8.0e9 * 2 / 4 / streamed, 1e-9, "8B fp16, 4 tokens a step");
    EXPECT_GT(weightSeconds("RTX 4090", q) / weightSeconds("RTX 4090", q, withoutReads()), 10.0);
    // A 6-token prompt runs in two steps, as an 8-token one does: 8/6 the reads per token.
    PerfQuery six = q;
    six.llmContextTokens = 6;
    EXPECT_NEAR(weightSeconds("RTX 4090", six) / weightSeconds("RTX 4090", q), 8.0 / 6.0, 1e-12);
    // A prompt shorter than the micro-batch is one step of its own length.
    PerfQuery three = q;
    three.llmContextTokens = 3;
    EXPECT_EQ(prefillTokensPerStep(three), 3);
    EXPECT_NEAR(weightSeconds("RTX 4090", three) / weightSeconds("RTX 4090", q), 4.0 / 3.0, 1e-12);
}

TEST(MicroBatch, AMixtureOfExpertsReadsTheExpertsAStepPicksForAFewTokensEach) {
    // gpt-oss-120b on Strix Halo (256 GB/s): a 512-token step picks 83 of the 128 experts (a
    // prompt's tokens pick alike: PR #15346's count), gives each 512 x 4 / 83 = 24.7 tokens and
    // reads them: the 1.59 GB of shared weights and 64.8% of the other 61.78 GB of the 59.02 GiB
    // file, 41.63 GB, 81.3 MB per token, which the experts' multiplies (25 per weight) do not cover.
    const PerfQuery q = prompt("gpt-oss-120b", 2048, 512);
    EXPECT_NEAR(llmWeightBytesRead(q, 1) + (1 - 4.0 / 128) * weightParts(q).routedBytes(weightParts(q).routedBillion),
                59.02 * 1073741824.0, 0.02e9); // 4.34 bits: two decimals
    EXPECT_NEAR(promptWeightBytesRead(q, 512) / 1e9, 1.59 + 0.648 * 61.78, 0.05);
    const std::string detail = prefillReadsDetail(q);
    EXPECT_NE(detail.find("512 prompt tokens"), std::string::npos) << detail;
    EXPECT_NE(detail.find("(65% of the routed experts, 24.7 tokens for each)"), std::string::npos) << detail;
    EXPECT_NE(detail.find("81.3 MB per token"), std::string::npos) << detail;
    // Its experts' multiplies as if each multiplied only its own 24.7 tokens (the tiles, below, aside).
    const double reads = weightSeconds("Ryzen AI Max+ 395", q, withoutTiles());
    const double multiplies = weightSeconds("Ryzen AI Max+ 395", q, withoutReadsOrTiles());
    EXPECT_GT(reads / multiplies, 1.1);
    // The shared weights (attention, router, output head) are multiplied 512 times each and wait
    // on nothing; the experts take their reads' time (multiplies take time in proportion to the
    // parameters multiplied: 1.50B shared of the 5.1B active).
    const EffectiveSpecs s = specs("Ryzen AI Max+ 395");
    const WeightParts w = weightParts(q);
    const double expertReads = w.routedBytes(w.routedBillion) * promptExpertsPickedShare(q, 512) / 512 /
                               (s.bandwidthGbs * consts().decodeBandwidthEfficiency * 1e9);
    EXPECT_NEAR(w.sharedBillion, 1.50, 0.005);
    expectNear(reads, multiplies * w.sharedBillion / q.llmActiveParamsBillion + expertReads, 1e-6,
               "shared multiplies + experts' reads");
    // At 2,048 tokens a step each expert multiplies 64: the multiplies cover the reads again.
    EXPECT_DOUBLE_EQ(weightSeconds("Ryzen AI Max+ 395", prompt("gpt-oss-120b", 2048, 2048), withoutTiles()),
                     multiplies);
    // Padded to a whole tile of 128 tokens, each expert's 24.7 multiply as long as 128 would: they
    // outlast the reads, which then add nothing.
    EXPECT_DOUBLE_EQ(weightSeconds("Ryzen AI Max+ 395", q), weightSeconds("Ryzen AI Max+ 395", q, withoutReads()));
    EXPECT_GT(weightSeconds("Ryzen AI Max+ 395", q), reads);
    // Larger steps never slow a prompt.
    double last = 0;
    for (int ub : {32, 64, 128, 256, 512, 1024, 2048}) {
        const double tokens = model().throughput(cat().require("Ryzen AI Max+ 395"), prompt("gpt-oss-120b", 2048, ub));
        EXPECT_GE(tokens, last) << ub;
        last = tokens;
    }
}

// gpt-oss-20b with 16-bit weights (not multiplied in llama.cpp's quantized tiles): its steps of 512
// read 41.3 GB for 64.8 tokens per expert.
PerfQuery prompt16(int tokens, int microBatch) {
    return prompt("gpt-oss-20b", tokens, microBatch, Precision::Fp16);
}

TEST(MicroBatch, EachRoutedExpertsTokensArePaddedToWholeQuantizedTiles) {
    // llama.cpp multiplies quantized weights in tiles of 128 tokens, each routed expert its own
    // (round 61). gpt-oss-120b's 512-token step gives each of the 83 experts it picks 512 x 4 / 83 =
    // 24.7 tokens: one tile, 128 tokens' time, x5.18. gpt-oss-20b's gives each of its 32 (98.8%
    // picked) 64.8, over half a tile: on average half a tile more, (64.8 + 64) / 64.8 = x1.99. Steps
    // of 4,096 give each about 512: x1.125.
    const PerfQuery big = prompt("gpt-oss-120b", 512, 512);
    EXPECT_NEAR(promptTokensPerPickedExpert(big, 512), 512.0 * 4 / (128 * 0.6484), 0.05);
    EXPECT_NEAR(routedTilePadding(big, 512), 128.0 / 24.67, 0.01);
    const PerfQuery small = prompt("gpt-oss-20b", 512, 512);
    const double smallEach = 512.0 * 4 / (32 * 0.9876);
    EXPECT_NEAR(routedTilePadding(small, 512), (smallEach + 64) / smallEach, 0.002);
    EXPECT_NEAR(routedTilePadding(prompt("gpt-oss-20b", 4096, 4096), 4096), (512.0 + 64) / 512, 0.002);
    // A GPU without matrix units multiplies them on dp4a in tiles of 64: half the padding above 32.
    EXPECT_EQ(quantizedTileTokens(false), 64.0);
    EXPECT_NEAR(routedTilePadding(small, 512, quantizedTileTokens(false)), (smallEach + 32) / smallEach, 0.002);
    ASSERT_FALSE(specs("Tesla P40").tensorCores);
    const Prediction onPascal = model().explain(cat().require("Tesla P40"), small);
    const Factor* pascal = factorNamed(onPascal, "routed experts' matmul tiles");
    ASSERT_NE(pascal, nullptr);
    EXPECT_NE(pascal->detail.find("tiles of 64 tokens"), std::string::npos) << pascal->detail;
    // No padding for a dense model, nor for 16-bit weights (not multiplied in those tiles).
    EXPECT_EQ(routedTilePadding(prompt("llama-3.1-8b", 512, 512), 512), 1.0);
    EXPECT_EQ(routedTilePadding(prompt16(512, 512), 512), 1.0);
    // The padded multiplies of the routed experts, the shared weights' as they were.
    const EffectiveSpecs s = specs("RTX 4090");
    const WeightParts w = weightParts(big);
    const double routedShare = (big.llmActiveParamsBillion - w.sharedBillion) / big.llmActiveParamsBillion;
    const double unpadded = prefillWeightTime(s, big, withoutReadsOrTiles()).multiplySeconds;
    EXPECT_NEAR(prefillWeightTime(s, big, withoutReads()).multiplySeconds,
                unpadded * (1 - routedShare + routedShare * routedTilePadding(big, 512)), 1e-12);
    // The explanation names it, with the tokens each expert gets, the tile and the factor.
    const Gpu& card = cat().require("RTX 4090");
    const Prediction p = model().explain(card, big);
    const Factor* f = factorNamed(p, "routed experts' matmul tiles");
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(f->effect, p.throughput / PerfModel(cat(), withoutTiles()).throughput(card, big), 1e-9);
    for (const char* said : {"about 24.7 of them", "tiles of 128 tokens", "(x5.19 on the routed experts'"}) {
        EXPECT_NE(f->detail.find(said), std::string::npos) << said << ": " << f->detail;
    }
    const Prediction dense = model().explain(card, prompt("llama-3.1-8b", 512, 512));
    EXPECT_EQ(factorNamed(dense, "routed experts' matmul tiles"), nullptr);
}

TEST(MicroBatch, TheExplanationNamesTheReadsWhereTheyCount) {
    const Gpu& strix = cat().require("Ryzen AI Max+ 395");
    const Prediction p = model().explain(strix, prompt16(512, 512));
    const Factor* f = factorNamed(p, "weights read per micro-batch");
    ASSERT_NE(f, nullptr);
    const PerfModel noReads(cat(), withoutReads());
    EXPECT_NEAR(f->effect, p.throughput / noReads.throughput(strix, prompt16(512, 512)), 1e-9);
    EXPECT_LT(f->effect, 0.9);
    // It says which micro-batch would cover the reads and how fast a prompt that long then runs.
    const std::string covers = "(a micro-batch of 1,024 covers them: about ";
    const size_t at = f->detail.find(covers);
    ASSERT_NE(at, std::string::npos) << f->detail;
    const size_t end = f->detail.find(" tokens/s for a 1,024-token prompt)", at);
    ASSERT_NE(end, std::string::npos) << f->detail;
    std::string said = f->detail.substr(at + covers.size(), end - at - covers.size());
    said.erase(std::remove(said.begin(), said.end(), ','), said.end());
    // Within 1% of the prompt asked for itself (its attention scaled as full attention's).
    const double at1024 = model().throughput(strix, prompt16(1024, 1024));
    EXPECT_NEAR(std::stod(said), at1024, 0.01 * at1024) << f->detail;
    EXPECT_GT(at1024, 1.1 * p.throughput);
    EXPECT_GT(p.memoryShare, 0.1); // the reads' wait, beside the multiplies' compute share
    EXPECT_NEAR(p.computeShare + p.memoryShare + p.overheadShare, 1.0, 1e-12);
    // Not for a dense model, nor for the same model in steps of 2,048.
    for (const PerfQuery& q : {prompt("llama-3.1-8b", 512, 512), prompt16(2048, 2048)}) {
        const Prediction other = model().explain(strix, q);
        EXPECT_EQ(factorNamed(other, "weights read per micro-batch"), nullptr) << q.llmParamsBillion;
        EXPECT_EQ(other.memoryShare, 0.0);
    }
}

TEST(MicroBatch, AnOffloadedPromptCopiesTheExpertsEachMicroBatchPicksOverPcie) {
    // An RTX 3090 with gpt-oss-120b's experts of 26 layers in RAM (44.6 GB): each step copies the
    // experts its tokens pick over PCIe 4.0 x16 (31.5 GB/s nominal, 86% of it in a copy).
    const Gpu& rtx3090 = cat().require("RTX 3090");
    PerfQuery q = prompt("gpt-oss-120b", 4096, 512);
    q.llmCpuMoeLayers = 26;
    const PrefillOffload at512 = prefillOffload(rtx3090, q, 1e12); // the GPU's own time left out
    EXPECT_NEAR(at512.pcieGbs, 31.52, 0.01);
    EXPECT_NEAR(at512.copyGbs, 31.52 * 0.86, 0.01);
    EXPECT_FALSE(at512.ramBindsCopy); // dual-channel DDR5-5600 reads 89.6 x 0.53 = 47.5 GB/s
    EXPECT_NEAR(at512.split.ramHeldBytes / 1e9, 44.6, 0.05);
    // The oracle: 83 of gpt-oss-120b's 128 experts in a 512-token step of code (PR #15346).
    EXPECT_NEAR(at512.expertsPickedShare, 83.1 / 128, 0.005);
    EXPECT_NEAR(at512.copiedBytesPerStep, at512.expertsPickedShare * at512.split.ramHeldBytes, 1.0);
    EXPECT_NEAR(at512.tokensPerSecond, 512 / (at512.copiedBytesPerStep / (31.52e9 * 0.86)), 0.5);
    // Four times the micro-batch copies a quarter as often, but more of the experts each time.
    q.llmMicroBatchTokens = 2048;
    const PrefillOffload at2048 = prefillOffload(rtx3090, q, 1e12);
    EXPECT_GT(at2048.expertsPickedShare, 0.89);
    EXPECT_NEAR(at2048.tokensPerSecond / at512.tokensPerSecond,
                4.0 * at512.expertsPickedShare / at2048.expertsPickedShare, 1e-6);
    // Slow RAM binds the copy instead: dual-channel DDR4-2133 reads 34.1 x 0.53 = 18.1 GB/s.
    q.systemRamGbs = 34.128;
    const PrefillOffload slowRam = prefillOffload(rtx3090, q, 1e12);
    EXPECT_TRUE(slowRam.ramBindsCopy);
    EXPECT_NEAR(slowRam.copyGbs, 34.128 * kRamReadEfficiency, 1e-9);
}

TEST(MicroBatch, APromptsTokensPickFewerExpertsThanIndependentTokensWould) {
    PerfQuery q = prompt("gpt-oss-120b", 4096, 512);
    // One token picks its k of E; more pick alike, saturating towards all E.
    EXPECT_NEAR(promptExpertsPickedShare(q, 1), 4.0 / 128, 1e-12);
    double last = 0;
    for (int tokens : {1, 32, 256, 512, 2048, 8192}) {
        const double share = promptExpertsPickedShare(q, tokens);
        EXPECT_GT(share, last) << tokens;
        EXPECT_LE(share, routedShareRead(q, tokens)) << tokens;
        last = share;
    }
    EXPECT_GT(promptExpertsPickedShare(q, 8192), 0.99);
    EXPECT_DOUBLE_EQ(promptExpertsPickedShare(prompt("llama-3.1-8b", 512, 512), 512), 1.0); // dense
}

} // namespace
} // namespace advisor::perf
