#include "perf/serving_engine.h"

#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/llm_throughput.h"
#include "perf/serving_steps.h"
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

// What a step of a pipeline of `stages` cards adds to hand its state to the other cards
// (kServingPipelineHandOverMs each).
double handOverSeconds(int stages, const ServingConstants& k) {
    return std::max(0, stages - 1) * k.pipelineHandOverMs / 1000.0;
}

// A prompt step's requests: its tokens over one prompt's.
int promptRequests(const PerfQuery& q, double tokens) {
    return std::max(1, static_cast<int>(std::lround(tokens / std::max(1, q.llmContextTokens))));
}

} // namespace

namespace serving {

int queryGroup(const PerfQuery& q) {
    return q.llmQueryGroup.value_or(kLlamaLikeQueryGroup);
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

PerfQuery asOneCard(const PerfQuery& q, int sequences) {
    PerfQuery one = q;
    one.gpus = 1;
    one.llmSequences = std::max(1, sequences);
    return one;
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

bool splitByExperts(const PerfQuery& q) {
    return q.gpus > 1 && q.llmSplit == LlmSplit::Experts;
}

// Split by experts, each card takes whole requests: the busiest card's of `requests` over `cards`
// (4 over 4: one each; one alone: on one card, the others idle but for its experts).
int busiestCardRequests(int requests, int cards) {
    return (std::max(1, requests) + cards - 1) / std::max(1, cards);
}

// A step of `tokens` tokens of `requests` requests split by experts over q.gpus cards (attention
// data parallel with expert parallelism), as the busiest card takes it: every weight but the
// routed experts whole and 1/N of the experts the step's tokens pick; its own requests' attention,
// cache and shared multiplies; 1/N of every token's routed multiplies (the experts evenly loaded);
// the step's fixed time for its own sequences; and each mixture layer's exchange of the tokens.
StepTimes expertSplitStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                          const ServingConstants& k, bool decode, double tokens, int requests) {
    const int cards = std::max(1, q.gpus);
    const PerfQuery one = asOneCard(q, 1);
    const int busiest = busiestCardRequests(requests, cards);
    const double share = double(busiest) / std::max(1, requests); // of the step's tokens
    const WeightParts w = weightParts(q);
    const bool routed = expertRoutingKnown(q);
    const double shared = w.sharedBytes(w.sharedBillion);
    const int stepTokens = static_cast<int>(std::min(tokens, 1e9));
    const double read = decode ? llmWeightBytesRead(q, stepTokens) : promptWeightBytesRead(q, stepTokens);
    const double bandwidth = bandwidthBytesPerSecond(s, one, c);
    const double multiplied = servingMultipliedBillion(s, q, k);
    const double sharedMultiplied = routed ? w.sharedBillion : multiplied;
    const double perToken = 2e9 * (sharedMultiplied * share + (multiplied - sharedMultiplied) / cards) /
                            matmulFlopsPerSecond(s, one, servingMatmulTflops(s, q.llmWeights, k), k);
    StepTimes t;
    t.readsHidden = decode;
    t.weightReads = (shared + std::max(0.0, read - shared) / cards) / bandwidth;
    t.multiplies = tokens * perToken;
    if (decode) {
        t.cacheReads = tokens * share * kvCacheBytes(q) / bandwidth;
        t.attention = tokens * share * servingDecodeAttentionFlops(q) / decodeAttentionFlopsPerSecond(s, one, k);
        t.overhead = (c.decodeOverheadMs + k.stepMsPerDoubling * std::log2(double(busiest))) / 1000.0;
    } else {
        t.multiplies += tokens * share * prefillAttentionFlops(q) / matmulFlopsPerSecond(s, one, s.fp16TrainTflops, k);
        t.overhead = c.decodeOverheadMs / 1000.0;
    }
    t.allReduce = routed ? servingExpertExchangeSeconds(g, q, tokens, k) : 0.0;
    return t;
}

} // namespace serving

using namespace serving;

int servingMixtureLayers(const PerfQuery& q) {
    return servingLayers(q) / std::max(1, q.llmMoeLayerStep);
}

double servingExpertExchangeSeconds(const Gpu& g, const PerfQuery& q, double tokens, const ServingConstants& k) {
    const int layers = servingLayers(q);
    const int mixtureLayers = servingMixtureLayers(q);
    // servingAllReduceSeconds counts two all-reduces a layer.
    return servingAllReduceSeconds(g, q, tokens, true, k) * k.expertExchangeAllReduces * mixtureLayers / (2.0 * layers);
}

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
    const int group = queryGroup(q);
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
    if (splitByExperts(q)) {
        return expertSplitStep(s, g, q, c, k, false, tokens, promptRequests(q, tokens)).total();
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
    StepTimes t = splitByExperts(q) ? expertSplitStep(s, g, q, c, k, decode, stepTokens, decode ? stepTokens : 1)
                  : !decode         ? promptStep(s, g, pipeline ? asOneCard(q, 1) : q, c, k, stepTokens)
                  : pipeline        ? onOneStage(decodeStep(s, g, asOneCard(q, stepTokens), c, k), q.gpus, k)
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

} // namespace advisor::perf
