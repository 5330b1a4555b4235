// PriceDb's cloud offers: dated, sourced $/hour offers, seeded from resources/cloud/ and
// editable like prices.
#include "prices/price_db.h"

#include "common/embedded_resources.h"
#include "prices/cloud_offer.h"
#include "prices/cloud_offer_io.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <unordered_set>

namespace advisor {

namespace {

constexpr const char* kSelectOffer =
    "SELECT id, provider, instance, gpu_name, gpu_id, gpu_count, gpu_memory_gb, on_demand_usd_per_hour, "
    "spot_usd_per_hour, region, observed_date, source_url, note FROM cloud_offers ";

CloudOffer readOffer(SQLite::Statement& q) {
    CloudOffer o;
    o.id = q.getColumn(0).getInt64();
    o.provider = q.getColumn(1).getString();
    o.instance = q.getColumn(2).getString();
    o.gpuName = q.getColumn(3).getString();
    if (!q.getColumn(4).isNull()) {
        o.gpuId = q.getColumn(4).getString();
    }
    o.gpuCount = q.getColumn(5).getInt();
    if (!q.getColumn(6).isNull()) {
        o.gpuMemoryGb = q.getColumn(6).getDouble();
    }
    o.onDemandUsdPerHour = q.getColumn(7).getDouble();
    if (!q.getColumn(8).isNull()) {
        o.spotUsdPerHour = q.getColumn(8).getDouble();
    }
    o.region = q.getColumn(9).getString();
    o.observed = Date::parse(q.getColumn(10).getString()).value_or(Date{});
    o.sourceUrl = q.getColumn(11).getString();
    o.note = q.getColumn(12).getString();
    return o;
}

} // namespace

std::vector<CloudOffer> PriceDb::cloudOffers(const std::optional<std::string>& gpuId) const {
    std::vector<CloudOffer> out;
    SQLite::Statement q(*db_, std::string(kSelectOffer) + (gpuId ? "WHERE gpu_id = ? " : "") +
                                  "ORDER BY provider COLLATE NOCASE, observed_date DESC, id");
    if (gpuId) {
        q.bind(1, *gpuId);
    }
    while (q.executeStep()) {
        out.push_back(readOffer(q));
    }
    return out;
}

std::optional<CloudOffer> PriceDb::cloudOffer(std::int64_t id) const {
    SQLite::Statement q(*db_, std::string(kSelectOffer) + "WHERE id = ?");
    q.bind(1, id);
    if (q.executeStep()) {
        return readOffer(q);
    }
    return std::nullopt;
}

std::int64_t PriceDb::insertCloudOffer(const CloudOffer& o) {
    SQLite::Statement q(*db_, "INSERT INTO cloud_offers (provider, instance, gpu_name, gpu_id, gpu_count, gpu_memory_gb, "
                              "on_demand_usd_per_hour, spot_usd_per_hour, region, observed_date, source_url, note, id) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q.bind(1, o.provider);
    q.bind(2, o.instance);
    q.bind(3, o.gpuName);
    if (o.gpuId) {
        q.bind(4, *o.gpuId);
    } else {
        q.bind(4);
    }
    q.bind(5, o.gpuCount);
    if (o.gpuMemoryGb) {
        q.bind(6, *o.gpuMemoryGb);
    } else {
        q.bind(6);
    }
    q.bind(7, o.onDemandUsdPerHour);
    if (o.spotUsdPerHour) {
        q.bind(8, *o.spotUsdPerHour);
    } else {
        q.bind(8);
    }
    q.bind(9, o.region);
    q.bind(10, o.observed.toString());
    q.bind(11, o.sourceUrl);
    q.bind(12, o.note);
    if (o.id > 0) {
        q.bind(13, o.id);
    } else {
        q.bind(13); // NULL: SQLite picks the next id
    }
    q.exec();
    return db_->getLastInsertRowid();
}

std::int64_t PriceDb::addCloudOffer(const CloudOfferInput& in, const InputLocation& where) {
    std::vector<InputProblem> problems;
    const auto o = validateCloudOffer(in, catalog_, today_, where, problems);
    if (!o) {
        throw InputError(std::move(problems));
    }
    std::int64_t id = 0;
    withWriteTransaction([&] { id = insertCloudOffer(*o); });
    return id;
}

CloudOffer PriceDb::updateCloudOffer(std::int64_t id, const CloudOfferInput& in, const InputLocation& where) {
    auto before = cloudOffer(id);
    if (!before) {
        throw InputError({"", 0, "", "id"}, "no cloud offer with id " + std::to_string(id));
    }
    std::vector<InputProblem> problems;
    auto after = validateCloudOffer(in, catalog_, today_, where, problems);
    if (!after) {
        throw InputError(std::move(problems));
    }
    after->id = id;
    replaceCloudOffer(*after);
    return *before;
}

void PriceDb::replaceCloudOffer(const CloudOffer& o) {
    withWriteTransaction([&] {
        SQLite::Statement del(*db_, "DELETE FROM cloud_offers WHERE id = ?");
        del.bind(1, o.id);
        if (del.exec() != 1) {
            throw InputError({"", 0, "", "id"}, "no cloud offer with id " + std::to_string(o.id));
        }
        insertCloudOffer(o); // under the same id: one statement list for every column
    });
}

CloudOffer PriceDb::removeCloudOffer(std::int64_t id) {
    return removeCloudOffers({id}).front();
}

void PriceDb::seedCloudOffersIfNew() {
    if (db_->execAndGet("SELECT count(*) FROM meta WHERE key = 'seeded_cloud_offers'").getInt() > 0) {
        return;
    }
    const auto data = resources::find("cloud/cloud_offers.csv");
    if (!data) {
        return;
    }
    const ImportOutcome seeded = importCloudOffers(offerio::parseCsv(*data, "resources/cloud/cloud_offers.csv"));
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded_cloud_offers', ?)");
        q.bind(1, "resources/cloud/cloud_offers.csv (" + std::to_string(seeded.added) + " offers)");
        q.exec();
    });
}

