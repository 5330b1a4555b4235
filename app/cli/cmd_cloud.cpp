// `gpu-advisor cloud list|add|remove|import|export`: the cloud GPU offers in the database.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/csv_style_option.h"
#include "cli/table.h"
#include "common/file_io.h"
#include "common/format.h"
#include "common/text.h"
#include "prices/cloud_offer_io.h"

#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json offerJson(const CloudOffer& o) {
    return {{"id", o.id},
            {"provider", o.provider},
            {"instance", o.instance},
            {"gpu", o.gpuName},
            {"gpu_id", o.gpuId ? nlohmann::json(*o.gpuId) : nlohmann::json(nullptr)},
            {"gpu_count", o.gpuCount},
            {"gpu_memory_gb", o.gpuMemoryGb ? nlohmann::json(*o.gpuMemoryGb) : nlohmann::json(nullptr)},
            {"on_demand_usd_per_hour", o.onDemandUsdPerHour},
            {"spot_usd_per_hour", o.spotUsdPerHour ? nlohmann::json(*o.spotUsdPerHour) : nlohmann::json(nullptr)},
            {"region", o.region},
            {"observed_date", o.observed.toString()},
            {"source_url", o.sourceUrl},
            {"note", o.note}};
}

/// The offers --gpu, --provider and --current select (list and export).
std::vector<CloudOffer> selectedOffers(Context& ctx, const Args& args) {
    std::optional<std::string> gpuId;
    if (const auto g = args.value("gpu")) {
        gpuId = ctx.db().catalog().require(*g, "--gpu").id;
    }
    const auto provider = args.value("provider");
    std::vector<CloudOffer> offers;
    const auto stored = ctx.db().cloudOffers(gpuId);
    for (auto& o : args.has("current") ? currentOffers(stored) : stored) {
        if (!provider || text::toLower(o.provider).find(text::toLower(*provider)) != std::string::npos) {
            offers.push_back(std::move(o));
        }
    }
    return offers;
}

int listOffers(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const std::vector<CloudOffer> offers = selectedOffers(ctx, args);
    if (ctx.json()) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& o : offers) {
            list.push_back(offerJson(o));
        }
        ctx.printJson({{"count", offers.size()}, {"offers", list}});
        return 0;
    }
    TextTable t({"ID", "PROVIDER", "INSTANCE", "GPU", "N", "$/H", "$/GPU-H", "SPOT $/H", "DATE"});
    for (const size_t c : {0u, 4u, 5u, 6u, 7u}) {
        t.setRightAligned(c);
    }
    for (const auto& o : offers) {
        t.addRow({std::to_string(o.id), o.provider, o.instance.size() > 28 ? o.instance.substr(0, 25) + "..." : o.instance,
                  o.gpuName, std::to_string(o.gpuCount), format::money(o.onDemandUsdPerHour),
                  format::money(o.onDemandPerGpuHour()), o.spotUsdPerHour ? format::money(*o.spotUsdPerHour) : "-",
                  o.observed.toString()});
    }
    t.print(ctx.out());
    ctx.out() << format::count(static_cast<long long>(offers.size()), "offer") << '\n';
    return 0;
}

int addOffer(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    CloudOfferInput in;
    in.provider = args.required("provider");
    in.gpu = args.required("gpu");
    in.onDemand = args.required("hourly");
    in.spot = args.value("spot").value_or("");
    in.gpuCount = args.value("gpus").value_or("1");
    in.instance = args.value("instance").value_or("");
    in.region = args.value("region").value_or("");
    in.date = args.value("date").value_or("");
    in.sourceUrl = args.value("source-url").value_or("");
    in.note = args.value("note").value_or("");
    const auto id = ctx.db().addCloudOffer(in, {"command line", 0, "", ""});
    const auto o = *ctx.db().cloudOffer(id);
    if (ctx.json()) {
        ctx.printJson({{"added", offerJson(o)}});
    } else {
        ctx.out() << "added cloud offer " << id << ": " << o.provider << " " << o.gpuName << " x" << o.gpuCount << ", "
                  << format::money(o.onDemandUsdPerHour) << "/h" << (o.gpuId ? "" : " (GPU not in the catalog)")
                  << '\n';
    }
    return 0;
}

int removeOffer(Context& ctx, const Args& args) {
    const auto removed = ctx.db().removeCloudOffers(args.ids("an offer id (see 'gpu-advisor cloud list')"));
    if (ctx.json()) {
        nlohmann::json all = nlohmann::json::array();
        for (const auto& o : removed) {
            all.push_back(offerJson(o));
        }
        ctx.printJson({{"removed", offerJson(removed.front())}, {"removed_all", all}, {"count", removed.size()}});
    } else {
        for (const auto& o : removed) {
            ctx.out() << "removed cloud offer " << o.id << ": " << o.provider << " " << o.gpuName << '\n';
        }
    }
    return 0;
}

