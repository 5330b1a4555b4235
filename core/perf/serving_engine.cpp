#include "perf/serving_engine.h"

#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/llm_throughput.h"
#include "perf/terms.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

// Query heads per KV head of a Llama-like model of no published shape: Llama 3 8B's 32 / 8.
constexpr int kLlamaLikeQueryGroup = 4;

// The model's layers and width: a published model's own, else a Llama-like model's for its size.
int servingLayers(const PerfQuery& q) {
    return q.llmLayers > 0 ? q.llmLayers : llamaLikeLayers(q.llmParamsBillion);
}

double servingHidden(const PerfQuery& q) {
    return q.llmHidden ? double(*q.llmHidden) : llamaLikeHidden(activeParamsBillion(q));
}

// One step's time by where it goes, on all the query's GPUs.
struct StepTimes {
    double weightReads = 0, multiplies = 0, cacheReads = 0, attention = 0, overhead = 0, allReduce = 0;
    // In token generation the weights' reads and the batch's matmul that multiplies them overlap,
    // and so do the cache's reads and attention's work on it: the longer one of each pair counts.
    // A prompt's step adds them (readsHidden false): see promptStep.
    bool readsHidden = true;
    double weights() const { return readsHidden ? std::max(weightReads, multiplies) : weightReads + multiplies; }
    double cache() const { return std::max(cacheReads, attention); }
    double total() const { return weights() + cache() + overhead + allReduce; }
};

double bandwidthBytesPerSecond(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c) {
    return s.bandwidthGbs * c.decodeBandwidthEfficiency * 1e9 * std::max(1, q.gpus);
}

double matmulFlopsPerSecond(const EffectiveSpecs& s, const PerfQuery& q, double tflops, const ServingConstants& k) {
    return tflops * s.denseMatmulClock * 1e12 * k.matmulEfficiency * std::max(1, q.gpus);
}

// XQA multiplies a query group's heads against each cached key and value as small matmuls on the
// tensor cores, in FP16 with FP32 sums at the engine's matmul efficiency; the CUDA-core kernel
// does the same work head by head at its fitted share of the FP32 rate.
double decodeAttentionFlopsPerSecond(const EffectiveSpecs& s, const PerfQuery& q, const ServingConstants& k) {
    return servingAttentionOnTensorCores(q) ? matmulFlopsPerSecond(s, q, s.fp16TrainTflops, k)
                                            : s.vectorTflops * 1e12 * k.attentionEfficiency * std::max(1, q.gpus);
}

StepTimes decodeStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                     const ServingConstants& k) {
    const int sequences = std::max(1, q.llmSequences);
    const double bandwidth = bandwidthBytesPerSecond(s, q, c);
    StepTimes t;
    t.weightReads = llmWeightBytesRead(q, sequences) / bandwidth;
    t.multiplies = sequences * 2.0 * servingMultipliedBillion(s, q, k) * 1e9 /
                   matmulFlopsPerSecond(s, q, servingMatmulTflops(s, q.llmWeights, k), k);
    t.cacheReads = sequences * kvCacheBytes(q) / bandwidth;
    t.attention = sequences * servingDecodeAttentionFlops(q) / decodeAttentionFlopsPerSecond(s, q, k);
    t.overhead = (c.decodeOverheadMs + k.stepMsPerDoubling * std::log2(double(sequences))) / 1000.0;
    t.allReduce = servingAllReduceSeconds(g, q, sequences, true, k);
    return t;
}

