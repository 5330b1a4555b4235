// Token generation with part of an LLM left in system RAM (perf/llm_offload.h): where llama.cpp
// puts a model that does not fit, what each token reads from where, and what that does to the
// speed and its explanation.
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/terms.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace advisor::perf {
namespace {

PerfQuery publishedModel(const char* id, std::optional<double> ramGbs = std::nullopt) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmWeights = Precision::Int4;
    calc::applyModelShape(q, *calc::findModelShape(id));
    q.systemRamGbs = ramGbs;
    return q;
}

const Gpu& gpu(const char* name) {
    return cat().require(name);
}

bool hasNoteContaining(const Prediction& p, const std::string& text) {
    for (const auto& n : p.notes) {
        if (n.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(SystemRam, DdrKindSpeedAndChannelsGiveItsNominalBandwidth) {
    std::string problem;
    const auto desktop = parseSystemRam("ddr5-5600", &problem);
    ASSERT_TRUE(desktop) << problem;
    EXPECT_DOUBLE_EQ(desktop->gbPerSecond, 89.6); // 2 channels x 8 bytes x 5,600 MT/s
    EXPECT_EQ(desktop->label, "dual-channel DDR5-5600");
    const auto workstation = parseSystemRam(" DDR4-3200x4 ", &problem);
    ASSERT_TRUE(workstation) << problem;
    EXPECT_DOUBLE_EQ(workstation->gbPerSecond, 102.4);
    EXPECT_EQ(workstation->label, "quad-channel DDR4-3200");
    const auto given = parseSystemRam("51.2", &problem);
    ASSERT_TRUE(given) << problem;
    EXPECT_DOUBLE_EQ(given->gbPerSecond, 51.2);
}

TEST(SystemRam, AnythingElseIsRefusedSayingWhatWasGiven) {
    for (const char* bad :
         {"ddr6-5600", "ddr5-5600x0", "ddr5-5600x25", "ddr5-100", "ddr5-", "ddr5", "0", "-3", "5000", "fast", ""}) {
        std::string problem;
        EXPECT_FALSE(parseSystemRam(bad, &problem)) << bad;
        EXPECT_NE(problem.find(std::string("got '") + bad + "'"), std::string::npos) << problem;
    }
}

TEST(Offload, ADenseModelKeepsAsManyWholeLayersAsFitAndTheOutputHeadOnTheCpu) {
    const Gpu& g = gpu("RTX 4090");
    const PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    ASSERT_FALSE(llmFits(g, q));
    const OffloadSplit s = planOffload(g, q);
    EXPECT_EQ(s.layers, 80);
    EXPECT_TRUE(s.headInRam);
    EXPECT_FALSE(s.expertsInRam);
    EXPECT_DOUBLE_EQ(s.gpuCapacityBytes, 23e9); // 24 GB less the runtime's 1 GB
    // Every byte is somewhere, once.
    EXPECT_NEAR(s.gpuBytesPerStep + s.ramBytesPerStep, llmBytesPerStep(q), 1.0);
    const double onGpu = s.heldBytes - s.ramHeldBytes;
    EXPECT_LE(onGpu, s.gpuCapacityBytes);
    // As many layers as fit: one more would not. A layer is the held bytes less the head, over 80.
    const double head = 128256.0 * 8192 * 4.85 / 8;
    EXPECT_GT(onGpu + (s.heldBytes - head) / 80, s.gpuCapacityBytes);
    EXPECT_EQ(s.cpuLayersRun, 80 - s.gpuLayers);
    const std::string placement = offloadPlacement(s);
    const std::string ngl = "(llama.cpp -ngl " + std::to_string(s.gpuLayers) + ")";
    EXPECT_NE(placement.find("of 80 layers on the GPU, the rest and the output head on the CPU " + ngl),
              std::string::npos)
        << placement;
}

TEST(Offload, LayersLeftOnTheCpuRunManyTimesSlowerAtAboutTheRamsSpeed) {
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    const double offloaded = model().throughput(g, q);
    const double asIfItFitted = model().throughput(g, allOnGpus(q));
    // About half of 42.6 GB read at about half of 89.6 GB/s: a couple of tokens a second, where
    // the card alone would give about twenty.
    EXPECT_GT(offloaded, 1.5);
    EXPECT_LT(offloaded, 3.0);
    EXPECT_LT(offloaded, 0.15 * asIfItFitted);
    // The RAM sets the pace: four channels instead of two nearly double it.
    q.systemRamGbs = 179.2;
    const double quad = model().throughput(g, q);
    EXPECT_GT(quad / offloaded, 1.7);
    EXPECT_LT(quad / offloaded, 2.0);
}

TEST(Offload, AMixtureOfExpertsLeavesOnlyRoutedExpertsInRamAndRunsFasterThanSplittingLayers) {
    const Gpu& g = gpu("RTX 4090");
    const PerfQuery q = publishedModel("gpt-oss-120b", 89.6);
    const OffloadSplit s = planOffload(g, q);
    EXPECT_TRUE(s.expertsInRam);
    EXPECT_FALSE(s.headInRam);
    EXPECT_EQ(s.gpuLayers, 36);
    ASSERT_GT(s.cpuMoeLayers, 0);
    ASSERT_LT(s.cpuMoeLayers, 36);
    // Routed experts: (116.8 - 5.1) / (128 - 4) B parameters each, 128 of them; a token reads 4. In
    // llama.cpp's file (4.34 bits per parameter in all) the 1.50B every token uses are Q8_0's 8.5
    // bits, which leaves the experts 4.29.
    const double expert = (116.8 - 5.1) / 124;
    const double shared = 116.8 - 128 * expert;
    const double expertBits = (116.8 * 4.34 - shared * 8.5) / (128 * expert);
    EXPECT_NEAR(shared, 1.50, 0.005);
    EXPECT_NEAR(expertBits, 4.29, 0.005);
    const double expertBytes = expert * 1e9 * expertBits / 8;
    EXPECT_NEAR(s.ramHeldBytes, s.cpuMoeLayers / 36.0 * 128 * expertBytes, 1e6);
    EXPECT_NEAR(s.ramBytesPerStep, s.cpuMoeLayers / 36.0 * 4 * expertBytes, 1e6);
    // The fewest such layers: one fewer would not fit.
    EXPECT_LE(s.heldBytes - s.ramHeldBytes, s.gpuCapacityBytes);
    EXPECT_GT(s.heldBytes - s.ramHeldBytes + 128 * expertBytes / 36, s.gpuCapacityBytes);
    // Split by whole layers instead, the CPU also reads the attention and shared weights of its
    // layers, which every token uses.
    PerfQuery byLayers = q;
    byLayers.llmGpuLayers = 12;
    const OffloadSplit layers = planOffload(g, byLayers);
    EXPECT_NEAR(layers.ramHeldBytes, s.ramHeldBytes, 0.05 * s.ramHeldBytes); // about as much left in RAM
    EXPECT_GT(layers.ramBytesPerStep, 1.4 * s.ramBytesPerStep);
    const double experts = model().throughput(g, q);
    EXPECT_GT(experts, 1.25 * model().throughput(g, byLayers));
    EXPECT_GT(experts, 15.0);
    EXPECT_LT(experts, 40.0);
}

TEST(Offload, ExpertsInEveryOtherLayerLeaveThoseOfTheMixtureLayersAmongTheFirstNInRam) {
    // Llama 4 Maverick: llama.cpp's layer i holds experts when i + 1 is even, 24 of its 48. The
    // first N layers (--n-cpu-moe N) hold N / 2 of them, whose experts the CPU reads and runs.
    const Gpu& g = gpu("RTX 4090");
    const PerfQuery q = publishedModel("llama-4-maverick", 256);
    EXPECT_EQ(q.llmMoeLayerStep, 2);
    const OffloadSplit s = planOffload(g, q);
    ASSERT_TRUE(s.expertsInRam);
    const WeightParts w = weightParts(q);
    const double routedHeld = w.routedBytes(w.routedBillion);
    EXPECT_EQ(s.cpuMoeLayers % 2, 0);
    EXPECT_EQ(s.cpuLayersRun, s.cpuMoeLayers / 2);
    EXPECT_NEAR(s.ramHeldBytes, s.cpuLayersRun / 24.0 * routedHeld, 1e6);
    // The fewest such layers: one mixture layer fewer would not fit.
    EXPECT_LE(s.heldBytes - s.ramHeldBytes, s.gpuCapacityBytes);
    EXPECT_GT(s.heldBytes - s.ramHeldBytes + routedHeld / 24, s.gpuCapacityBytes);
    EXPECT_NE(offloadPlacement(s).find(std::to_string(s.cpuLayersRun) + " of its 24 mixture layers"), std::string::npos)
        << offloadPlacement(s);
    EXPECT_NE(offloadPlacement(s).find("--n-cpu-moe " + std::to_string(s.cpuMoeLayers)), std::string::npos);
    // Given: 47 layers hold 23 mixture layers, 48 all 24.
    PerfQuery given = q;
    given.llmCpuMoeLayers = 47;
    EXPECT_EQ(planOffload(g, given).cpuLayersRun, 23);
    given.llmCpuMoeLayers = 48;
    EXPECT_NEAR(planOffload(g, given).ramHeldBytes, routedHeld, 1e6);
    // Read as experts in every layer, the same bytes sit in RAM but the CPU runs twice the layers,
    // each at its fitted fixed time: slower by that time alone.
    PerfQuery everyLayer = q;
    everyLayer.llmMoeLayerStep = 1;
    const OffloadSplit e = planOffload(g, everyLayer);
    EXPECT_EQ(e.cpuMoeLayers, s.cpuMoeLayers);
    EXPECT_NEAR(e.ramHeldBytes, s.ramHeldBytes, 1e6);
    EXPECT_EQ(e.cpuLayersRun, 2 * s.cpuLayersRun);
    const double perToken = 1.0 / model().throughput(g, q);
    EXPECT_NEAR(1.0 / model().throughput(g, everyLayer) - perToken, s.cpuLayersRun * kCpuLayerMs / 1000.0,
                0.02 * perToken);
}

TEST(Offload, RoutingThatTheActiveParametersCannotHoldIsTakenAsUnknown) {
    // 8 of 128 experts of a 60B model are 3.8B, more than its 3B active: no expert split, and
    // every byte still somewhere once (found by fuzzing: the GPU's share came out negative).
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmParamsBillion = 60;
    q.llmActiveParamsBillion = 3;
    q.llmExperts = 128;
    q.llmExpertsPerToken = 8;
    q.llmCpuMoeLayers = 48;
    q.systemRamGbs = 89.6;
    EXPECT_FALSE(expertRoutingKnown(q));
    const OffloadSplit s = planOffload(gpu("RTX 4090"), q);
    EXPECT_FALSE(s.expertsInRam);
    EXPECT_GE(s.gpuBytesPerStep, 0);
    EXPECT_GE(s.ramBytesPerStep, 0);
    EXPECT_NEAR(s.gpuBytesPerStep + s.ramBytesPerStep, llmBytesPerStep(q), 1.0);
    q.llmActiveParamsBillion = 3.8; // exactly the experts: known
    EXPECT_TRUE(expertRoutingKnown(q));
}

TEST(Offload, RamGivenForAModelThatFitsChangesNothing) {
    const Gpu& g = gpu("RTX 4090");
    const PerfQuery fits = publishedModel("llama-3.1-8b", 89.6);
    ASSERT_TRUE(llmFits(g, fits));
    EXPECT_DOUBLE_EQ(model().throughput(g, fits), model().throughput(g, allOnGpus(fits)));
    EXPECT_FALSE(model().explain(g, fits).offload);
}

TEST(Offload, GpuLayersPlaceTheModelAsLlamaCppsNgl) {
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("llama-3.1-8b", 89.6);
    const double allOnGpu = model().throughput(g, allOnGpus(q));
    q.llmGpuLayers = 16;
    const OffloadSplit half = planOffload(g, q);
    EXPECT_EQ(half.gpuLayers, 16);
    EXPECT_EQ(half.cpuLayersRun, 16);
    EXPECT_LT(model().throughput(g, q), 0.5 * allOnGpu);
    q.llmGpuLayers = 32; // every layer, but the output head stays on the CPU
    EXPECT_TRUE(planOffload(g, q).headInRam);
    EXPECT_LT(model().throughput(g, q), allOnGpu);
    q.llmGpuLayers = 33; // llama.cpp's -ngl above the layers moves the head too
    EXPECT_FALSE(planOffload(g, q).headInRam);
    EXPECT_NEAR(model().throughput(g, q), allOnGpu, 1e-9 * allOnGpu);
}

TEST(Offload, OnlyTheCacheOfTheGpusLayersIsReadAtTheDecodeKernelsShare) {
    // decodeCacheReadShare slows the reads of the cache the GPUs hold: with -ngl 16 of 32 layers,
    // half of it. The GPU's time grows by that half at 1 / 0.65 - 1 of its bytes; the CPU's reads
    // of the rest are its fitted RAM efficiency's and unchanged.
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("llama-3.1-8b", 89.6);
    q.llmContextTokens = 32768;
    q.llmGpuLayers = 16;
    const OffloadSplit split = planOffload(g, q);
    EXPECT_DOUBLE_EQ(gpuLayerShare(split), 0.5);
    const PerfModel& bytesOnly = modelWithCacheAtWeightsRate();
    const double added = 1.0 / model().throughput(g, q) - 1.0 / bytesOnly.throughput(g, q);
    const double expected = 0.5 * attentionCacheBytes(q) * (1.0 / consts().decodeCacheReadShare - 1.0) /
                            (decodeBandwidthGbs(specs("RTX 4090"), consts()) * 1e9);
    EXPECT_NEAR(added, expected, 1e-6 * expected);
    // A mixture of experts keeps every layer, and so all of the cache, on the GPUs.
    PerfQuery moe = publishedModel("qwen3-30b-a3b", 89.6);
    moe.llmCpuMoeLayers = 10;
    EXPECT_DOUBLE_EQ(gpuLayerShare(planOffload(g, moe)), 1.0);
}

TEST(Offload, APlacementThatOverfillsTheGpusIsSaidToFail) {
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    q.llmGpuLayers = 81;
    const Prediction p = model().explain(g, q);
    ASSERT_TRUE(p.offload);
    EXPECT_TRUE(p.offload->overCapacity);
    EXPECT_TRUE(hasNoteContaining(p, "llama.cpp would fail to load it"));
}

TEST(Offload, TheExplanationNamesTheRamAsTheBoundAndHowMuchItCost) {
    const Gpu& g = gpu("RTX 3090");
    const PerfQuery q = publishedModel("llama-3.1-70b", 51.2);
    const Prediction p = model().explain(g, q);
    ASSERT_TRUE(p.offload);
    EXPECT_EQ(p.bound, "the CPU's reads from system RAM");
    EXPECT_NEAR(p.computeShare + p.memoryShare + p.vectorShare + p.latencyShare + p.overheadShare + p.systemRamShare,
                1.0, 1e-12);
    const Factor* f = factorNamed(p, "layers in system RAM");
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(f->effect, p.throughput / model().throughput(g, allOnGpus(q)), 1e-12);
    EXPECT_NE(f->detail.find("RAM of 51.2 GB/s at 53% of it"), std::string::npos) << f->detail;
    EXPECT_FALSE(hasNoteContaining(p, "does not fit"));
}

TEST(Offload, WithoutRamTheNoteGivesTheSpeedWithAnAssumedDesktopsRam) {
    const Gpu& g = gpu("RTX 4090");
    const PerfQuery q = publishedModel("llama-3.1-70b");
    const Prediction p = model().explain(g, q);
    EXPECT_FALSE(p.offload);
    EXPECT_DOUBLE_EQ(p.throughput, model().throughput(g, allOnGpus(q))); // as if it fitted, as before
    PerfQuery desktop = q;
    desktop.systemRamGbs = kDefaultSystemRamGbs;
    const std::string expected =
        "With the rest in dual-channel DDR5-5600 RAM (89.6 GB/s, an assumed desktop's), about " +
        format::number(model().throughput(g, desktop), 1) + " tokens/s";
    EXPECT_TRUE(hasNoteContaining(p, expected)) << expected;
}

TEST(Offload, PromptProcessingOfAModelThatDoesNotFitIsBoundByCopyingItOverPcie) {
    // LLaMA 3.1 70B at 4 bits on an RTX 4090: with the rest in RAM, each 512-token step copies the
    // weights there (a dense model uses them all) over PCIe 4.0 x16 at 86% of its 31.5 GB/s, and
    // the GPU then runs the step as if the model fitted.
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    q.metric = Metric::LlmPrefill;
    ASSERT_TRUE(offloads(g, q));
    const Prediction p = model().explain(g, q);
    ASSERT_TRUE(p.offload);
    const double fits = model().throughput(g, allOnGpus(q));
    const double copySeconds = p.offload->ramHeldBytes / (31.52e9 * 0.86);
    EXPECT_GT(p.offload->ramHeldBytes, 15e9);
    EXPECT_NEAR(p.throughput, 512 / (512 / fits + copySeconds), 0.01 * p.throughput);
    EXPECT_NEAR(p.systemRamShare, copySeconds / (512 / fits + copySeconds), 1e-3);
    EXPECT_NEAR(p.computeShare + p.memoryShare + p.overheadShare + p.systemRamShare, 1.0, 1e-12);
    EXPECT_EQ(p.bound, "copying from system RAM to the GPU");
    const Factor* f = factorNamed(p, "layers in system RAM");
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(f->effect, p.throughput / fits, 1e-9);
    EXPECT_NE(f->detail.find("over PCIe 4.0 x16 at about 27.1 GB/s (86% of its 31.5"), std::string::npos) << f->detail;
    // Without RAM given, the speed shown is as if it fitted and the notes give it with an assumed
    // desktop's RAM, and how the copy goes.
    const PerfQuery noRam = allOnGpus(q);
    const Prediction asIfFits = model().explain(g, noRam);
    EXPECT_FALSE(asIfFits.offload);
    EXPECT_DOUBLE_EQ(asIfFits.throughput, fits);
    EXPECT_TRUE(hasNoteContaining(asIfFits, "(89.6 GB/s, an assumed desktop's), about " +
                                                format::number(p.throughput, 1) + " tokens/s"));
    EXPECT_TRUE(hasNoteContaining(asIfFits, "a prompt with the rest in RAM: each step of up to 512 prompt tokens"));
    // Slower RAM than the link binds the copy: DDR4-2133 in two channels, 34.1 x 53% = 18.1 GB/s.
    q.systemRamGbs = 34.128;
    const Prediction slow = model().explain(g, q);
    EXPECT_NEAR(slow.throughput, 512 / (512 / fits + slow.offload->ramHeldBytes / (34.128e9 * kRamReadEfficiency)),
                0.01 * slow.throughput);
}

TEST(Offload, APromptsCopyRunsAtTheLinksOwnGeneration) {
    // The same rate as the multi-GPU links' (pcieGbsPerDirection): an older slot halves it per
    // generation (a card of one's own on PCIe 2.0 x16: 7.88 GB/s, where 3.0 gives 15.76).
    PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    q.metric = Metric::LlmPrefill;
    Gpu old = gpu("RTX 3090");
    for (const int gen : {2, 3, 4, 5}) {
        old.pcieGen = gen;
        EXPECT_DOUBLE_EQ(prefillOffload(old, q, 1e12).pcieGbs, pcieGbsPerDirection(gen, 16)) << gen;
    }
    EXPECT_DOUBLE_EQ(pcieGbsPerDirection(2, 16), 7.88);
    EXPECT_DOUBLE_EQ(pcieGbsPerDirection(4, 16), 31.52);
}

TEST(Offload, AMixtureOfExpertsPromptCopiesOnlyTheExpertsItsStepsPick) {
    // gpt-oss-120b on an RTX 4090 with 89.6 GB/s RAM: the routed experts of some layers stay in RAM;
    // a 512-token step copies the 65% of them its tokens pick, a 4,096-token step 96%.
    const Gpu& g = gpu("RTX 4090");
    PerfQuery q = publishedModel("gpt-oss-120b", 89.6);
    q.metric = Metric::LlmPrefill;
    q.llmContextTokens = 4096;
    const PrefillOffload at512 = prefillOffload(g, q, model().throughput(g, allOnGpus(q)));
    ASSERT_TRUE(at512.split.expertsInRam);
    EXPECT_NEAR(at512.copiedBytesPerStep / at512.split.ramHeldBytes, 0.648, 0.001);
    EXPECT_NEAR(model().throughput(g, q), at512.tokensPerSecond, 1e-9);
    q.llmMicroBatchTokens = 4096;
    const PrefillOffload at4096 = prefillOffload(g, q, model().throughput(g, allOnGpus(q)));
    EXPECT_NEAR(at4096.copiedBytesPerStep / at4096.split.ramHeldBytes, 0.965, 0.001);
    EXPECT_GT(at4096.tokensPerSecond, 4 * at512.tokensPerSecond);
}

TEST(Offload, SeveralGpusPoolTheirMemoryBeforeAnythingGoesToRam) {
    PerfQuery q = publishedModel("llama-3.1-70b", 89.6);
    q.gpus = 2;
    EXPECT_FALSE(offloads(gpu("RTX 3090"), q)); // 42.6 GB in 48
    const OffloadSplit s = planOffload(gpu("RTX 3060 12GB"), q);
    EXPECT_DOUBLE_EQ(s.gpuCapacityBytes, 22e9);
    EXPECT_GT(s.ramHeldBytes, 0);
}

TEST(Offload, ACompleteComputerHasNoRamBesideItsUnifiedMemory) {
    // Qwen3 235B at 4 bits (142.6 GB) on a 128 GB Strix Halo or DGX Spark: with RAM given, a card
    // would keep the rest there; a complete computer has nowhere else to put it, so nothing is
    // offloaded and the note says what would make it fit.
    for (const char* system : {"Ryzen AI Max+ 395", "DGX Spark"}) {
        const Gpu& g = gpu(system);
        ASSERT_TRUE(g.isCompleteSystem()) << system;
        for (const Metric m : {Metric::LlmDecode, Metric::LlmPrefill}) {
            PerfQuery q = publishedModel("qwen3-235b-a22b", 89.6);
            q.metric = m;
            EXPECT_FALSE(offloads(g, q)) << system;
            const Prediction p = model().explain(g, q);
            EXPECT_FALSE(p.offload) << system;
            EXPECT_TRUE(hasNoteContaining(p, "a complete computer has no RAM beside its unified memory"));
            EXPECT_FALSE(hasNoteContaining(p, "With the rest in")) << system;
            EXPECT_FALSE(hasNoteContaining(p, "over PCIe")) << system;
        }
        // Layers the user puts on its CPU (-ngl) still run there.
        PerfQuery placed = publishedModel("qwen3-235b-a22b");
        placed.llmGpuLayers = 80;
        EXPECT_TRUE(offloads(g, placed)) << system;
    }
    EXPECT_TRUE(offloads(gpu("RTX 4090"), publishedModel("qwen3-235b-a22b", 89.6))); // a card does
}

TEST(Offload, APlacementOnACompleteComputerLeavesItsPromptOnTheGpuAndSaysSo) {
    // -ngl or --n-cpu-moe on a DGX Spark or Strix Halo: token generation runs those layers on the CPU,
    // but a prompt's large batches run on the GPU from the memory both share, so the prompt's figure is
    // the unplaced one, and a note names the placement that was not applied.
    for (const char* system : {"Ryzen AI Max+ 395", "DGX Spark"}) {
        const Gpu& g = gpu(system);
        PerfQuery prompt = publishedModel("gpt-oss-120b");
        prompt.metric = Metric::LlmPrefill;
        const double unplaced = model().throughput(g, prompt);
        EXPECT_FALSE(hasNoteContaining(model().explain(g, prompt), "is not applied to this prompt")) << system;
        PerfQuery layers = prompt;
        layers.llmGpuLayers = 10;
        PerfQuery experts = prompt;
        experts.llmCpuMoeLayers = 12;
        for (const auto& [placed, named] : {std::pair{layers, "llama.cpp -ngl 10 is not applied to this prompt"},
                                            std::pair{experts, "llama.cpp --n-cpu-moe 12 is not applied"}}) {
            EXPECT_FALSE(offloads(g, placed)) << system;
            const Prediction p = model().explain(g, placed);
            EXPECT_DOUBLE_EQ(p.throughput, unplaced) << system;
            EXPECT_TRUE(hasNoteContaining(p, named)) << system;
        }
        // Token generation does run the CPU's layers there, so it is slower and has no such note.
        layers.metric = Metric::LlmDecode;
        PerfQuery decode = prompt;
        decode.metric = Metric::LlmDecode;
        EXPECT_LT(model().throughput(g, layers), 0.5 * model().throughput(g, decode)) << system;
        EXPECT_FALSE(hasNoteContaining(model().explain(g, layers), "is not applied")) << system;
    }
    // A card copies the CPU's layers over PCIe for each step: offloaded, no such note.
    PerfQuery card = publishedModel("gpt-oss-120b");
    card.metric = Metric::LlmPrefill;
    card.llmGpuLayers = 10;
    EXPECT_TRUE(offloads(gpu("RTX 4090"), card));
    EXPECT_FALSE(hasNoteContaining(model().explain(gpu("RTX 4090"), card), "is not applied"));
}

} // namespace
} // namespace advisor::perf
