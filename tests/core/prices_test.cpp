// Tests for core/prices: the SQLite database, validation rules, import and settings.
#include "catalog/catalog.h"
#include "common/file_io.h"
#include "common/text.h"
#include "prices/price_db.h"
#include "prices/schema.h"
#include "../support/input_problems.h"
#include "../support/price_fixtures.h"
#include "../support/shipped_prices.h"
#include "../support/temp_dir.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <fstream>

namespace advisor {
namespace {

const Date kToday{2026, 11, 22};

PriceDb::Options unseeded() {
    return testing::unseeded(kToday);
}

PriceInput input(const std::string& gpu, const std::string& amount, const std::string& date = "2026-01-15") {
    PriceInput in;
    in.gpu = gpu;
    in.amountText = amount;
    in.dateText = date;
    in.source = "test";
    return in;
}

using testing::problemsOf;

TEST(PriceDb, NewDatabaseIsVersionedWalAndSeededFromResources) {
    testing::TempDir dir;
    PriceDb::Options o;
    o.today = kToday;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), o);
    EXPECT_EQ(db.schemaVersion(), schema::currentVersion());
    EXPECT_EQ(db.priceCount(), static_cast<size_t>(testing::kShippedPrices));
    SQLite::Database raw(dir.file("p.sqlite"));
    EXPECT_EQ(raw.execAndGet("PRAGMA journal_mode").getString(), "wal");
    EXPECT_EQ(raw.execAndGet("PRAGMA application_id").getInt(), schema::kApplicationId);
    // Dates and sources of the seed are kept.
    const auto rtx3090 = db.prices(std::string("rtx-3090"));
    ASSERT_FALSE(rtx3090.empty());
    for (const auto& p : rtx3090) {
        EXPECT_FALSE(p.source.empty());
        EXPECT_GE(p.observed.year, 2020);
    }
}

TEST(PriceDb, SeedsOnlyOnce) {
    testing::TempDir dir;
    PriceDb::Options o;
    o.today = kToday;
    {
        PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), o);
        db.removePrice(db.prices().front().id);
    }
    PriceDb again(dir.file("p.sqlite"), Catalog::builtin(), o);
    EXPECT_EQ(again.priceCount(), static_cast<size_t>(testing::kShippedPrices - 1));
}

TEST(PriceDb, AddListRemoveAndRestore) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const auto id = db.addPrice(input("geforce rtx 4090", "1599"));
    const auto p = db.price(id);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->gpuId, "rtx-4090");
    EXPECT_EQ(p->gpuName, "RTX 4090");
    EXPECT_EQ(p->amount, 1599);
    EXPECT_EQ(p->currency, "USD");
    EXPECT_EQ(p->condition, Condition::New);
    EXPECT_EQ(p->observed.toString(), "2026-01-15");

    const Price removed = db.removePrice(id);
    EXPECT_EQ(db.priceCount(), 0u);
    db.restorePrice(removed);
    EXPECT_TRUE(db.price(id)->sameObservation(*p));
    EXPECT_EQ(problemsOf([&] { db.removePrice(9999); }),
              std::vector<std::string>{"field 'id': no price with id 9999"});
    // An edit starts from the stored price's own input, which validates back to it exactly.
    db.updatePrice(id, toInput(*p));
    EXPECT_TRUE(db.price(id)->sameObservation(*p));
}

TEST(PriceDb, ListsByGpuNameIgnoringCaseThenNewestFirstThenAsEntered) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const auto old4090 = db.addPrice(input("RTX 4090", "1500", "2025-01"));
    const auto first4090 = db.addPrice(input("RTX 4090", "1600", "2025-08-01"));
    const auto second4090 = db.addPrice(input("RTX 4090", "1700", "2025-08-01"));
    const auto radeon = db.addPrice(input("Radeon PRO W7900", "3500"));
    const auto a100 = db.addPrice(input("A100 40GB PCIe", "7000", "2024-05"));
    std::vector<std::int64_t> ids;
    for (const auto& p : db.prices()) {
        ids.push_back(p.id);
    }
    // "Radeon" before "RTX" as SQLite's NOCASE has it (byte order puts "RTX" first).
    EXPECT_EQ(ids, (std::vector<std::int64_t>{a100, radeon, first4090, second4090, old4090}));
    EXPECT_TRUE(text::lessIgnoringAsciiCase("Radeon", "RTX"));
    EXPECT_FALSE(text::lessIgnoringAsciiCase("rtx", "RTX"));
    EXPECT_TRUE(text::lessIgnoringAsciiCase("rtx", "RTX 4090"));
}

