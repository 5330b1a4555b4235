// LLM inference in a serving engine (--engine tensorrt-llm), each term on its own: the memory's
// full rate, the batch's matmul beside the weights' reads, decode attention on the CUDA cores, the
// step's time growing with the batch, and tensor parallelism's all-reduces.
#include "perf/accuracy.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/serving_engine.h"
#include "perf_test_support.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace advisor::perf {
namespace {

double tokens(const char* gpu, const PerfQuery& q, const ServingConstants& k = {}) {
    const Gpu& g = cat().require(gpu);
    return servingThroughput(model().specs(g), g, q, consts(), nullptr, k);
}

bool hasFactor(const Prediction& p, const std::string& name) {
    for (const auto& f : p.factors) {
        if (f.name == name) {
            return true;
        }
    }
    return false;
}

TEST(ServingEngine, OneSequenceReadsAtTheMemorysRateWithLlamaCppsTimePerToken) {
    // H100 SXM5: 3,350 GB/s at the calibrated 95%; 10 GB of weights and 67 MB of cache;
    // attention's 4 x 32 x 4,096 x 512 FLOPs at 23.5% of 67 TFLOPS take less than the cache's reads.
    const Gpu& g = cat().require("H100 SXM5");
    const double bandwidth = 3350e9 * consts().decodeBandwidthEfficiency;
    const double cache = 65536.0 * 512 * 2;
    const double reads = (10e9 + cache) / bandwidth;
    ASSERT_LT(4.0 * 32 * 4096 * 512 / (67e12 * kServingAttentionEfficiency), cache / bandwidth);
    const double expected = 1.0 / (reads + consts().decodeOverheadMs / 1000);
    EXPECT_NEAR(tokens("H100 SXM5", servingRoundNumbers()) / expected, 1.0, 1e-9);
    // llama.cpp's kernels keep too few bytes in flight to draw 3,182 GB/s on an H100: slower.
    PerfQuery llamaCpp = servingRoundNumbers();
    llamaCpp.llmEngine = LlmEngine::LlamaCpp;
    EXPECT_GT(tokens("H100 SXM5", servingRoundNumbers()) / model().throughput(g, llamaCpp), 1.3);
    EXPECT_DOUBLE_EQ(model().throughput(g, servingRoundNumbers()), tokens("H100 SXM5", servingRoundNumbers()));
}

TEST(ServingEngine, TheBatchsMatmulRunsBesideTheWeightsReadsUntilItIsTheLonger) {
    // At 8 sequences the matmul (8 x 20 GFLOP at 66% of 1,979 TFLOPS: 0.12 ms) hides under the
    // 3.1 ms of reads: the step grows by the caches and the time per doubling only.
    const double one = 1.0 / tokens("H100 SXM5", servingRoundNumbers(1));
    const double eight = 8.0 / tokens("H100 SXM5", servingRoundNumbers(8));
    const double caches = 7.0 * 65536 * 512 * 2 / (3350e9 * consts().decodeBandwidthEfficiency);
    EXPECT_NEAR(eight - one, caches + 3 * kServingStepMsPerDoubling / 1000, 1e-9);
    // At 4,096 sequences of 64 tokens the matmul (82 TFLOP: 63 ms) is far longer than the reads
    // (13 GB: 4 ms) and attention: compute-bound.
    Prediction p;
    const Gpu& g = cat().require("H100 SXM5");
    servingThroughput(model().specs(g), g, servingRoundNumbers(4096, 64), consts(), &p);
    EXPECT_GT(p.computeShare, 0.7);
    EXPECT_DOUBLE_EQ(p.memoryShare + p.computeShare + p.vectorShare + p.overheadShare, 1.0);
}

TEST(ServingEngine, DecodeAttentionFollowsTheQueryHeadsNotTheCachesBytes) {
    // A 4x grouped cache (a quarter of the values) at 8,192 tokens for 64 sequences: the bytes
    // fall 4x, but attention's work on the CUDA cores, per query head, does not; llama.cpp's
    // kernels (bytes and a fixed work per cached value) gain more from it.
    PerfQuery full = servingRoundNumbers(64, 8192);
    full.llmKvCacheValues = 2.0 * 32 * 4096 * 8192; // every head cached
    PerfQuery grouped = full;
    *grouped.llmKvCacheValues /= 4;
    const double servingGain = tokens("H100 SXM5", grouped) / tokens("H100 SXM5", full);
    const Gpu& g = cat().require("H100 SXM5");
    full.llmEngine = grouped.llmEngine = LlmEngine::LlamaCpp;
    const double llamaCppGain = model().throughput(g, grouped) / model().throughput(g, full);
    EXPECT_GT(servingGain, 1.0);
    EXPECT_LT(servingGain, llamaCppGain);
    EXPECT_DOUBLE_EQ(servingDecodeAttentionFlops(servingRoundNumbers()), 4.0 * 32 * 4096 * 512);
}

TEST(ServingEngine, TheStepsTimeGrowsWithTheLogOfTheSequences) {
    ServingConstants none;
    none.stepMsPerDoubling = 0;
    // 1,024 sequences: 10 doublings of 0.594 ms beside llama.cpp's time per token.
    const double with = 1024 / tokens("L40S", servingRoundNumbers(1024));
    const double without = 1024 / tokens("L40S", servingRoundNumbers(1024), none);
    EXPECT_NEAR(with - without, 10 * kServingStepMsPerDoubling / 1000, 1e-9);
    EXPECT_DOUBLE_EQ(tokens("L40S", servingRoundNumbers(1), none), tokens("L40S", servingRoundNumbers(1)));
}

TEST(ServingEngine, TensorParallelAddsCardsBandwidthLessTheAllReducesByLink) {
    // Two GPUs split each layer of a 70B: their bandwidth and compute add up, but not the time per
    // step, and each layer adds two all-reduces.
    PerfQuery one = servingRoundNumbers(64);
    one.llmParamsBillion = 70;
    PerfQuery two = one;
    two.gpus = 2;
    const double efficiency = tokens("H100 SXM5", two) / (2 * tokens("H100 SXM5", one));
    EXPECT_LT(efficiency, 0.9);
    EXPECT_GT(efficiency, 0.6);
    // By hand: 64 tokens x 4,096 x 2 bytes, half of it each way (a ring of two), at 74% of NVLink's
    // 450 GB/s, plus 28.5 us (two cards: log2 2 = 1 round), for each of 2 x 32 all-reduces.
    const double bytes = 1.0 * 64 * 4096 * 2;
    const Gpu& h100 = cat().require("H100 SXM5");
    EXPECT_NEAR(servingAllReduceSeconds(h100, two, 64, true),
                64 * (bytes / (450e9 * kServingLinkEfficiency) + kServingAllReduceUs / 1e6), 1e-12);
    EXPECT_DOUBLE_EQ(servingAllReduceSeconds(h100, one, 64, true), 0.0);
    // The L40S's PCIe 4.0 x16 (31.5 GB/s each way) moves the same bytes 14x slower.
    const double l40sBytes = servingAllReduceSeconds(cat().require("L40S"), two, 64, false);
    EXPECT_NEAR(l40sBytes / servingAllReduceSeconds(h100, two, 64, false), 450 / 31.5, 0.05);
    // The latency grows with the rounds of a tree over the cards: eight wait log2 8 = 3 x 28.5 us.
    PerfQuery eight = two;
    eight.gpus = 8;
    const double latency =
        servingAllReduceSeconds(h100, eight, 64, true) - servingAllReduceSeconds(h100, eight, 64, false);
    EXPECT_NEAR(latency, 64 * 3 * kServingAllReduceUs / 1e6, 1e-12);
    // A datacenter card sits in a server: 16 lanes a slot on four cards too, as the 0.9 fit read the
    // L40S's; a desktop's four RTX 4090s get 8 each, and --pcie-lanes says otherwise for either.
    PerfQuery four = two;
    four.gpus = 4;
    EXPECT_NEAR(servingLink(cat().require("L40S"), four).gbPerSecond, 31.52, 0.01);
    EXPECT_NEAR(servingLink(cat().require("RTX 4090"), four).gbPerSecond, 15.76, 0.01);
    four.interconnect.pcieLanes = 8;
    EXPECT_NEAR(servingLink(cat().require("L40S"), four).gbPerSecond, 15.76, 0.01);
    EXPECT_LT(servingAllReduceSeconds(cat().require("L40S"), two, 64, false) * 1.9,
              servingAllReduceSeconds(cat().require("L40S"), four, 64, false));
}

TEST(ServingEngine, PromptsRunAtTheMatmulRateForTheWeightsPrecision) {
    // 8-bit weights at the 8-bit rate, 16-bit and 4-bit ones at the FP16 rate with FP32 sums.
    const EffectiveSpecs h100 = specs("H100 SXM5");
    EXPECT_DOUBLE_EQ(servingMatmulTflops(h100, Precision::Int8), h100.eightBitTflops);
    EXPECT_DOUBLE_EQ(servingMatmulTflops(h100, Precision::Int4), h100.fp16TrainTflops);
    // NVFP4 at the fitted share of the FP4 rate where the card has one (the B200's 9,000 TFLOPS
    // dense), else multiplied in FP16 like INT4 AWQ.
    const EffectiveSpecs b200 = specs("B200");
    EXPECT_DOUBLE_EQ(b200.fourBitTflops, 9000);
    EXPECT_DOUBLE_EQ(servingMatmulTflops(b200, Precision::Fp4), 9000 * kServingFp4RateShare);
    EXPECT_DOUBLE_EQ(h100.fourBitTflops, 0);
    EXPECT_DOUBLE_EQ(servingMatmulTflops(h100, Precision::Fp4), h100.fp16TrainTflops);
    // The RTX 5090's FP4 rate is published with FP32 sums (1,676 TFLOPS, 4x its FP32-sum FP8):
    // unlike its FP8, no accumulate ratio doubles it.
    EXPECT_DOUBLE_EQ(specs("RTX 5090").fourBitTflops, 1676);
    // A very long prompt's tokens come at the matmul rate: 20 GFLOPs each at 66% of the 8-bit peak.
    PerfQuery prompt = servingRoundNumbers(1, 1000000);
    prompt.metric = Metric::LlmPrefill;
    prompt.llmPrefillAttentionFlops = 0;
    EXPECT_NEAR(tokens("H100 SXM5", prompt) /
                    (kServingMatmulEfficiency * h100.eightBitTflops * h100.denseMatmulClock * 1e12 / 20e9),
                1.0, 0.001);
}

TEST(ServingEngine, APromptIsOneStepOfTheWeightsReadsItsMatmulsAndTheFixedTime) {
    // 128 tokens on an H100: the 10 GB of weights read once at the calibrated 95% of 3,350 GB/s, 128
    // x 20 GFLOPs at 66% of the 8-bit peak, and llama.cpp's 2.24 ms: added, not overlapped.
    const Gpu& g = cat().require("H100 SXM5");
    const EffectiveSpecs h100 = specs("H100 SXM5");
    PerfQuery prompt = servingRoundNumbers(1, 128);
    prompt.metric = Metric::LlmPrefill;
    prompt.llmPrefillAttentionFlops = 0;
    const double reads = 10e9 / (3350e9 * consts().decodeBandwidthEfficiency);
    const double multiplies =
        128 * 20e9 / (kServingMatmulEfficiency * h100.eightBitTflops * h100.denseMatmulClock * 1e12);
    const double seconds = reads + multiplies + consts().decodeOverheadMs / 1000;
    EXPECT_NEAR(servingPromptSeconds(h100, g, prompt, consts(), 128) / seconds, 1.0, 1e-9);
    EXPECT_NEAR(tokens("H100 SXM5", prompt) / (128 / seconds), 1.0, 1e-9);
    // So a short prompt's tokens come slower: 2,048 tokens at 16x the work take far less than 16x.
    PerfQuery longer = prompt;
    longer.llmContextTokens = 2048;
    EXPECT_GT(tokens("H100 SXM5", longer) / tokens("H100 SXM5", prompt), 1.5);
    // On two GPUs each reads and multiplies half and the step adds two all-reduces per layer of
    // its 128 tokens' activations, each with its latency.
    PerfQuery two = prompt;
    two.gpus = 2;
    const double allReduces = servingAllReduceSeconds(g, two, 128, true);
    EXPECT_NEAR(allReduces, 2 * 32 * (128 * 4096 * 2.0 / (450e9 * kServingLinkEfficiency) + kServingAllReduceUs / 1e6),
                1e-9);
    EXPECT_NEAR(servingPromptSeconds(h100, g, two, consts(), 128),
                reads / 2 + multiplies / 2 + consts().decodeOverheadMs / 1000 + allReduces, 1e-12);
    // The explanation gives the step's parts and its time to the first token.
    const Prediction p = model().explain(g, prompt);
    bool detailed = false;
    for (const auto& f : p.factors) {
        detailed = detailed ||
                   (f.name == "TensorRT-LLM's kernels" && f.detail.find("to the first token") != std::string::npos &&
                    f.detail.find("the weights read once") != std::string::npos);
    }
    EXPECT_TRUE(detailed);
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(prompt)->medianPct, kServingPromptAccuracy.medianPct);
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(two)->p90Pct, kServingPromptTensorParallelAccuracy.p90Pct);
}

