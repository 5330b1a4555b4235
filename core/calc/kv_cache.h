#pragma once
/// \file
/// The size of a language model's KV cache from its attention: the keys and values every
/// layer keeps for each token of context. Token generation reads all of it for every token,
/// and at long contexts it can outgrow the weights (Llama 3.1 8B at 128K tokens: 16 GiB in
/// f16 beside 4.9 GB of 4-bit weights).

namespace advisor::calc {

/// What sizes one sequence's KV cache.
struct AttentionShape {
    int layers = 32;
    int kvHeads = 8;
    int headDim = 128;
    /// Layers that attend to only the last `slidingWindow` tokens keep no more than that many
    /// (Gemma 3: 5 of every 6 layers, 1,024 tokens; gpt-oss: every other layer, 128). 0: none.
    int slidingWindow = 0;
    int slidingLayers = 0;
    /// Multi-head latent attention (DeepSeek-V2/V3) caches one compressed vector per layer and
    /// token instead of K and V per head: kv_lora_rank + qk_rope_head_dim elements (512 + 64).
    /// 0: ordinary K and V heads.
    int latentDim = 0;
};

/// Elements one layer keeps per cached token: 2 (K, V) x KV heads x head width, or the latent
/// vector's width.
double kvValuesPerLayerToken(const AttentionShape& a);

/// K and V elements (or latent elements) one sequence of `contextTokens` keeps: full layers
/// hold every token, sliding-window layers at most their window.
double kvCacheValues(const AttentionShape& a, double contextTokens);

} // namespace advisor::calc