TEST(PriceDb, BulkRemoveIsAllOrNothingAndRestoresIds) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const auto a = db.addPrice(input("RTX 4090", "1599"));
    const auto b = db.addPrice(input("RTX 3090", "700"));
    EXPECT_THROW(db.removePrices({a, 424242}), InputError);
    EXPECT_EQ(db.priceCount(), 2u); // the unknown id undid the whole removal
    const auto removed = db.removePrices({a, b});
    EXPECT_EQ(db.priceCount(), 0u);
    db.restorePrices(removed);
    EXPECT_TRUE(db.price(a) && db.price(b));
    EXPECT_EQ(db.price(b)->amount, 700);
}

TEST(PriceDb, EmptyDateMeansToday) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const auto id = db.addPrice(input("RTX 3090", "700", ""));
    EXPECT_EQ(db.price(id)->observed, kToday);
}

TEST(PriceDb, RejectsEachInvalidFieldWithItsReasonAndStoresNothing) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const InputLocation at{"cli", 0, "", ""};
    const auto reject = [&](PriceInput in) { return problemsOf([&] { db.addPrice(in, at); }); };

    EXPECT_EQ(reject(input("RTX 4090", "0")),
              std::vector<std::string>{"cli: field 'amount': must be greater than zero, got '0'"});
    EXPECT_EQ(reject(input("RTX 4090", "-3")),
              std::vector<std::string>{"cli: field 'amount': must be greater than zero, got '-3'"});
    EXPECT_EQ(reject(input("RTX 4090", "nan")),
              std::vector<std::string>{"cli: field 'amount': must be a finite number, got 'nan'"});
    EXPECT_EQ(reject(input("RTX 4090", "inf")),
              std::vector<std::string>{"cli: field 'amount': must be a finite number, got 'inf'"});
    EXPECT_EQ(reject(input("RTX 4090", "1e400")),
              std::vector<std::string>{"cli: field 'amount': number out of range: '1e400'"});
    EXPECT_EQ(reject(input("RTX 4090", "12 dollars")),
              std::vector<std::string>{"cli: field 'amount': not a number: '12 dollars'"});
    EXPECT_EQ(reject(input("RTX 4090", "2e9")),
              std::vector<std::string>{"cli: field 'amount': is implausibly large (over 1,000,000,000): '2e9'"});
    EXPECT_EQ(reject(input("RTX 4090", "1599", "2026-11-23")),
              std::vector<std::string>{"cli: field 'observed_date': is in the future (2026-11-23; today is 2026-11-22)"});
    EXPECT_EQ(reject(input("RTX 4090", "1599", "31/12/2020")),
              std::vector<std::string>{"cli: field 'observed_date': is not a date: '31/12/2020'; use YYYY-MM-DD or YYYY-MM"});
    EXPECT_EQ(reject(input("RTX 9999", "1599")),
              std::vector<std::string>{"cli: field 'gpu': unknown GPU 'RTX 9999'; 'gpu-advisor gpus list' shows the known GPUs"});
    auto cur = input("RTX 4090", "1599");
    cur.currency = "DOGE";
    EXPECT_EQ(reject(cur), std::vector<std::string>{
                               "cli: field 'currency': unknown currency 'DOGE'; use an ISO 4217 code such as USD or EUR"});
    auto cond = input("RTX 4090", "1599");
    cond.conditionText = "refurbished";
    EXPECT_EQ(reject(cond), std::vector<std::string>{"cli: field 'condition': must be 'new' or 'used', got 'refurbished'"});
    auto utf = input("RTX 4090", "1599");
    utf.source = "shop\xff";
    EXPECT_EQ(reject(utf), std::vector<std::string>{"cli: field 'source': is not valid UTF-8 (bad byte at offset 4)"});
    auto bin = input("RTX 4090", "1599");
    bin.note = std::string("a\0b", 3);
    EXPECT_EQ(reject(bin), std::vector<std::string>{"cli: field 'note': contains control characters"});
    // Several bad fields: each one reported.
    EXPECT_EQ(reject(input("A100", "abc", "soon")).size(), 3u);
    EXPECT_EQ(db.priceCount(), 0u);
}

