#pragma once
/// \file
/// How much GPU memory a model needs - for inference, LoRA/QLoRA fine-tuning or full
/// training - itemised, with the seed's memory-saving techniques, and which GPUs fit it.

#include "calc/model_shapes.h"
#include "catalog/catalog.h"
#include "common/errors.h"
#include "perf/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

enum class MemoryMode { Inference, Lora, Qlora, FullTraining };
enum class Optimizer { Adam, Adam8bit, Sgd };

const char* toString(MemoryMode m);
std::optional<MemoryMode> parseMemoryMode(std::string_view s);
std::optional<Optimizer> parseOptimizer(std::string_view s);

struct MemoryInput {
    double paramsBillion = 7; ///< ignored when `model` is set: the model's own size counts
    /// A published model (model_shapes.h): its size, and its shape where layers, hidden and
    /// kvHeads are not given. Null: the size above with a Llama-like shape.
    const ModelShape* model = nullptr;
    MemoryMode mode = MemoryMode::Inference;
    perf::Precision weights = perf::Precision::Fp16; ///< fp16, int8, int4 or fp4 (inference, LoRA base)
    /// Inference: the engine whose own files hold the weights, at their bits per weight
    /// (perf::llmBitsPerWeight: TensorRT-LLM's FP8 or INT8 8, INT4 AWQ 4.125, NVFP4 4.5;
    /// llama.cpp's Q8_0 8.5, Q4_K_M 4.85, MXFP4 4.25). Unset: a file of no engine in particular
    /// (8-bit 1.02 bytes per weight, Q4_K_M, NVFP4).
    std::optional<perf::LlmEngine> engine;
    std::optional<int> contextTokens;  ///< default 4096 (inference) / 2048 (training)
    int batch = 1;
    std::optional<int> layers;  ///< default: derived from the size (Llama-like, see memory.cpp)
    std::optional<int> hidden;
    std::optional<int> kvHeads; ///< default: 8 (grouped-query attention, as Llama 3 and Mistral)
    std::optional<int> headDim; ///< default: the model's, else 128
    /// How the KV cache is stored (inference): f16, fp8, or llama.cpp's q8_0 / q4_0.
    perf::KvCacheType kvCache = perf::KvCacheType::F16;
    /// Inference: prompt tokens processed at once, which the activations (and without flash
    /// attention the attention scores) are held for: llama.cpp's micro-batch (-ub, 512), vLLM's
    /// chunked prefill (max_num_batched_tokens). Unset: the whole context at once, as Hugging
    /// Face transformers' generate() reads a prompt.
    std::optional<int> prefillChunkTokens;
    /// Default: on for LoRA/QLoRA (as the QLoRA paper trains), off for full training.
    std::optional<bool> gradientCheckpointing;
    bool flashAttention = true; ///< attention scores are not stored
    Optimizer optimizer = Optimizer::Adam;
    bool cpuOffload = false;    ///< optimizer states and fp32 master weights in CPU RAM
    int shardGpus = 1;          ///< ZeRO-3 / FSDP: weights, gradients and optimizer split over N GPUs
    /// Inference with TensorRT-LLM over shardGpus GPUs: how it splits the model (perf::LlmSplit; by
    /// experts, the shared part is held on each GPU). Unset: every item divides evenly over the GPUs.
    std::optional<perf::LlmSplit> split;
    int loraRank = 16;
};

struct MemoryItem {
    std::string name;
    double gb = 0;
    std::string detail;
};

struct MemoryEstimate {
    std::vector<MemoryItem> items; ///< per GPU
    double perGpuGb = 0;
    double totalGb = 0;   ///< all GPUs together
    double cpuRamGb = 0;  ///< offloaded states
    int layers = 0, hidden = 0, kvHeads = 0, headDim = 0, contextTokens = 0;
    /// Where the shape came from: "Llama 3.1 70B's published shape", "Llama-like shape for the
    /// size" or "given shape" (any of layers, hidden, KV heads, head size given).
    std::string shapeBasis;
    std::vector<std::string> notes;
};

/// Throws InputError naming the field for sizes <= 0, unsupported precisions for the mode,
/// shard counts outside 1..1024, or a split without TensorRT-LLM's inference. The KV cache follows the model's
/// attention (calc/kv_cache.h): sliding-window layers and latent attention keep less.
MemoryEstimate estimateMemory(const MemoryInput& in);

/// Of a GPU's memory, what a model can count on: the allocator loses the rest to fragmentation.
inline constexpr double kUsableMemoryFraction = 0.95;

struct GpuFit {
    const Gpu* gpu = nullptr;
    int gpusNeeded = 0;    ///< 1, 2, 4 or 8 (splitting the model / sharding); at least shardGpus
    double headroomGb = 0; ///< free memory per GPU at that count, of the usable fraction
};

/// GPUs that hold the model on 1, 2, 4 or 8 cards (5% kept free for fragmentation), fewest
/// cards first, then smallest memory. Training on several cards assumes sharding (ZeRO-3/FSDP).
std::vector<GpuFit> gpusThatFit(const Catalog& catalog, const MemoryInput& in);

} // namespace advisor::calc
