#pragma once
/// \file
/// A serving engine's measured time to the first token (resources/perf/tensorrt-llm-0.9-first-token.csv:
/// TensorRT-LLM 0.9's published low-latency tables): one request's prompt of input_tokens at batch
/// size 1, on 1-8 GPUs, until its first output token. Never fitted on: a check of the engine's
/// prompt step (perf/serving_engine.h) at one sequence, which its throughput tables (16 sequences
/// and more) do not reach.
///   gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,
///   kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,input_tokens,first_token_ms,source

#include "catalog/catalog.h"
#include "perf/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

struct FirstTokenRun {
    int line = 0;
    std::string gpu;   ///< resolved against the catalog when predicted
    std::string model; ///< as written, for the report
    /// llm-prefill of the prompt (input_tokens of context), tensorrt-llm, the row's GPUs.
    perf::PerfQuery query;
    int inputTokens = 0;
    double firstTokenMs = 0;
    std::string source;
    bool mixtureOfExperts() const { return query.llmExperts > 0; }
};

/// Every bad row is reported (file, line, field); nothing is returned unless all are valid.
std::vector<FirstTokenRun> readFirstTokenRuns(std::string_view text, const std::string& fileLabel);
/// The shipped runs (compiled in).
std::vector<FirstTokenRun> builtinFirstTokenRuns();

/// The run's time to the first token as the model gives it, in milliseconds: its prompt's tokens
/// over llm-prefill's tokens/s in the serving engine (one step: servingPromptSeconds).
double predictFirstTokenMs(const perf::PerfModel& model, const Gpu& g, const FirstTokenRun& run);

} // namespace advisor::eval