TEST(PriceDb, CurrencyIsNormalisedToUpperCase) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    auto in = input("RTX 4090", "1899");
    in.currency = "eur";
    in.conditionText = "USED";
    const auto p = *db.price(db.addPrice(in));
    EXPECT_EQ(p.currency, "EUR");
    EXPECT_EQ(p.condition, Condition::Used);
}

TEST(PriceDb, ImportIsAllOrNothingAndListsEveryBadRow) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    db.addPrice(input("RTX 3090", "700"));
    std::vector<LocatedPriceInput> rows = {
        {{"f.csv", 2, "", ""}, input("RTX 4090", "1599")},
        {{"f.csv", 3, "", ""}, input("RTX 4090", "-1")},
        {{"f.csv", 4, "", ""}, input("H100", "30000")},
    };
    EXPECT_EQ(problemsOf([&] { db.importPrices(rows); }),
              (std::vector<std::string>{
                  "f.csv:3: field 'amount': must be greater than zero, got '-1'",
                  "f.csv:4: field 'gpu': 'H100' is ambiguous; it matches H100 PCIe, H100 SXM5. Add the memory "
                  "size or form (for example '80GB' or 'SXM') or use the full name"}));
    EXPECT_EQ(db.priceCount(), 1u);

    rows.erase(rows.begin() + 1, rows.end());
    rows.push_back({{"f.csv", 5, "", ""}, input("RTX 3090", "700")}); // already stored
    rows.push_back({{"f.csv", 6, "", ""}, input("RTX 4090", "1599")}); // repeated in file
    const auto outcome = db.importPrices(rows);
    EXPECT_EQ(outcome.added, 1u);
    EXPECT_EQ(outcome.duplicates, 2u);
    EXPECT_EQ(db.priceCount(), 2u);
}

TEST(PriceDb, ImportCanBeCancelledWithoutChanges) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    std::vector<LocatedPriceInput> rows;
    for (int i = 0; i < 3000; ++i) {
        rows.push_back({{"f.csv", i + 2, "", ""}, input("RTX 4090", std::to_string(1000 + i))});
    }
    size_t calls = 0;
    EXPECT_THROW(db.importPrices(rows, [&](size_t done, size_t) { return ++calls < 3 && done < 2500; }), InputError);
    EXPECT_EQ(db.priceCount(), 0u);
}

