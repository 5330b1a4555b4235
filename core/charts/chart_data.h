#pragma once
/// \file
/// The numbers behind the seed's two central charts - raw performance and performance per
/// dollar - for the GPUs a user cares about: one row per GPU, one value per metric, sorted by
/// a chosen metric, normalised to a reference GPU. The window, the headless `chart` command
/// and the CSV export all draw from this one table, so they cannot disagree.

#include "perf/model.h"
#include "prices/price.h"
#include "prices/settings.h"
#include "value/gpu_price.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::charts {

enum class ChartKind { RawPerformance, PerfPerDollar };

const char* toString(ChartKind k);
std::optional<ChartKind> parseChartKind(std::string_view s); ///< "raw" or "perf-per-dollar"

/// The seed's chart metrics, in its order: 8-bit inference, 16-bit inference, 16-bit training.
std::vector<perf::Metric> defaultChartMetrics(bool withFp32Training);

struct ChartOptions {
    ChartKind kind = ChartKind::RawPerformance;
    std::vector<perf::Metric> metrics = defaultChartMetrics(false);
    perf::Metric sortBy = perf::Metric::Fp16Training; ///< must be one of `metrics`
    perf::WorkloadChoice workload; ///< a class, or a language model of a size
    /// LLM inference, for a chart of llm-decode and llm-prefill (tokens/s relative to the
    /// reference): the model's size, weights, context and KV cache. GPUs that cannot hold the
    /// weights and cache are left out and counted in a note.
    perf::PerfQuery llm;
    double minMemoryGb = 0;
    /// GPUs per setup (value --gpus): each bar is that many of a GPU on its own links, against as
    /// many of the reference; the cost counts them all in one desktop. 1-8.
    int gpus = 1;
    bool sparsity24 = false; ///< 2:4 structured-sparse weights (perf::PerfQuery::sparsity24); off by default
    std::string vendor;      ///< "" = every vendor; otherwise exact, case-insensitive ("NVIDIA", "AMD")
    bool onlyPriced = false; ///< raw chart: leave out GPUs without a price (perf/$ always does)
    bool includeResale = false;
    Settings settings;       ///< reference GPU, price rule (new/used basis), electricity, utilization, years
    std::vector<std::string> highlight; ///< GPU ids to mark (the current recommendation)
    size_t maxRows = 0;      ///< 0 = all
};

struct ChartRow {
    const Gpu* gpu = nullptr;
    std::vector<std::optional<double>> values; ///< one per metric; nullopt where not computable
    std::vector<std::string> why;              ///< one per metric: the model's explanation in a line
    std::vector<std::vector<std::string>> caveats; ///< one list per metric: the prediction's notes
                                                   ///< (figures estimated, read as a floor, ...)
    std::optional<value::ChosenPrice> price;
    std::optional<double> tcoUsd;              ///< perf/$ chart: the cost it divides by
    bool highlighted = false;
    /// LLM token generation with part of the model in system RAM (ChartOptions::llm's
    /// systemRamGbs): its bar is that speed, and it has no prompt-processing bar.
    bool partlyInRam = false;
    /// LLM token generation with as many sequences as fit (ChartOptions::llm's
    /// llmSequencesFillMemory): the sequences this card's bar ran; 0 otherwise.
    int llmSequences = 0;
};

struct ChartData {
    ChartKind kind = ChartKind::RawPerformance;
    std::vector<perf::Metric> metrics;
    std::vector<std::string> seriesNames; ///< e.g. "8-bit inference"
    perf::Metric sortBy = perf::Metric::Fp16Training;
    perf::WorkloadChoice workload;        ///< what the bars are for (ChartOptions::workload)
    perf::LlmEngine llmEngine = perf::LlmEngine::LlamaCpp; ///< the software LLM bars are for
    perf::LlmSplit llmSplit = perf::LlmSplit::Tensors;     ///< and how it splits the model over a setup
    perf::Precision llmWeights = perf::Precision::Int4;    ///< the LLM's weights, whose error may differ
    int llmExperts = 0; ///< the LLM's routed experts (a mixture of experts' error differs in the engine); 0: dense
    int gpusPerSetup = 1;                 ///< ChartOptions::gpus
    std::vector<ChartRow> rows;           ///< best first by `sortBy`
    const Gpu* reference = nullptr;
    bool normalisedToReference = true;    ///< perf/$: false when the reference has no price
    std::string title;
    std::string valueAxisLabel;           ///< readable without the app
    std::string subtitle;                 ///< workload, price rule and settings the numbers assume
    std::vector<std::string> notes;       ///< what was left out and why

    size_t metricIndex(perf::Metric m) const; ///< index into values; throws if absent
};

/// Throws InputError (field named) for an empty metric list, a sortBy not among the metrics,
/// LLM metrics mixed with the others (their bars answer another question), a negative memory
/// filter or GPUs per setup outside 1-8.
ChartData buildChartData(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                         const ChartOptions& options);

/// The LLM metrics a chart of LLM inference shows: token generation and prompt processing.
std::vector<perf::Metric> llmChartMetrics();

/// Human name of a chart metric ("16-bit training", "token generation").
std::string metricLabel(perf::Metric m);

/// Exactly the plotted numbers, one row per GPU in chart order (shortest round-trip decimals); when
/// some GPUs generate tokens with part of the model in system RAM, a partly_in_ram column says which;
/// with as many sequences as fit, a sequences column gives each card's count.
std::string chartCsv(const ChartData& data);

} // namespace advisor::charts
