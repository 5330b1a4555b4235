// `gpu-advisor memory`: how much GPU memory a model needs, and which GPUs hold it.
#include "calc/memory.h"
#include "calc/presets.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "cli/table.h"
#include "common/format.h"
#include "common/text.h"

#include <algorithm>
#include <ostream>

namespace advisor::cli {
namespace {

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    // A task is a rule of thumb for a kind of work; the options below size one model.
    args.refuseTogether({"task"}, {"params-billion",
                                   "model",
                                   "mode",
                                   "precision",
                                   "context",
                                   "batch",
                                   "layers",
                                   "hidden",
                                   "kv-heads",
                                   "head-dim",
                                   "kv-cache",
                                   "prefill-chunk",
                                   "engine",
                                   "checkpointing",
                                   "no-checkpointing",
                                   "no-flash-attention",
                                   "optimizer",
                                   "offload",
                                   "shard",
                                   "lora-rank",
                                   "split"});
    if (const auto task = args.value("task")) {
        const auto p = calc::findPreset(calc::memoryTaskPresets(), *task);
        if (!p) {
            std::vector<std::string> ids;
            for (const auto& t : calc::memoryTaskPresets()) {
                ids.push_back(t.id);
            }
            throw UsageError("--task must be one of " + text::join(ids, ", "));
        }
        std::vector<const Gpu*> fits;
        for (const auto& g : ctx.catalog().gpus()) {
            if (g.memoryGb >= p->value) {
                fits.push_back(&g);
            }
        }
        if (ctx.json()) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto* g : fits) {
                list.push_back({{"gpu", g->name}, {"memory_gb", g->memoryGb}, {"gpus_needed", 1}});
            }
            ctx.printJson({{"task", p->id}, {"total_gb", p->value}, {"source", p->source}, {"fits", list}});
        } else {
            ctx.out() << p->label << ": at least " << format::gigabytes(p->value) << " (" << p->source << "); "
                      << fits.size() << " catalog GPUs have that much\n";
        }
        return 0;
    }
    calc::MemoryInput in;
    // A named model brings its size and shape; --layers, --hidden and --kv-heads still override the shape.
    args.refuseTogether({"model"}, {"params-billion"});
    if (const auto name = args.value("model")) {
        in.model = calc::findModelShape(*name);
        if (in.model == nullptr) {
            throw UsageError("--model must be one of " + calc::modelShapeIds() + ", got '" + *name + "'");
        }
        in.paramsBillion = in.model->paramsBillion;
    } else {
        in.paramsBillion = args.requiredNumber("params-billion");
    }
    const auto mode = calc::parseMemoryMode(args.value("mode").value_or("inference"));
    if (!mode) {
        throw UsageError("--mode must be inference, lora, qlora or full-training");
    }
    in.mode = *mode;
    const auto precision = perf::parsePrecision(args.value("precision").value_or(in.mode == calc::MemoryMode::Qlora ? "int4" : "fp16"));
    if (!precision || *precision == perf::Precision::Fp8 || *precision == perf::Precision::Bf16) {
        throw UsageError("--precision must be fp32, fp16, int8, int4 or fp4");
    }
    in.weights = *precision;
    if (const auto c = args.integer("context", 1, perf::kMaxContextTokens)) {
        in.contextTokens = c;
    }
    in.batch = args.integer("batch", 1, 100000).value_or(1);
    in.layers = args.integer("layers", 1, 1000);
    in.hidden = args.integer("hidden", 64, 1000000);
    in.kvHeads = args.integer("kv-heads", 1, 1024);
    in.headDim = args.integer("head-dim", 8, 1024);
    if (const auto kv = kvCacheOption(args)) {
        if (in.mode != calc::MemoryMode::Inference) {
            throw UsageError("--kv-cache sizes inference's KV cache; training keeps none");
        }
        in.kvCache = *kv;
    }
    if (const auto v = args.value("engine")) {
        // Inference: the weights at the bits of this engine's own files, as perf reads them.
        const auto engine = perf::parseLlmEngine(text::toLower(*v));
        if (!engine) {
            throw UsageError("option '--engine' must be llama.cpp or tensorrt-llm, got " + text::quoteForMessage(*v));
        }
        if (in.mode != calc::MemoryMode::Inference) {
            throw UsageError("--engine sizes the weights of an engine's files for inference; training keeps them in "
                             "--precision");
        }
        in.engine = engine;
    }
    if (const auto chunk = args.integer("prefill-chunk", 1, perf::kMaxContextTokens)) {
        if (in.mode != calc::MemoryMode::Inference) {
            throw UsageError("--prefill-chunk sizes how inference reads a prompt; training holds every token's "
                             "activations");
        }
        in.prefillChunkTokens = chunk;
    }
    if (args.has("checkpointing") && args.has("no-checkpointing")) {
        throw UsageError("give --checkpointing or --no-checkpointing, not both");
    }
    if (args.has("checkpointing") || args.has("no-checkpointing")) {
        in.gradientCheckpointing = args.has("checkpointing");
    }
    in.flashAttention = !args.has("no-flash-attention");
    if (const auto o = args.value("optimizer")) {
        const auto parsed = calc::parseOptimizer(*o);
        if (!parsed) {
            throw UsageError("--optimizer must be adam, adam8bit or sgd");
        }
        in.optimizer = *parsed;
    }
    in.cpuOffload = args.has("offload");
    in.shardGpus = args.integer("shard", 1, 1024).value_or(1);
    if (const auto v = args.value("split")) {
        in.split = perf::parseLlmSplit(text::toLower(*v));
        if (!in.split) {
            throw UsageError("option '--split' must be tensors, layers or experts, got " + text::quoteForMessage(*v));
        }
        if (in.mode != calc::MemoryMode::Inference) {
            throw UsageError("--split says how inference splits a model over GPUs; training shards it with --shard");
        }
        if (in.engine != perf::LlmEngine::TensorRtLlm) {
            throw UsageError("--split chooses how TensorRT-LLM splits a model (--engine tensorrt-llm); llama.cpp "
                             "splits it by layers");
        }
    }
    in.loraRank = args.integer("lora-rank", 1, 4096).value_or(16);
    const auto e = calc::estimateMemory(in);
    const auto fits = calc::gpusThatFit(ctx.catalog(), in);
    if (ctx.json()) {
        nlohmann::json breakdown = nlohmann::json::array();
        for (const auto& it : e.items) {
            breakdown.push_back({{"item", it.name}, {"gb", it.gb}, {"detail", it.detail}});
        }
        nlohmann::json list = nlohmann::json::array();
        for (const auto& f : fits) {
            list.push_back({{"gpu", f.gpu->name},
                            {"gpu_id", f.gpu->id},
                            {"memory_gb", f.gpu->memoryGb},
                            {"gpus_needed", f.gpusNeeded},
                            {"headroom_gb", f.headroomGb}});
        }
        ctx.printJson({{"params_billion", in.paramsBillion},
                       {"model", in.model != nullptr ? nlohmann::json(in.model->id) : nlohmann::json()},
                       {"shape_basis", e.shapeBasis},
                       {"mode", calc::toString(in.mode)},
                       {"precision", perf::toString(in.weights)},
                       {"engine", in.engine ? nlohmann::json(perf::toString(*in.engine)) : nlohmann::json()},
                       {"kv_cache", perf::toString(in.kvCache)},
                       {"split", in.split ? nlohmann::json(perf::toString(*in.split)) : nlohmann::json()},
                       {"prefill_chunk_tokens",
                        in.prefillChunkTokens ? nlohmann::json(*in.prefillChunkTokens) : nlohmann::json()},
                       {"total_gb", e.totalGb},
                       {"per_gpu_gb", e.perGpuGb},
                       {"cpu_ram_gb", e.cpuRamGb},
                       {"shape",
                        {{"layers", e.layers},
                         {"hidden", e.hidden},
                         {"kv_heads", e.kvHeads},
                         {"head_dim", e.headDim},
                         {"context_tokens", e.contextTokens}}},
                       {"breakdown", breakdown},
                       {"notes", e.notes},
                       {"fits", list}});
        return 0;
    }
    TextTable t({"ITEM", "GB", "DETAIL"});
    t.setRightAligned(1);
    for (const auto& it : e.items) {
        t.addRow({it.name, format::number(it.gb, 2), it.detail});
    }
    t.print(ctx.out());
    ctx.out() << "Total: " << format::number(e.perGpuGb, 1) << " GB per GPU"
              << (in.shardGpus > 1 ? " (" + format::number(e.totalGb, 1) + " GB over " + std::to_string(in.shardGpus) + " GPUs)" : "")
              << "; " << e.layers << " layers, hidden " << e.hidden << ", " << e.kvHeads << " KV heads of "
              << e.headDim << " ("
              << e.shapeBasis << ")\n";
    for (const auto& n : e.notes) {
        ctx.out() << "note: " << n << '\n';
    }
    constexpr size_t kShown = 12; // a line or two; --json lists them all
    ctx.out() << "Fits on: ";
    for (size_t i = 0; i < std::min(fits.size(), kShown); ++i) {
        const auto& f = fits[i];
        ctx.out() << (i > 0 ? ", " : "") << (f.gpusNeeded > 1 ? std::to_string(f.gpusNeeded) + " x " : "") << f.gpu->name;
    }
    if (fits.size() > kShown) {
        ctx.out() << " and " << fits.size() - kShown << " more (--json lists them all)";
    }
    ctx.out() << (fits.empty() ? "no catalog GPU, even 8 of them" : "") << '\n';
    return 0;
}

} // namespace