TEST(PriceDb, SettingsDefaultToTheSeedAndValidate) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    Settings s = db.settings();
    EXPECT_DOUBLE_EQ(s.years, 5);
    EXPECT_DOUBLE_EQ(s.electricityUsdPerKwh, 0.175);
    EXPECT_DOUBLE_EQ(s.utilization, 0.15);
    s.set("utilization", "0.35", db.catalog());
    s.set("reference_gpu", "H100 SXM", db.catalog());
    db.saveSettings(s);
    EXPECT_DOUBLE_EQ(db.settings().utilization, 0.35);
    EXPECT_EQ(db.settings().referenceGpu, "h100-sxm5");
    EXPECT_EQ(problemsOf([&] { s.set("utilization", "1.5", db.catalog()); }),
              std::vector<std::string>{"settings: field 'utilization': must be a fraction between 0 and 1 (0.15 = 15%)"});
    // Utilization may be written as the percentage its message shows; other settings stay numbers.
    Settings pct = s;
    pct.set("utilization", "60%", db.catalog());
    EXPECT_DOUBLE_EQ(pct.utilization, 0.6);
    EXPECT_EQ(
        problemsOf([&] { pct.set("utilization", "150%", db.catalog()); }),
        std::vector<std::string>{"settings: field 'utilization': must be a fraction between 0 and 1 (0.15 = 15%)"});
    EXPECT_EQ(problemsOf([&] { pct.set("years", "5%", db.catalog()); }),
              std::vector<std::string>{"settings: field 'years': not a number: '5%'"});
    EXPECT_EQ(problemsOf([&] { s.set("colour", "blue", db.catalog()); }).size(), 1u);
    const auto typo = problemsOf([&] { s.set("utilisation", "0.2", db.catalog()); });
    ASSERT_EQ(typo.size(), 1u);
    EXPECT_EQ(typo.front().rfind("settings: field 'utilisation': unknown setting; did you mean 'utilization'? Known: ", 0), 0u)
        << typo.front();
    EXPECT_EQ(problemsOf([&] { s.set("reference_gpu", "A100", db.catalog()); }).size(), 1u);
    EXPECT_DOUBLE_EQ(db.settings().utilization, 0.35);
}

Gpu customGpu(const std::string& name) {
    Gpu g = Catalog::builtin().require("RTX 4090");
    g.name = name;
    g.memoryGb = 48;
    g.aliases.clear();
    g.launchMsrpUsd.reset();
    return g;
}

TEST(PriceDb, CustomGpusArePricedAndSurviveReopen) {
    testing::TempDir dir;
    {
        PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
        const std::string id = db.addCustomGpu(customGpu("My Modded 4090 48GB"));
        EXPECT_EQ(id, "custom-my-modded-4090-48gb");
        db.addPrice(input("my modded 4090 48gb", "2500"));
        EXPECT_EQ(problemsOf([&] { db.addCustomGpu(customGpu("RTX 4090")); }),
                  std::vector<std::string>{
                      "custom GPU 'RTX 4090': field 'name': 'RTX 4090' is already the name or alias of RTX 4090"});
    }
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    ASSERT_EQ(db.customGpus().size(), 1u);
    EXPECT_EQ(db.prices(std::string("custom-my-modded-4090-48gb")).size(), 1u);
    EXPECT_TRUE(db.rowsBreakingRules().empty()); // `db check`: a price of your own GPU keeps the rules
    EXPECT_EQ(problemsOf([&] { db.removeCustomGpu("rtx-4090"); }).size(), 1u);
    db.removeCustomGpu("custom-my-modded-4090-48gb");
    EXPECT_EQ(db.priceCount(), 0u); // its prices went with it
    EXPECT_EQ(db.catalog().resolve("My Modded 4090 48GB").status, ResolveStatus::NotFound);
}

