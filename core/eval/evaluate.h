#pragma once
/// \file
/// `eval-model`: compares the model's predictions with a benchmark file. For every row,
/// relative = throughput / the reference GPU's single-GPU throughput for the same workload
/// and precision, measured and predicted; error = predicted / measured - 1. A workload and
/// precision the reference did not run is taken relative to another GPU that did (listed).

#include "eval/benchmarks.h"
#include "perf/model.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace advisor::eval {

struct EvaluatedRow {
    BenchmarkRow row;
    std::string gpuId; ///< empty when the name did not resolve
    bool evaluated = false;
    std::string skipReason;
    std::string referenceGpu; ///< catalog name of the GPU this row is relative to
    int referenceNumGpus = 1; ///< that GPU's setup: 1 unless no GPU ran the workload alone
    bool isReferenceRow = false; ///< the reference's own single-GPU row (relative 1, not summarised)
    double measuredRelative = 0;
    double predictedRelative = 0;
    double errorPct = 0;
    /// The rule of thumb's prediction: the GPU's peak memory bandwidth over the reference's
    /// (the setup's GPU count aside), and its error.
    double bandwidthRelative = 0;
    double bandwidthErrorPct = 0;
    /// Predicted with the fitted profile of its network (a calibration workload of that name),
    /// not its class's shares.
    bool workloadProfile = false;
    /// That profile's name (the row's workload name, or the calibration network it stands for:
    /// perf::profileNameFor); empty when the class's shares were used.
    std::string profile;
    /// A transformer whose name gives a language model's size (perf::PerfQuery::
    /// llmTrainingParamsBillion): predicted with the language-model profile; 0 otherwise.
    double languageModelParamsBillion = 0;
    /// Why the model predicts what it does for the row's setup: the roof that bound it and the
    /// factors that moved it most (perf::explanationSummary), so a miss can be read.
    std::string explanation;
    /// The row gives no batch size; it was taken from the same GPU's multi-GPU rows (perGpuBatches).
    bool batchFromMultiGpuRuns = false;
};

struct ErrorSummary {
    size_t rows = 0;
    double medianAbsErrorPct = 0;
    double p90AbsErrorPct = 0;
    double spearman = 0;
};

/// A workload and precision the reference GPU did not run on its own, taken relative to another GPU.
struct OtherReference {
    std::string workload;
    perf::Precision precision = perf::Precision::Fp16;
    std::string gpu; ///< catalog name
    size_t rows = 0; ///< the group's rows in the file
    int numGpus = 1; ///< more when no GPU ran the workload and precision alone (70B on 24 GB cards)
};

/// A workload and precision whose reference setup ran more than once in the file (several batch
/// sizes, or repeats): the first such row is the reference, and the model takes its per-GPU batch
/// as the typical one (unless the network's profile knows the batch it was fitted at), so the
/// others are predicted with the batch gain from it.
struct ReferenceAmongRuns {
    std::string workload;
    perf::Precision precision = perf::Precision::Fp16;
    std::string gpu; ///< catalog name
    int numGpus = 1;
    int line = 0;                           ///< the reference row's line
    std::optional<double> perGpuBatch;      ///< its per-GPU batch, when known
    size_t runs = 0;                        ///< rows of the reference setup in the group, itself included
    std::vector<double> otherPerGpuBatches; ///< the other runs' batches, distinct and sorted (unknown ones left out)
    /// The batch its network's profile was fitted at, when the runs are predicted relative to that
    /// rather than to the reference run's batch (WorkloadProfile::typicalPerGpuBatch).
    std::optional<double> profileTypicalPerGpuBatch;
};

struct Evaluation {
    std::string referenceGpu; ///< catalog name of the reference
    std::vector<OtherReference> otherReferences;
    std::vector<ReferenceAmongRuns> referencesAmongRuns;
    std::vector<EvaluatedRow> rows;
    ErrorSummary all;
    ErrorSummary singleGpu;
    /// The single-GPU rows predicted by "speed ratio = bandwidth ratio", the baseline the
    /// model must beat (issue #3; about 16% / 45% on newer cards).
    ErrorSummary singleGpuBandwidthBaseline;
    ErrorSummary multiGpu;
    /// Single-GPU rows by the architecture of the row's GPU (sorted by name; the reference
    /// rows left out), so newer cards can be read apart from the rest.
    std::vector<std::pair<std::string, ErrorSummary>> singleGpuByArchitecture;
    /// Single- and multi-GPU rows by workload class as the file gives it (sorted), so a file of
    /// token generation and prompt processing, or of training classes, can be read class by class.
    std::vector<std::pair<std::string, ErrorSummary>> singleGpuByClass;
    std::vector<std::pair<std::string, ErrorSummary>> multiGpuByClass;
    std::vector<std::string> unresolved; ///< GPU names the catalog did not know (listed, not fatal)
    /// Why each of `unresolved` (same order) was not resolved: unknown, with suggestions, or
    /// ambiguous, with the GPUs it matches (Resolution::message()).
    std::vector<std::string> unresolvedReasons;
    /// LLM workloads whose name gives no size ("70b", "mistral7b"): predicted as 8B models.
    std::vector<std::string> llmSizeAssumed;
};

/// The per-row query the model answers for a benchmark row (batch relative to `referenceBatch`).
perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> referenceBatchPerGpu, bool nvlink);
/// The same with the row's per-GPU batch given (perGpuBatches fills in missing ones).
perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> rowBatchPerGpu,
                         std::optional<double> referenceBatchPerGpu, bool nvlink);

/// The per-GPU batch of each row. A single-GPU row without one takes the median per-GPU batch of
/// the same GPU's multi-GPU rows of that workload, precision and source: Lambda runs a GPU at one
/// per-GPU batch on 1 to 8 GPUs (161 of the 192 such configurations of its 2020-21 file, the rest
/// within 10%), and its logs confirm it for the RTX A6000, whose single-GPU rows give no batch
/// (bert_large_squad fp16: 36, ssd fp32: 144). `gpus[i]` is row i's GPU as resolved; a row whose
/// GPU did not resolve (nullptr) is left as it is.
std::vector<std::optional<double>> perGpuBatches(const std::vector<BenchmarkRow>& rows,
                                                 const std::vector<const Gpu*>& gpus);

/// Evaluates rows. `reference` names the GPU to normalise to; by default the GPU with the most
/// single-GPU rows (in a file without any, the most rows). A (workload, precision) it did not run
/// alone is normalised to the group's GPU with the most single-GPU rows in the file (ties: catalog
/// id), and one that no GPU ran alone to the setup with the fewest GPUs (the same ranking among
/// them); both are listed in otherReferences. A group that only one GPU setup ran is skipped.
/// Throws InputError when the reference is unknown or ambiguous.
Evaluation evaluate(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::PerfModel& model,
                    const std::optional<std::string>& reference = std::nullopt);

/// The model's errors over `rows`, or with bandwidthBaseline the rule of thumb's on the same rows.
ErrorSummary summarize(const std::vector<const EvaluatedRow*>& rows, bool bandwidthBaseline = false);

} // namespace advisor::eval
