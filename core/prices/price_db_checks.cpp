// PriceDb's rule check: stored rows and settings that the app would refuse if they were typed
// or imported now. Only another program (a SQLite browser, a script) can write such rows; `db check`
// names them so they can be corrected or removed.
#include "prices/price_db.h"

#include "catalog/catalog.h"
#include "common/text.h"
#include "prices/cloud_offer.h"
#include "prices/price.h"
#include "prices/settings.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <map>

namespace advisor {
namespace {

// A column as the program that wrote it left it: SQLite renders a number as text, so a value
// that is not what the app would store is quoted as it is in the file.
std::string raw(SQLite::Statement& q, int column) {
    return q.getColumn(column).isNull() ? std::string() : q.getColumn(column).getString();
}

} // namespace

std::vector<PriceDb::RowProblem> PriceDb::rowsBreakingRules() const {
    std::vector<RowProblem> out;
    std::vector<InputProblem> problems;
    const auto collect = [&](RowProblem::Kind kind, std::int64_t id) {
        for (auto& p : problems) {
            out.push_back({kind, id, std::move(p)});
        }
        problems.clear();
    };
    ResolutionCache names(catalog_); // a few GPUs, many rows
    SQLite::Statement prices(*db_, "SELECT id, gpu_id, amount, currency, condition, source, source_url, "
                                   "observed_date, note FROM prices ORDER BY id");
    while (prices.executeStep()) {
        PriceInput in;
        in.gpu = raw(prices, 1); // the stored id resolves exactly
        in.amountText = raw(prices, 2);
        in.currency = raw(prices, 3);
        in.conditionText = raw(prices, 4);
        in.source = raw(prices, 5);
        in.sourceUrl = raw(prices, 6);
        in.dateText = raw(prices, 7);
        in.note = raw(prices, 8);
        const std::int64_t id = prices.getColumn(0).getInt64();
        validatePrice(in, names, today_, {path_, 0, "price " + std::to_string(id), ""}, problems);
        collect(RowProblem::Kind::Price, id);
    }
    SQLite::Statement offers(*db_, "SELECT id, provider, instance, gpu_name, gpu_count, gpu_memory_gb, "
                                   "on_demand_usd_per_hour, spot_usd_per_hour, region, observed_date, source_url, "
                                   "note FROM cloud_offers ORDER BY id");
    while (offers.executeStep()) {
        const CloudOfferInput in{raw(offers, 1), raw(offers, 2),  raw(offers, 3), raw(offers, 4),
                                 raw(offers, 5), raw(offers, 6),  raw(offers, 7), raw(offers, 8),
                                 raw(offers, 9), raw(offers, 10), raw(offers, 11)};
        const std::int64_t id = offers.getColumn(0).getInt64();
        validateCloudOffer(in, catalog_, today_, {path_, 0, "cloud offer " + std::to_string(id), ""}, problems);
        collect(RowProblem::Kind::CloudOffer, id);
    }
    std::map<std::string, std::string> stored;
    SQLite::Statement settings(*db_, "SELECT key, value FROM settings ORDER BY key");
    while (settings.executeStep()) {
        stored[raw(settings, 0)] = raw(settings, 1);
    }
    Settings::fromStored(stored, catalog_, problems);
    for (auto& p : problems) {
        const std::string shown = text::quoteForMessage(stored[p.where.field]);
        if (p.reason.find(shown) == std::string::npos) {
            p.reason += ", got " + shown; // what the other program wrote
        }
        p.where = {path_, 0, "settings", p.where.field};
    }
    collect(RowProblem::Kind::Setting, 0);
    return out;
}

} // namespace advisor
