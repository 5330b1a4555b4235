#pragma once
/// \file
/// `eval-model`: compares the model's predictions with a benchmark file. For every row,
/// relative = throughput / the reference GPU's single-GPU throughput for the same workload
/// and precision, measured and predicted; error = predicted / measured - 1.

#include "eval/benchmarks.h"
#include "perf/model.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::eval {

struct EvaluatedRow {
    BenchmarkRow row;
    std::string gpuId; ///< empty when the name did not resolve
    bool evaluated = false;
    std::string skipReason;
    double measuredRelative = 0;
    double predictedRelative = 0;
    double errorPct = 0;
    /// Predicted with the fitted profile of its network (a calibration workload of that name),
    /// not its class's shares.
    bool workloadProfile = false;
};

struct ErrorSummary {
    size_t rows = 0;
    double medianAbsErrorPct = 0;
    double p90AbsErrorPct = 0;
    double spearman = 0;
};

struct Evaluation {
    std::string referenceGpu; ///< catalog name of the reference
    std::vector<EvaluatedRow> rows;
    ErrorSummary all;
    ErrorSummary singleGpu;
    ErrorSummary multiGpu;
    std::vector<std::string> unresolved; ///< GPU names the catalog did not know (listed, not fatal)
};

/// The per-row query the model answers for a benchmark row (batch relative to `referenceBatch`).
perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> referenceBatchPerGpu, bool nvlink);

/// Evaluates rows. `reference` names the GPU to normalise to; by default the GPU with the most
/// single-GPU rows. Throws InputError when the reference is unknown or ambiguous.
Evaluation evaluate(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::PerfModel& model,
                    const std::optional<std::string>& reference = std::nullopt);

ErrorSummary summarize(const std::vector<const EvaluatedRow*>& rows);

} // namespace advisor::eval
