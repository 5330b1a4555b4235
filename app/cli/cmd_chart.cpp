// `gpu-advisor chart`: the raw performance or performance-per-dollar chart, drawn headless by
// the window's chart builder to PNG, PDF or SVG, or its numbers to CSV.
#include "charts/chart_data.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/bar_chart_builder.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/model.h"

#include <QString>

#include <ostream>

namespace advisor::cli {
namespace {

int chart(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const QString out = QString::fromStdString(args.required("out"));
    const auto format = ui::exportFormatFor(out);
    if (!format) {
        throw UsageError("--out must end in .png, .pdf, .svg or .csv");
    }
    charts::ChartOptions o;
    if (const auto k = args.value("kind")) {
        const auto kind = charts::parseChartKind(*k);
        if (!kind) {
            throw UsageError("--kind must be raw or perf-per-dollar");
        }
        o.kind = *kind;
    }
    o.metrics = charts::defaultChartMetrics(args.has("with-fp32"));
    if (const auto m = args.value("metric")) {
        const auto metric = perf::parseMetric(*m);
        if (!metric) {
            throw UsageError("--metric must be int8-inference, fp16-inference, fp16-training, fp32-training, "
                             "llm-decode or llm-prefill");
        }
        o.sortBy = *metric;
        if (perf::isLlm(*metric)) {
            // LLM inference: token generation and prompt processing, in tokens/s.
            if (args.has("with-fp32") || args.has("workload") || args.has("sparsity")) {
                throw UsageError("--with-fp32, --workload and --sparsity describe training and inference charts; "
                                 "an LLM chart takes --params-billion (or --model), --weights, --context, --depth, "
                                 "--kv-cache, --sequences and --ubatch");
            }
            o.metrics = charts::llmChartMetrics();
            readLlmOptions(args, o.llm);
        } else if (std::find(o.metrics.begin(), o.metrics.end(), *metric) == o.metrics.end()) {
            o.metrics.push_back(*metric);
        }
    }
    readSystemRam(args, perf::isLlm(o.sortBy), o.llm); // refuses it for a chart without LLM inference
    if (hasLlmOptions(args) && !perf::isLlm(o.sortBy)) {
        throw UsageError(std::string(kLlmOptionNames) + " describe an LLM; give --metric llm-decode or llm-prefill");
    }
    if (const auto w = args.value("workload")) {
        const auto workload = perf::parseWorkloadChoice(*w);
        if (!workload) {
            throw UsageError("--workload must be transformer, cnn, rnn, recsys or llm (a language model of " +
                             format::trimmed(perf::kDefaultLanguageModelParamsBillion, 0) + "B parameters)");
        }
        o.workload = *workload;
    }
    o.minMemoryGb = args.number("min-memory", 0, 100000).value_or(0);
    o.gpus = args.integer("gpus", 1, 8).value_or(1);
    if (const auto v = args.value("vendor")) {
        o.vendor = ctx.db().catalog().requireVendor(*v, "--vendor");
    }
    o.onlyPriced = args.has("only-priced");
    o.sparsity24 = args.has("sparsity");
    o.maxRows = static_cast<size_t>(args.integer("top", 1, 1000).value_or(0));
    auto& db = ctx.db();
    o.settings = db.settings();
    if (const auto r = args.value("price-rule")) {
        const auto rule = parsePriceRule(*r);
        if (!rule) {
            throw UsageError("--price-rule must be average, newest-new, newest-used or cheapest");
        }
        o.settings.priceRule = *rule;
    }
    if (const auto ref = args.value("reference")) {
        o.settings.referenceGpu = db.catalog().require(*ref, "--reference").id;
    }
    if (const auto h = args.value("highlight")) {
        for (const auto& name : text::split(*h, ',')) {
            if (!text::trim(name).empty()) {
                o.highlight.push_back(db.catalog().require(std::string(text::trim(name)), "--highlight").id);
            }
        }
    }
    const perf::PerfModel model(db.catalog());
    const auto data = charts::buildChartData(db.catalog(), model, db.prices(), o);
    const int width = args.integer("width", 100, 20000).value_or(1000);
    const int askedHeight = args.integer("height", 100, 20000).value_or(0); // 0: as tall as the chart needs
    const double scale = args.number("scale").value_or(1.0);
    if (!(scale >= 0.25 && scale <= 8)) {
        throw UsageError("--scale must be between 0.25 and 8");
    }
    if (*format != ui::ExportFormat::Csv) {
        ctx.gui();
    }
    const std::string theme = args.value("theme").value_or("light");
    if (theme != "light" && theme != "dark") {
        throw UsageError("--theme must be light or dark, got '" + theme + "'");
    }
    const auto style = theme == "dark" ? ui::ChartStyle::dark() : ui::ChartStyle::light();
    const QSize written = ui::exportChart(data, style, out, QSize(width, askedHeight), scale);
    const int height = written.height() > 0 ? written.height() : ui::BarChartBuilder::preferredHeight(data); // CSV
    if (ctx.json()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& r : data.rows) {
            rows.push_back(r.gpu->id);
        }
        ctx.printJson({{"out", out.toStdString()},
                       {"kind", charts::toString(data.kind)},
                       {"width", width},
                       {"height", height},
                       {"rows", data.rows.size()},
                       {"gpu_ids", rows},
                       {"title", data.title},
                       {"notes", data.notes}});
        return 0;
    }
    ctx.out() << "Wrote " << out.toStdString() << " (" << format::count(static_cast<long long>(data.rows.size()), "GPU");
    if (*format != ui::ExportFormat::Csv) {
        ctx.out() << ", " << width << " x " << height;
    }
    ctx.out() << ")\n";
    for (const auto& n : data.notes) {
        ctx.out() << "note: " << n << '\n';
    }
    return 0;
}

} // namespace

