#include "perf/llm_inference.h"

#include "common/format.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

// K and V elements cached per token of context: 2 (K, V) x layers x KV heads x head dim.
// Llama-3-8B (32 layers, 8 KV heads, dim 128) -> 64K, 128 KiB in fp16; scaled by sqrt(params)
// for other sizes (70B -> ~190K, close to Llama-3-70B's 160K).
double kvValuesPerContextToken(double paramsBillion) {
    return 65536.0 * std::sqrt(std::max(paramsBillion, 0.1) / 8.0);
}

} // namespace

double cachedTokens(const PerfQuery& q) {
    return std::max(0, q.llmDepthTokens) + static_cast<double>(q.llmContextTokens);
}

double activeParamsBillion(const PerfQuery& q) {
    return q.llmActiveParamsBillion > 0 ? std::min(q.llmActiveParamsBillion, q.llmParamsBillion) : q.llmParamsBillion;
}

// Sized from the active parameters without a shape: a mixture of experts shares its attention
// (Mixtral 8x7B's KV cache is an 8B's). A linear-attention layer's recurrent state is held and
// read with it (its write-back, as large, is left out: 1% of what a 27B model at 4 bits reads).
double kvCacheBytes(const PerfQuery& q) {
    return attentionCacheBytes(q) + std::max(0.0, q.llmRecurrentStateBytes);
}

double kvCacheCopies(const PerfQuery& q) {
    if (q.llmEngine != LlmEngine::TensorRtLlm || q.gpus <= 1 || q.llmSplit != LlmSplit::Tensors) {
        return 1.0; // split by layers or by experts, each card holds whole heads of its own sequences
    }
    if (q.llmLatentKv) {
        return q.gpus;
    }
    if (q.llmKvHeads <= 0) {
        return 1.0;
    }
    const int headsPerCard = (q.llmKvHeads + q.gpus - 1) / q.gpus;
    return static_cast<double>(headsPerCard) * q.gpus / q.llmKvHeads;
}

double attentionCacheValues(const PerfQuery& q) {
    const double values =
        q.llmKvCacheValues ? *q.llmKvCacheValues : kvValuesPerContextToken(activeParamsBillion(q)) * cachedTokens(q);
    return values * kvCacheCopies(q);
}

double attentionCacheBytes(const PerfQuery& q) {
    return attentionCacheValues(q) * kvCacheBytesPerValue(q.llmKvCache);
}

bool reservesWholeWindows(const PerfQuery& q) {
    return q.llmEngine == LlmEngine::TensorRtLlm && q.llmKvCacheValuesReserved && q.llmKvCacheValues &&
           *q.llmKvCacheValuesReserved > *q.llmKvCacheValues;
}

double heldKvCacheBytes(const PerfQuery& q) {
    const double more =
        q.llmKvCacheValues && q.llmKvCacheValuesHeld ? *q.llmKvCacheValuesHeld - *q.llmKvCacheValues : 0.0;
    return kvCacheBytes(q) + std::max(0.0, more) * kvCacheCopies(q) * kvCacheBytesPerValue(q.llmKvCache);
}

double reservedKvCacheBytes(const PerfQuery& q) {
    if (!reservesWholeWindows(q)) {
        return heldKvCacheBytes(q);
    }
    return *q.llmKvCacheValuesReserved * kvCacheCopies(q) * kvCacheBytesPerValue(q.llmKvCache) +
           std::max(0.0, q.llmRecurrentStateBytes);
}

double llmWeightBytes(const PerfQuery& q, double paramsBillion) {
    return paramsBillion * 1e9 * q.llmWeightBits.value_or(llmBitsPerWeight(q.llmWeights, q.llmEngine)) / 8.0;
}

bool expertRoutingKnown(const PerfQuery& q) {
    const double active = activeParamsBillion(q);
    return active < q.llmParamsBillion && q.llmExpertsPerToken > 0 && q.llmExperts > q.llmExpertsPerToken &&
           active * q.llmExperts >= q.llmExpertsPerToken * q.llmParamsBillion;
}

