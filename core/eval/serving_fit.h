#pragma once
/// \file
/// A serving engine's measured throughput (resources/perf/tensorrt-llm-0.9-throughput.csv:
/// TensorRT-LLM 0.9's published peak-throughput tables) and the fit of perf/serving_engine.h's
/// constants on it. Each row is a batch of `sequences` requests of input_tokens in and
/// output_tokens out, run as the tables' benchmark runs them: the prompts together, then
/// output_tokens steps of token generation; its figure is output tokens/s per GPU.
///   gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,
///   kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,sequences,input_tokens,
///   output_tokens,tokens_per_s_per_gpu,source

#include "catalog/catalog.h"
#include "eval/row_fields.h"
#include "perf/model.h"
#include "perf/serving_engine.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

struct ServingRun {
    int line = 0;
    std::string gpu;   ///< resolved against the catalog when fitted
    std::string model; ///< as written, for the report
    /// llm-decode at the batch's mean context (input + output / 2), tensorrt-llm, the row's GPUs;
    /// the prompts are the same query as llm-prefill at input_tokens (servedPromptQuery).
    perf::PerfQuery query;
    int inputTokens = 0, outputTokens = 0;
    int kvValuesPerToken = 0;
    /// A prompt token's attention FLOPs where the model's own attention sets them (its heads,
    /// sliding windows and chunks: calc::attentionFlopsPerPromptToken, as perf --model counts
    /// them); unset: from the row's layers and width (servedPromptQuery).
    std::optional<double> promptAttentionFlops;
    double tokensPerSecondPerGpu = 0;
    std::string source;
    bool mixtureOfExperts() const { return query.llmExperts > 0; }
};

/// Reads the served model's columns of a row of TensorRT-LLM's tables into q (the engine, expert
/// counts, layers, hidden, weights, bits_per_weight, kv_cache, gpus; 16 PCIe lanes a card) and
/// returns kv_values_per_token; a bad field adds a problem to `fields`.
int readServedModel(const RowFields& fields, perf::PerfQuery& q);

/// llm-prefill of a prompt of `inputTokens` tokens for q's model and GPUs, with its attention's
/// FLOPs per token from q's layers and width (4 per attended position and unit of width).
perf::PerfQuery servedPromptQuery(const perf::PerfQuery& q, int inputTokens);

/// Every bad row is reported (file, line, field); nothing is returned unless all are valid.
std::vector<ServingRun> readServingRuns(std::string_view text, const std::string& fileLabel);
/// The shipped runs (compiled in).
std::vector<ServingRun> builtinServingRuns();

/// A run's output tokens/s per GPU as the model gives it: the batch's prompts as one step of
/// sequences x input_tokens tokens (servingPromptSeconds), then output_tokens steps of llm-decode.
double predictServingRun(const perf::PerfModel& model, const Gpu& g, const ServingRun& run,
                         const perf::ServingConstants& k = {});

struct ServingFit {
    perf::ServingConstants constants;
    /// Row by row (the runs' order): signed error in percent with the fitted constants, and the
    /// absolute error with constants fitted without the row's architecture (Hopper, Ada, Ampere);
    /// for a mixture of experts (never fitted) both use the constants fitted on all rows.
    std::vector<double> errorsPct, leaveOneArchitectureOutPct;
};

/// Fits the matmul efficiency and the time per doubling of the sequences on the single-GPU rows
/// of dense models (least squares on log errors), then the link's efficiency and the all-reduce's
/// latency on the tensor-parallel rows of dense models with those fixed. Throws AdvisorError if a
/// run's GPU is not in the catalog.
ServingFit fitServingConstants(const std::vector<ServingRun>& runs, const Catalog& catalog,
                               const perf::PerfModel& model);

} // namespace advisor::eval