TEST(PriceDb, RefusesFilesThatAreNotOurs) {
    testing::TempDir dir;
    {
        std::ofstream junk(dir.file("junk.sqlite"));
        junk << "this is not a database, just some text that is long enough to have a header............";
    }
    try {
        PriceDb db(dir.file("junk.sqlite"), Catalog::builtin(), unseeded());
        FAIL();
    } catch (const DatabaseUnusable& e) {
        EXPECT_EQ(e.reason(), DatabaseUnusable::Reason::Damaged);
        EXPECT_EQ(e.path(), dir.file("junk.sqlite"));
        EXPECT_NE(std::string(e.what()).find("junk.sqlite is damaged or not a database"), std::string::npos)
            << e.what();
    }
    {
        SQLite::Database other(dir.file("other.sqlite"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        other.exec("CREATE TABLE t (x)");
    }
    try {
        PriceDb db(dir.file("other.sqlite"), Catalog::builtin(), unseeded());
        FAIL();
    } catch (const DatabaseUnusable& e) {
        EXPECT_EQ(e.reason(), DatabaseUnusable::Reason::Foreign);
        EXPECT_NE(std::string(e.what()).find("of another application"), std::string::npos) << e.what();
    }
    SQLite::Database untouched(dir.file("other.sqlite"));
    EXPECT_EQ(untouched.execAndGet("SELECT count(*) FROM sqlite_master").getInt(), 1);
}

TEST(PriceDb, RefusesADatabaseFromANewerVersion) {
    testing::TempDir dir;
    { PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded()); }
    {
        SQLite::Database raw(dir.file("p.sqlite"), SQLite::OPEN_READWRITE);
        raw.exec("PRAGMA user_version = 999");
    }
    try {
        PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
        FAIL();
    } catch (const DatabaseUnusable& e) {
        EXPECT_EQ(e.reason(), DatabaseUnusable::Reason::Newer);
        EXPECT_NE(std::string(e.what()).find("schema version 999"), std::string::npos) << e.what();
    }
}

TEST(PriceDb, ForeignKeysProtectPrices) {
    testing::TempDir dir;
    { PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded()); }
    SQLite::Database raw(dir.file("p.sqlite"), SQLite::OPEN_READWRITE);
    raw.exec("PRAGMA foreign_keys = ON");
    EXPECT_THROW(raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                          "VALUES ('no-such-gpu', 1, 'USD', 'new', '2020-01')"),
                 SQLite::Exception);
    EXPECT_THROW(raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                          "VALUES ('rtx-4090', 0, 'USD', 'new', '2020-01')"),
                 SQLite::Exception);
}

} // namespace
} // namespace advisor

namespace advisor {
namespace {

TEST(PriceDb, MigratesAnOlderSchemaForwardAfterABackup) {
    testing::TempDir dir;
    const std::string path = dir.file("old.sqlite");
    {
        // A version-1 database as an earlier release left it.
        SQLite::Database raw(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        schema::migrations().front().apply(raw);
        raw.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        raw.exec("PRAGMA user_version = 1");
        raw.exec("INSERT INTO gpus (id, name, origin) VALUES ('rtx-4090', 'RTX 4090', 'catalog')");
        raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                 "VALUES ('rtx-4090', 1599, 'USD', 'new', '2023-01')");
        raw.exec("INSERT INTO meta (key, value) VALUES ('seeded_prices', 'yes')");
    }
    PriceDb::Options o;
    o.today = kToday;
    PriceDb db(path, Catalog::builtin(), o);
    EXPECT_EQ(db.schemaVersion(), schema::currentVersion());
    EXPECT_GE(schema::currentVersion(), 2);
    ASSERT_EQ(db.priceCount(), 1u); // the user's data survived; nothing re-seeded over it
    EXPECT_EQ(db.prices().front().amount, 1599);
    EXPECT_GT(db.cloudOffers().size(), 100u); // the new table got its shipped offers
    // The backup is the untouched version-1 file.
    SQLite::Database backup(path + ".v1.bak");
    EXPECT_EQ(backup.execAndGet("PRAGMA user_version").getInt(), 1);
    EXPECT_EQ(backup.execAndGet("SELECT count(*) FROM prices").getInt(), 1);
}

TEST(PriceDb, CloudOffersAreValidatedAndResolved) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    CloudOfferInput in = testing::hgxA100Offer();
    const auto id = db.addCloudOffer(in);
    const auto o = *db.cloudOffer(id);
    EXPECT_EQ(*o.gpuId, "a100-80gb-sxm4");
    EXPECT_NEAR(o.onDemandPerGpuHour(), 2.745, 1e-9);
    in.gpu = "A10G"; // AWS's own A10 variant, in the catalog since AWS's G5 offers named it
    EXPECT_EQ(*db.cloudOffer(db.addCloudOffer(in))->gpuId, "a10g");
    in.gpu = "Gaudi 3"; // not in the catalog: kept, but without an id
    EXPECT_FALSE(db.cloudOffer(db.addCloudOffer(in))->gpuId);
    in.onDemand = "free";
    in.gpuCount = "0";
    EXPECT_EQ(problemsOf([&] { db.addCloudOffer(in, {"cli", 0, "", ""}); }),
              (std::vector<std::string>{"cli: field 'gpu_count': must be a whole number from 1 to 64, got '0'",
                                        "cli: field 'on_demand_usd_per_hour': not a number: 'free'"}));
    EXPECT_EQ(db.cloudOffers().size(), 3u);
    db.removeCloudOffer(id);
    EXPECT_EQ(db.cloudOffers().size(), 2u);

