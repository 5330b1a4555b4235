// `gpu-advisor value`: performance per dollar for every GPU with a price.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "cli/table.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "value/value_table.h"

#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json optionalNumber(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    PriceDb& db = ctx.db();
    value::ValueOptions o;
    const PerfOptions perf = perfOptions(args);
    o.metric = perf.metric.value_or(perf::Metric::Int8Inference);
    o.llm = perf.query; // llm-decode, llm-prefill: the model, weights, context and KV cache
    readSystemRam(args, perf::isLlm(o.metric), o.llm);
    if (!perf::isLlm(o.metric) && hasLlmOptions(args) && perf.query.llmTrainingParamsBillion <= 0) {
        throw UsageError(std::string(kLlmOptionNames) + " describe an LLM; give --metric llm-decode or llm-prefill "
                         "(--workload llm takes a language model's size for the other metrics)");
    }
    if (perf::isLlm(o.metric) && args.has("sparsity")) {
        throw UsageError("--sparsity describes training and inference; LLM inference (llama.cpp-style) stays dense");
    }
    o.workload = perf.query.workload;
    o.languageModelParamsBillion = perf.query.llmTrainingParamsBillion;
    o.gpuCount = perf.query.gpus;
    o.sparsity24 = perf.query.sparsity24;
    o.includeResale = args.has("resale");
    o.settings = db.settings();
    if (const auto r = args.value("reference")) {
        o.settings.referenceGpu = db.catalog().require(*r, "--reference").id;
    }
    const auto minMemory = args.number("min-memory", 0, 100000);
    const perf::PerfModel model(db.catalog());
    const auto table = value::computeValueTable(db.catalog(), model, db.prices(), o);
    const bool showUnpriced = args.has("all");

    if (ctx.json()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : table.rows) {
            if (minMemory && r.gpu->memoryGb < *minMemory) {
                continue;
            }
            nlohmann::json j = {{"gpu", r.gpu->name},
                                {"gpu_id", r.gpu->id},
                                {"memory_gb", r.gpu->memoryGb},
                                {"priced", r.price.has_value()},
                                {"price_usd", r.price ? nlohmann::json(r.price->usd) : nlohmann::json(nullptr)},
                                {"price_basis", r.price ? nlohmann::json(r.price->basis) : nlohmann::json(nullptr)},
                                {"tco_usd", r.tco ? nlohmann::json(r.tco->totalUsd) : nlohmann::json(nullptr)},
                                {"relative_performance", r.relativePerformance},
                                {"holds_model", r.holdsModel},
                                {"partly_in_ram", r.partlyInRam},
                                {"sequences", r.llmSequences > 0 ? nlohmann::json(r.llmSequences) : nlohmann::json()},
                                {"perf_per_dollar", optionalNumber(r.perfPerDollar)}};
            if (r.tco) {
                j["cost_parts"] = {{"desktop_usd", r.tco->desktopUsd},
                                   {"gpus_usd", r.tco->gpusUsd},
                                   {"electricity_usd", r.tco->electricityUsd},
                                   {"kwh_per_year", r.tco->kwhPerYear},
                                   {"kg_co2e_per_year", r.tco->kwhPerYear * o.settings.gridKgCo2ePerKwh},
                                   {"resale_usd", r.tco->resaleUsd}};
            }
            rows.push_back(j);
        }
        ctx.printJson({{"metric", perf::toString(o.metric)},
                       {"workload", perf::toString(o.workload)},
                       {"language_model_params_billion", o.languageModelParamsBillion > 0
                                                              ? nlohmann::json(o.languageModelParamsBillion)
                                                              : nlohmann::json()},
                       {"gpus", o.gpuCount},
                       {"llm_engine", perf::isLlm(o.metric) ? nlohmann::json(perf::toString(o.llm.llmEngine))
                                                            : nlohmann::json()},
                       {"sparsity_2_4", o.sparsity24},
                       {"reference", table.reference->name},
                       {"normalised_to_reference", table.normalisedToReference},
                       {"settings", {{"years", o.settings.years},
                                     {"electricity_usd_per_kwh", o.settings.electricityUsdPerKwh},
                                     {"utilization", o.settings.utilization},
                                     {"desktop_base_cost_usd", o.settings.desktopBaseCostUsd},
                                     {"price_rule", toString(o.settings.priceRule)},
                                     {"resale", o.includeResale}}},
                       {"rows", rows}});
        return 0;
    }
    // Token generation with as many sequences as fit: each card's count beside its speed.
    const bool filled = o.metric == perf::Metric::LlmDecode && o.llm.llmSequencesFillMemory;
    std::vector<std::string> header = {"GPU", "MEMORY", "PRICE", "TCO", "ELECTRICITY", "REL. PERF", "PERF/$"};
    if (filled) {
        header.insert(header.begin() + 6, "SEQUENCES");
    }
    TextTable t(header);
    for (size_t c = 1; c < header.size(); ++c) {
        t.setRightAligned(c);
    }
    size_t unpriced = 0, tooSmall = 0, partlyInRam = 0;
    for (const auto& r : table.rows) {
        if (minMemory && r.gpu->memoryGb < *minMemory) {
            continue;
        }
        if (!r.holdsModel) { // an LLM's weights and KV cache do not fit: its speed would be a fiction
            ++tooSmall;
            continue;
        }
        if (!r.perfPerDollar) {
            ++unpriced;
            if (!showUnpriced) {
                continue;
            }
        }
        partlyInRam += r.partlyInRam ? 1 : 0;
        std::vector<std::string> cells = {r.gpu->name + (r.partlyInRam ? " (+RAM)" : ""),
                                          format::gigabytes(r.gpu->memoryGb),
                                          r.price ? format::money(r.price->usd) : "unpriced",
                                          r.tco ? format::money(r.tco->totalUsd) : "-",
                                          r.tco ? format::money(r.tco->electricityUsd) : "-",
                                          format::number(r.relativePerformance, 2),
                                          r.perfPerDollar ? format::number(*r.perfPerDollar, 2) : "-"};
        if (filled) {
            cells.insert(cells.begin() + 6, std::to_string(r.llmSequences));
        }
        t.addRow(cells);
    }
    ctx.out() << perf::toString(o.metric) << " ("
              << (perf::isLlm(o.metric)
                      ? perf::llmQueryDescription(o.llm)
                      : perf::toString(perf::WorkloadChoice{o.workload, o.languageModelParamsBillion}))
              << "), " << format::count(o.gpuCount, "GPU") << "; " << format::trimmed(o.settings.years, 2)
              << " years at " << format::money(o.settings.electricityUsdPerKwh) << "/kWh and "
              << format::percent(o.settings.utilization, 0) << " utilization; desktop "
              << format::money(o.settings.desktopBaseCostUsd) << "; price rule " << toString(o.settings.priceRule)
              << "; relative to " << (o.gpuCount > 1 ? std::to_string(o.gpuCount) + " x " : std::string())
              << table.reference->name << "\n";
    if (!table.note.empty()) {
        ctx.out() << table.note << '\n';
    }
    if (t.rowCount() == 0) { // say why, rather than print a bare header
        const std::string which =
            minMemory && *minMemory > 0 ? "with " + format::gigabytes(*minMemory) + " of memory or more" : "";
        if (unpriced == 0) {
            ctx.out() << "No GPU in the catalog " << which << '\n';
        } else {
            ctx.out() << "No GPU " << (which.empty() ? "" : which + " ") << "has a price (add one with 'gpu-advisor "
                      << "prices add'; --all lists "
                      << (unpriced == 1 ? std::string("it") : "the " + format::count(static_cast<long long>(unpriced), "GPU"))
                      << ")\n";
        }
        return 0;
    }
    t.print(ctx.out());
    if (tooSmall > 0) {
        ctx.out() << format::count(static_cast<long long>(tooSmall), "GPU")
                  << " left out: too little memory for the model's weights and KV cache\n";
    }
    if (partlyInRam > 0) {
        ctx.out() << format::count(static_cast<long long>(partlyInRam), "GPU")
                  << " marked (+RAM) " << (o.metric == perf::Metric::LlmPrefill ? "process prompts" : "generate tokens")
                  << " with part of the model in system RAM of " << format::trimmed(*o.llm.systemRamGbs, 1)
                  << " GB/s\n";
    }
    if (unpriced > 0 && !showUnpriced) {
        ctx.out() << format::count(static_cast<long long>(unpriced), "GPU") << (unpriced == 1 ? " has" : " have") << " no price (add one with 'gpu-advisor prices add'; --all lists them)\n";
    }
    return 0;
}

} // namespace