Command memoryCommand() {
    return {
        "memory", "GPU memory a model needs (inference, LoRA, QLoRA, training) and the GPUs that fit",
        "Usage: gpu-advisor memory (--params-billion P | --model ID) [--mode inference|lora|qlora|full-training]\n"
        "                          [--precision fp16|int8|int4|fp4] [--context N] [--batch N]\n"
        "                          [--layers L --hidden H --kv-heads K --head-dim D] [--kv-cache f16|fp8|q8_0|q4_0]\n"
        "                          [--prefill-chunk TOKENS] [--engine llama.cpp|tensorrt-llm]\n"
        "                          [--[no-]checkpointing] [--no-flash-attention]\n"
        "                          [--optimizer adam|adam8bit|sgd] [--offload] [--shard N] [--lora-rank R]\n"
        "                          [--split tensors|layers|experts]\n"
        "       gpu-advisor memory --task kaggle|prototyping|computer-vision|pretrained-transformers|\n"
        "                                 image-generation|transformers\n\n"
        "Full training in mixed precision with Adam needs 16 bytes per parameter (fp16 weights and\n"
        "gradients, fp32 master weights, two Adam moments) plus activations. The seed's memory savers:\n"
        "8-bit optimizers, gradient checkpointing, CPU offload, sharding over GPUs (ZeRO/FSDP), and\n"
        "8/4-bit weights. Mixture-of-experts models count all their parameters. Without --layers/\n"
        "--hidden the shape is Llama-like for the size (hidden ~ (P/0.09375)^(1/3), layers = hidden/128,\n"
        "8 KV heads of 128). Gradient checkpointing is on by default for LoRA/QLoRA, off for full training.\n"
        "Inference keeps a KV cache per token of context; --kv-cache stores it in 8 or 4 bits (llama.cpp's\n"
        "--cache-type-k/-v q8_0 and q4_0, vLLM's fp8). Its activations are held for the prompt tokens read\n"
        "at once: the whole prompt (Hugging Face transformers), or --prefill-chunk of them (llama.cpp's\n"
        "micro-batch -ub, 512; vLLM's chunked prefill, max_num_batched_tokens); without flash attention\n"
        "a layer's attention scores too.\n"
        "--engine sizes inference's weights as that engine's own files hold them (the bits perf reads):\n"
        "llama.cpp's Q8_0 8.5 bits, Q4_K_M 4.85, MXFP4 4.25; TensorRT-LLM's FP8 or INT8 8, INT4 AWQ\n"
        "4.125, NVFP4 4.5. Without it 8-bit takes 1.02 bytes per weight, 4-bit Q4_K_M's and fp4 NVFP4's.\n"
        "With --shard N, TensorRT-LLM splits the model by tensors and each GPU keeps at least one KV\n"
        "head whole: a model with fewer KV heads than GPUs holds its cache more than once. --split\n"
        "layers holds 1/N of the layers and their cache on each GPU, and a layer's whole width. --split\n"
        "experts (attention data parallel with expert parallelism) holds a mixture's shared part on\n"
        "each GPU beside 1/N of its routed experts, and each request's cache whole on one GPU (a dense\n"
        "model: a whole copy on each). Each is the busiest GPU's share.\n"
        "--model takes a published model's size and shape, with its sliding-window layers and latent\n"
        "attention (--layers/--hidden/--kv-heads/--head-dim still override it):\n  " +
            calc::modelShapeIds() + "\n",
        [](Context& ctx, const std::vector<std::string>& rest) {
            return run(ctx, Args::parse(rest, {{"params-billion"},
                                               {"model"},
                                               {"mode"},
                                               {"precision"},
                                               {"context"},
                                               {"batch"},
                                               {"layers"},
                                               {"hidden"},
                                               {"kv-heads"},
                                               {"head-dim"},
                                               {"kv-cache"},
                                               {"prefill-chunk"},
                                               {"engine"},
                                               {"checkpointing", false},
                                               {"no-checkpointing", false},
                                               {"no-flash-attention", false},
                                               {"optimizer"},
                                               {"offload", false},
                                               {"shard"},
                                               {"lora-rank"},
                                               {"split"},
                                               {"task"}}));
        }};
}

} // namespace advisor::cli
