#pragma once
/// \file
/// How much to trust a prediction: the calibration's leave-one-architecture-out error (each
/// architecture predicted by a fit that never saw it), read from the calibration file that
/// `gpu-advisor calibrate --out` writes next to the constants ("fit.accuracy").

#include "perf/workload.h"

#include <optional>
#include <string>
#include <string_view>

namespace advisor::perf {

struct PerfQuery;

struct ErrorBand {
    double medianPct = 0; ///< median absolute error
    double p90Pct = 0;    ///< exceeded by one prediction in ten
    int rows = 0;         ///< measurements behind the figures
};

struct ModelAccuracy {
    /// A single GPU's relative speed for a workload class (what the app predicts: the class's
    /// shares, so a workload the calibration has not seen), and for a calibration workload
    /// named in the query (its fitted profile).
    std::optional<ErrorBand> singleGpu, benchmarkWorkload;
    std::optional<ErrorBand> scaling, decode, prefill;

    /// The band for one kind of prediction: LLM token generation or prompt processing, or a
    /// single GPU's relative speed (inference included: the calibration measures training).
    std::optional<ErrorBand> forMetric(Metric m) const;
    /// The same for a query: a named calibration workload gets its own band, a language model
    /// (PerfQuery::llmTrainingParamsBillion) none, since it is derived rather than fitted.
    std::optional<ErrorBand> forQuery(const PerfQuery& q) const;
};

/// Reads "fit.accuracy" of a calibration document; absent parts stay empty. Throws
/// InputError naming the file when the text is not JSON.
ModelAccuracy accuracyFromCalibrationText(std::string_view text, const std::string& fileLabel);

/// The shipped calibration's accuracy.
const ModelAccuracy& shippedAccuracy();

} // namespace advisor::perf
