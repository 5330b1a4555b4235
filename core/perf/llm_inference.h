#pragma once
/// \file
/// What one token of LLM inference reads and computes, llama.cpp-style: the bytes of the
/// weights and of the KV cache that token generation reads for every token, and the FLOPs of
/// attention that grow with a prompt's length. Used by modelThroughput and its explanation.

#include "perf/model.h"

#include <string>

namespace advisor::perf {

/// The tokens the KV cache holds: llmDepthTokens + llmContextTokens.
double cachedTokens(const PerfQuery& q);

/// The parameters each token works with: all of them, or a mixture of experts' active ones.
double activeParamsBillion(const PerfQuery& q);

/// The bytes of `paramsBillion` weights at the query's bits per weight (a model's own 4-bit
/// release, PerfQuery::llmWeightBits, else llmBitsPerWeight of its precision).
double llmWeightBytes(const PerfQuery& q, double paramsBillion);

/// The bytes of the context's KV cache: a published model's own elements
/// (PerfQuery::llmKvCacheValues), else Llama 3 8B's 64K elements per token scaled by
/// sqrt(active size), at the cache's bytes per element (PerfQuery::llmKvCache).
double kvCacheBytes(const PerfQuery& q);

/// How many times over the serving engine's cards hold a sequence's attention cache: split by
/// tensors, each card keeps its share of the KV heads but at least one whole head, copied to the
/// cards that share it (TensorRT-LLM's attention takes max(KV heads / cards, 1) per card: Qwen3's
/// 4 KV heads on 8 cards are held twice), and a latent cache (one vector per layer) is on every
/// card. 1 on one card, split by layers or experts, in llama.cpp, or when the model's heads are not known.
double kvCacheCopies(const PerfQuery& q);

/// The attention layers' cached keys' and values' elements (a published model's own shape, else
/// the size law's), and their bytes at the cache's type: kvCacheBytes less a linear-attention
/// layer's state, which another kernel reads.
double attentionCacheValues(const PerfQuery& q);
double attentionCacheBytes(const PerfQuery& q);

/// The KV cache bytes one sequence holds: kvCacheBytes, or more where a chunked layer keeps more
/// than it reads (PerfQuery::llmKvCacheValuesHeld).
double heldKvCacheBytes(const PerfQuery& q);
/// The KV cache bytes the engine reserves for each sequence it admits: TensorRT-LLM's
/// PerfQuery::llmKvCacheValuesReserved where a model's sliding windows make it more, else
/// heldKvCacheBytes (llama.cpp and vLLM keep a windowed layer's window only).
double reservedKvCacheBytes(const PerfQuery& q);
/// Whether reservedKvCacheBytes is more than kvCacheBytes for q.
bool reservesWholeWindows(const PerfQuery& q);

/// What token generation reads per token: the active weights and the KV cache.
double llmBytesPerToken(const PerfQuery& q);

/// Whether a mixture of experts' routing is known (PerfQuery::llmExperts, llmExpertsPerToken) and
/// fits its sizes: the active parameters hold k of the E experts' share of the rest
/// (active x E >= k x total), so what every token uses besides its experts is not negative.
bool expertRoutingKnown(const PerfQuery& q);

/// A model's weights in two parts, in billions of parameters, each at its bits per weight: those
/// every token reads (a dense model's all; a mixture of experts' attention, router, output head
/// and shared expert, from total = shared + E x expert and active = shared + k x expert) and a
/// mixture of experts' routed experts, all E of them. With PerfQuery::llmSharedWeightBits the
/// routed bits are what the shared part leaves of the file's total, so both parts together still
/// take llmWeightBytes of every parameter; without it both take the query's bits.
struct WeightParts {
    double sharedBillion = 0;
    double routedBillion = 0;
    double sharedBits = 0;
    double routedBits = 0;