TEST(ServingEngine, GroupedQueryAttentionRunsOnTheTensorCoresAsCurrentReleasesRunIt) {
    // The current XQA kernels take any group of 2-32 query heads per KV head (one beam): Llama 4's 5
    // and Falcon 180B's 29 too; multi-head attention (1) and larger groups stay on the CUDA cores.
    // Unset, the group is a Llama-like model's 4.
    PerfQuery q = servingRoundNumbers(256, 4096);
    q.llmDecodeAttention = DecodeAttention::Auto;
    EXPECT_TRUE(servingAttentionOnTensorCores(q));
    for (const auto& [group, tensorCores] :
         {std::pair{1, false}, {4, true}, {5, true}, {8, true}, {29, true}, {32, true}, {33, false}, {64, false}}) {
        q.llmQueryGroup = group;
        EXPECT_EQ(servingAttentionOnTensorCores(q), tensorCores) << group;
    }
    // On the tensor cores its FLOPs run at the engine's FP16 matmul rate, far under the cache's
    // reads: 256 sequences at 4,096 tokens on an H100 read 256 x 256 MiB of FP8 cache.
    q.llmQueryGroup = 8;
    q.llmKvCache = KvCacheType::Fp8;
    const Gpu& g = cat().require("H100 SXM5");
    const EffectiveSpecs h100 = specs("H100 SXM5");
    const double attention = 256 * servingDecodeAttentionFlops(q) /
                             (kServingMatmulEfficiency * h100.fp16TrainTflops * h100.denseMatmulClock * 1e12);
    const double cacheReads = 256 * 65536.0 * 4096 / (3350e9 * consts().decodeBandwidthEfficiency);
    ASSERT_LT(attention, cacheReads);
    PerfQuery cudaCores = q;
    cudaCores.llmDecodeAttention = DecodeAttention::CudaCores;
    const double onCudaCores = 256 * servingDecodeAttentionFlops(q) / (67e12 * kServingAttentionEfficiency);
    ASSERT_GT(onCudaCores, cacheReads); // 1.6x the reads: the 0.9 kernel is bound by its dot products
    // So the step loses the CUDA cores' excess over the reads.
    const double faster = 1.0 / tokens("H100 SXM5", cudaCores) - 1.0 / tokens("H100 SXM5", q);
    EXPECT_NEAR(faster * 256 / (onCudaCores - cacheReads), 1.0, 1e-6);
    const Prediction p = model().explain(g, q);
    EXPECT_TRUE(hasFactor(p, "attention on the tensor cores (XQA)"));
    EXPECT_EQ(p.bound.find("CUDA cores"), std::string::npos) << p.bound;
    // Its expected error is the current release's full-load check, not the 0.9 tables'.
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->medianPct, kServingFullLoadAccuracy.medianPct);
    q.gpus = 2;
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->p90Pct, kServingFullLoadTensorParallelAccuracy.p90Pct);
}

