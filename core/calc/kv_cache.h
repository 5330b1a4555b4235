#pragma once
/// \file
/// A language model's attention by its shape: the KV cache (the keys and values every layer
/// keeps for each token of context, which token generation reads whole for every token: Llama
/// 3.1 8B at 128K tokens keeps 16 GiB in f16 beside 4.9 GB of 4-bit weights), and the attention
/// FLOPs of a prompt, which grow with its length while the weights' stay the same per token.

namespace advisor::calc {

/// What sizes one sequence's KV cache and its attention FLOPs.
struct AttentionShape {
    int layers = 32;
    int queryHeads = 32;
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
    /// Layers of linear attention (Gated DeltaNet: 3 of every 4 in Qwen3.5) keep no KV cache but
    /// one recurrent state per sequence, the same size at any context. 0: none.
    int linearLayers = 0;
    /// Elements of one such layer's state: value heads x key width x value width, plus its short
    /// convolution's last kernel - 1 inputs (Qwen3.5 27B: 48 x 128 x 128 + 3 x 10,240).
    double linearStateValues = 0;
    /// The windowed layers attend within fixed chunks of slidingWindow tokens (Llama 4's
    /// attention_chunk_size) rather than to the last slidingWindow: a token at position p sees
    /// the ((p - 1) mod window) + 1 positions since its chunk began.
    bool chunked = false;
};

/// Bytes per element of a linear-attention layer's recurrent state: llama.cpp keeps it in f32,
/// whatever the KV cache's type.
inline constexpr double kRecurrentStateBytesPerValue = 4.0;

/// How many layers attend through a sliding window: slidingLayers, at most every layer; 0
/// without a window.
int windowedLayers(const AttentionShape& a);

/// How many layers attend to the whole context: those neither windowed nor linear.
int fullAttentionLayers(const AttentionShape& a);

/// Bytes of one sequence's recurrent state over the linear-attention layers (0 without them).
double recurrentStateBytes(const AttentionShape& a);

/// Elements one layer keeps per cached token: 2 (K, V) x KV heads x head width, or the latent
/// vector's width.
double kvValuesPerLayerToken(const AttentionShape& a);

/// K and V elements (or latent elements) one sequence of `contextTokens` keeps: full layers
/// hold every token, sliding-window layers at most their window, linear layers none (their state
/// is recurrentStateBytes).
double kvCacheValues(const AttentionShape& a, double contextTokens);

/// The elements token generation reads at `contextTokens`: kvCacheValues, but a chunked layer
/// only the tokens since its chunk began (at 9,000 tokens with chunks of 8,192: 808).
double kvCacheValuesRead(const AttentionShape& a, double contextTokens);

/// The mean of the elements token generation reads over the contexts first..last (whole
/// numbers): a full layer every cached token, a sliding-window layer at most its window, a
/// chunked layer the tokens since its chunk began (which kvCacheValues, the most such a
/// sequence holds, does not follow).
double meanKvCacheValuesRead(const AttentionShape& a, double first, double last);

/// The elements TensorRT-LLM reserves for such a sequence: its KV cache manager writes a
/// sliding-window layer's blocks one after another up to the whole length, detaching those the
/// window has passed (NVIDIA/TensorRT-LLM PR #6768, August 2025), and its default scheduler admits
/// a request only when its whole length fits, so a windowed layer reserves as much as a full one.
/// Linear layers still keep none. Equal to kvCacheValues without sliding windows.
double kvCacheValuesReservedWhole(const AttentionShape& a, double contextTokens);

/// Positions a prompt token attends to, summed over the layers and averaged over a prompt of
/// `promptTokens` read after `depthTokens` already cached (llama-bench's -d; a chat's later
/// turn): token t of N sees depth + t positions, depth + (N + 1) / 2 on average; a
/// sliding-window layer at most its window; a linear layer none (its recurrence, a few MFLOP per
/// token, is left out).
double meanAttendedPositions(const AttentionShape& a, double promptTokens, double depthTokens = 0);

/// FLOPs of attention per prompt token: for every attended position and query head, a dot
/// product with the key (2 x head width) and a multiply-add of the value (2 x head width).
/// Latent attention is counted as ordinary heads of its head width (an approximation).
double attentionFlopsPerPromptToken(const AttentionShape& a, double promptTokens, double depthTokens = 0);

} // namespace advisor::calc
