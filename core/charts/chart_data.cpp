#include "charts/chart_data.h"

#include "common/csv.h"
#include "common/errors.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/attention_at_depth.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "value/value_table.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace advisor::charts {

const char* toString(ChartKind k) {
    return k == ChartKind::PerfPerDollar ? "perf-per-dollar" : "raw";
}

std::optional<ChartKind> parseChartKind(std::string_view s) {
    if (s == "raw") {
        return ChartKind::RawPerformance;
    }
    if (s == "perf-per-dollar") {
        return ChartKind::PerfPerDollar;
    }
    return std::nullopt;
}

std::vector<perf::Metric> defaultChartMetrics(bool withFp32Training) {
    std::vector<perf::Metric> m = {perf::Metric::Int8Inference, perf::Metric::Fp16Inference,
                                   perf::Metric::Fp16Training};
    if (withFp32Training) {
        m.push_back(perf::Metric::Fp32Training);
    }
    return m;
}

std::vector<perf::Metric> llmChartMetrics() {
    return {perf::Metric::LlmDecode, perf::Metric::LlmPrefill};
}

std::string metricLabel(perf::Metric m) {
    switch (m) {
    case perf::Metric::Int8Inference:
        return "8-bit inference";
    case perf::Metric::Fp16Inference:
        return "16-bit inference";
    case perf::Metric::Fp16Training:
        return "16-bit training";
    case perf::Metric::Fp32Training:
        return "32-bit training";
    case perf::Metric::LlmDecode:
        return "token generation";
    case perf::Metric::LlmPrefill:
        return "prompt processing";
    default:
        return perf::toString(m);
    }
}

size_t ChartData::metricIndex(perf::Metric m) const {
    const auto it = std::find(metrics.begin(), metrics.end(), m);
    if (it == metrics.end()) {
        throw AdvisorError(std::string("metric not in the chart: ") + perf::toString(m));
    }
    return static_cast<size_t>(it - metrics.begin());
}

namespace {

std::string priceRuleLabel(PriceRule r) {
    switch (r) {
    case PriceRule::Average:
        return "average of new and used";
    case PriceRule::NewestNew:
        return "newest new";
    case PriceRule::NewestUsed:
        return "newest used";
    case PriceRule::Cheapest:
        return "cheaper of new and used";
    }
    return toString(r);
}

bool passesFilters(const Gpu& g, const ChartOptions& o) {
    return g.memoryGb + 1e-9 >= o.minMemoryGb && (o.vendor.empty() || text::toLower(g.vendor) == text::toLower(o.vendor));
}

} // namespace

