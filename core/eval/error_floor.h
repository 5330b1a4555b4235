#pragma once
/// \file
/// How small the single-GPU error can get on given measurements for any model whose GPU
/// dependence is one number per GPU, workload class and precision: each such cell gets a
/// free speed, fitted in-sample. What remains is variation between workloads of one class
/// on one GPU (software versions, batch conventions) that no spec-based class model can
/// predict, so it bounds the accuracy targets worth setting for such a model.

#include "eval/benchmarks.h"

#include <string>
#include <vector>

namespace advisor::eval {

struct FloorPoint {
    std::string group; ///< comparison group (workload | precision): only ratios within it count
    std::string cell;  ///< the free factor this point uses (GPU | class | precision)
    double logMeasured = 0;
    double logFixed = 0; ///< a known per-point term kept fixed (the batch-size term)
};

/// Fits one log-speed per cell (robust soft-L1, centred within each group, like the model's
/// calibration) and returns each point's fitted log throughput.
std::vector<double> fitFreeFactors(const std::vector<FloorPoint>& points);

/// Measurement noise: for every configuration measured more than once in one file (same GPU
/// name, GPU count, workload, precision and batch size), the spread between its runs, max / min - 1.
/// No model can predict a row closer than its own re-runs agree.
std::vector<double> repeatMeasurementSpreads(const std::vector<BenchmarkRow>& rows);

} // namespace advisor::eval
