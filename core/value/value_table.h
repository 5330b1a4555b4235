#pragma once
/// \file
/// Performance per dollar for every GPU: the model's throughput divided by the total cost
/// of ownership, normalised to a reference GPU - the seed's second chart, computed from the
/// user's prices and settings. Unpriced GPUs are listed as unpriced, never as free.

#include "perf/model.h"
#include "prices/price.h"
#include "prices/settings.h"
#include "value/gpu_price.h"
#include "value/tco.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::value {

struct ValueOptions {
    perf::Metric metric = perf::Metric::Fp16Training;
    perf::WorkloadClass workload = perf::WorkloadClass::Transformer;
    /// A language model of this size (perf::PerfQuery::llmTrainingParamsBillion); 0: the class.
    double languageModelParamsBillion = 0;
    /// The LLM inference llm-decode and llm-prefill are for: its size, weights, context and KV
    /// cache (the metric and GPU count are set from the fields here); ignored by other metrics.
    perf::PerfQuery llm;
    int gpuCount = 1;
    bool sparsity24 = false;    ///< 2:4 structured-sparse weights (perf::PerfQuery::sparsity24)
    bool includeResale = false; ///< credit the used/new ratio of the GPU's prices after `years`
    Settings settings;          ///< electricity, utilization, years, desktop cost, reference, price rule
};

struct ValueRow {
    const Gpu* gpu = nullptr;
    double throughput = 0;          ///< model units (one V100 SXM2 training fp16 = 1)
    double relativePerformance = 0; ///< / reference GPU's throughput
    std::optional<ChosenPrice> price; ///< nullopt: unpriced
    std::optional<Tco> tco;
    std::optional<double> perfPerDollar; ///< (relative performance / TCO), reference = 1
    /// An LLM metric: whether the weights and KV cache fit in its memory (perf::llmFits), or, for
    /// token generation with system RAM given (PerfQuery::systemRamGbs), whether what does not fit
    /// runs from there. Always true for other metrics.
    bool holdsModel = true;
    /// Token generation with part of the model in system RAM: the speed is that one.
    bool partlyInRam = false;
    /// Token generation with as many sequences as fit (PerfQuery::llmSequencesFillMemory): the
    /// sequences this card runs; 0 otherwise.
    int llmSequences = 0;
};

struct ValueTable {
    std::vector<ValueRow> rows; ///< every catalog GPU, best perf/$ first, unpriced last
    double scale = 0;           ///< (relative performance / TCO) that counts as 1
    const Gpu* reference = nullptr;
    bool normalisedToReference = true; ///< false: the reference is unpriced; best row = 1
    std::string note;
};

/// The query the table predicts each GPU with: the metric and workload, or for an LLM metric
/// the options' LLM inference.
perf::PerfQuery valueQuery(const ValueOptions& options);

/// Computes the table. `pricesByGpu(gpuId)` returns that GPU's price history.
ValueTable computeValueTable(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                             const ValueOptions& options);

/// Performance per dollar of a table's GPU at another price (e.g. its used price), on the
/// table's scale. nullopt when the table has no scale (nothing priced) or the GPU is absent.
std::optional<double> perfPerDollarAt(const ValueTable& table, const Gpu& gpu, double gpuPriceUsd,
                                      const ValueOptions& options);

/// TCO input for one GPU from the settings (the GPU's TDP as its power draw).
TcoInput tcoInputFor(const Gpu& g, double gpuPriceUsd, const ValueOptions& options,
                     std::optional<double> resaleFraction);

} // namespace advisor::value