WeightParts weightParts(const PerfQuery& q) {
    const double bits = q.llmWeightBits.value_or(llmBitsPerWeight(q.llmWeights, q.llmEngine));
    WeightParts w{q.llmParamsBillion, 0.0, bits, bits};
    if (!expertRoutingKnown(q)) {
        return w;
    }
    const double expert = (q.llmParamsBillion - activeParamsBillion(q)) / (q.llmExperts - q.llmExpertsPerToken);
    w.routedBillion = q.llmExperts * expert;
    w.sharedBillion = q.llmParamsBillion - w.routedBillion;
    if (q.llmSharedWeightBits) {
        // The file's total is fixed (it sizes the memory): what the shared part takes beyond the
        // experts' bits comes out of theirs. gpt-oss-20b's llama.cpp file: 20.9B at 4.63 bits with
        // 1.13B at 8.5 leaves the experts (and the embedding, held but never read whole) 4.41.
        w.sharedBits = *q.llmSharedWeightBits;
        w.routedBits = std::max(0.0, (q.llmParamsBillion * bits - w.sharedBillion * w.sharedBits) / w.routedBillion);
    }
    return w;
}

double llmWeightBytesHeld(const PerfQuery& q) {
    const double all = llmWeightBytes(q, q.llmParamsBillion);
    if (q.llmEngine != LlmEngine::TensorRtLlm || q.gpus <= 1 || q.llmSplit != LlmSplit::Experts) {
        return all;
    }
    const WeightParts w = weightParts(q);
    return all + (q.gpus - 1) * w.sharedBytes(w.sharedBillion);
}

namespace {

// The share of the routed experts `sequences` sequences' routers pick in one step.
double routedShareFor(const PerfQuery& q, int sequences) {
    const double active = activeParamsBillion(q);
    if (active >= q.llmParamsBillion) {
        return 1.0;
    }
    if (expertRoutingKnown(q)) {
        // Each sequence's router picks k of E experts in every layer; taken as independent and
        // uniform, an expert goes unread only if every sequence passes it by.
        const double picked = double(q.llmExpertsPerToken) / q.llmExperts;
        return 1.0 - std::pow(1.0 - picked, std::max(1, sequences));
    }
    // Without the counts, the sequences are taken to share no expert: an upper bound.
    return std::min(1.0, std::max(1, sequences) * active / q.llmParamsBillion);
}

} // namespace

// A mixture of experts' shared part and the routed experts its routers pick, each at its own bits.
double llmWeightBytesRead(const PerfQuery& q, int sequences) {
    const double active = activeParamsBillion(q);
    if (expertRoutingKnown(q)) {
        const WeightParts w = weightParts(q);
        return w.sharedBytes(w.sharedBillion) + w.routedBytes(w.routedBillion * routedShareFor(q, sequences));
    }
    return llmWeightBytes(q, sequences <= 1 ? active : q.llmParamsBillion * routedShareFor(q, sequences));
}

// A mixture of experts reads only the experts its router picks.
double llmBytesPerToken(const PerfQuery& q) {
    return llmWeightBytesRead(q, 1) + kvCacheBytes(q);
}

double routedShareRead(const PerfQuery& q, int tokens) {
    return routedShareFor(q, tokens);
}

double routedShareRead(const PerfQuery& q) {
    return routedShareFor(q, q.llmSequences);
}

double promptExpertsPickedShare(const PerfQuery& q, int tokens) {
    if (!expertRoutingKnown(q)) {
        return routedShareRead(q, tokens);
    }
    const double picked = double(q.llmExpertsPerToken) / q.llmExperts;
    return 1.0 - std::pow(1.0 - picked, std::pow(std::max(1, tokens), kPromptPicksExponent));
}

double promptWeightBytesRead(const PerfQuery& q, int tokens) {
    if (!expertRoutingKnown(q)) {
        return llmWeightBytesRead(q, tokens);
    }
    const WeightParts w = weightParts(q);
    return w.sharedBytes(w.sharedBillion) + w.routedBytes(w.routedBillion * promptExpertsPickedShare(q, tokens));
}

