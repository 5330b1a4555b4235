#include "value/value_table.h"

#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/sequences_that_fit.h"

#include <algorithm>
#include <map>

namespace advisor::value {

TcoInput tcoInputFor(const Gpu& g, double gpuPriceUsd, const ValueOptions& o, std::optional<double> resaleFraction) {
    TcoInput in;
    in.gpuPriceUsd = gpuPriceUsd;
    in.gpuCount = o.gpuCount;
    in.gpuWatts = g.tdpW;
    in.desktopBaseCostUsd = desktopBaseCostFor(g, o.settings);
    in.electricityUsdPerKwh = o.settings.electricityUsdPerKwh;
    in.utilization = o.settings.utilization;
    in.years = o.settings.years;
    in.resaleFraction = resaleFraction;
    return in;
}

perf::PerfQuery valueQuery(const ValueOptions& o) {
    perf::PerfQuery q;
    if (perf::isLlm(o.metric)) {
        q = o.llm;
    } else {
        q.workload = o.workload;
        q.llmTrainingParamsBillion = o.languageModelParamsBillion;
        q.sparsity24 = o.sparsity24;
    }
    q.metric = o.metric;
    q.gpus = o.gpuCount;
    return q;
}

ValueTable computeValueTable(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                             const ValueOptions& o) {
    std::map<std::string, std::vector<Price>> byGpu;
    for (const auto& p : prices) {
        byGpu[p.gpuId].push_back(p);
    }
    ValueTable table;
    table.reference = catalog.findById(o.settings.referenceGpu);
    if (table.reference == nullptr) {
        table.reference = &catalog.gpus().front();
    }
    const perf::PerfQuery q = valueQuery(o);
    const double refThroughput = model.throughput(*table.reference, q);

    const bool settle = q.metric == perf::Metric::LlmDecode && q.llmSequencesFillMemory;
    for (const auto& g : catalog.gpus()) {
        ValueRow row;
        row.gpu = &g;
        // Each card's sequences (as many as fit, at a speed) are found once, for its figure and its count.
        const perf::PerfQuery run = settle ? model.withSequencesSettled(g, q) : q;
        row.throughput = model.throughput(g, run);
        row.relativePerformance = row.throughput / refThroughput;
        row.partlyInRam = perf::offloads(g, q);
        row.holdsModel = !perf::isLlm(q.metric) || perf::llmFits(g, q) || row.partlyInRam;
        if (settle) {
            row.llmSequences = std::max(1, run.llmSequences);
        }
        const auto it = byGpu.find(g.id);
        if (it != byGpu.end()) {
            row.price = choosePrice(it->second, o.settings.priceRule);
            if (row.price) {
                const auto resale = o.includeResale ? usedToNewRatio(it->second) : std::nullopt;
                row.tco = totalCostOfOwnership(tcoInputFor(g, row.price->usd, o, resale));
            }
        }
        table.rows.push_back(std::move(row));
    }
    // Normalise perf/$ to the reference, or to the best priced GPU if the reference is unpriced.
    double base = 0;
    for (const auto& r : table.rows) {
        if (r.gpu == table.reference && r.tco) {
            base = r.relativePerformance / r.tco->totalUsd;
        }
    }
    if (base <= 0) {
        table.normalisedToReference = false;
        for (const auto& r : table.rows) {
            if (r.tco && r.tco->totalUsd > 0 && r.holdsModel) { // the best GPU shown is 1
                base = std::max(base, r.relativePerformance / r.tco->totalUsd);
            }
        }
        table.note = table.reference->name + " has no price; performance per dollar is relative to the best GPU";
    }
    table.scale = base;
    for (auto& r : table.rows) {
        if (r.tco && r.tco->totalUsd > 0 && base > 0) {
            r.perfPerDollar = (r.relativePerformance / r.tco->totalUsd) / base;
        }
    }
    std::stable_sort(table.rows.begin(), table.rows.end(), [](const ValueRow& a, const ValueRow& b) {
        if (a.perfPerDollar.has_value() != b.perfPerDollar.has_value()) {
            return a.perfPerDollar.has_value();
        }
        if (a.perfPerDollar && b.perfPerDollar) {
            return *a.perfPerDollar > *b.perfPerDollar;
        }
        return a.relativePerformance > b.relativePerformance;
    });
    return table;
}

std::optional<double> perfPerDollarAt(const ValueTable& table, const Gpu& gpu, double gpuPriceUsd,
                                      const ValueOptions& options) {
    if (!(table.scale > 0)) {
        return std::nullopt;
    }
    for (const auto& r : table.rows) {
        if (r.gpu == &gpu || r.gpu->id == gpu.id) {
            const double tco = totalCostOfOwnership(tcoInputFor(gpu, gpuPriceUsd, options, std::nullopt)).totalUsd;
            return tco > 0 ? std::optional<double>(r.relativePerformance / tco / table.scale) : std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace advisor::value