// A prompt of `tokens` tokens (one sequence's, or a batch's prompts together) as one step, the
// engine's context phase: the weights its tokens use read once, each token's matmuls and attention
// (attention in FP16 with FP32 sums, as flash attention runs it), llama.cpp's fixed time per step
// and the all-reduces of its tokens' activations. The reads and the multiplies add rather than
// overlap: TensorRT-LLM 0.9's first-token latencies at one sequence (round 77) take the weights'
// reads plus the 128-token prompts' multiplies plus the fixed time (11% median off for the dense
// models, nothing fitted); with the longer of the two they were 23-44% shorter than measured. For
// long prompts the reads are a few percent of the step.
StepTimes promptStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                     const ServingConstants& k, double tokens) {
    StepTimes t;
    t.readsHidden = false;
    t.weightReads =
        promptWeightBytesRead(q, static_cast<int>(std::min(tokens, 1e9))) / bandwidthBytesPerSecond(s, q, c);
    t.multiplies = tokens * (2.0 * servingMultipliedBillion(s, q, k) * 1e9 /
                                 matmulFlopsPerSecond(s, q, servingMatmulTflops(s, q.llmWeights, k), k) +
                             prefillAttentionFlops(q) / matmulFlopsPerSecond(s, q, s.fp16TrainTflops, k));
    t.overhead = c.decodeOverheadMs / 1000.0;
    t.allReduce = servingAllReduceSeconds(g, q, tokens, true, k);
    return t;
}

bool splitByLayers(const PerfQuery& q) {
    return q.gpus > 1 && q.llmSplit == LlmSplit::Layers;
}

// The query as one card that held the whole model, running `sequences` at once.
PerfQuery asOneCard(const PerfQuery& q, int sequences) {
    PerfQuery one = q;
    one.gpus = 1;
    one.llmSequences = std::max(1, sequences);
    return one;
}

// What a step of a pipeline of `stages` cards adds to hand its state to the other cards
// (kServingPipelineHandOverMs each).
double handOverSeconds(int stages, const ServingConstants& k) {
    return std::max(0, stages - 1) * k.pipelineHandOverMs / 1000.0;
}

// A step of one card of a pipeline: its share of the layers' reads and multiplies; the step's
// fixed time stays whole (each card's step is scheduled and launched as a whole), and the
// hand-over to the other cards comes on top.
StepTimes onOneStage(StepTimes t, int stages, const ServingConstants& k) {
    t.weightReads /= stages;
    t.multiplies /= stages;
    t.cacheReads /= stages;
    t.attention /= stages;
    t.overhead += handOverSeconds(stages, k);
    return t;
}

// A pipeline's micro-batches: the sequences in as many parts as cards, fewer when there are fewer
// sequences than cards (then some cards wait each step).
int microBatches(const PerfQuery& q) {
    return std::clamp(q.llmSequences, 1, std::max(1, q.gpus));
}

// The sequences in the largest micro-batch, whose step each card's step is taken at: parts as even
// as whole sequences allow (6 over 4 cards: 2, 2, 1, 1).
int microBatch(const PerfQuery& q) {
    const int parts = microBatches(q);
    return std::max(1, (std::max(1, q.llmSequences) + parts - 1) / parts);
}

} // namespace

bool servingAttentionOnTensorCores(const PerfQuery& q) {
    switch (q.llmDecodeAttention) {
    case DecodeAttention::CudaCores:
        return false;
    case DecodeAttention::TensorCores:
        return true;
    case DecodeAttention::Auto:
        break;
    }
    // The current XQA kernels' own check (decoderXQAImplJIT/kernelUtils.cpp, supportConfigHMMA and
    // supportConfigQGMMA): a group of query heads per KV head times the beam width of at most 32.
    const int group = q.llmQueryGroup.value_or(kLlamaLikeQueryGroup);
    return group >= 2 && group <= 32;
}

double servingMultipliedBillion(const EffectiveSpecs& s, const PerfQuery& q, const ServingConstants& k) {
    const double active = activeParamsBillion(q);
    if (!s.warpgroupMma || !expertRoutingKnown(q)) {
        return active;
    }
    const double shared = weightParts(q).sharedBillion;
    return shared + (active - shared) / k.routedMatmulShare;
}

double servingDecodeAttentionFlops(const PerfQuery& q) {
    return 4.0 * servingLayers(q) * servingHidden(q) * cachedTokens(q);
}