int importOffers(Context& ctx, const Args& args) {
    args.expectPositionals(1, "the file to import (.csv or .json)");
    const std::string file = args.positionals().front();
    const auto rows = offerio::parseFile(file);
    const ImportOutcome outcome = ctx.db().importCloudOffers(rows);
    if (ctx.json()) {
        ctx.printJson({{"file", file}, {"rows", rows.size()}, {"added", outcome.added},
                       {"duplicates", outcome.duplicates}, {"added_ids", outcome.addedIds}});
    } else {
        ctx.out() << "imported " << format::count(static_cast<long long>(outcome.added), "cloud offer") << " from "
                  << file;
        if (outcome.duplicates > 0) {
            ctx.out() << " (" << outcome.duplicates << " already present, skipped)";
        }
        ctx.out() << '\n';
    }
    return 0;
}

int exportOffers(Context& ctx, const Args& args) {
    args.expectPositionals(1, "the file to write (.csv or .json)");
    const std::string file = args.positionals().front();
    files::tableFormatForPath(file); // before any work: a wrong extension is the user's to fix
    const csv::Style style = csvStyleOption(args, file);
    const std::vector<CloudOffer> offers = selectedOffers(ctx, args);
    offerio::exportFile(file, offers, style);
    if (ctx.json()) {
        ctx.printJson({{"file", file}, {"exported", offers.size()}});
    } else {
        ctx.out() << "exported " << format::count(static_cast<long long>(offers.size()), "cloud offer") << " to "
                  << file << '\n';
    }
    return 0;
}

} // namespace

Command cloudCommand() {
    return {"cloud", "cloud GPU offers: list, add, remove, import or export",
            "Usage: gpu-advisor cloud list [--gpu NAME] [--provider TEXT] [--current]\n"
            "       gpu-advisor cloud add --provider P --gpu NAME --hourly USD [--spot USD] [--gpus N]\n"
            "                             [--instance X] [--region R] [--date YYYY-MM-DD] [--source-url U] [--note T]\n"
            "       gpu-advisor cloud remove ID [ID...]   (all or none)\n"
            "       gpu-advisor cloud import FILE.csv|FILE.json\n"
            "       gpu-advisor cloud export FILE.csv|FILE.json [--gpu NAME] [--provider TEXT] [--current]\n"
            "                                [--semicolons]\n\n"
            "Hourly prices are for the whole instance (all its GPUs). The database starts with the\n"
            "dated, sourced offers in resources/cloud/cloud_offers.csv; each observation of an offer\n"
            "is kept. --current lists only the newest observation of each offer (provider, instance,\n"
            "GPU, count and region), as the Cloud vs desktop calculator and the recommender use them.\n"
            "Import is all-or-nothing: if any row is bad, every bad row is listed with its line and\n"
            "field and nothing is changed. Rows identical to a stored offer are skipped. CSV columns\n"
            "(those of resources/cloud/cloud_offers.csv): provider, instance_or_sku, gpu, gpu_count,\n"
            "gpu_memory_gb, on_demand_usd_per_hour, spot_usd_per_hour, region, observed_date,\n"
            "source_url, note; provider, gpu and on_demand_usd_per_hour are required. Semicolon- or\n"
            "tab-separated files are read too (their header decides; 0,69 is 0.69 with semicolons);\n"
            "export --semicolons writes one (semicolons, decimal commas).\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                if (rest.empty()) {
                    throw UsageError("missing subcommand: list, add, remove, import or export");
                }
                const std::vector<std::string> tail(rest.begin() + 1, rest.end());
                if (rest.front() == "list") {
                    return listOffers(ctx, Args::parse(tail, {{"gpu"}, {"provider"}, {"current", false}}));
                }
                if (rest.front() == "add") {
                    return addOffer(ctx, Args::parse(tail, {{"provider"}, {"gpu"}, {"hourly"}, {"spot"}, {"gpus"},
                                                            {"instance"}, {"region"}, {"date"}, {"source-url"},
                                                            {"note"}}));
                }
                if (rest.front() == "remove") {
                    return removeOffer(ctx, Args::parse(tail, {}));
                }
                if (rest.front() == "import") {
                    return importOffers(ctx, Args::parse(tail, {}));
                }
                if (rest.front() == "export") {
                    return exportOffers(
                        ctx, Args::parse(tail, {{"gpu"}, {"provider"}, {"current", false}, {"semicolons", false}}));
                }
                throw UsageError("unknown subcommand '" + rest.front() + "'; use list, add, remove, import or export");
            }};
}

} // namespace advisor::cli
