#pragma once
/// \file
/// Fitting the performance model's constants to measured benchmarks, and reporting its
/// accuracy honestly: in-sample and leave-one-architecture-out (fit without Turing,
/// predict Turing; likewise each architecture), for single GPUs, multi-GPU scaling and
/// LLM inference. Re-run with `gpu-advisor calibrate`.

#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "perf/constants.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace advisor::eval {

struct CalibrationOptions {
    std::optional<std::string> holdOutArchitecture; ///< fit without this architecture's rows
    /// Weight (in rows) of the seed's practical A100/V100 speed-ups (transformer 1.70x,
    /// SE-ResNeXt101 1.43x, Mask R-CNN 1.47x: NVIDIA data debiased for batch size and GPU count)
    /// used as observations. Dropped when Ampere or Volta is held out.
    double seedWeight = 20.0;
    /// How strongly each workload's own profile is pulled towards its class's shares and the
    /// seed's batch gain (residual weight of one prior unit); 0 fits no workload profiles.
    /// 0.5 was chosen on leave-one-architecture-out error and the 2022-23 check together
    /// (0.3-0.7 are within half a point of each other; docs/performance-model-experiments.md).
    double profilePriorWeight = 0.5;
    /// Weight pulling a profile's share of matmuls left in FP32 towards 0 (per unit of share):
    /// weak, so the data decides; only workloads whose GPUs rank as in fp32 get a large one.
    double fp32MatmulPriorWeight = 0.1;
    /// Pull of a recurrent network's host time per step towards its class's (per unit of the
    /// reference's time): weak, tacotron2's rows decide. 0.03 and 0.1 are within half a point of
    /// each other, 0.3 and 1.0 a point more leave-one-architecture-out p90
    /// (docs/performance-model-experiments.md).
    double hostStepPriorWeight = 0.1;
};

struct FitOutcome {
    perf::ModelConstants constants;
    size_t singleRows = 0, scalingRows = 0, decodeRows = 0, prefillRows = 0;
    std::vector<std::string> notes; ///< exclusions and why
};

FitOutcome fitModel(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::ModelConstants& priors,
                    const CalibrationOptions& options = {});

struct ErrorBlock {
    size_t rows = 0;
    double medianAbsPct = 0;
    double p90AbsPct = 0;
};

struct ArchitectureErrors {
    std::string architecture;
    ErrorBlock single, scaling, decode, prefill;
};

/// One row's leave-one-architecture-out error, to show where the model misses.
struct RowError {
    std::string gpu, workload, precision;
    std::string file;      ///< the benchmark file
    int line = 0;          ///< line in the benchmark file
    double errorPct = 0;   ///< signed: + predicted faster than measured
};

/// How many of the largest LOAO errors the report lists.
constexpr size_t kWorstRowsReported = 30;

struct AccuracyReport {
    /// Single GPU, each benchmark workload predicted with its fitted profile (eval-model).
    ErrorBlock singleInSample, singleLoao, singleBandwidthBaseline;
    /// The same rows predicted from their class's shares alone: a workload the calibration has
    /// not seen, as the app's charts and `perf --workload CLASS` predict.
    ErrorBlock singleInSampleByClass, singleLoaoByClass;
    /// Leave-one-architecture-out with the rows of known issues (known_issues.h) predicted
    /// too, as labelled: what the figure would be if they were taken at their word.
    ErrorBlock singleLoaoWithKnownIssues;
    /// In-sample floor: one free speed per GPU x workload class x precision (see error_floor.h).
    ErrorBlock singleFreeFactorFloor;
    /// Spread between repeated runs of one configuration (rows = configurations run twice or more).
    ErrorBlock repeatMeasurements;
    ErrorBlock scalingInSample, scalingLoao, scalingLinearBaseline;
    ErrorBlock scalingLoaoWithKnownIssues; ///< as singleLoaoWithKnownIssues, for scaling rows
    ErrorBlock decodeInSample, decodeLoao;
    ErrorBlock prefillInSample, prefillLoao;
    std::vector<ArchitectureErrors> byArchitecture; ///< LOAO, per held-out architecture
    std::vector<RowError> singleLoaoRows;           ///< every single-GPU LOAO error, largest first
    /// Single-GPU LOAO per benchmark file, in the order given: your own runs calibrated with the
    /// shipped ones are reported apart.
    std::vector<std::pair<std::string, ErrorBlock>> singleLoaoByFile;
    nlohmann::json seedChecks;                       ///< the seed's figures as the fitted model gives them

    nlohmann::json toJson() const;
    std::string toMarkdown() const;
};

/// Fits on everything (in-sample) and once per architecture without it (LOAO).
AccuracyReport crossValidate(const std::vector<BenchmarkRow>& rows, const Catalog& catalog,
                             const perf::ModelConstants& priors, const CalibrationOptions& options = {});

/// The seed figures computed with given constants (A100/V100 bandwidth and practical ratios,
/// RTX 4090 vs H100 SXM 8-bit inference, 8x A100 vs 8x V100 overheads).
nlohmann::json seedChecks(const Catalog& catalog, const perf::ModelConstants& constants);

} // namespace advisor::eval