Link servingLink(const Gpu& g, const PerfQuery& q) {
    Interconnect ic = q.interconnect;
    if (ic.pcieLanes <= 0 && g.segment == Segment::Datacenter) {
        ic.pcieLanes = 16;
    }
    return linkBandwidth(g, q.gpus, ic);
}

double servingAllReduceSeconds(const Gpu& g, const PerfQuery& q, double tokens, bool withLatency,
                               const ServingConstants& k) {
    const int n = std::max(1, q.gpus);
    if (n == 1) {
        return 0.0;
    }
    const int layers = servingLayers(q);
    const double hidden = servingHidden(q);
    const double bytes = 2.0 * (n - 1) / n * tokens * hidden * 2.0; // a ring's share of FP16 activations
    const double linkBytesPerSecond = servingLink(g, q).gbPerSecond * 1e9 * k.linkEfficiency;
    // The latency grows with the cards an all-reduce waits on: a tree's log2 N rounds (k.allReduceUs
    // is two cards').
    const double latency = k.allReduceUs / 1e6 * std::log2(double(n));
    return 2.0 * layers * (bytes / linkBytesPerSecond + (withLatency ? latency : 0.0));
}

double servingMatmulTflops(const EffectiveSpecs& s, Precision weights, const ServingConstants& k) {
    if (weights == Precision::Fp4 && s.fourBitTflops > 0) {
        return s.fourBitTflops * k.fp4RateShare;
    }
    return weights == Precision::Int8 || weights == Precision::Fp8 ? s.eightBitTflops : s.fp16TrainTflops;
}

double servingPromptSeconds(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                            double tokens, const ServingConstants& k) {
    if (splitByLayers(q)) { // the cards work on different prompts at once
        return onOneStage(promptStep(s, g, asOneCard(q, 1), c, k, tokens), q.gpus, k).total();
    }
    return promptStep(s, g, q, c, k, tokens).total();
}

double servingThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                         Prediction* out, const ServingConstants& k) {
    const bool decode = q.metric == Metric::LlmDecode;
    const bool pipeline = splitByLayers(q);
    // Split by layers, each card's step moves its micro-batch one card on: every micro-batch's
    // sequences get a token each N steps (a full pipeline: one micro-batch's tokens each step). One
    // prompt alone crosses the cards in turn, handed from each to the next.
    const int stepTokens =
        decode ? (pipeline ? microBatch(q) : std::max(1, q.llmSequences)) : std::max(1, q.llmContextTokens);
    StepTimes t = !decode    ? promptStep(s, g, pipeline ? asOneCard(q, 1) : q, c, k, stepTokens)
                  : pipeline ? onOneStage(decodeStep(s, g, asOneCard(q, stepTokens), c, k), q.gpus, k)
                             : decodeStep(s, g, q, c, k);
    if (pipeline && !decode) {
        t.overhead += handOverSeconds(q.gpus, k);
    }
    // Every sequence gets a token each N steps, however the micro-batches divide them.
    const double tokensPerStep = pipeline && decode ? double(std::max(1, q.llmSequences)) / q.gpus : stepTokens;
    const double tokens = tokensPerStep / t.total();
    if (out != nullptr) {
        const bool readsCount = !t.readsHidden || t.weightReads >= t.multiplies;
        const bool multipliesCount = !t.readsHidden || t.weightReads < t.multiplies;
        const bool cacheReadsLonger = t.cacheReads >= t.attention;
        out->memoryShare = ((readsCount ? t.weightReads : 0.0) + (cacheReadsLonger ? t.cacheReads : 0.0)) / t.total();
        // Attention longer than its cache's reads: on the tensor cores compute, else the CUDA cores'.
        const double attention = cacheReadsLonger ? 0.0 : t.attention;
        const bool onTensorCores = decode && servingAttentionOnTensorCores(q);
        out->computeShare = ((multipliesCount ? t.multiplies : 0.0) + (onTensorCores ? attention : 0.0)) / t.total();
        out->vectorShare = (onTensorCores ? 0.0 : attention) / t.total();
        out->overheadShare = (t.overhead + t.allReduce) / t.total(); // GPU-independent time and the links'
        // as llama.cpp's token generation: the reads' own work and the multiplies follow the clock
        out->clockBoundShare = kDecodeReadsClockBoundShare * out->memoryShare + out->computeShare + out->vectorShare;
        out->singleGpu = tokens / std::max(1, q.gpus);
    }
    return tokens;
}

