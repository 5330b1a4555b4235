#pragma once
/// \file
/// llama.cpp's token generation with part of a model left in system RAM, measured
/// (resources/perf/llamacpp-partial-offload-2026.csv), and the fit of perf/llm_offload.h's two
/// constants on it: the share of the RAM's bandwidth the CPU draws and its fixed time per layer.
///   gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,vocab,hidden,
///   bits_per_weight,gpu_layers,cpu_moe_layers,system_ram_gbs,tokens_per_s,source
/// A dense row gives gpu_layers (-ngl); a mixture of experts gives cpu_moe_layers (--n-cpu-moe)
/// with every layer on the GPU.

#include "catalog/catalog.h"
#include "perf/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

struct OffloadRun {
    int line = 0;
    std::string gpu;       ///< resolved against the catalog when fitted
    std::string model;     ///< as written, for the report
    perf::PerfQuery query; ///< llm-decode with the run's model, placement and RAM
    double tokensPerSecond = 0;
    std::string source;
};

/// Every bad row is reported (file, line, field); nothing is returned unless all are valid.
std::vector<OffloadRun> readOffloadRuns(std::string_view text, const std::string& fileLabel);
/// The shipped runs (compiled in).
std::vector<OffloadRun> builtinOffloadRuns();

struct OffloadConstantsFit {
    double ramReadEfficiency = 0;
    double cpuLayerMs = 0;
    /// Absolute errors in percent, row by row, with the fitted constants (in-sample) and with
    /// constants fitted without that row (leave-one-out).
    std::vector<double> errorsPct, leaveOneOutErrorsPct;
};

/// Fits the two constants (a grid: efficiency 0.200-0.900 by 0.005, 0-1.5 ms by 0.01 ms) to
/// minimise the sum of absolute relative errors, the GPU's side as `model` predicts it. Throws
/// AdvisorError if a run's GPU is not in the catalog.
OffloadConstantsFit fitOffloadConstants(const std::vector<OffloadRun>& runs, const Catalog& catalog,
                                        const perf::PerfModel& model);

} // namespace advisor::eval