TEST(ServingEngine, TheWeightsTakeTheEnginesOwnFilesBytes) {
    // TensorRT-LLM's FP8 or INT8 files hold 8 bits a weight and its INT4 AWQ ones 4 plus an FP16
    // scale per 128; llama.cpp's Q8_0 8.5 and Q4_K_M 4.85. The serving fit's rows give 8.
    PerfQuery q = servingRoundNumbers();
    q.llmWeightBits.reset();
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9);
    q.llmWeights = Precision::Int4;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 4.125 / 8);
    q.llmEngine = LlmEngine::LlamaCpp;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 4.85 / 8);
    q.llmWeights = Precision::Int8;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 8.5 / 8);
    // 4-bit floats: llama.cpp's MXFP4 an 8-bit scale per 32 (4.25 bits), NVFP4 an FP8 one per 16 (4.5).
    q.llmWeights = Precision::Fp4;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 4.25 / 8);
    q.llmEngine = LlmEngine::TensorRtLlm;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 4.5 / 8);
    // A model's own release (gpt-oss's MXFP4) keeps its size in either engine.
    q.llmEngine = LlmEngine::TensorRtLlm;
    q.llmWeightBits = 4.34;
    EXPECT_DOUBLE_EQ(llmWeightBytes(q, 10), 10e9 * 4.34 / 8);
}