Command valueCommand() {
    return {"value", "performance per dollar (total cost of ownership) for every priced GPU",
            "Usage: gpu-advisor value [--metric M] [--workload W] [--gpus N] [--min-memory GB] [--reference GPU]\n"
            "                         [--resale] [--all] [--sparsity] [--system-ram RAM]\n\n"
            "Relative performance (the model) divided by the total cost of ownership: the desktop\n"
            "around the GPUs, the GPU price from your database (settings: price_rule), and\n"
            "electricity for `years` at `electricity_usd_per_kwh` and `utilization`; --resale credits\n"
            "the GPU's used/new price ratio after those years. Normalised to the reference GPU\n"
            "(settings: reference_gpu). Default metric: int8-inference. --all lists unpriced GPUs.\n"
            "--workload: transformer (default), cnn, rnn, recsys, or llm (a language model of\n"
            "--params-billion, default 8, or --model). --metric llm-decode or llm-prefill compares LLM\n"
            "inference in tokens/s (--params-billion or --model, --weights, --context, --depth, --kv-cache,\n"
            "--sequences generating together or --min-sequence-speed, as many as each still get that many\n"
            "tokens/s, --ubatch a prompt's tokens per step, --engine llama.cpp or\n"
            "tensorrt-llm: perf --help), leaving out the GPUs\n"
            "too small to hold the weights and KV caches (unless --system-ram holds the rest).\n" +
                std::string(kSystemRamHelp) + std::string(kSparsityHelp),
            [](Context& ctx, const std::vector<std::string>& rest) {
                return run(ctx, Args::parse(rest, perfOptionSpecs({{"min-memory"},
                                                                   {"reference"},
                                                                   {"resale", false},
                                                                   {"all", false},
                                                                   sparsityOption(),
                                                                   systemRamOption()})));
            }};
}

} // namespace advisor::cli