double llmBytesPerStep(const PerfQuery& q) {
    const int sequences = std::max(1, q.llmSequences);
    const double cache = kvCacheBytes(q);
    return llmWeightBytesRead(q, sequences) + cache + (sequences - 1) * cache;
}

double llmBytesHeld(const PerfQuery& q) {
    const double cache = heldKvCacheBytes(q);
    return llmWeightBytesHeld(q) + cache + (std::max(1, q.llmSequences) - 1) * cache;
}

bool llmFits(const Gpu& g, const PerfQuery& q) {
    return llmBytesHeld(q) / 1e9 <= g.memoryGb * std::max(1, q.gpus);
}

// Attention's FLOPs per prompt token: a published model's own, else Llama 3 8B's 32 layers x 32
// heads x 128 (4 FLOPs per attended position and width: the key's dot product, the value's
// multiply-add), the width growing with size^(2/3) (layers and width both ~ size^(1/3)); token t
// of a prompt read after D cached tokens attends to D + t positions, D + (N + 1) / 2 on average.
double prefillAttentionFlops(const PerfQuery& q) {
    if (q.llmPrefillAttentionFlops) {
        return *q.llmPrefillAttentionFlops;
    }
    const double attendedPerToken = std::max(0, q.llmDepthTokens) + (std::max(1, q.llmContextTokens) + 1.0) / 2.0;
    return 4.0 * 131072.0 * std::pow(activeParamsBillion(q) / 8.0, 2.0 / 3.0) * attendedPerToken;
}

namespace {

// Why the cache counts more than once when the engine splits the model by tensors.
std::string kvCopiesNote(const PerfQuery& q) {
    const double copies = kvCacheCopies(q);
    if (copies <= 1.0) {
        return {};
    }
    return ", held " + format::trimmed(copies, 2) + "x over: " +
           (q.llmLatentKv ? "its latent cache is on each of the " + std::to_string(q.gpus) + " cards"
                          : "each of the " + std::to_string(q.gpus) + " cards keeps at least one of its " +
                                std::to_string(q.llmKvHeads) + " KV heads whole");
}

// A chunked layer reads only the tokens since its chunk began: less than the sequence holds.
std::string chunkedReadsNote(const PerfQuery& q) {
    const double held = heldKvCacheBytes(q);
    const double read = kvCacheBytes(q);
    if (held <= read * (1 + 1e-9)) {
        return {};
    }
    return "; its chunked layers read only the tokens since their chunk began, " + format::number(read / 1e9, 2) +
           " of the " + format::number(held / 1e9, 2) + " GB a sequence holds by then";
}

} // namespace

std::string decodeBytesNote(const PerfQuery& q) {
    const int sequences = std::max(1, q.llmSequences);
    const double kv = kvCacheBytes(q) / 1e9;
    const double all = llmBytesPerStep(q) / 1e9;
    return (sequences == 1 ? std::string("each token reads ")
                           : "each step of " + std::to_string(sequences) + " sequences reads ") +
           format::number(all, 2) + " GB: " + format::number(all - sequences * kv, 2) + " GB of weights and " +
           (sequences == 1 ? std::string() : std::to_string(sequences) + " x ") + format::number(kv, 2) +
           " GB of KV cache (" + format::number(cachedTokens(q), 0) + " tokens of context, " + toString(q.llmKvCache) +
           (q.llmKvCacheValues ? ", the model's own attention shape" : ", sized from the parameters") +
           chunkedReadsNote(q) + kvCopiesNote(q) +
           (q.llmRecurrentStateBytes > 0 ? "; with " + format::number(q.llmRecurrentStateBytes / 1e9, 2) +
                                               " GB of linear-attention state, the same at any context)"
                                         : std::string(")"));
}