ChartData buildChartData(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                         const ChartOptions& o) {
    if (o.metrics.empty()) {
        throw InputError({"chart", 0, "", "metrics"}, "name at least one metric");
    }
    const bool llm = perf::isLlm(o.metrics.front());
    for (const auto m : o.metrics) {
        if (perf::isLlm(m) != llm) {
            throw InputError({"chart", 0, "", "metric"},
                             "chart LLM inference (llm-decode, llm-prefill) apart from training and inference; " +
                                 std::string(perf::toString(m)) + " does not go with " +
                                 perf::toString(o.metrics.front()));
        }
    }
    if (std::find(o.metrics.begin(), o.metrics.end(), o.sortBy) == o.metrics.end()) {
        throw InputError({"chart", 0, "", "sort"}, std::string("'") + perf::toString(o.sortBy) +
                                                       "' is not one of the chart's metrics");
    }
    if (!(o.minMemoryGb >= 0)) {
        throw InputError({"chart", 0, "", "min_memory"}, "must be 0 or more");
    }
    if (o.gpus < 1 || o.gpus > 8) {
        throw InputError({"chart", 0, "", "gpus"}, "must be 1 to 8 GPUs per setup, got " + std::to_string(o.gpus));
    }
    ChartData d;
    d.kind = o.kind;
    d.metrics = o.metrics;
    d.sortBy = o.sortBy;
    d.workload = llm ? perf::WorkloadChoice{} : o.workload; // LLM inference is no training workload
    d.llmEngine = llm ? o.llm.llmEngine : perf::LlmEngine::LlamaCpp;
    d.llmSplit = o.llm.llmSplit;
    d.llmWeights = o.llm.llmWeights;
    d.llmExperts = o.llm.llmExperts;
    d.gpusPerSetup = o.gpus;
    for (const auto m : o.metrics) {
        d.seriesNames.push_back(metricLabel(m));
    }

    // One value table per metric: the cost side is the same, the performance side differs.
    value::ValueOptions vo;
    vo.llm = o.llm;
    vo.workload = o.workload.workload;
    vo.languageModelParamsBillion = o.workload.languageModelParamsBillion;
    vo.sparsity24 = o.sparsity24;
    vo.includeResale = o.includeResale;
    vo.settings = o.settings;
    vo.gpuCount = o.gpus;
    std::map<std::string, ChartRow> byId;
    // Whether a GPU runs the model for some metric (an LLM's weights and KV cache in its memory,
    // or token generation with the rest in system RAM); a metric it cannot run has no bar.
    std::map<std::string, bool> holdsModel;
    for (size_t i = 0; i < o.metrics.size(); ++i) {
        vo.metric = o.metrics[i];
        const auto table = value::computeValueTable(catalog, model, prices, vo);
        d.reference = table.reference;
        d.normalisedToReference = table.normalisedToReference;
        if (!table.note.empty() && o.kind == ChartKind::PerfPerDollar && i == 0) {
            d.notes.push_back(table.note);
        }
        for (const auto& r : table.rows) {
            ChartRow& row = byId[r.gpu->id];
            row.gpu = r.gpu;
            row.values.resize(o.metrics.size());
            row.price = r.price;
            row.tcoUsd = r.tco ? std::optional<double>(r.tco->totalUsd) : std::nullopt;
            holdsModel[r.gpu->id] = holdsModel[r.gpu->id] || r.holdsModel;
            row.partlyInRam = row.partlyInRam || r.partlyInRam;
            row.llmSequences = std::max(row.llmSequences, r.llmSequences);
            if (r.holdsModel) {
                row.values[i] = o.kind == ChartKind::RawPerformance ? std::optional<double>(r.relativePerformance)
                                                                    : r.perfPerDollar;
            }
        }
    }
    int filtered = 0, unpriced = 0, tooSmall = 0, partlyInRam = 0;
    bool attentionHeavy = false;
    for (const auto& g : catalog.gpus()) {
        ChartRow& row = byId.at(g.id);
        if (!passesFilters(g, o)) {
            ++filtered;
            continue;
        }
        if (!holdsModel.at(g.id)) {
            ++tooSmall;
            continue;
        }
        if ((o.kind == ChartKind::PerfPerDollar || o.onlyPriced) && !row.price) {
            ++unpriced;
            continue;
        }
        row.highlighted = std::find(o.highlight.begin(), o.highlight.end(), g.id) != o.highlight.end();
        partlyInRam += row.partlyInRam ? 1 : 0;
        for (const auto m : o.metrics) {
            vo.metric = m;
            const perf::Prediction p = model.explain(g, value::valueQuery(vo));
            row.why.push_back(perf::explanationSummary(p));
            attentionHeavy = attentionHeavy || perf::hasAttentionAtDepthNote(p.notes);
            row.caveats.push_back(p.notes);
        }
        d.rows.push_back(row);
    }
    const size_t s = d.metricIndex(o.sortBy);
    std::stable_sort(d.rows.begin(), d.rows.end(), [s](const ChartRow& a, const ChartRow& b) {
        return a.values[s].value_or(-1) > b.values[s].value_or(-1);
    });
    if (o.maxRows > 0 && d.rows.size() > o.maxRows) {
        d.notes.push_back("showing the best " + std::to_string(o.maxRows) + " of " + std::to_string(d.rows.size()));
        d.rows.resize(o.maxRows);
    }
    if (filtered > 0) {
        d.notes.push_back(format::count(static_cast<long long>(filtered), "GPU") + " left out by the memory/vendor filter");
    }
    const bool cnnTraining = d.workload.workload == perf::WorkloadClass::Cnn &&
                             d.workload.languageModelParamsBillion <= 0 &&
                             std::any_of(d.metrics.begin(), d.metrics.end(), perf::isTraining);
    if (cnnTraining && std::any_of(d.rows.begin(), d.rows.end(),
                                   [](const ChartRow& r) { return perf::newerThanTheTrainingCalibration(*r.gpu); })) {
        // What most newer runs of CNN training say (docs/performance-model.md).
        d.notes.push_back("CNN training on the Ada, Hopper and Blackwell cards: read as a floor (the model was slow "
                          "on most newer runs of them)");
    }
    if (attentionHeavy) {
        d.notes.push_back(perf::attentionChartNote());
    }
    if (tooSmall > 0) {
        vo.metric = o.metrics.front();
        d.notes.push_back(format::count(static_cast<long long>(tooSmall), "GPU") +
                          " left out: too little memory for the model's " +
                          format::number(perf::llmBytesHeld(value::valueQuery(vo)) / 1e9, 1) +
                          " GB of weights and KV cache");
    }
    if (partlyInRam > 0) {
        d.notes.push_back(format::count(static_cast<long long>(partlyInRam), "GPU") +
                          " run the model with part of it in system RAM of " + format::trimmed(*o.llm.systemRamGbs, 1) +
                          " GB/s, marked (+RAM): the CPU generates tokens from it, and prompts copy it to the GPU "
                          "over PCIe");
    }
    if (llm && d.reference != nullptr && !perf::llmFits(*d.reference, value::valueQuery(vo))) {
        d.notes.push_back(d.reference->name + ", the reference, cannot hold the model either: 1.0 is its speed " +
                          (o.llm.systemRamGbs ? "with the rest in system RAM" : "as if it could"));
    }
    if (o.kind == ChartKind::PerfPerDollar) {
        // One note for all the complete computers shown, so that it fits one line.
        std::vector<std::string> systems;
        for (const auto& row : d.rows) {
            if (row.gpu->isCompleteSystem()) {
                systems.push_back(row.gpu->name);
            }
        }
        if (systems.size() == 1) {
            d.notes.push_back(systems.front() +
                              " is a complete computer: its cost is the whole machine's, no desktop added");
        } else if (systems.size() > 1) {
            const std::string last = systems.back();
            systems.pop_back();
            d.notes.push_back(text::join(systems, ", ") + " and " + last +
                              " are complete computers: their cost is the whole machine's, no desktop added");
        }
    }
    if (unpriced > 0) {
        d.notes.push_back(format::count(static_cast<long long>(unpriced), "GPU") + " without a price (" + priceRuleLabel(o.settings.priceRule) +
                          ") are not shown (add prices on the Prices page)");
    }

    // Several GPUs per setup: every bar, the reference's too, is that many cards.
    const std::string perSetup = o.gpus > 1 ? std::to_string(o.gpus) + " x " : std::string();
    const std::string refName = perSetup + (d.reference ? d.reference->name : "?");
    const std::string workload = (llm ? perf::llmQueryDescription(o.llm)
                                      : perf::toString(o.workload) + (o.sparsity24 ? ", 2:4 sparse weights" : "")) +
                                 (o.gpus > 1 ? ", " + std::to_string(o.gpus) + " GPUs per setup" : std::string());
    if (o.kind == ChartKind::RawPerformance) {
        d.title = llm ? "Relative LLM inference speed (" + workload + ")"
                      : "Relative deep learning performance (" + workload + ")";
        d.valueAxisLabel = (llm ? "Tokens per second relative to " : "Performance relative to ") + refName +
                           " (1.0 = " + refName + ")";
        const std::string per = o.gpus > 1 ? "per setup of " + std::to_string(o.gpus) + " GPUs" : "per GPU";
        const bool serving = d.llmEngine == perf::LlmEngine::TensorRtLlm;
        d.subtitle = (llm ? std::string("Modelled ") + (serving ? "TensorRT-LLM" : "llama.cpp-style") + " tokens/s " +
                                per + "; sorted by "
                          : "Modelled throughput " + per + "; sorted by ") +
                     metricLabel(o.sortBy);
    } else {
        d.title = (llm ? "LLM inference per dollar (" : "Performance per dollar (") + workload + ")";
        const std::string perDollar = llm ? "Tokens/s per dollar" : "Performance per dollar";
        d.valueAxisLabel = d.normalisedToReference
                               ? perDollar + " relative to " + refName + " (1.0 = " + refName + ")"
                               : perDollar + " relative to the best GPU";
        d.subtitle = "Throughput / " + format::trimmed(o.settings.years, 2) +
                     "-year cost: " + (o.gpus > 1 ? std::to_string(o.gpus) + " GPUs (" : std::string("GPU (")) +
                     priceRuleLabel(o.settings.priceRule) + " price) + " +
                     format::money(o.settings.desktopBaseCostUsd) + " desktop + electricity at " +
                     format::money(o.settings.electricityUsdPerKwh) + "/kWh, " +
                     format::percent(o.settings.utilization, 0) + " utilization; sorted by " + metricLabel(o.sortBy);
    }
    return d;
}

