// Tests for core/calc's memory needs: the itemised estimate, the GPUs that hold it, the seeds'
// task presets and the published model shapes. Data-driven where the seeds give numbers.
#include "calc/memory.h"
#include "calc/model_shapes.h"
#include "calc/presets.h"
#include "catalog/catalog.h"

#include "support/input_problems.h"

#include <gtest/gtest.h>

namespace advisor::calc {
namespace {

// --- memory ---------------------------------------------------------------------------------

double item(const MemoryEstimate& e, const std::string& name) {
    for (const auto& i : e.items) {
        if (i.name == name) {
            return i.gb;
        }
    }
    return -1;
}

TEST(Memory, FullTrainingNeedsSixteenBytesPerParameterPlusActivations) {
    MemoryInput in;
    in.paramsBillion = 7;
    in.mode = MemoryMode::FullTraining;
    const auto e = estimateMemory(in);
    EXPECT_DOUBLE_EQ(item(e, "weights (fp16)") + item(e, "gradients (fp16)") + item(e, "optimizer states"), 7 * 16.0);
    EXPECT_GT(item(e, "activations"), 0);
    in.optimizer = Optimizer::Adam8bit; // seed: 8-bit optimizers
    EXPECT_DOUBLE_EQ(item(estimateMemory(in), "optimizer states"), 7 * 6.0);
    in.optimizer = Optimizer::Adam;
    in.cpuOffload = true; // seed: CPU optimizer state
    const auto off = estimateMemory(in);
    EXPECT_DOUBLE_EQ(item(off, "optimizer states"), -1);
    EXPECT_DOUBLE_EQ(off.cpuRamGb, 7 * 12.0);
    in.cpuOffload = false;
    in.shardGpus = 4; // seed: ZeRO parallelism
    const auto shard = estimateMemory(in);
    EXPECT_DOUBLE_EQ(item(shard, "optimizer states"), 7 * 12.0 / 4);
    EXPECT_NEAR(shard.totalGb, shard.perGpuGb * 4, 1e-9);
    in.shardGpus = 1;
    const double plain = item(estimateMemory(in), "activations");
    in.gradientCheckpointing = true; // seed: gradient checkpointing
    EXPECT_LT(item(estimateMemory(in), "activations"), plain / 5);
}

TEST(Memory, InferenceWeightsKvCacheAndQuantization) {
    MemoryInput in;
    in.paramsBillion = 70;
    in.weights = perf::Precision::Int4;
    EXPECT_NEAR(item(estimateMemory(in), "weights"), 70 * 4.85 / 8, 1e-9);
    in.weights = perf::Precision::Fp4; // NVFP4: 4 bits and an FP8 scale per 16
    EXPECT_NEAR(item(estimateMemory(in), "weights"), 70 * 4.5 / 8, 1e-9);
    in.weights = perf::Precision::Fp16;
    EXPECT_DOUBLE_EQ(item(estimateMemory(in), "weights"), 140);
    // Llama-3-8B-like shape given explicitly: 32 layers x 8 KV heads x 128 x 8192 tokens x 2 x 2 bytes.
    in.paramsBillion = 8;
    in.layers = 32;
    in.hidden = 4096;
    in.kvHeads = 8;
    in.contextTokens = 8192;
    EXPECT_NEAR(item(estimateMemory(in), "KV cache"), 2.0 * 32 * 8 * 128 * 8192 * 2 / 1e9, 1e-9);
    in.batch = 4;
    EXPECT_NEAR(item(estimateMemory(in), "KV cache"), 4 * 2.0 * 32 * 8 * 128 * 8192 * 2 / 1e9, 1e-9);
}

TEST(Memory, AnEnginesOwnFilesSetTheBitsPerWeight) {
    // The bits perf reads per token: llama.cpp's Q8_0 is 34 bytes per 32 weights (8.5 bits), its
    // MXFP4 32 four-bit values and one 8-bit scale (4.25); TensorRT-LLM's INT4 AWQ one FP16 scale
    // per 128 weights (4.125), its NVFP4 one FP8 scale per 16 (4.5), its FP8 8.
    MemoryInput in;
    in.paramsBillion = 70;
    const auto weights = [&](perf::Precision p, std::optional<perf::LlmEngine> e) {
        in.weights = p;
        in.engine = e;
        return item(estimateMemory(in), "weights");
    };
    const auto llamaCpp = perf::LlmEngine::LlamaCpp;
    const auto trt = perf::LlmEngine::TensorRtLlm;
    EXPECT_NEAR(weights(perf::Precision::Int8, llamaCpp), 70 * 8.5 / 8, 1e-9);
    EXPECT_NEAR(weights(perf::Precision::Int4, llamaCpp), 70 * 4.85 / 8, 1e-9);
    EXPECT_NEAR(weights(perf::Precision::Fp4, llamaCpp), 70 * 4.25 / 8, 1e-9);
    EXPECT_NEAR(weights(perf::Precision::Int8, trt), 70.0, 1e-9);
    EXPECT_NEAR(weights(perf::Precision::Int4, trt), 70 * 4.125 / 8, 1e-9);
    EXPECT_NEAR(weights(perf::Precision::Fp4, trt), 70 * 4.5 / 8, 1e-9);
    EXPECT_DOUBLE_EQ(weights(perf::Precision::Fp16, trt), 140);
    EXPECT_NEAR(weights(perf::Precision::Int8, std::nullopt), 70 * 1.02, 1e-9); // no engine: as before
    in.weights = perf::Precision::Int4;
    in.engine = trt;
    EXPECT_NE(estimateMemory(in).items.front().detail.find("(INT4 AWQ, TensorRT-LLM's files)"), std::string::npos)
        << estimateMemory(in).items.front().detail;
    // A model's own 4-bit release keeps its size in any engine (gpt-oss's MXFP4 file).
    in.model = findModelShape("gpt-oss-120b");
    EXPECT_NEAR(item(estimateMemory(in), "weights"), 59.02 * 1073741824.0 / 1e9, 0.05);
    // Training keeps --precision's generic sizes: the engine sizes inference only.
    in.model = nullptr;
    in.mode = MemoryMode::Lora;
    in.weights = perf::Precision::Int8;
    EXPECT_NEAR(item(estimateMemory(in), "frozen base weights"), 70 * 1.02, 1e-9);
}

TEST(Memory, TensorRtLlmSplitOverMoreGpusThanKvHeadsHoldsTheCacheMoreThanOnce) {
    // Qwen3 235B-A22B's 4 KV heads over 8 GPUs: each keeps one whole, so the 94 x 4 x 128 x 2 x 4,096
    // cached values (f16) take 2 / 8 of their bytes on each, not 1 / 8; over 4 GPUs, 1 / 4.
    MemoryInput in;
    in.model = findModelShape("qwen3-235b-a22b");
    in.paramsBillion = in.model->paramsBillion;
    in.weights = perf::Precision::Int8;
    in.contextTokens = 4096;
    in.engine = perf::LlmEngine::TensorRtLlm;
    in.shardGpus = 8;
    const double whole = 94.0 * 4 * 128 * 2 * 4096 * 2 / 1e9;
    EXPECT_NEAR(item(estimateMemory(in), "KV cache"), whole * 2 / 8, 1e-9);
    EXPECT_NE(estimateMemory(in).items[1].detail.find("held 2x over: each of the 8 GPUs keeps at least one KV head"),
              std::string::npos)
        << estimateMemory(in).items[1].detail;
    in.shardGpus = 4;
    EXPECT_NEAR(item(estimateMemory(in), "KV cache"), whole / 4, 1e-9);
    in.shardGpus = 8;
    in.engine.reset(); // no engine named: an even split
    EXPECT_NEAR(item(estimateMemory(in), "KV cache"), whole / 8, 1e-9);
}

TEST(Memory, InferenceHoldsActivationsForThePromptTokensReadAtOnce) {
    // Llama 3.1 8B at 128K tokens: read whole (Hugging Face transformers), one layer's fp16
    // working set of 4 x hidden values per token is 131,072 x 4,096 x 8 bytes; llama.cpp reads
    // the prompt in micro-batches of 512, so it holds 512 tokens' worth.
    MemoryInput in;
    in.model = findModelShape("llama-3.1-8b");
    in.contextTokens = 131072;
    const auto whole = estimateMemory(in);
    EXPECT_NEAR(item(whole, "activations"), 131072.0 * 4096 * 8 / 1e9, 1e-9);
    in.prefillChunkTokens = 512;
    const auto chunked = estimateMemory(in);
    EXPECT_NEAR(item(chunked, "activations"), 512.0 * 4096 * 8 / 1e9, 1e-12);
    EXPECT_DOUBLE_EQ(item(chunked, "KV cache"), item(whole, "KV cache")); // the cache holds every token
    EXPECT_NEAR(whole.perGpuGb - chunked.perGpuGb, (131072.0 - 512) * 4096 * 8 / 1e9, 1e-9);
    in.prefillChunkTokens = 1000000; // a chunk longer than the context is the whole context
    EXPECT_DOUBLE_EQ(estimateMemory(in).perGpuGb, whole.perGpuGb);
    // Without flash attention a layer's scores are held: 32 query heads x 512 x 131,072 in fp32,
    // 8.6 GB (llama.cpp's compute buffer at that context without -fa).
    in.prefillChunkTokens = 512;
    in.flashAttention = false;
    EXPECT_NEAR(item(estimateMemory(in), "attention scores"), 32.0 * 512 * 131072 * 4 / 1e9, 1e-9);
    EXPECT_EQ(item(chunked, "attention scores"), -1); // none with flash attention
    // Training holds every token's activations; a chunk is refused by field name.
    in.mode = MemoryMode::Lora;
    EXPECT_EQ(testing::messageOf([&] { estimateMemory(in); }),
              "memory: field 'prefill_chunk': sizes how inference reads a prompt; training holds every token's "
              "activations");
    in.mode = MemoryMode::Inference;
    in.prefillChunkTokens = 0;
    EXPECT_EQ(testing::messageOf([&] { estimateMemory(in); }),
              "memory: field 'prefill_chunk': must be between 1 and 10,000,000 tokens");
}

TEST(Memory, QloraFitsA65BModelOnOne48GbGpu) {
    // QLoRA (Dettmers et al. 2023): a 65B model fine-tunes on a single 48 GB GPU.
    MemoryInput in;
    in.paramsBillion = 65;
    in.mode = MemoryMode::Qlora;
    const auto e = estimateMemory(in);
    EXPECT_LT(e.perGpuGb, 48 * 0.95);
    EXPECT_GT(e.perGpuGb, 65 * 0.5);
    bool a6000 = false;
    for (const auto& f : gpusThatFit(Catalog::builtin(), in)) {
        a6000 |= f.gpu->id == "rtx-a6000" && f.gpusNeeded == 1;
    }
    EXPECT_TRUE(a6000);
    in.mode = MemoryMode::Lora; // 16-bit base: no longer fits one 48 GB card
    EXPECT_GT(estimateMemory(in).perGpuGb, 48);
}

TEST(Memory, FitsCountsCardsAndRejectsBadInput) {
    MemoryInput in;
    in.paramsBillion = 7; // ~15.5 GB in fp16
    for (const auto& f : gpusThatFit(Catalog::builtin(), in)) {
        if (f.gpu->id == "rtx-4090") {
            EXPECT_EQ(f.gpusNeeded, 1);
        }
        if (f.gpu->id == "rtx-3060-12gb") {
            EXPECT_EQ(f.gpusNeeded, 2);
        }
    }
    in.paramsBillion = -1;
    EXPECT_EQ(testing::messageOf([&] { estimateMemory(in); }),
              "memory: field 'params_billion': must be more than 0 and at most 100,000");
}

TEST(Memory, TaskPresetsComeFromTheSeeds) {
    EXPECT_DOUBLE_EQ(findPreset(memoryTaskPresets(), "transformers")->value, 24);
    EXPECT_DOUBLE_EQ(findPreset(memoryTaskPresets(), "image-generation")->value, 12);
    EXPECT_DOUBLE_EQ(findPreset(memoryTaskPresets(), "kaggle")->value, 8);
    EXPECT_DOUBLE_EQ(findPreset(memoryTaskPresets(), "pretrained-transformers")->value, 11);
}

// --- published model shapes ---------------------------------------------------------------

TEST(ModelShapes, ShippedShapesAreConsistentWithTheirSizes) {
    ASSERT_GE(modelShapes().size(), 9u);
    for (const auto& m : modelShapes()) {
        SCOPED_TRACE(m.id);
        EXPECT_FALSE(m.source.empty());
        // Grouped-query attention shares each KV head among whole groups of query heads, and the
        // heads together are about as wide as the model (Qwen3 30B-A3B: twice; DeepSeek-V3 2.3x;
        // Gemma 3 4B and 27B narrower: 8 x 256 of 2,560 and 32 x 128 of 5,376).
        EXPECT_EQ(m.heads % m.kvHeads, 0);
        const double headsWidth = double(m.heads) * m.headDim / m.hidden;
        EXPECT_GT(headsWidth, 0.75);
        EXPECT_LT(headsWidth, 2.5);
        if (m.slidingWindow > 0) {
            EXPECT_LT(m.slidingLayers, m.layers); // some layers must see the whole context
        }
        // A dense transformer has about 12 x layers x hidden^2 parameters (more with a wide MLP and a
        // large vocabulary): a layer count or width off by a factor of two would show here.
        if (m.note.find("mixture of experts") == std::string::npos) {
            const double ratio = 12.0 * m.layers * m.hidden * double(m.hidden) / (m.paramsBillion * 1e9);
            EXPECT_GT(ratio, 0.5);
            EXPECT_LT(ratio, 1.1);
            EXPECT_EQ(m.activeParamsBillion, 0.0); // dense: every parameter works on every token
        } else {
            // A few experts per token: well under the total, above the attention every token uses
            // (query, key, value and output projections).
            const double attention = double(m.layers) * m.hidden * m.headDim * (2.0 * m.heads + 2.0 * m.kvHeads);
            EXPECT_GT(m.activeParamsBillion * 1e9, attention);
            EXPECT_LT(m.activeParamsBillion, 0.5 * m.paramsBillion);
            // Every mixture shipped gives its routing; held = shared + E experts and active =
            // shared + k experts leave a shared part (attention, embeddings, shared experts) of
            // 13% (Mixtral) to 45% (DeepSeek-V3, Qwen3 30B-A3B) of the active parameters, 71% for
            // Qwen3.6 35B-A3B (a shared expert and 248K-token embeddings beside experts of 512) and
            // 82% for Llama 4 Maverick, whose every other layer is dense (its config's widths give
            // 14.2B shared of 17.2B: attention 3.0, dense MLPs 6.0, shared experts 3.0, embeddings 2.1).
            ASSERT_GT(m.experts, m.expertsPerToken);
            const double expert = (m.paramsBillion - m.activeParamsBillion) / (m.experts - m.expertsPerToken);
            const double shared = m.activeParamsBillion - m.expertsPerToken * expert;
            EXPECT_GT(shared, 0.1 * m.activeParamsBillion);
            EXPECT_LT(shared, 0.85 * m.activeParamsBillion);
        }
    }
    EXPECT_EQ(findModelShape("LLAMA 3.1 70b"), findModelShape("llama-3.1-70b"));
    ASSERT_NE(findModelShape(" qwen2.5-7b "), nullptr);
    EXPECT_EQ(findModelShape(" qwen2.5-7b ")->id, "qwen2.5-7b");
    ASSERT_NE(findModelShape("Mixtral 8x22B"), nullptr);
    EXPECT_DOUBLE_EQ(findModelShape("Mixtral 8x22B")->activeParamsBillion, 39.0);
    EXPECT_EQ(findModelShape("llama-4"), nullptr);
}

TEST(ModelShapes, KvCacheOfNamedModelsMatchesTheirPublishedShapes) {
    const auto kvGb = [](const MemoryEstimate& e) { return item(e, "KV cache"); };
    MemoryInput in;
    in.paramsBillion = 7;
    in.contextTokens = 4096;
    // Llama 2 7B has no grouped-query attention: 2 x 32 layers x 4096 x 2 bytes = 0.5 MB per token,
    // 2.15 GB for 4,096 tokens. The shape guessed from "7B" has 8 KV heads, a quarter of that.
    const double guessed = kvGb(estimateMemory(in));
    in.model = findModelShape("llama-2-7b");
    const auto llama2 = estimateMemory(in);
    EXPECT_NEAR(kvGb(llama2), 2.0 * 32 * 4096 * 2 * 4096 / 1e9, 1e-9);
    EXPECT_NEAR(kvGb(llama2) / guessed, 32.0 / 8.0 * 32 / 33, 1e-9); // the guess also has 33 layers
    EXPECT_EQ(llama2.shapeBasis, "Llama 2 7B's published shape");
    EXPECT_NEAR(llama2.items.front().gb, 6.7 * 2, 1e-9); // the model's size, not the 7 given
    // Llama 3.1 8B and 70B at their full 128K context: 128 KB and 320 KB per token.
    in.contextTokens = 131072;
    in.model = findModelShape("llama-3.1-8b");
    EXPECT_NEAR(kvGb(estimateMemory(in)), 131072.0 * 131072 / 1e9, 1e-9); // 17.2 GB (16 GiB)
    in.model = findModelShape("llama-3.1-70b");
    EXPECT_NEAR(kvGb(estimateMemory(in)), 327680.0 * 131072 / 1e9, 1e-9); // 42.9 GB (40 GiB)
    EXPECT_TRUE(estimateMemory(in).notes.empty());
    // Beyond the trained context, a note; a mixture of experts says what it holds.
    in.model = findModelShape("llama-2-13b");
    in.contextTokens = 8192;
    ASSERT_EQ(estimateMemory(in).notes.size(), 1u);
    EXPECT_EQ(estimateMemory(in).notes[0], "8,192 tokens of context is more than the 4,096 Llama 2 13B was trained for");
    in.model = findModelShape("mixtral-8x7b");
    in.contextTokens = 4096;
    EXPECT_NE(estimateMemory(in).notes.at(0).find("all 46.7B parameters are held"), std::string::npos);
    // A shape given by hand overrides the model's.
    in.kvHeads = 32;
    EXPECT_EQ(estimateMemory(in).kvHeads, 32);
    EXPECT_EQ(estimateMemory(in).shapeBasis, "given shape");
}

TEST(ModelShapes, AModelsOwnFourBitReleaseSetsTheSizeOfItsFourBitWeights) {
    // gpt-oss-120b in llama.cpp's file: MXFP4 experts and Q8_0 attention and output head, 59.02 GiB
    // for 116.8B parameters (llama-bench's model size; OpenAI's release, bf16 beside the experts,
    // is 60.8 GiB), 4.34 bits each, where llama.cpp's Q4_K_M averages 4.85. With its full
    // 131,072-token context in f16 it fits one 80 GB card, as OpenAI says it does; at 4.85 bits it
    // would not (76 GB of the 80 usable).
    MemoryInput in;
    in.model = findModelShape("gpt-oss-120b");
    in.weights = perf::Precision::Int4;
    in.contextTokens = 131072;
    const auto e = estimateMemory(in);
    EXPECT_NEAR(item(e, "weights"), 59.02 * 1073741824.0 / 1e9, 0.05); // 4.34 bits, rounded
    EXPECT_NE(e.items.front().detail.find("(MXFP4 file)"), std::string::npos) << e.items.front().detail;
    EXPECT_LT(e.perGpuGb, 80 * kUsableMemoryFraction);
    MemoryInput q4km = in;
    q4km.model = nullptr;
    q4km.paramsBillion = 116.8;
    EXPECT_NEAR(item(estimateMemory(q4km), "weights"), 116.8 * 4.85 / 8, 1e-9);
    // 8-bit and 16-bit weights, and models without a 4-bit release, keep the generic sizes.
    in.weights = perf::Precision::Int8;
    EXPECT_NEAR(item(estimateMemory(in), "weights"), 116.8 * 1.02, 1e-9);
    in.model = findModelShape("llama-3.1-8b");
    in.weights = perf::Precision::Int4;
    EXPECT_NEAR(item(estimateMemory(in), "weights"), 8.0 * 4.85 / 8, 1e-9);
}

} // namespace
} // namespace advisor::calc
