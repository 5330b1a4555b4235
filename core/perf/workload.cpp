#include "perf/workload.h"

#include <sstream>

namespace advisor::perf {

const char* toString(Metric m) {
    switch (m) {
    case Metric::Int8Inference:
        return "int8-inference";
    case Metric::Fp16Inference:
        return "fp16-inference";
    case Metric::Fp16Training:
        return "fp16-training";
    case Metric::Fp32Training:
        return "fp32-training";
    case Metric::LlmDecode:
        return "llm-decode";
    case Metric::LlmPrefill:
        return "llm-prefill";
    }
    return "fp16-training";
}

const char* toString(WorkloadClass w) {
    switch (w) {
    case WorkloadClass::Transformer:
        return "transformer";
    case WorkloadClass::Cnn:
        return "cnn";
    case WorkloadClass::Rnn:
        return "rnn";
    case WorkloadClass::Recsys:
        return "recsys";
    }
    return "transformer";
}

const char* toString(Precision p) {
    switch (p) {
    case Precision::Fp32:
        return "fp32";
    case Precision::Fp16:
        return "fp16";
    case Precision::Bf16:
        return "bf16";
    case Precision::Int8:
        return "int8";
    case Precision::Fp8:
        return "fp8";
    case Precision::Int4:
        return "int4";
    case Precision::Fp4:
        return "fp4";
    }
    return "fp16";
}

std::optional<Metric> parseMetric(std::string_view s) {
    for (const auto m : {Metric::Int8Inference, Metric::Fp16Inference, Metric::Fp16Training, Metric::Fp32Training,
                         Metric::LlmDecode, Metric::LlmPrefill}) {
        if (s == toString(m)) {
            return m;
        }
    }
    // The seed's chart names.
    if (s == "8bit-inference" || s == "fp8-inference") {
        return Metric::Int8Inference;
    }
    if (s == "16bit-inference") {
        return Metric::Fp16Inference;
    }
    if (s == "16bit-training") {
        return Metric::Fp16Training;
    }
    if (s == "32bit-training" || s == "tf32-training") {
        return Metric::Fp32Training;
    }
    return std::nullopt;
}

std::optional<WorkloadClass> parseWorkloadClass(std::string_view s) {
    for (const auto w : {WorkloadClass::Transformer, WorkloadClass::Cnn, WorkloadClass::Rnn, WorkloadClass::Recsys}) {
        if (s == toString(w)) {
            return w;
        }
    }
    return std::nullopt;
}

std::optional<WorkloadChoice> parseWorkloadChoice(std::string_view s) {
    if (const auto w = parseWorkloadClass(s)) {
        return WorkloadChoice{*w, 0.0};
    }
    if (s == "llm" || s == "llm-training" || s == "language-model") {
        return WorkloadChoice{WorkloadClass::Transformer, kDefaultLanguageModelParamsBillion};
    }
    return std::nullopt;
}

std::string toString(const WorkloadChoice& w) {
    if (w.languageModelParamsBillion <= 0) {
        return toString(w.workload);
    }
    std::ostringstream size;
    size << w.languageModelParamsBillion;
    return "language model, " + size.str() + "B";
}

std::optional<Precision> parsePrecision(std::string_view s) {
    for (const auto p : {Precision::Fp32, Precision::Fp16, Precision::Bf16, Precision::Int8, Precision::Fp8,
                         Precision::Int4, Precision::Fp4}) {
        if (s == toString(p)) {
            return p;
        }
    }
    return std::nullopt;
}

bool isTraining(Metric m) {
    return m == Metric::Fp16Training || m == Metric::Fp32Training;
}

bool isLlm(Metric m) {
    return m == Metric::LlmDecode || m == Metric::LlmPrefill;
}

std::optional<Metric> trainingMetricFor(Precision p) {
    switch (p) {
    case Precision::Fp32:
        return Metric::Fp32Training;
    case Precision::Fp16:
    case Precision::Bf16:
        return Metric::Fp16Training;
    default:
        return std::nullopt;
    }
}

double llmBitsPerWeight(Precision p) {
    switch (p) {
    case Precision::Fp32:
        return 32.0;
    case Precision::Fp16:
    case Precision::Bf16:
        return 16.0;
    case Precision::Int8:
    case Precision::Fp8:
        return 8.5;
    case Precision::Int4:
        return 4.85;
    case Precision::Fp4:
        return 4.0 + 8.0 / 32.0;
    }
    return 16.0;
}

double llmBitsPerWeight(Precision p, LlmEngine e) {
    if (e == LlmEngine::TensorRtLlm) {
        if (p == Precision::Int8 || p == Precision::Fp8) {
            return 8.0;
        }
        if (p == Precision::Int4) {
            return 4.0 + 16.0 / 128.0;
        }
        if (p == Precision::Fp4) {
            return 4.0 + 8.0 / 16.0;
        }
    }
    return llmBitsPerWeight(p);
}

const char* llmEngineName(LlmEngine e) {
    return e == LlmEngine::TensorRtLlm ? "TensorRT-LLM" : "llama.cpp";
}

const char* llmFileFormat(Precision p, LlmEngine e) {
    const bool llamaCpp = e == LlmEngine::LlamaCpp;
    switch (p) {
    case Precision::Int8:
        return llamaCpp ? "Q8_0" : "FP8 or INT8"; // the engine's 8-bit files, both 8 bits
    case Precision::Fp8:
        return llamaCpp ? "Q8_0" : "FP8";
    case Precision::Int4:
        return llamaCpp ? "Q4_K_M" : "INT4 AWQ";
    case Precision::Fp4:
        return llamaCpp ? "MXFP4" : "NVFP4";
    case Precision::Bf16:
        return "BF16";
    case Precision::Fp32:
        return "FP32";
    case Precision::Fp16:
        break;
    }
    return "FP16";
}

const char* toString(KvCacheType t) {
    switch (t) {
    case KvCacheType::F16:
        return "f16";
    case KvCacheType::Fp8:
        return "fp8";
    case KvCacheType::Q8_0:
        return "q8_0";
    case KvCacheType::Q4_0:
        return "q4_0";
    }
    return "f16";
}

std::optional<KvCacheType> parseKvCacheType(std::string_view s) {
    if (s == "fp16" || s == "bf16") { // the same two bytes per value as f16
        return KvCacheType::F16;
    }
    for (const auto t : {KvCacheType::F16, KvCacheType::Fp8, KvCacheType::Q8_0, KvCacheType::Q4_0}) {
        if (s == toString(t)) {
            return t;
        }
    }
    return std::nullopt;
}

const char* toString(LlmEngine e) {
    return e == LlmEngine::TensorRtLlm ? "tensorrt-llm" : "llama.cpp";
}

std::optional<LlmEngine> parseLlmEngine(std::string_view s) {
    if (s == "llama.cpp" || s == "llamacpp") {
        return LlmEngine::LlamaCpp;
    }
    if (s == "tensorrt-llm" || s == "trt-llm" || s == "trtllm") {
        return LlmEngine::TensorRtLlm;
    }
    return std::nullopt;
}

const char* toString(LlmSplit s) {
    switch (s) {
    case LlmSplit::Layers:
        return "layers";
    case LlmSplit::Experts:
        return "experts";
    case LlmSplit::Tensors:
        break;
    }
    return "tensors";
}

std::optional<LlmSplit> parseLlmSplit(std::string_view s) {
    for (const auto v : {LlmSplit::Tensors, LlmSplit::Layers, LlmSplit::Experts}) {
        if (s == toString(v)) {
            return v;
        }
    }
    return std::nullopt;
}

double kvCacheBytesPerValue(KvCacheType t) {
    switch (t) {
    case KvCacheType::F16:
        return 2.0;
    case KvCacheType::Fp8:
        return 1.0;
    case KvCacheType::Q8_0:
        return 34.0 / 32.0;
    case KvCacheType::Q4_0:
        return 18.0 / 32.0;
    }
    return 2.0;
}

} // namespace advisor::perf
