// `gpu-advisor prices list|add|remove|import|export`: the user's price database.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/csv_style_option.h"
#include "cli/table.h"
#include "common/file_io.h"
#include "common/format.h"
#include "common/text.h"
#include "prices/price_io.h"

#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json priceJson(const Price& p) {
    return {{"id", p.id},
            {"gpu", p.gpuName},
            {"gpu_id", p.gpuId},
            {"condition", toString(p.condition)},
            {"amount", p.amount},
            {"currency", p.currency},
            {"observed_date", p.observed.toString()},
            {"source", p.source},
            {"source_url", p.sourceUrl},
            {"note", p.note}};
}

std::string describe(const Price& p) {
    return p.gpuName + ", " + toString(p.condition) + ", " + format::money(p.amount, p.currency) + " (" +
           p.observed.toString() + (p.source.empty() ? "" : ", " + p.source) + ")";
}

int list(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    std::optional<std::string> gpuId;
    std::string forGpu; // " for <GPU>" in the count line when the list is filtered
    if (const auto name = args.value("gpu")) {
        const Gpu& g = ctx.db().catalog().require(*name, "--gpu");
        gpuId = g.id;
        forGpu = " for " + g.name;
    }
    const auto prices = ctx.db().prices(gpuId);
    if (ctx.json()) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : prices) {
            list.push_back(priceJson(p));
        }
        ctx.printJson({{"count", prices.size()}, {"prices", list}});
        return 0;
    }
    TextTable t({"ID", "GPU", "CONDITION", "PRICE", "DATE", "SOURCE"});
    t.setRightAligned(0);
    t.setRightAligned(3);
    for (const auto& p : prices) {
        std::string source = p.source.size() > 48 ? p.source.substr(0, 45) + "..." : p.source;
        t.addRow({std::to_string(p.id), p.gpuName, toString(p.condition), format::money(p.amount, p.currency),
                  p.observed.toString(), source});
    }
    t.print(ctx.out());
    ctx.out() << format::count(static_cast<long long>(prices.size()), "price") << forGpu << " in " << ctx.db().path()
              << '\n';
    return 0;
}

int add(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    PriceInput in;
    in.gpu = args.required("gpu");
    in.amountText = args.required("price");
    // As in the window's add dialog: prices are entered in the `currency` setting's currency.
    in.currency = args.value("currency").value_or(ctx.settings().currency);
    in.conditionText = args.value("condition").value_or("new");
    in.source = args.value("source").value_or("");
    in.sourceUrl = args.value("source-url").value_or("");
    in.dateText = args.value("date").value_or("");
    in.note = args.value("note").value_or("");
    const auto id = ctx.db().addPrice(in, {"command line", 0, "", ""});
    const Price p = *ctx.db().price(id);
    if (ctx.json()) {
        ctx.printJson({{"added", priceJson(p)}});
    } else {
        ctx.out() << "added price " << id << ": " << describe(p) << '\n';
    }
    return 0;
}

int remove(Context& ctx, const Args& args) {
    // Several ids are removed together or not at all, as the Prices page deletes a selection.
    const auto removed = ctx.db().removePrices(args.ids("a price id (see 'gpu-advisor prices list')"));
    if (ctx.json()) {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& p : removed) {
            all.push_back(priceJson(p));
        }
        ctx.printJson({{"removed", priceJson(removed.front())}, {"removed_all", all}, {"count", removed.size()}});
    } else {
        for (const auto& p : removed) {
            ctx.out() << "removed price " << p.id << ": " << describe(p) << '\n';
        }
    }
    return 0;
}