TEST(ServingEngine, TheExplanationNamesTheEngineAndItsAccuracy) {
    const Gpu& g = cat().require("H100 SXM5");
    PerfQuery q = servingRoundNumbers(120);
    const Prediction p = model().explain(g, q);
    EXPECT_TRUE(hasFactor(p, "TensorRT-LLM's kernels"));
    EXPECT_TRUE(hasFactor(p, "120 sequences at once"));
    EXPECT_FALSE(hasFactor(p, "bytes in flight per SM")); // llama.cpp's terms are not this engine's
    EXPECT_EQ(p.llmSequences, 120);
    EXPECT_DOUBLE_EQ(p.effectiveBandwidthGbs, 3350 * consts().decodeBandwidthEfficiency);
    q.gpus = 4;
    EXPECT_TRUE(hasFactor(model().explain(g, q), "tensor parallel over 4 GPUs"));
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->medianPct, kServingTensorParallelAccuracy.medianPct);
    q.gpus = 1;
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->p90Pct, kServingAccuracy.p90Pct);
    // Not NVIDIA's: said to be a serving engine as efficient, never measured.
    const Prediction amd = model().explain(cat().require("MI300X"), q);
    bool noted = false;
    for (const auto& n : amd.notes) {
        noted = noted || n.find("TensorRT-LLM runs on NVIDIA GPUs only") != std::string::npos;
    }
    EXPECT_TRUE(noted);
}