std::string chartCsv(const ChartData& d) {
    std::string out;
    std::vector<std::string> header = {"gpu", "gpu_id", "memory_gb", "tdp_w", "price_usd", "price_basis"};
    if (d.kind == ChartKind::PerfPerDollar) {
        header.push_back("tco_usd");
    }
    for (const auto m : d.metrics) {
        header.push_back(std::string(d.kind == ChartKind::PerfPerDollar ? "perf_per_dollar_" : "relative_") +
                         perf::toString(m));
    }
    header.push_back("highlighted");
    // Token generation with part of the model in system RAM: which bars are that speed.
    const bool anyInRam = std::any_of(d.rows.begin(), d.rows.end(), [](const ChartRow& r) { return r.partlyInRam; });
    if (anyInRam) {
        header.push_back("partly_in_ram");
    }
    // Token generation with as many sequences as fit: each card's count.
    const bool anyFilled =
        std::any_of(d.rows.begin(), d.rows.end(), [](const ChartRow& r) { return r.llmSequences > 0; });
    if (anyFilled) {
        header.push_back("sequences");
    }
    csv::appendRow(out, header);
    for (const auto& r : d.rows) {
        // Names can be the user's own (custom GPUs): keep spreadsheets from running them.
        std::vector<std::string> f = {csv::neutralizeFormula(r.gpu->name),
                                      csv::neutralizeFormula(r.gpu->id),
                                      text::formatDoubleExact(r.gpu->memoryGb),
                                      text::formatDoubleExact(r.gpu->tdpW),
                                      r.price ? text::formatDoubleExact(r.price->usd) : "",
                                      r.price ? csv::neutralizeFormula(r.price->basis) : ""};
        if (d.kind == ChartKind::PerfPerDollar) {
            f.push_back(r.tcoUsd ? text::formatDoubleExact(*r.tcoUsd) : "");
        }
        for (const auto& v : r.values) {
            f.push_back(v ? text::formatDoubleExact(*v) : "");
        }
        f.push_back(r.highlighted ? "yes" : "no");
        if (anyInRam) {
            f.push_back(r.partlyInRam ? "yes" : "no");
        }
        if (anyFilled) {
            f.push_back(r.llmSequences > 0 ? std::to_string(r.llmSequences) : "");
        }
        csv::appendRow(out, f);
    }
    return out;
}

} // namespace advisor::charts
