#pragma once
/// \file
/// Internal to core/eval: the benchmark rows prepared for fitting (resolved GPUs, derived
/// specs, queries with per-GPU batch multipliers), shared by the fitter (calibrate.cpp) and
/// the accuracy report (cross_validate.cpp).

#include "eval/calibrate.h"
#include "eval/known_issues.h"
#include "perf/model.h"

#include <map>
#include <string>
#include <vector>

namespace advisor::eval {

/// One measurement as the model sees it.
struct Obs {
    const BenchmarkRow* row = nullptr;
    const Gpu* gpu = nullptr;
    perf::EffectiveSpecs specs;
    perf::PerfQuery query;
    std::string group;   ///< workload | precision | benchmark file (rows compared with each other)
    double measured = 0; ///< throughput, or scaling efficiency for scaling observations
    /// Set when the row does not measure what it is labelled as: never fitted, and reported
    /// apart (known_issues.h).
    const KnownIssue* issue = nullptr;
};

struct Data {
    std::vector<Obs> single, scaling, decode, prefill;
    std::vector<std::string> notes;
    /// Per workload and training metric ("fp16-training"), the per-GPU batch its batch
    /// multipliers are relative to (perf::WorkloadProfile::typicalPerGpuBatch).
    std::map<std::string, std::map<std::string, double>> typicalPerGpuBatch;
};

Data prepare(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::ModelConstants& priors);
bool heldOut(const Obs& o, const CalibrationOptions& opt);
/// Whether a fit with these options uses the row: not held out, no known issue.
bool fitted(const Obs& o, const CalibrationOptions& opt);
double logPredict(const Obs& o, const perf::ModelConstants& c);
FitOutcome fitPrepared(const Data& d, const Catalog& catalog, const perf::ModelConstants& priors,
                       const CalibrationOptions& opt);

} // namespace advisor::eval