// The L40S (350 W for 142 SMs of the AD102 that the RTX 4090 runs at 450 W for 128) sustains 70% of
// its boost clock under dense matmuls: the engine's matmuls run at that clock, and the explanation
// says so and by how much it moved the figure, as it does for llama.cpp's prompts.
TEST(ServingEngine, ACardShortOfBoardPowerMultipliesAtItsSustainedClock) {
    const Gpu& l40s = cat().require("L40S");
    const EffectiveSpecs s = specs("L40S");
    ASSERT_NEAR(s.denseMatmulClock, 0.70, 0.01);
    EffectiveSpecs boost = s;
    boost.denseMatmulClock = 1.0;
    // A very long prompt is all matmuls: it comes at the clock's share of the boost clock's speed.
    PerfQuery prompt = servingRoundNumbers(1, 1000000);
    prompt.metric = Metric::LlmPrefill;
    prompt.llmPrefillAttentionFlops = 0;
    const Prediction p = model().explain(l40s, prompt);
    const Factor* power = factorNamed(p, "board power");
    ASSERT_NE(power, nullptr);
    EXPECT_NEAR(power->effect, s.denseMatmulClock, 0.001);
    EXPECT_DOUBLE_EQ(power->effect, p.throughput / servingThroughput(boost, l40s, prompt, consts()));
    EXPECT_NE(power->detail.find("RTX 4090's 450 W"), std::string::npos) << power->detail;
    // The roof is given at that clock: 733 dense FP8 TFLOPS x 70%, not the 733 of the spec sheet.
    EXPECT_NEAR(p.computeRoofTflops, 733 * s.denseMatmulClock, 1.0);
    const Factor* kernels = factorNamed(p, "TensorRT-LLM's kernels");
    ASSERT_NE(kernels, nullptr);
    EXPECT_NE(kernels->detail.find("at its sustained clock, 70% of the boost clock"), std::string::npos)
        << kernels->detail;
    // One sequence's token generation reads the weights for far longer than it multiplies: the clock
    // does not move it, and no factor claims it does.
    EXPECT_FALSE(hasFactor(model().explain(l40s, servingRoundNumbers(1)), "board power"));
    // Nor on a card at its chip's full power per SM.
    EXPECT_FALSE(hasFactor(model().explain(cat().require("H100 SXM5"), prompt), "board power"));
}