std::string llmQueryDescription(const PerfQuery& q) {
    std::string s = format::trimmed(q.llmParamsBillion, 1) + "B parameters";
    if (q.llmActiveParamsBillion > 0) {
        s += " (" + format::trimmed(q.llmActiveParamsBillion, 1) + "B active)";
    }
    s += ", " + std::string(toString(q.llmWeights)) + " weights, " + format::number(q.llmContextTokens, 0) +
         " tokens of context";
    if (q.llmDepthTokens > 0) {
        s += " after " + format::number(q.llmDepthTokens, 0);
    }
    if (q.llmKvCache != KvCacheType::F16) {
        s += ", " + std::string(toString(q.llmKvCache)) + " KV cache";
    }
    if (q.llmSequencesFillMemory && q.llmMinSequenceSpeed) {
        s += ", as many sequences generating together as the memory holds and each get " +
             format::trimmed(*q.llmMinSequenceSpeed, 1) + " tokens/s";
    } else if (q.llmSequencesFillMemory) {
        s += ", as many sequences generating together as the memory holds";
    } else if (q.llmSequences > 1) {
        s += ", " + std::to_string(q.llmSequences) + " sequences generating together";
    }
    if (q.llmMicroBatchTokens != kDefaultMicroBatchTokens) {
        s += ", prompts in micro-batches of " + format::number(q.llmMicroBatchTokens, 0);
    }
    if (q.systemRamGbs) {
        s += ", system RAM of " + format::trimmed(*q.systemRamGbs, 1) + " GB/s for what does not fit";
    }
    if (q.llmEngine == LlmEngine::TensorRtLlm) {
        s += q.llmSplit != LlmSplit::Tensors ? std::string(", in TensorRT-LLM split by ") + toString(q.llmSplit)
                                             : std::string(", in TensorRT-LLM");
    }
    return s;
}

int prefillTokensPerStep(const PerfQuery& q) {
    return std::clamp(q.llmMicroBatchTokens, 1, std::max(1, q.llmContextTokens));
}

double promptTokensPerPickedExpert(const PerfQuery& q, int tokens) {
    if (!expertRoutingKnown(q)) {
        return 0;
    }
    return double(std::max(1, tokens)) * q.llmExpertsPerToken / (q.llmExperts * promptExpertsPickedShare(q, tokens));
}

double quantizedTileTokens(bool matrixUnits) {
    return matrixUnits ? kQuantizedTileTokens : kQuantizedTileTokensWithoutMatrixUnits;
}

double routedTilePadding(const PerfQuery& q, int tokens, double tileTokens) {
    const double t = promptTokensPerPickedExpert(q, tokens);
    if (t <= 0 || isSixteenBit(q.llmWeights)) {
        return 1.0;
    }
    return std::max(tileTokens, t + tileTokens / 2) / t;
}

std::string routedTilesDetail(const PerfQuery& q, double tileTokens) {
    const int perStep = prefillTokensPerStep(q);
    const double t = promptTokensPerPickedExpert(q, perStep);
    const double padding = routedTilePadding(q, perStep, tileTokens);
    return "each step of " + format::number(perStep, 0) + " prompt tokens gives each routed expert it picks about " +
           format::number(t, 1) + " of them, and llama.cpp multiplies quantized weights in tiles of " +
           format::number(tileTokens, 0) + " tokens, each expert's its own: padded to whole tiles, they " +
           "take as long as " + format::number(t * padding, 0) + " tokens' (x" + format::number(padding, 2) +
           " on the routed experts' multiplies; a larger micro-batch fills the tiles)";
}

std::string prefillReadsDetail(const PerfQuery& q) {
    const int perStep = prefillTokensPerStep(q);
    const double bytes = promptWeightBytesRead(q, perStep);
    const double picked = promptExpertsPickedShare(q, perStep);
    const double tokensEach = promptTokensPerPickedExpert(q, perStep);
    const std::string experts = expertRoutingKnown(q) ? " (" + format::percent(picked, 0) + " of the routed experts, " +
                                                            format::number(tokensEach, 1) + " tokens for each)"
                                                      : std::string();
    return "each step of " + format::number(perStep, 0) + " prompt tokens (llama.cpp's micro-batch, -ub) reads the " +
           format::number(bytes / 1e9, 2) + " GB of weights its tokens use" + experts + " once, " +
           format::number(bytes / perStep / 1e6, 1) +
           " MB per token, which takes longer than their multiplies; a larger micro-batch shares the reads among more "
           "tokens";
}

