#include "calc/memory.h"

#include "calc/memory_split.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"

#include <algorithm>
#include <cmath>

namespace advisor::calc {
namespace {

constexpr double kGb = 1e9;
/// CUDA context, kernels and library workspaces: typically 0.5-1 GB per GPU.
constexpr double kRuntimeOverheadGb = perf::kGpuRuntimeReserveGb;

// How many times the GPUs hold the cache between them: TensorRT-LLM splits a model by tensors with
// each GPU keeping at least one KV head whole (perf::kvCacheCopies), so Qwen3's 4 KV heads on 8 GPUs
// are held twice over; 1 for llama.cpp or one GPU.
double kvCacheCopiesOver(const MemoryInput& in, const AttentionShape& att, int shards) {
    perf::PerfQuery split;
    split.llmEngine = in.engine.value_or(perf::LlmEngine::LlamaCpp);
    split.llmSplit = in.split.value_or(perf::LlmSplit::Tensors);
    split.gpus = shards;
    split.llmKvHeads = att.latentDim > 0 ? 0 : att.kvHeads;
    split.llmLatentKv = att.latentDim > 0;
    return perf::kvCacheCopies(split);
}

std::string kvCacheCopiesDetail(const AttentionShape& att, double copies, int shards) {
    if (copies <= 1) {
        return "";
    }
    const std::string held = ", held " + format::trimmed(copies, 2) + "x over: ";
    return att.latentDim > 0
               ? held + "the latent cache is on each of the " + std::to_string(shards) + " GPUs"
               : held + "each of the " + std::to_string(shards) + " GPUs keeps at least one KV head whole";
}

double weightBytes(perf::Precision p) {
    switch (p) {
    case perf::Precision::Fp32:
        return 4.0;
    case perf::Precision::Int8:
    case perf::Precision::Fp8:
        return 1.0 + 0.02; // plus per-block scales
    case perf::Precision::Int4:
        return 4.85 / 8.0; // llama.cpp Q4_K_M average incl. block scales
    case perf::Precision::Fp4:
        return 4.5 / 8.0; // NVFP4, the larger of the 4-bit float formats (MXFP4: 4.25)
    default:
        return 2.0;
    }
}

// "32 layers x 4,096 tokens, each 8 KV heads x 128 x 2 (K, V) x batch 1 x 2 bytes (f16)", with
// the sliding-window layers and latent attention said as such.
std::string kvCacheDetail(const AttentionShape& a, double tokens, int batch, perf::KvCacheType type) {
    const int sliding = windowedLayers(a);
    const std::string perLayer = a.latentDim > 0 ? std::to_string(a.latentDim) + " latent values"
                                                 : std::to_string(a.kvHeads) + " KV heads x " +
                                                       std::to_string(a.headDim) + " x 2 (K, V)";
    std::string text = std::to_string(fullAttentionLayers(a)) + " layers x " + format::number(tokens, 0) + " tokens";
    if (sliding > 0) {
        text += " + " + std::to_string(sliding) + (a.chunked ? " chunked layers x " : " sliding-window layers x ") +
                format::number(std::min(tokens, static_cast<double>(a.slidingWindow)), 0) + " tokens";
    }
    return text + ", each " + perLayer + " x batch " + std::to_string(batch) + " x " +
           format::trimmed(perf::kvCacheBytesPerValue(type), 4) + " bytes (" + perf::toString(type) + ")";
}

} // namespace

const char* toString(MemoryMode m) {
    switch (m) {
    case MemoryMode::Inference:
        return "inference";
    case MemoryMode::Lora:
        return "lora";
    case MemoryMode::Qlora:
        return "qlora";
    case MemoryMode::FullTraining:
        return "full-training";
    }
    return "inference";
}

std::optional<MemoryMode> parseMemoryMode(std::string_view s) {
    for (const auto m : {MemoryMode::Inference, MemoryMode::Lora, MemoryMode::Qlora, MemoryMode::FullTraining}) {
        if (s == toString(m)) {
            return m;
        }
    }
    return std::nullopt;
}

std::optional<Optimizer> parseOptimizer(std::string_view s) {
    if (s == "adam" || s == "adamw") {
        return Optimizer::Adam;
    }
    if (s == "adam8bit" || s == "adam-8bit") {
        return Optimizer::Adam8bit;
    }
    if (s == "sgd") {
        return Optimizer::Sgd;
    }
    return std::nullopt;
}

MemoryEstimate estimateMemory(const MemoryInput& in) {
    const auto reject = [](const char* field, const std::string& why) {
        throw InputError({"memory", 0, "", field}, why);
    };
    if (in.model == nullptr && !(in.paramsBillion > 0 && in.paramsBillion <= 100000)) {
        reject("params_billion", "must be more than 0 and at most 100,000");
    }
    if (in.batch < 1 || in.batch > 100000) {
        reject("batch", "must be between 1 and 100,000");
    }
    if (in.shardGpus < 1 || in.shardGpus > 1024) {
        reject("shard_gpus", "must be between 1 and 1024");
    }
    if (in.headDim && (*in.headDim < 8 || *in.headDim > 1024)) {
        reject("head_dim", "must be between 8 and 1024");
    }
    if (in.contextTokens && (*in.contextTokens < 1 || *in.contextTokens > perf::kMaxContextTokens)) {
        reject("context", "must be between 1 and 10,000,000 tokens");
    }
    if (in.split && in.mode != MemoryMode::Inference) {
        reject("split", "says how inference splits a model over GPUs; training shards it with ZeRO-3 / FSDP");
    }
    if (in.split && in.engine != perf::LlmEngine::TensorRtLlm) {
        reject("split", "chooses how TensorRT-LLM splits a model (engine tensorrt-llm); llama.cpp splits it by layers");
    }
    if (in.prefillChunkTokens && in.mode != MemoryMode::Inference) {
        reject("prefill_chunk", "sizes how inference reads a prompt; training holds every token's activations");
    }
    if (in.prefillChunkTokens && (*in.prefillChunkTokens < 1 || *in.prefillChunkTokens > perf::kMaxContextTokens)) {
        reject("prefill_chunk", "must be between 1 and 10,000,000 tokens");
    }
    if (in.mode == MemoryMode::Qlora && in.weights != perf::Precision::Int4 && in.weights != perf::Precision::Fp16) {
        reject("precision", "QLoRA keeps the base model in 4-bit; use int4");
    }
    const bool training = in.mode != MemoryMode::Inference;
    MemoryEstimate e;
    const ModelShape* model = in.model;
    const double p = (model != nullptr ? model->paramsBillion : in.paramsBillion) * 1e9;
    // Model shape: a published model's own; else Llama-like (perf::llamaLikeHidden) with 8 KV
    // heads (grouped-query attention, as Llama 3 and Mistral).
    const double guessedHidden = perf::llamaLikeHidden(p / 1e9);
    const double h = in.hidden ? *in.hidden : model != nullptr ? model->hidden : guessedHidden;
    e.hidden = static_cast<int>(h);
    e.layers = in.layers ? *in.layers : model != nullptr ? model->layers : std::max(1, static_cast<int>(std::lround(h / 128.0)));
    e.headDim = in.headDim ? *in.headDim : model != nullptr ? model->headDim : 128;
    // Query heads: the model's own, unless a given width or head width changes them.
    const int heads = model != nullptr && !in.hidden && !in.headDim ? model->heads : std::max(1, e.hidden / e.headDim);
    e.kvHeads = in.kvHeads ? *in.kvHeads : model != nullptr ? model->kvHeads : std::min(8, heads);
    e.contextTokens = in.contextTokens.value_or(training ? 2048 : 4096);
    e.shapeBasis = in.layers || in.hidden || in.kvHeads || in.headDim ? "given shape"
                   : model != nullptr                   ? model->label + "'s published shape"
                                                        : "Llama-like shape for the size";
    if (model != nullptr) {
        if (!model->note.empty()) {
            e.notes.push_back(model->note);
        }
        if (e.contextTokens > model->contextTokens) {
            e.notes.push_back(format::number(e.contextTokens, 0) + " tokens of context is more than the " +
                              format::number(model->contextTokens, 0) + " " + model->label + " was trained for");
        }
    }
    const double s = e.contextTokens;
    const double b = in.batch;
    const int shards = in.shardGpus;
    const auto add = [&](const std::string& name, double bytes, const std::string& detail) {
        e.items.push_back({name, bytes / kGb, detail});
    };

    // How the weights, cache and activations divide over the GPUs: set with the weights, once.
    InferenceSplit split;
    if (in.mode == MemoryMode::Inference || in.mode == MemoryMode::Lora || in.mode == MemoryMode::Qlora) {
        const perf::Precision base = in.mode == MemoryMode::Qlora ? perf::Precision::Int4 : in.weights;
        // A model released in its own 4-bit format takes that format's size for 4-bit inference.
        const bool ownFormat = in.mode == MemoryMode::Inference && base == perf::Precision::Int4 && model != nullptr &&
                               model->int4BitsPerWeight > 0;
        // An engine's own files (inference): the bits perf reads per token for that engine.
        const bool engineFile =
            in.mode == MemoryMode::Inference && in.engine && !ownFormat && base != perf::Precision::Fp32;
        const double perParam = in.mode == MemoryMode::Qlora ? 4.127 / 8.0
                                : ownFormat                  ? model->int4BitsPerWeight / 8.0
                                : engineFile                 ? perf::llmBitsPerWeight(base, *in.engine) / 8.0
                                                             : weightBytes(base);
        split = inferenceSplit(in, p * perParam);
        add(in.mode == MemoryMode::Inference ? "weights" : "frozen base weights", p * perParam * split.weightsShare,
            format::number(perParam, 3) + " bytes per parameter (" +
                (in.mode == MemoryMode::Qlora ? std::string("NF4 with double quantization")
                 : ownFormat                  ? model->int4Format + " file"
                 : engineFile                 ? std::string(perf::llmFileFormat(base, *in.engine)) + ", " +
                                    perf::llmEngineName(*in.engine) + "'s files"
                              : std::string(perf::toString(base))) +
                ")" + split.weightsDetail);
    }
    if (in.mode == MemoryMode::Inference) {
        const double cached = split.cacheSequences;
        // KV cache: K and V (or a latent vector) per layer and token, as the model attends.
        AttentionShape att = model != nullptr ? attentionShapeOf(*model) : AttentionShape{};
        att.layers = e.layers;
        att.queryHeads = heads;
        att.kvHeads = e.kvHeads;
        att.headDim = e.headDim;
        if (in.kvHeads || in.headDim) {
            att.latentDim = 0; // given K/V heads describe ordinary attention
        }
        const double bytes = perf::kvCacheBytesPerValue(in.kvCache);
        const double copies = kvCacheCopiesOver(in, att, shards);
        add("KV cache", kvCacheValues(att, s) * cached * bytes * copies / split.cacheDivisor,
            kvCacheDetail(att, s, split.cacheSequences, in.kvCache) + kvCacheCopiesDetail(att, copies, shards) +
                split.cacheDetail);
        if (att.linearLayers > 0) {
            add("recurrent state", recurrentStateBytes(att) * cached / split.cacheDivisor,
                std::to_string(att.linearLayers) + " linear-attention layers x " +
                    format::number(att.linearStateValues, 0) + " values x batch " +
                    std::to_string(split.cacheSequences) + " x " + format::trimmed(kRecurrentStateBytesPerValue, 0) +
                    " bytes (f32), the same at any context");
        }
        // One layer's working set for the tokens read at once: the whole prompt, or a chunk of it.
        const double chunk = std::min(s, static_cast<double>(in.prefillChunkTokens.value_or(e.contextTokens)));
        const std::string atOnce = chunk < s ? " for " + format::number(chunk, 0) + " prompt tokens at a time" : "";
        add("activations", 2.0 * chunk * b * h * 4.0 / split.widthDivisor, "one layer's working set in fp16" + atOnce);
        if (!in.flashAttention) {
            // Without flash attention a layer's scores are materialised: every query head of the
            // tokens read at once against every cached position, softmax in fp32.
            // Split by experts a GPU attends only its own requests; by layers all of them, every head.
            add("attention scores", static_cast<double>(heads) * chunk * s * cached * 4.0 / split.widthDivisor,
                "one layer's, " + std::to_string(heads) + " heads x " + format::number(chunk, 0) + " x " +
                    format::number(s, 0) + " positions x 4 bytes (fp32 softmax)" +
                    (cached > 1 ? " x batch " + std::to_string(split.cacheSequences) : std::string()) +
                    "; flash attention keeps none");
        }
    } else {
        double trainable = p;
        if (in.mode != MemoryMode::FullTraining) {
            // LoRA on the four attention projections (h x h) of every layer: 2 x rank x h each.
            trainable = 8.0 * in.loraRank * h * e.layers;
            add("LoRA adapters", trainable * 2.0, format::number(trainable / 1e6, 1) + "M trainable parameters (rank " +
                                                      std::to_string(in.loraRank) + ", q/k/v/o) in 16-bit");
        } else {
            add("weights (fp16)", trainable * 2.0 / shards, "2 bytes per parameter");
        }
        add("gradients (fp16)", trainable * 2.0 / shards, "2 bytes per trainable parameter");
        double optimizerBytes = 0;
        std::string optimizerText;
        switch (in.optimizer) {
        case Optimizer::Adam:
            optimizerBytes = 12.0;
            optimizerText = "fp32 master copy (4) + Adam moments (8) = 12 bytes per parameter";
            break;
        case Optimizer::Adam8bit:
            optimizerBytes = 6.0;
            optimizerText = "fp32 master copy (4) + 8-bit Adam moments (2) = 6 bytes per parameter";
            break;
        case Optimizer::Sgd:
            optimizerBytes = 8.0;
            optimizerText = "fp32 master copy (4) + momentum (4) = 8 bytes per parameter";
            break;
        }
        if (in.cpuOffload) {
            e.cpuRamGb = trainable * optimizerBytes / kGb;
            e.notes.push_back("optimizer states and master weights in CPU RAM: " + format::gigabytes(e.cpuRamGb));
        } else {
            add("optimizer states", trainable * optimizerBytes / shards, optimizerText);
        }
        // Activations per layer (Korthikanti et al. 2022, fp16): s b h (34 + 5 a s / h) bytes; flash
        // attention drops the 5 a s / h attention-score term; checkpointing keeps only each layer's
        // input (2 s b h) plus one layer's working set.
        const double perLayer = s * b * h * (34.0 + (in.flashAttention ? 0.0 : 5.0 * heads * s / h));
        const bool checkpointing = in.gradientCheckpointing.value_or(in.mode != MemoryMode::FullTraining);
        const double activations = checkpointing ? 2.0 * s * b * h * e.layers + perLayer : perLayer * e.layers;
        add("activations", activations,
            std::string(checkpointing ? "gradient checkpointing: layer inputs only, recomputed"
                                                 : "all layers kept for the backward pass") +
                (in.flashAttention ? "; flash attention" : "") + "; sequence " + format::number(s, 0) +
                ", micro-batch " + std::to_string(in.batch));
    }
    add("CUDA context and workspace", kRuntimeOverheadGb * kGb, "typically 0.5-1 GB per GPU");

    for (const auto& it : e.items) {
        e.perGpuGb += it.gb;
    }
    e.totalGb = e.perGpuGb * shards;
    if (shards > 1) {
        e.notes.push_back(training ? "per GPU with " + std::to_string(shards) + " GPUs (ZeRO-3 / FSDP sharding)"
                                   : split.note);
    }
    return e;
}

std::vector<GpuFit> gpusThatFit(const Catalog& catalog, const MemoryInput& in) {
    std::vector<GpuFit> fits;
    for (const auto& g : catalog.gpus()) {
        for (const int n : {1, 2, 4, 8}) {
            MemoryInput split = in;
            split.shardGpus = std::max(in.shardGpus, n);
            const double need = estimateMemory(split).perGpuGb;
            const double usable = g.memoryGb * kUsableMemoryFraction;
            if (need <= usable) {
                fits.push_back({&g, split.shardGpus, usable - need}); // the cards it is split over
                break;
            }
        }
    }
    std::stable_sort(fits.begin(), fits.end(), [](const GpuFit& a, const GpuFit& b) {
        if (a.gpusNeeded != b.gpusNeeded) {
            return a.gpusNeeded < b.gpusNeeded;
        }
        return a.gpu->memoryGb < b.gpu->memoryGb;
    });
    return fits;
}

} // namespace advisor::calc