// NVFP4 weights: the FP4 band (eval-serving's fp4 rows, each GPU held out) for prompts and token
// generation alike; on a card without FP4 tensor cores a note says the figure was never measured.
TEST(ServingEngine, Fp4WeightsTakeTheirOwnBandAndSayWhereTheyWereNeverMeasured) {
    PerfQuery q = servingRoundNumbers(64);
    q.llmWeights = Precision::Fp4;
    q.llmWeightBits.reset();
    for (const Metric m : {Metric::LlmDecode, Metric::LlmPrefill}) {
        q.metric = m;
        EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->medianPct, kServingFp4Accuracy.medianPct);
    }
    q.metric = Metric::LlmDecode;
    const auto neverMeasured = [&q](const char* gpu) {
        const Prediction p = model().explain(cat().require(gpu), q);
        return std::any_of(p.notes.begin(), p.notes.end(),
                           [](const std::string& n) { return n.find("this card has none") != std::string::npos; });
    };
    EXPECT_TRUE(neverMeasured("H100 SXM5"));
    EXPECT_FALSE(neverMeasured("B200"));
    // On the B200 the sequences' multiplies run at 58% of the FP4 rate: twice the FP8 one's 4,500
    // TFLOPS x 0.582, so a compute-bound prompt's tokens come 1.16x as fast as with FP8 weights.
    PerfQuery prompt = servingRoundNumbers(1, 1000000);
    prompt.metric = Metric::LlmPrefill;
    prompt.llmPrefillAttentionFlops = 0;
    PerfQuery fp4Prompt = prompt;
    fp4Prompt.llmWeights = Precision::Fp4;
    EXPECT_NEAR(tokens("B200", fp4Prompt) / tokens("B200", prompt), 2 * kServingFp4RateShare, 0.01);
}