ImportOutcome PriceDb::importCloudOffers(const std::vector<LocatedCloudOfferInput>& rows) {
    std::vector<InputProblem> problems;
    std::vector<CloudOffer> valid;
    for (const auto& row : rows) {
        const size_t before = problems.size();
        if (auto o = validateCloudOffer(row.input, catalog_, today_, row.where, problems)) {
            valid.push_back(std::move(*o));
        }
        respellFields(problems, before, row.columnNames);
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    ImportOutcome outcome;
    withWriteTransaction([&] {
        outcome = {}; // a retried transaction starts again
        std::unordered_set<std::string> known;
        for (const auto& o : cloudOffers()) {
            known.insert(observationKey(o));
        }
        for (const auto& o : valid) {
            if (!known.insert(observationKey(o)).second) {
                ++outcome.duplicates;
                continue;
            }
            outcome.addedIds.push_back(insertCloudOffer(o));
            ++outcome.added;
        }
    });
    return outcome;
}

std::vector<CloudOffer> PriceDb::removeCloudOffers(const std::vector<std::int64_t>& ids) {
    std::vector<CloudOffer> removed;
    withWriteTransaction([&] {
        removed.clear(); // a retried transaction starts again
        SQLite::Statement del(*db_, "DELETE FROM cloud_offers WHERE id = ?");
        for (const auto id : ids) {
            auto o = cloudOffer(id);
            if (!o) {
                throw InputError({"", 0, "", "id"}, "no cloud offer with id " + std::to_string(id));
            }
            del.bind(1, id);
            del.exec();
            del.reset();
            removed.push_back(std::move(*o));
        }
    });
    return removed;
}

void PriceDb::restoreCloudOffers(const std::vector<CloudOffer>& offers) {
    withWriteTransaction([&] {
        for (const auto& o : offers) {
            insertCloudOffer(o);
        }
    });
}

} // namespace advisor