Command chartCommand() {
    return {"chart", "draw the raw performance or perf-per-dollar chart to PNG, PDF, SVG or CSV",
            "Usage: gpu-advisor chart --out FILE.png|.pdf|.svg|.csv [--kind raw|perf-per-dollar]\n"
            "                         [--metric M] [--with-fp32] [--workload W] [--min-memory GB] [--gpus N]\n"
            "                         [--params-billion P [--active-params-billion A] | --model ID]\n"
            "                         [--weights fp16|int8|int4|fp4] [--context N] [--depth N] [--kv-cache T]\n"
            "                         [--sequences N|max | --min-sequence-speed T] [--ubatch N] [--system-ram RAM]\n"
            "                         [--engine E [--split S]]\n"
            "                         [--vendor NVIDIA|AMD|Intel] [--only-priced] [--sparsity] [--top N]\n"
            "                         [--price-rule R] [--reference NAME] [--highlight NAME[,NAME]]\n"
            "                         [--width PX] [--height PX] [--scale F] [--theme light|dark]\n\n"
            "Draws the chart the Charts page shows, with the same builder, without a display.\n"
            "Bars: 8-bit inference, 16-bit inference, 16-bit training (and 32-bit training with\n"
            "--with-fp32) per GPU, relative to the reference GPU (default: your settings), sorted by\n"
            "--metric (default fp16-training), for --workload transformer (default), cnn, rnn, recsys or\n"
            "llm (a language model of 8B parameters). --metric llm-decode or llm-prefill charts LLM inference\n"
            "instead: token generation and prompt processing in tokens/s for --params-billion (default 8) or\n"
            "--model, --weights (default int4) and --context (default 512), and --sequences generating\n"
            "together (default 1; max: as many as each card holds in 90% of its memory; --min-sequence-speed\n"
            "T: of those, as many as each still get T tokens/s) and --ubatch (a\n"
            "prompt's tokens per step, default 512) in --engine llama.cpp (default) or tensorrt-llm\n"
            "(a serving engine; perf --help), leaving out the\n"
            "GPUs too small to hold the weights and every sequence's KV cache (with --system-ram, those\n"
            "run it with the rest in RAM and are marked +RAM).\n"
            "--gpus N (1-8) makes every bar a setup of N of the GPU on its own links, relative to N of the\n"
            "reference, as value --gpus does. perf-per-dollar divides by the total cost of ownership\n"
            "from your prices and settings; GPUs without a price are left out and counted in a note.\n"
            "PNG is WIDTH x HEIGHT pixels times --scale; PDF and SVG are vector. The height defaults to\n"
            "what the number of GPUs and the wrapped titles need. CSV holds exactly the plotted numbers.\n" +
                std::string(kSystemRamHelp) + std::string(kSparsityHelp),
            [](Context& ctx, const std::vector<std::string>& rest) {
                std::vector<OptionSpec> specs = {
                    {"out"},        {"kind"},       {"metric"},    {"with-fp32", false},   {"workload"},
                    {"min-memory"}, {"gpus"},       {"vendor"},    {"only-priced", false}, sparsityOption(),
                    {"top"},        {"price-rule"}, {"reference"}, {"highlight"},          {"width"},
                    {"height"},     {"scale"},      {"theme"},     systemRamOption()};
                const std::vector<OptionSpec> llm = llmOptionSpecs();
                specs.insert(specs.end(), llm.begin(), llm.end());
                return chart(ctx, Args::parse(rest, specs));
            }};
}

} // namespace advisor::cli