// Split by layers over N cards (pipeline parallel), S sequences run as N micro-batches of S / N (as
// even as whole sequences allow); each card's step is its 1/N share of one card's reads and
// multiplies for the largest micro-batch, plus the step's whole fixed time and its hand-over to the
// N - 1 other cards, and every sequence gets a token each N steps.
TEST(ServingEngine, SplitByLayersEachCardStepsItsOwnMicroBatch) {
    PerfQuery q = servingRoundNumbers(256);
    q.gpus = 4;
    q.llmSplit = LlmSplit::Layers;
    PerfQuery oneCard = servingRoundNumbers(64); // the micro-batch: 256 / 4
    const double oneCardStep = 64 / tokens("L40S", oneCard);
    const double fixed = (consts().decodeOverheadMs + kServingStepMsPerDoubling * 6) / 1000; // log2 64 = 6
    const double handOver = 3 * kServingPipelineHandOverMs / 1000;
    EXPECT_NEAR(tokens("L40S", q), 64 / ((oneCardStep - fixed) / 4 + fixed + handOver), 1e-6);
    // Each card's step keeps the whole fixed time: for this small model at 64 sequences a card
    // the fixed time is most of the step, and the split by tensors is faster.
    PerfQuery byTensors = q;
    byTensors.llmSplit = LlmSplit::Tensors;
    EXPECT_LT(tokens("L40S", q), tokens("L40S", byTensors));
    // One prompt crosses the cards in turn: one card's time and the three hand-overs.
    PerfQuery prompt = q;
    prompt.metric = Metric::LlmPrefill;
    PerfQuery onePrompt = prompt;
    onePrompt.gpus = 1;
    const double promptTokens = prompt.llmContextTokens;
    EXPECT_NEAR(promptTokens / tokens("L40S", prompt), promptTokens / tokens("L40S", onePrompt) + handOver, 1e-9);
    // The explanation names the split, and a split by tensors names what the other would give.
    const Gpu& g = cat().require("L40S");
    EXPECT_TRUE(hasFactor(model().explain(g, q), "split by layers over 4 GPUs"));
    const Prediction tensors = model().explain(g, byTensors);
    EXPECT_TRUE(std::any_of(tensors.notes.begin(), tensors.notes.end(), [](const std::string& n) {
        return n.rfind("split by layers instead (--split layers", 0) == 0;
    }));
    EXPECT_DOUBLE_EQ(shippedAccuracy().forQuery(q)->medianPct, kServingPipelineAccuracy.medianPct);
    // 258 sequences: micro-batches of 65, 65, 64 and 64; each step as long as one of 65, and all 258
    // get a token every 4 steps (64.5 a step).
    PerfQuery uneven = servingRoundNumbers(258);
    uneven.gpus = 4;
    uneven.llmSplit = LlmSplit::Layers;
    const double step65 = 65 / tokens("L40S", servingRoundNumbers(65));
    const double fixed65 = (consts().decodeOverheadMs + kServingStepMsPerDoubling * std::log2(65.0)) / 1000;
    EXPECT_NEAR(tokens("L40S", uneven), 64.5 / ((step65 - fixed65) / 4 + fixed65 + handOver), 1e-6);
    const Prediction unevenWhy = model().explain(g, uneven);
    const Factor* split = factorNamed(unevenWhy, "split by layers over 4 GPUs");
    ASSERT_NE(split, nullptr);
    EXPECT_NE(split->detail.find("4 micro-batches of up to 65"), std::string::npos) << split->detail;
    // Fewer sequences than cards: one micro-batch, so each card's step moves it one card on and its
    // token comes every 4 steps; one sequence is slower than on one card (4 fixed times and 4
    // hand-overs a token).
    PerfQuery one = servingRoundNumbers(1);
    PerfQuery oneSplit = one;
    oneSplit.gpus = 4;
    oneSplit.llmSplit = LlmSplit::Layers;
    const double oneFixed = consts().decodeOverheadMs / 1000;
    EXPECT_NEAR(tokens("L40S", oneSplit), 1 / ((1 / tokens("L40S", one) - oneFixed) + 4 * (oneFixed + handOver)), 1e-6);
}

TEST(ServingEngine, AsManySequencesAsFitAreCountedAsForLlamaCpp) {
    const Gpu& g = cat().require("H100 SXM5");
    PerfQuery q = servingRoundNumbers();
    q.llmKvCacheValues = 0.5e9; // 1 GB of f16 cache a sequence
    q.llmSequencesFillMemory = true;
    const Prediction p = model().explain(g, q);
    EXPECT_EQ(p.llmSequences, 62); // (0.9 x 80 GB - 10 GB) / 1 GB
    PerfQuery fixed = q;
    fixed.llmSequencesFillMemory = false;
    fixed.llmSequences = 62;
    EXPECT_DOUBLE_EQ(p.throughput, model().throughput(g, fixed));
}

} // namespace
} // namespace advisor::perf