namespace {

// "the weights read once (2.24 ms), 128 tokens' matmuls and attention (1.32 ms) and the step's
// fixed 2.24 ms; 5.80 ms to the first token, so a short prompt's tokens come slower (...)"
std::string promptStepDetail(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c) {
    const int tokens = std::max(1, q.llmContextTokens);
    const StepTimes t = promptStep(s, g, q, c, {}, tokens);
    const auto ms = [](double seconds) { return format::number(seconds * 1000.0, seconds < 0.01 ? 2 : 1) + " ms"; };
    return "the weights read once (" + ms(t.weightReads) + "), " + format::number(tokens, 0) + " tokens' matmuls and " +
           "attention (" + ms(t.multiplies) + ")" +
           (t.allReduce > 0 ? ", their all-reduces (" + ms(t.allReduce) + ")" : std::string()) +
           " and the step's fixed " + ms(t.overhead) + "; " + ms(t.total()) +
           " to the first token, so a short prompt's tokens come slower (TensorRT-LLM 0.9's first-token latencies: "
           "`gpu-advisor eval-serving`)";
}

// The matmuls' roof in words: at the clock the card sustains under dense matmuls where its board
// power holds it below the boost clock (the "board power" factor says by how much).
std::string roofText(const EffectiveSpecs& s, const Prediction& p, const std::string& what = {}) {
    return format::number(p.computeRoofTflops, 0) + " TFLOPS" + what +
           (s.denseMatmulClock < 1.0
                ? " at its sustained clock, " + format::percent(s.denseMatmulClock, 0) + " of the boost clock"
                : std::string());
}

// The tensor rate the weights are multiplied at, in words (servingMatmulTflops).
std::string matmulRateText(const EffectiveSpecs& s, Precision weights) {
    if (weights == Precision::Int8 || weights == Precision::Fp8) {
        return "an 8-bit checkpoint on the 8-bit tensor cores";
    }
    if (weights == Precision::Fp4) {
        return s.fourBitTflops > 0 ? "NVFP4 on the FP4 tensor cores, " + format::percent(kServingFp4RateShare, 0) +
                                         " of their " + format::number(s.fourBitTflops, 0) + " (fitted)"
                                   : "NVFP4 multiplied in FP16: this card has no FP4 tensor cores";
    }
    return "FP16 with FP32 sums";
}

// The factor of a split by layers against one card that held the whole model; for one prompt,
// which gains nothing from it, a note.
template <typename Add>
void explainPipeline(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c, Prediction& p,
                     const Add& add) {
    const std::string cards = std::to_string(q.gpus);
    const std::string name = "split by layers over " + cards + " GPUs";
    if (q.metric != Metric::LlmDecode) {
        p.notes.push_back(name + ": one prompt crosses the " + cards +
                          " cards in turn, each running its share of the layers, so it takes as long as on one card "
                          "that held the model and the hand-overs between them (a split by tensors shortens it); a "
                          "batch of prompts fills them all");
        return;
    }
    const int batch = microBatch(q);
    const StepTimes t = onOneStage(decodeStep(s, g, asOneCard(q, batch), c, {}), q.gpus, {});
    add(name, servingThroughput(s, g, asOneCard(q, q.llmSequences), c),
        "each card holds 1/" + cards + " of the layers; the sequences run as " + std::to_string(microBatches(q)) +
            " micro-batch" + (microBatches(q) > 1 ? "es" : "") +
            (std::max(1, q.llmSequences) % microBatches(q) != 0 ? " of up to " : " of ") + format::number(batch, 0) +
            ", handed from card to card (pipeline parallel: no all-reduces); each card's step of " +
            format::number(t.total() * 1000.0, 2) +
            " ms (its share of the reads and multiplies, and the step's whole fixed time and hand-over to the "
            "other cards, " +
            format::number(t.overhead * 1000.0, 2) +
            " ms) moves a micro-batch one card on, so "
            "each sequence gets a token every " +
            cards + " steps");
}

} // namespace