int import(Context& ctx, const Args& args) {
    // --shipped: the prices this version ships, for a database an older version made.
    const bool shipped = args.has("shipped");
    args.expectPositionals(shipped ? 0 : 1, shipped ? "" : "the file to import (.csv or .json), or --shipped");
    const std::string file = shipped ? "the shipped prices" : args.positionals().front();
    const auto rows = shipped ? std::vector<LocatedPriceInput>{} : priceio::parseFile(file);
    const ImportOutcome outcome = shipped ? ctx.db().importShippedPrices() : ctx.db().importPrices(rows);
    if (ctx.json()) {
        ctx.printJson({{"file", shipped ? nlohmann::json(nullptr) : nlohmann::json(file)},
                       {"shipped", shipped},
                       {"rows", shipped ? outcome.added + outcome.duplicates : rows.size()},
                       {"added", outcome.added},
                       {"duplicates", outcome.duplicates}});
    } else {
        ctx.out() << "imported " << format::count(static_cast<long long>(outcome.added), "price") << " from " << file;
        if (outcome.duplicates > 0) {
            ctx.out() << " (" << outcome.duplicates << " already present, skipped)";
        }
        ctx.out() << '\n';
    }
    return 0;
}

int exportPrices(Context& ctx, const Args& args) {
    args.expectPositionals(1, "the file to write (.csv or .json)");
    const std::string file = args.positionals().front();
    files::tableFormatForPath(file);
    const csv::Style style = csvStyleOption(args, file);
    const auto prices = ctx.db().prices();
    priceio::exportFile(file, prices, style);
    if (ctx.json()) {
        ctx.printJson({{"file", file}, {"exported", prices.size()}});
    } else {
        ctx.out() << "exported " << format::count(static_cast<long long>(prices.size()), "price") << " to " << file << '\n';
    }
    return 0;
}

} // namespace

Command pricesCommand() {
    return {"prices", "list, add, remove, import or export prices",
            "Usage: gpu-advisor prices list [--gpu NAME]\n"
            "       gpu-advisor prices add --gpu NAME --price AMOUNT [--currency CODE] [--condition new|used]\n"
            "                              [--source TEXT] [--source-url URL] [--date YYYY-MM-DD] [--note TEXT]\n"
            "       gpu-advisor prices remove ID [ID...]   (all or none)\n"
            "       gpu-advisor prices import FILE.csv|FILE.json | --shipped\n"
            "       gpu-advisor prices export FILE.csv|FILE.json [--semicolons]\n\n"
            "--currency defaults to the 'currency' setting (USD unless changed); charts and perf/$\n"
            "use USD prices only, as no exchange rates are kept.\n"
            "Import is all-or-nothing: if any row is bad, every bad row is listed with its line\n"
            "and field and nothing is changed. Rows identical to a stored price are skipped.\n"
            "CSV columns: gpu, amount, observed_date, currency, condition, source, source_url, note.\n"
            "A header without commas but with semicolons (a spreadsheet's CSV where the decimal\n"
            "mark is a comma) or tabs sets the delimiter; in a semicolon file 1599,90 is 1599.90.\n"
            "export --semicolons writes such a file (semicolons, decimal commas); import reads it back.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                if (rest.empty()) {
                    throw UsageError("missing subcommand: list, add, remove, import or export");
                }
                const std::string sub = rest.front();
                const std::vector<std::string> tail(rest.begin() + 1, rest.end());
                if (sub == "list") {
                    return list(ctx, Args::parse(tail, {{"gpu"}}));
                }
                if (sub == "add") {
                    return add(ctx, Args::parse(tail, {{"gpu"}, {"price"}, {"currency"}, {"condition"},
                                                       {"source"}, {"source-url"}, {"date"}, {"note"}}));
                }
                if (sub == "remove") {
                    return remove(ctx, Args::parse(tail, {}));
                }
                if (sub == "import") {
                    return import(ctx, Args::parse(tail, {{"shipped", false}}));
                }
                if (sub == "export") {
                    return exportPrices(ctx, Args::parse(tail, {{"semicolons", false}}));
                }
                throw UsageError("unknown subcommand '" + sub + "'; use list, add, remove, import or export");
            }};
}

} // namespace advisor::cli
