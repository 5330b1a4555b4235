#pragma once
/// \file
/// The benchmark CSV format (DESIGN.md): measured throughput per GPU setup.
///   gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source
/// workload_class: transformer, cnn, rnn, recsys (training in fp32/fp16/bf16, 8-bit inference
/// in int8/fp8/int4), the same classes with "-inference" (cnn-inference: inference, 16-bit in
/// fp16/bf16 and 8-bit in int8/fp8/int4; no metric is 32-bit inference), llm-decode, llm-prefill
/// (weights in the given precision) or gemm (a large dense matrix multiply's TFLOPS: a check of
/// the compute roof on its own, never fitted);
/// precision: fp32 (or tf32), fp16, bf16, int8, fp8, int4, in any case; batch_size: total over
/// GPUs, may be empty; throughput: 0 means not run.

#include "calc/model_shapes.h"
#include "perf/workload.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

struct BenchmarkRow {
    std::string file;
    int line = 0;
    std::string gpu; ///< as written; resolved against the catalog later
    int numGpus = 1;
    std::string workload;
    std::string workloadClass; ///< one of the classes above, as written (lower case)
    perf::Precision precision = perf::Precision::Fp16;
    std::optional<double> batchSize; ///< total across GPUs; nullopt when empty or 0
    bool zeroBatch = false;          ///< the file says 0: the run did not fit in memory
    double throughput = 0;           ///< 0: not run (a table's empty cell); such rows are skipped
    std::string source;

    bool isLlm() const { return workloadClass == "llm-decode" || workloadClass == "llm-prefill"; }
    bool isGemm() const { return workloadClass == "gemm"; }
    /// A network class with "-inference": the row measures inference whatever its precision.
    bool isInference() const;
    /// The network class of a training or inference row ("cnn-inference" is a CNN); nullopt for
    /// LLM and GEMM rows.
    std::optional<perf::WorkloadClass> networkClass() const;
    bool measured() const { return throughput > 0; }
    /// Batch per GPU, when known.
    std::optional<double> perGpuBatch() const;
    /// The metric the row measures: an LLM metric, training (fp32, fp16, bf16) or 8-bit
    /// inference (int8, fp8, int4), or for an inference class 16-bit (fp16, bf16) or 8-bit
    /// inference; for a GEMM, the metric whose compute roof it meets.
    perf::Metric metric() const;
};

/// Parses a benchmark CSV. Every bad row is reported (file, line, field); nothing is returned
/// unless the whole file is valid.
std::vector<BenchmarkRow> readBenchmarks(std::string_view text, const std::string& fileLabel);
std::vector<BenchmarkRow> readBenchmarkFile(const std::string& path);

/// The benchmark files shipped in resources/benchmarks/ (compiled in).
std::vector<BenchmarkRow> builtinBenchmarks();

/// Model size in billions parsed from an LLM workload name ("llama3-8b-q4km-tg512" -> 8.03:
/// Llama 3 8B has 8.03 B parameters per its model card; otherwise the "<N>b" token, or "<N>m"
/// in millions: "mpt-760m" -> 0.76).
std::optional<double> llmParamsBillion(std::string_view workload);

/// The llama-bench test an LLM workload name gives ("llama2-7b-q4_0-tg128", "llama 8B Q4_0
/// pp512@d4096"): "ppN" a prompt of N tokens, "tgN" N generated tokens, "@dN", "dN" or "depthN"
/// after N tokens already in the cache.
struct LlmTest {
    std::optional<int> promptTokens;
    std::optional<int> generatedTokens;
    int depthTokens = 0;
};
LlmTest llmTestIn(std::string_view workload);

/// The published model an LLM workload name names ("llama2-7b-q4_0-tg128" is llama-2-7b),
/// compared by letters and digits: the model of resources/presets/model_shapes.json with the
/// longest id found in the name, or nullptr ("llama3-8b" names none: Llama 3.1 8B's id differs).
const calc::ModelShape* modelShapeIn(std::string_view workload);

/// The mixture of experts an LLM workload name names ("mixtral-8x7b-q4km-tg512"), compared by
/// letters and digits: a model of resources/presets/model_shapes.json with active parameters, or
/// nullptr. Its "8x7b" gives no size llmParamsBillion can read.
const calc::ModelShape* mixtureOfExpertsIn(std::string_view workload);

} // namespace advisor::eval