    double sharedBytes(double billion) const { return billion * 1e9 * sharedBits / 8.0; }
    double routedBytes(double billion) const { return billion * 1e9 * routedBits / 8.0; }
};
WeightParts weightParts(const PerfQuery& q);

/// The bytes of weights q's GPUs hold together: every weight once, and split by experts in the
/// serving engine (LlmSplit::Experts) the shared part (weightParts: all of a dense model) once
/// more on each card after the first.
double llmWeightBytesHeld(const PerfQuery& q);

/// The weights one step of `sequences` sequences generating together reads: a dense model's all, a
/// mixture of experts' shared part and the routed experts their routers pick (weightParts).
double llmWeightBytesRead(const PerfQuery& q, int sequences);

/// The share of a mixture of experts' routed weights that `tokens` tokens stepping together read,
/// each picking independently (several sequences' generated tokens; a prompt's tokens pick fewer,
/// promptExpertsPickedShare): 1 for a dense model; experts per token / experts for one token.
/// Without the argument, llmSequences tokens.
double routedShareRead(const PerfQuery& q, int tokens);
double routedShareRead(const PerfQuery& q);

/// A prompt's tokens pick their experts alike: the experts a 512-token step of code used in
/// gpt-oss-120b, counted by llama.cpp's author (PR #15346, August 2025: 72 to 95 of 128 in each of
/// the first eight layers, 83 on average), are what 33 tokens picking independently would use,
/// and 33 = 512^0.56. (512 independent tokens would leave none of the 128 unused.)
inline constexpr double kPromptPicksExponent = 0.56;

/// The share of a mixture of experts' routed experts that a step of `tokens` prompt tokens picks
/// at least once: as tokens^kPromptPicksExponent tokens picking k of E independently would. 1 for
/// a dense model; without the expert counts, routedShareRead's upper bound.
double promptExpertsPickedShare(const PerfQuery& q, int tokens);

/// The tokens each routed expert a step of `tokens` prompt tokens picks multiplies on average:
/// tokens x k / (E x promptExpertsPickedShare). 0 without the expert counts.
double promptTokensPerPickedExpert(const PerfQuery& q, int tokens);

/// llama.cpp multiplies quantized weights (its MMQ kernels, ggml-cuda/mmq.cuh) in tiles of up to
/// 128 tokens on GPUs with matrix units (NVIDIA since Turing, AMD with MFMA or WMMA; 64 on the
/// others' dp4a), the tile chosen for the whole step; a mixture of experts' routed matmul gives
/// each expert its own tiles, so an expert's few tokens are padded to a whole tile (round 61).
inline constexpr double kQuantizedTileTokens = 128;
inline constexpr double kQuantizedTileTokensWithoutMatrixUnits = 64;
double quantizedTileTokens(bool matrixUnits);

/// How much longer a prompt step's routed-expert multiplies take for that padding: an expert's t
/// tokens take max(T, t + T/2) tokens' time (one tile below half a tile; above, half a tile more on
/// average), over t. 1 for a dense model and for 16-bit weights (not multiplied in those tiles).
double routedTilePadding(const PerfQuery& q, int tokens, double tileTokens = kQuantizedTileTokens);

/// The explanation of routedTilePadding: the tokens each picked expert gets, the tile, the factor.
std::string routedTilesDetail(const PerfQuery& q, double tileTokens);

/// The weights a step of `tokens` prompt tokens reads: the shared part and the routed experts
/// they pick (promptExpertsPickedShare); a dense model's all.
double promptWeightBytesRead(const PerfQuery& q, int tokens);

/// What one step of token generation reads for llmSequences sequences: the weights they use,
/// once, and each sequence's KV cache. One sequence: llmBytesPerToken.
double llmBytesPerStep(const PerfQuery& q);

/// What must sit in GPU memory: every weight and each sequence's KV cache.
double llmBytesHeld(const PerfQuery& q);

/// Whether the weights and the KV cache (llmBytesHeld) fit in the memory of q.gpus of `g`: the
/// speed assumes they do (llama.cpp runs layers left on the CPU many times slower).
bool llmFits(const Gpu& g, const PerfQuery& q);

/// Attention's FLOPs per prompt token (PerfQuery::llmPrefillAttentionFlops), else Llama 3 8B's
/// scaled by size^(2/3), for a prompt of llmContextTokens read after llmDepthTokens.
double prefillAttentionFlops(const PerfQuery& q);

/// "each token reads 22.05 GB: 4.87 GB of weights and 17.18 GB of KV cache (...)"; for several
/// sequences, what each step reads.
std::string decodeBytesNote(const PerfQuery& q);

/// "8B parameters, int4 weights, 512 tokens of context" (and the active parameters of a mixture
/// of experts, the depth, a quantized KV cache, the sequences generating together and the system
/// RAM for what does not fit when set):
/// a chart's or a table's title.
std::string llmQueryDescription(const PerfQuery& q);

/// The tokens of a prompt each step multiplies together: the micro-batch (llmMicroBatchTokens),
/// or the whole prompt when it is shorter.
int prefillTokensPerStep(const PerfQuery& q);

/// Why prompt processing waits on the weights' reads: each micro-batch reads what its tokens use.
std::string prefillReadsDetail(const PerfQuery& q);

/// "mixture of experts: 5.1B of the 116.8B parameters work on each token, ...": the active and
/// total parameters, the file's bits for its shared and routed parts, and how routed kernels fare.
std::string mixtureOfExpertsNote(const PerfQuery& q);

/// The note on an LLM split over several GPUs: the model splits it by layers (llama.cpp's default),
/// where the extra cards add memory, not speed; split by tensors (llama.cpp's -sm tensor, 2026;
/// vLLM's tensor parallelism) each card reads its share of every layer at once, and measured runs
/// say by how much that adds speed (experiments, round 70).
std::string layerSplitNote();

/// For quantized prompts on NVIDIA's INT8 tensor cores: llama.cpp's newer builds multiply them there,
/// where the calibration's May 2024 runs dequantised the weights for FP16 matmuls.
std::string int8PromptSoftwareNote();

/// Why several sequences generated together (llmSequences) gain what they gain.
std::string sequencesDetail(const PerfQuery& q);

} // namespace advisor::perf