    // Several at once, all or none, and back under the same ids (undo in the window).
    const auto second = db.addCloudOffer(in = CloudOfferInput{"Other", "", "H100 SXM", "8", "", "19.9", "", "",
                                                              "2026-01-21", "", "a note"});
    const auto before = db.cloudOffers();
    EXPECT_THROW(db.removeCloudOffers({second, 999999}), InputError);
    EXPECT_EQ(db.cloudOffers().size(), before.size()); // nothing removed
    std::vector<std::int64_t> all;
    for (const auto& offer : before) {
        all.push_back(offer.id);
    }
    const auto removed = db.removeCloudOffers(all);
    EXPECT_TRUE(db.cloudOffers().empty());
    db.restoreCloudOffers(removed);
    ASSERT_EQ(db.cloudOffers().size(), before.size());
    const auto back = *db.cloudOffer(second);
    EXPECT_EQ(back.provider, "Other");
    EXPECT_EQ(back.note, "a note");
    EXPECT_EQ(back.gpuId, std::optional<std::string>("h100-sxm5"));
    EXPECT_GT(db.addCloudOffer(in), second); // new ids never reuse a restored one
}

TEST(PriceDb, ACloudOfferIsCorrectedInPlaceAndTheOldOneComesBack) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    CloudOfferInput in{"Typo Cloud", "x8", "H100 SXM", "8", "", "199.0", "", "us-east", "2026-10-01", "", ""};
    const auto id = db.addCloudOffer(in);
    const auto other = db.addCloudOffer(CloudOfferInput{"Other", "", "L4", "1", "", "0.8", "", "", "2026-10-01", "", ""});
    in.provider = "Fixed Cloud";
    in.onDemand = "19.90";
    in.gpu = "A100 80GB SXM";
    const CloudOffer before = db.updateCloudOffer(id, in);
    EXPECT_EQ(before.provider, "Typo Cloud");
    EXPECT_EQ(before.onDemandUsdPerHour, 199.0);
    const CloudOffer after = *db.cloudOffer(id); // same id, new content
    EXPECT_EQ(after.provider, "Fixed Cloud");
    EXPECT_EQ(after.onDemandUsdPerHour, 19.9);
    EXPECT_EQ(after.gpuId, std::optional<std::string>("a100-80gb-sxm4")); // resolved again
    EXPECT_EQ(db.cloudOffers().size(), 2u);
    // A bad correction names its field and changes nothing.
    in.gpuCount = "0";
    EXPECT_EQ(problemsOf([&] { db.updateCloudOffer(id, in, {"dialog", 0, "", ""}); }),
              (std::vector<std::string>{"dialog: field 'gpu_count': must be a whole number from 1 to 64, got '0'"}));
    EXPECT_EQ(observationKey(*db.cloudOffer(id)), observationKey(after));
    EXPECT_EQ(problemsOf([&] { db.updateCloudOffer(999999, in); }),
              (std::vector<std::string>{"field 'id': no cloud offer with id 999999"}));
    // Undo writes the old offer back under its id; the other offer is untouched.
    db.replaceCloudOffer(before);
    EXPECT_EQ(observationKey(*db.cloudOffer(id)), observationKey(before));
    EXPECT_EQ(db.cloudOffer(other)->provider, "Other");
}

} // namespace
} // namespace advisor
