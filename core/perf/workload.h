#pragma once
/// \file
/// What is being estimated: the chart metrics (8/16/32-bit, inference or training),
/// the workload class, the benchmark precisions, and LLM inference.

#include <optional>
#include <string>
#include <string_view>

namespace advisor::perf {

/// The seed's chart metrics plus LLM inference.
enum class Metric {
    Int8Inference, ///< FP8 where the hardware has it, INT8 otherwise
    Fp16Inference,
    Fp16Training,
    Fp32Training, ///< TF32 tensor cores where present (the PyTorch default on Ampere+), else FP32
    LlmDecode,    ///< token generation, tokens/s: bound by reading weights + KV cache
    LlmPrefill,   ///< prompt processing, tokens/s: bound by compute
};

enum class WorkloadClass { Transformer, Cnn, Rnn, Recsys };

/// Numeric precision of a benchmark row or an LLM's weights. Fp4: 4-bit floating-point weights with
/// a scale per small block (llama.cpp's MXFP4, TensorRT-LLM's NVFP4), which Blackwell's tensor cores
/// multiply as they are; Int4: 4-bit integer weights multiplied in 16 bits.
enum class Precision { Fp32, Fp16, Bf16, Int8, Fp8, Int4, Fp4 };

/// FP16 or BF16: LLM weights that prompt processing multiplies as stored; any other precision
/// is taken as quantized weights (dequantised, or multiplied as integers).
constexpr bool isSixteenBit(Precision p) {
    return p == Precision::Fp16 || p == Precision::Bf16;
}

const char* toString(Metric m);
const char* toString(WorkloadClass w);
const char* toString(Precision p);
std::optional<Metric> parseMetric(std::string_view s);
std::optional<WorkloadClass> parseWorkloadClass(std::string_view s);
std::optional<Precision> parsePrecision(std::string_view s);

/// The size `--workload llm` and the charts' "language models" take: an 8B model (LLaMA 3 8B,
/// the calibration's LLM), the size most buyers of one workstation train or fine-tune.
constexpr double kDefaultLanguageModelParamsBillion = 8.0;

/// The most tokens of context (or of a prompt, a chunk, a sliding window) any input may give: ten
/// million, beyond any released model, and a count PerfQuery's int holds. Every reader checks it.
constexpr int kMaxContextTokens = 10000000;

/// The most sequences token generation may run together (PerfQuery::llmSequences): far beyond
/// what a server batches on one node (vLLM's default cap is 256 to 1,024).
constexpr int kMaxLlmSequences = 65536;

/// The tokens of a prompt one step multiplies together unless told (PerfQuery::
/// llmMicroBatchTokens): llama.cpp's default micro-batch (-ub), llama-bench's n_ubatch 512.
constexpr int kDefaultMicroBatchTokens = 512;

/// A workload as the charts, the value table and the command line take it: a class, or a
/// transformer language model of a size (perf/llm_training.h).
struct WorkloadChoice {
    WorkloadClass workload = WorkloadClass::Transformer;
    double languageModelParamsBillion = 0; ///< 0: the class
};
/// A class name, or "llm" (also "llm-training", "language-model"): a language model of
/// kDefaultLanguageModelParamsBillion.
std::optional<WorkloadChoice> parseWorkloadChoice(std::string_view s);
/// "transformer", ..., or "language model, 8B".
std::string toString(const WorkloadChoice& w);

/// Whether a metric is training (forward + backward + optimizer) or inference.
bool isTraining(Metric m);
bool isLlm(Metric m);

/// The metric a (training) benchmark row measures: fp32 -> Fp32Training, fp16/bf16 -> Fp16Training.
std::optional<Metric> trainingMetricFor(Precision p);

/// Bits per weight actually read in LLM inference: fp16 16, int8 8.5 (Q8_0 scales),
/// int4 4.85 (llama.cpp Q4_K_M average incl. block scales), fp4 4.25 (MXFP4: one 8-bit scale for
/// each block of 32).
double llmBitsPerWeight(Precision p);

/// How an LLM's KV cache is stored: llama.cpp's --cache-type-k/-v (f16, q8_0, q4_0) and
/// vLLM's --kv-cache-dtype fp8. Token generation reads all of it for every token.
enum class KvCacheType { F16, Fp8, Q8_0, Q4_0 };

const char* toString(KvCacheType t);
std::optional<KvCacheType> parseKvCacheType(std::string_view s);
/// Bytes per cached element: f16 2, fp8 1, q8_0 34/32 and q4_0 18/32 (ggml's blocks of 32
/// values carry one fp16 scale: 32 + 2 and 16 + 2 bytes).
double kvCacheBytesPerValue(KvCacheType t);

/// The software that runs an LLM: llama.cpp (the calibration's llm rows, the default) or
/// TensorRT-LLM, a serving engine whose kernels stream the memory at its full rate
/// (perf/serving_engine.h).
enum class LlmEngine { LlamaCpp, TensorRtLlm };

const char* toString(LlmEngine e);
/// "llama.cpp" or "tensorrt-llm" (also "llamacpp", "trt-llm", "trtllm").
std::optional<LlmEngine> parseLlmEngine(std::string_view s);

/// How the serving engine splits a model over several GPUs: by tensors (each card a share of every
/// layer, all-reduces after each; tensor parallel), by layers (each card whole layers, the
/// sequences in micro-batches passed from card to card; pipeline parallel) or by experts (each card
/// its own sequences, with attention and every weight but the routed experts whole, and 1/N of a
/// mixture of experts' routed experts, the tokens exchanged in each mixture layer: TensorRT-LLM's
/// attention data parallel with expert parallelism, DEP; a dense model is then copied whole on
/// each card, data parallel).
enum class LlmSplit { Tensors, Layers, Experts };

const char* toString(LlmSplit s);
/// "tensors", "layers" or "experts".
std::optional<LlmSplit> parseLlmSplit(std::string_view s);

/// The kernel a serving engine's token generation runs attention with: head by head on the CUDA
/// cores (TensorRT-LLM's masked multi-head attention), or a query group's heads together on the
/// tensor cores (its XQA kernel, for grouped-query attention). Auto: XQA where the engine takes
/// it, for groups of 2 to 32 query heads a KV head (servingAttentionOnTensorCores).
enum class DecodeAttention { Auto, CudaCores, TensorCores };

/// Bits per weight in the engine's own files: llama.cpp's (llmBitsPerWeight), or TensorRT-LLM's:
/// 8-bit weights 8 (FP8 with one scale per tensor, INT8 with one per channel), 4-bit ones 4.125
/// (INT4 AWQ: one FP16 scale for each group of 128 weights, the group ModelOpt and AutoAWQ use),
/// 4-bit floats 4.5 (NVFP4: one FP8 scale for each block of 16).
double llmBitsPerWeight(Precision p, LlmEngine e);
/// The engine's name as people write it: "llama.cpp" or "TensorRT-LLM".
const char* llmEngineName(LlmEngine e);
/// The format of the engine's own files for weights of precision p, whose bits
/// llmBitsPerWeight(p, e) gives: llama.cpp's Q8_0, Q4_K_M and MXFP4; TensorRT-LLM's FP8 or
/// INT8 (FP8 when asked for), INT4 AWQ and NVFP4; 16-bit weights are FP16 (BF16 as given).
const char* llmFileFormat(Precision p, LlmEngine e);

} // namespace advisor::perf