std::string mixtureOfExpertsNote(const PerfQuery& q) {
    const WeightParts w = weightParts(q);
    const std::string parts =
        w.sharedBits != w.routedBits
            ? "; its file keeps the " + format::number(w.sharedBillion, 2) +
                  "B every token uses (attention, router, output head) at " + format::trimmed(w.sharedBits, 2) +
                  " bits per weight and the experts at " + format::trimmed(w.routedBits, 2)
            : std::string();
    return "mixture of experts: " + format::number(activeParamsBillion(q), 1) + "B of the " +
           format::number(q.llmParamsBillion, 1) +
           "B parameters work on each token, predicted as a dense model of that size (whose prompt steps read every "
           "expert their tokens pick and, quantized, multiply each one's few tokens in whole matmul tiles)" +
           parts +
           "; routed expert kernels can run slower (an RTX 4090 with llama.cpp in October 2025, PR #16834: "
           "gpt-oss-20b at 186 tokens/s, 0.92x the model's figure for it, Qwen3-30B-A3B Q4_0 at 162, 0.69x; an RTX "
           "3090 with a May 2026 build: Qwen3.6-35B-A3B at 137, 0.67x - many small experts run slowest); every "
           "expert is held in memory";
}

std::string layerSplitNote() {
    // sudoingX/qwen38-mtp's community table (August 2026, speculative decoding off, Qwen3.8 27B
    // at 4 bits): two RTX 5060 Ti 16GB on PCIe 3.0 x8 without P2P, 22.1 tokens/s by layers and
    // 37.1 by tensors (the same file and build); two RTX 5090s 107.5 by tensors, one 76.9.
    return "LLM inference split over GPUs by layers (llama.cpp's default): the extra GPUs add memory, not speed; "
           "split by tensors (llama.cpp's -sm tensor, vLLM's tensor parallelism) each reads its share of every "
           "layer at once and they add speed as well, less an exchange after each layer (2026 runs of a 27B at 4 "
           "bits: two RTX 5060 Ti 16GB 37.1 tokens/s by tensors against 22.1 by layers, two RTX 5090s 107.5 against "
           "one's 76.9)";
}

std::string sequencesDetail(const PerfQuery& q) {
    const int sequences = std::max(1, q.llmSequences);
    std::string text = "each step generates a token for each of " + std::to_string(sequences) +
                       " sequences: the weights are read once for all of them, each one's KV cache is read, and the " +
                       std::to_string(sequences - 1) +
                       " further tokens' multiplies add at the prompt's matmul rate (a small batch's matmuls do not "
                       "overlap with their reads; a GB10's llama-batched-bench runs of a dense 7B came out 2-21% "
                       "below this)";
    if (activeParamsBillion(q) < q.llmParamsBillion) {
        text += "; a mixture of experts reads every expert some sequence's router picks, " +
                format::percent(routedShareRead(q), 0) + " of them here" +
                (expertRoutingKnown(q) ? " (independent requests: 1 - (1 - " + std::to_string(q.llmExpertsPerToken) +
                                             "/" + std::to_string(q.llmExperts) + ")^" + std::to_string(sequences) + ")"
                                       : " (expert counts unknown: no expert taken as shared)");
    }
    return text;
}

std::string int8PromptSoftwareNote() {
    return "software: llama.cpp builds from June 2024 on multiply quantized weights on the INT8 tensor cores (pull "
           "request #7676), so expect up to about 1.7x this figure from them (an RTX 4090 in 2026: LLaMA 3 8B Q4_K_S "
           "pp512 at 12,394 tokens/s, PR #24127, against 7,139 for Q4_K_M in the May 2024 runs the model was "
           "calibrated on)";
}

} // namespace advisor::perf
