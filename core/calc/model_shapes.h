#pragma once
/// \file
/// Published shapes of open-weight language models (resources/presets/model_shapes.json), so
/// the memory calculator sizes a named model's KV cache, activations and LoRA adapters from its
/// real layers, width and KV heads instead of a shape guessed from the parameter count: Llama 2
/// 7B keeps 32 KV heads where a guess gives 8, four times the KV cache.

#include "calc/kv_cache.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::calc {

struct ModelShape {
    std::string id;    ///< "llama-3.1-70b"
    std::string label; ///< "Llama 3.1 70B"
    double paramsBillion = 0; ///< total (a mixture of experts holds every expert)
    /// A mixture of experts: the parameters that work on each token (Mixtral 8x7B: 12.9B of
    /// 46.7B), what token generation reads; 0 for a dense model (all of them).
    double activeParamsBillion = 0;
    /// A mixture of experts' routed experts per layer and how many each token uses (Mixtral 8x7B:
    /// 8 and 2), which set how many of them several sequences decoded together read; 0: not given.
    int experts = 0;
    int expertsPerToken = 0;
    /// Every how many layers hold the routed experts (Llama 4 Maverick's interleave_moe_layer_step:
    /// every 2nd, the layers between dense); 1: every layer.
    int moeLayerStep = 1;
    int layers = 0;
    int hidden = 0;
    /// The vocabulary (config.json's vocab_size): with hidden, the output head's size, which llama.cpp
    /// runs on the CPU unless every layer fits the GPUs. 0: not given.
    int vocab = 0;
    int heads = 0;     ///< query heads (default: hidden / headDim)
    int kvHeads = 0;
    int headDim = 128; ///< width of one attention head (Gemma 3: 256, gpt-oss: 64)
    int slidingWindow = 0; ///< tokens a sliding-window layer attends to (0: every layer sees all)
    int slidingLayers = 0; ///< how many of the layers use the window
    /// The windowed layers attend within fixed chunks of slidingWindow tokens (Llama 4's
    /// attention_chunk_size; JSON attention_chunk and attention_chunk_layers), not a sliding window.
    bool chunkedAttention = false;
    int kvLatentDim = 0;   ///< multi-head latent attention: elements cached per layer and token
    /// Linear-attention layers (Gated DeltaNet) and the elements of each one's recurrent state
    /// (calc::AttentionShape); 0: none.
    int linearLayers = 0;
    double linearStateValues = 0;
    int contextTokens = 0; ///< the longest context the model was trained for
    /// A model with a 4-bit file of its own: its bits per parameter in that file, which 4-bit
    /// weights take instead of llama.cpp's Q4_K_M 4.85 (gpt-oss in llama.cpp's file: MXFP4 experts,
    /// Q8_0 attention and output head, 4.63 bits for the 20B). 0: none.
    double int4BitsPerWeight = 0;
    /// A mixture of experts whose 4-bit file keeps the weights every token reads (attention, router,
    /// output head) at other bits than its experts: those bits (gpt-oss: Q8_0's 8.5), which token
    /// generation reads them at (perf::PerfQuery::llmSharedWeightBits). 0: all at int4BitsPerWeight.
    double int4SharedBitsPerWeight = 0;
    std::string int4Format; ///< "MXFP4", said with the weights
    std::string note;      ///< e.g. what a mixture of experts holds; may be empty
    std::string source;
};

/// What sizes the model's KV cache and a prompt's attention FLOPs (calc/kv_cache.h).
AttentionShape attentionShapeOf(const ModelShape& m);

/// The models of a model-shapes JSON document ({"models": [...]}, as resources/presets/
/// model_shapes.json), in file order. Throws AdvisorError naming `fileLabel`, the entry and the
/// field of the first bad value.
std::vector<ModelShape> parseModelShapes(const std::string& text, const std::string& fileLabel);

/// The shipped models, in file order. Throws AdvisorError naming the file and entry if the
/// built-in resource is malformed.
const std::vector<ModelShape>& modelShapes();

/// By id or label, case-insensitive ("llama-3.1-70b", "Llama 3.1 70B"); nullptr if unknown.
const ModelShape* findModelShape(std::string_view name);

/// "llama-2-7b, llama-2-13b, ...": for an error that lists the choices.
std::string modelShapeIds();

} // namespace advisor::calc
