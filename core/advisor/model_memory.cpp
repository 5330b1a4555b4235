#include "advisor/model_memory.h"

#include "calc/model_query.h"
#include "common/format.h"

namespace advisor::advice {

calc::MemoryInput memoryInputFor(const RecommendInput& in, double paramsBillion, const calc::ModelShape* model) {
    calc::MemoryInput mem;
    mem.model = model;
    mem.paramsBillion = model != nullptr ? model->paramsBillion : paramsBillion;
    mem.mode = in.task == Task::Inference  ? calc::MemoryMode::Inference
               : in.task == Task::FineTune ? calc::MemoryMode::Qlora
                                           : calc::MemoryMode::FullTraining;
    mem.weights = in.llmWeights ? *in.llmWeights
                  : in.eightBit ? perf::Precision::Int8
                                : (mem.mode == calc::MemoryMode::Qlora ? perf::Precision::Int4 : perf::Precision::Fp16);
    if (mem.mode == calc::MemoryMode::Inference) {
        mem.contextTokens = in.llmContextTokens;
        mem.batch = in.llmSequences; // each request served at once keeps its own KV cache
        if (in.domain == Domain::Llm) {
            mem.engine = in.llmEngine; // its weights at the bits of the engine's files, as perf reads them
        }
    }
    return mem;
}

calc::MemoryInput sizeMemoryForModel(RecommendInput& in, double paramsBillion, const calc::ModelShape* model) {
    const calc::MemoryInput mem = memoryInputFor(in, paramsBillion, model);
    in.memoryGb = calc::estimateMemory(mem).perGpuGb; // validates the size
    in.llmParamsBillion = mem.paramsBillion;
    in.llmActiveParamsBillion.reset();
    in.llmKvCacheValues.reset();
    in.llmKvCacheValuesReserved.reset();
    in.llmKvCacheValuesHeld.reset();
    if (model != nullptr && in.llmContextTokens) {
        // Token generation reads the model's own cache at that context (its KV heads, windows);
        // TensorRT-LLM reserves its windowed layers' at the whole length.
        const calc::AttentionShape attention = calc::attentionShapeOf(*model);
        in.llmKvCacheValues = calc::kvCacheValuesRead(attention, *in.llmContextTokens);
        if (attention.chunked) {
            in.llmKvCacheValuesHeld = calc::kvCacheValues(attention, *in.llmContextTokens);
        }
        if (attention.slidingWindow > 0) {
            in.llmKvCacheValuesReserved = calc::kvCacheValuesReservedWhole(attention, *in.llmContextTokens);
        }
    }
    in.llmExperts = 0;
    in.llmExpertsPerToken = 0;
    // Its layers and output head (where a card too small for it splits it) and its own 4-bit
    // file's bits, as perf --model takes them (calc::applyModelShape).
    perf::PerfQuery shaped;
    shaped.llmWeights = mem.weights;
    if (model != nullptr) {
        calc::applyModelShape(shaped, *model);
    }
    in.llmRecurrentStateBytes = shaped.llmRecurrentStateBytes;
    in.llmLayers = shaped.llmLayers;
    in.llmOutputHeadParamsBillion = shaped.llmOutputHeadParamsBillion;
    in.llmHidden = shaped.llmHidden;
    in.llmKvHeads = shaped.llmKvHeads;
    in.llmLatentKv = shaped.llmLatentKv;
    in.llmMoeLayerStep = shaped.llmMoeLayerStep;
    in.llmWeightBits = shaped.llmWeightBits;
    in.llmSharedWeightBits = shaped.llmSharedWeightBits;
    if (model != nullptr && model->activeParamsBillion > 0) {
        in.llmActiveParamsBillion = model->activeParamsBillion; // a mixture of experts reads only these
        in.llmExperts = model->experts;
        in.llmExpertsPerToken = model->expertsPerToken;
    }
    return mem;
}

std::string describeMemoryBasis(const calc::MemoryInput& m) {
    const std::string size = format::trimmed(m.paramsBillion, 2) + "B parameters";
    // Quantized weights in an engine's own files name their format (Q4_K_M, INT4 AWQ, ...), whose
    // bits sized them; a model's own 4-bit release its own (gpt-oss's MXFP4).
    const bool quantized =
        m.weights != perf::Precision::Fp16 && m.weights != perf::Precision::Bf16 && m.weights != perf::Precision::Fp32;
    const bool ownRelease = m.model != nullptr && m.weights == perf::Precision::Int4 && m.model->int4BitsPerWeight > 0;
    const std::string format = m.mode != calc::MemoryMode::Inference || !m.engine || !quantized ? std::string()
                               : ownRelease ? " (" + m.model->int4Format + ")"
                                            : std::string(" (") + perf::llmFileFormat(m.weights, *m.engine) + ")";
    return (m.model != nullptr ? m.model->label + ": " + size : size) + ", " + calc::toString(m.mode) + " with " +
           perf::toString(m.weights) + " weights" + format +
           (m.contextTokens ? ", " + format::number(*m.contextTokens, 0) + " tokens of context" : "") +
           (m.mode == calc::MemoryMode::Inference && m.batch > 1 ? ", " + std::to_string(m.batch) + " requests at once"
                                                                 : "");
}

} // namespace advisor::advice