void explainServing(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c, Prediction& p) {
    const bool decode = q.metric == Metric::LlmDecode;
    p.computeRoofTflops = servingMatmulTflops(s, q.llmWeights) * s.denseMatmulClock;
    p.effectiveBandwidthGbs = s.bandwidthGbs * c.decodeBandwidthEfficiency;
    const double top = std::max({p.computeShare, p.memoryShare, p.vectorShare, p.overheadShare});
    p.bound = top == p.memoryShare    ? "memory bandwidth"
              : top == p.computeShare ? "compute"
              : top == p.vectorShare  ? "attention on the CUDA cores"
                                      : "overhead";
    const auto add = [&](const std::string& name, double other, const std::string& detail) {
        if (other > 0 && std::fabs(p.throughput / other - 1.0) > 1e-9) {
            p.factors.push_back({name, p.throughput / other, detail});
        }
    };
    PerfQuery llamaCpp = q;
    llamaCpp.llmEngine = LlmEngine::LlamaCpp;
    llamaCpp.systemRamGbs.reset(); // the comparison is with the model on the GPUs, as here
    add("TensorRT-LLM's kernels", modelThroughput(s, g, llamaCpp, c),
        decode
            ? "the weights and the KV cache stream at " + format::number(p.effectiveBandwidthGbs, 0) + " GB/s (" +
                  format::percent(c.decodeBandwidthEfficiency, 0) +
                  " of the memory's rate; llama.cpp's kernels at most " + format::number(decodeBandwidthGbs(s, c), 0) +
                  " GB/s here, their cache reads slower still) and the sequences' multiplies run as one matmul at " +
                  format::percent(kServingMatmulEfficiency, 0) + " of the tensor peak (" + roofText(s, p) + ": " +
                  matmulRateText(s, q.llmWeights) + "), beside the reads"
            : "the prompt's matmuls run at " + format::percent(kServingMatmulEfficiency, 0) + " of the tensor peak (" +
                  roofText(s, p, " for these weights") + ": " + matmulRateText(s, q.llmWeights) +
                  ") in one step for the whole prompt: " +
                  promptStepDetail(s, g, splitByLayers(q) ? asOneCard(q, 1) : q, c));
    // The card's clock under chained dense matmuls (specs.cpp), as llama.cpp's prompts take it: what
    // the matmuls lose to a board power per SM below the chip's best card.
    if (s.denseMatmulClock < 1.0) {
        EffectiveSpecs boost = s;
        boost.denseMatmulClock = 1.0;
        add("board power", servingThroughput(boost, g, q, c), s.denseMatmulClockDetail);
    }
    if (s.warpgroupMma && expertRoutingKnown(q)) {
        ServingConstants denseRate;
        denseRate.routedMatmulShare = 1.0;
        add("routed experts' grouped matmuls", servingThroughput(s, g, q, c, nullptr, denseRate),
            "a mixture of experts' routed experts multiply at " + format::percent(kServingRoutedMatmulShare, 0) +
                " of the dense matmuls' rate on a card whose dense peak needs warpgroup MMA (fitted on a later "
                "release's full-load runs of Qwen3 30B-A3B, gpt-oss-20b and gpt-oss-120b on H100, H200, B200 and "
                "GB200): one small matmul per expert after each token's activations are sorted to its experts");
    }
    if (decode && servingAttentionOnTensorCores(q)) {
        PerfQuery cudaCores = q;
        cudaCores.llmDecodeAttention = DecodeAttention::CudaCores;
        add("attention on the tensor cores (XQA)", servingThroughput(s, g, cudaCores, c),
            "grouped-query attention: the " + std::to_string(q.llmQueryGroup.value_or(kLlamaLikeQueryGroup)) +
                " query heads that share a KV head are multiplied against it together on the tensor cores, as "
                "current TensorRT-LLM releases do; the 0.9 tables' runs (fitted) did it head by head on the CUDA "
                "cores, at " +
                format::percent(kServingAttentionEfficiency, 1) + " of their FP32 rate");
    }
    if (decode && q.llmSequences > 1) {
        PerfQuery alone = q;
        alone.llmSequences = 1;
        add(std::to_string(q.llmSequences) + " sequences at once", servingThroughput(s, g, alone, c),
            "each step reads the weights once for all of them and each one's KV cache, multiplies their tokens as "
            "one matmul, and takes " +
                format::number(kServingStepMsPerDoubling, 2) +
                " ms more for each doubling of the sequences (scheduling and sampling; fitted)");
    }
    if (decode) {
        p.notes.push_back(decodeBytesNote(q));
    }
    p.notes.push_back("TensorRT-LLM: fitted on its 0.9 release's published peak throughput (H100, H200, L40S, "
                      "A100; 16-1024 sequences; `gpu-advisor eval-serving`); the weights' bytes are its own files' "
                      "(8 bits for FP8 or INT8, 4.125 for INT4 AWQ, 4.5 for NVFP4) unless the model's own release "
                      "sets them");
    if (q.llmWeights == Precision::Fp4 && s.fourBitTflops <= 0) {
        p.notes.push_back("TensorRT-LLM multiplies NVFP4 weights on Blackwell's FP4 tensor cores; this card has none, "
                          "so they are taken as 4.5-bit weights multiplied in FP16, never measured");
    }
    if (g.vendor != "NVIDIA") {
        p.notes.push_back("TensorRT-LLM runs on NVIDIA GPUs only: for this " + g.vendor +
                          " card the figure is what a serving engine as efficient would give (vLLM's builds for "
                          "it, say), never measured");
    }
    if (splitByLayers(q)) {
        explainPipeline(s, g, q, c, p, add);
    } else if (q.gpus > 1) {
        PerfQuery one = q;
        one.gpus = 1;
        const Link link = servingLink(g, q);
        const int stepTokens = decode ? std::max(1, q.llmSequences) : std::max(1, q.llmContextTokens);
        // tokens/s x a step's seconds / its tokens = the step's share
        const double allReduceShare = servingAllReduceSeconds(g, q, stepTokens, true) * p.throughput / stepTokens;
        add("tensor parallel over " + std::to_string(q.gpus) + " GPUs", servingThroughput(s, g, one, c),
            "each card reads and multiplies its share of every layer, so their bandwidth and compute add up; "
            "after each layer's attention and MLP they sum their outputs (two all-reduces per layer over " +
                std::string(link.kind) + " at " + format::number(link.gbPerSecond, 0) +
                " GB/s per direction: " + format::percent(kServingLinkEfficiency, 0) + " of it and " +
                format::number(kServingAllReduceUs * std::log2(double(q.gpus)), 0) + " us each, fitted), " +
                format::percent(allReduceShare, 0) + " of the time");
        PerfQuery byLayers = q;
        byLayers.llmSplit = LlmSplit::Layers;
        p.notes.push_back("split by layers instead (--split layers, pipeline parallel): " +
                          format::number(servingThroughput(s, g, byLayers, c), 1) + " tokens/s");
    }
    if (!llmFits(g, q)) {
        p.notes.push_back("does not fit: " + format::number(llmBytesHeld(q) / 1e9, 1) +
                          " GB of weights and KV cache against " + format::number(g.memoryGb * std::max(1, q.gpus), 0) +
                          " GB; TensorRT-LLM keeps everything on the GPUs, so the speed shown is the one it would "
                          "have if it fitted");
    }
}

} // namespace advisor::perf
