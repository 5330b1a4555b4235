// Tests for core/prices/db_recovery: damaged files are found before anything is written,
// set aside byte for byte, and replaced by the newest good backup.
#include "catalog/catalog.h"
#include "common/file_io.h"
#include "prices/db_recovery.h"
#include "prices/price_db.h"
#include "../support/price_fixtures.h"
#include "../support/temp_dir.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace advisor {
namespace {

namespace fs = std::filesystem;

PriceDb::Options unseeded() {
    PriceDb::Options o;
    o.seedDefaults = false;
    o.today = Date{2026, 11, 22};
    return o;
}

void addPrices(PriceDb& db, int n, int first = 0) {
    for (int i = 0; i < n; ++i) {
        PriceInput in;
        in.gpu = i % 2 ? "RTX 3090" : "RTX 4090";
        in.amountText = std::to_string(500 + first + i);
        in.dateText = "2026-01-15";
        in.source = "recovery test row " + std::to_string(first + i);
        db.addPrice(in);
    }
}

size_t pricesIn(const std::string& path) {
    PriceDb db(path, Catalog::builtin(), unseeded());
    return db.priceCount();
}

// Overwrites the middle of the file - b-tree pages of the prices table - with garbage.
void damage(const std::string& path) {
    const auto size = fs::file_size(path);
    ASSERT_GT(size, 8u * 4096u) << "the test database is too small to damage its middle";
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 4));
    const std::string garbage(size / 2, '\xAB');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
}

class DbRecoveryTest : public ::testing::Test {
protected:
    testing::TempDir dir;
    std::string dbPath = dir.file("prices.sqlite");
};

TEST_F(DbRecoveryTest, DamagedPagesAreFoundAtOpenAndTheFileIsNotWritten) {
    {
        PriceDb db(dbPath, Catalog::builtin(), unseeded());
        addPrices(db, 400);
    }
    damage(dbPath);
    const std::string before = files::readAll(dbPath);
    try {
        PriceDb db(dbPath, Catalog::builtin(), unseeded());
        FAIL() << "a damaged database opened";
    } catch (const DatabaseUnusable& e) {
        EXPECT_EQ(e.reason(), DatabaseUnusable::Reason::Damaged);
        EXPECT_NE(std::string(e.what()).find(dbPath), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("nothing was written"), std::string::npos) << e.what();
    }
    EXPECT_EQ(files::readAll(dbPath), before);
    EXPECT_TRUE(problemWithDatabaseFile(dbPath).has_value());
}

TEST_F(DbRecoveryTest, BackupsAreConsistentCopiesNewestFirstAndPruned) {
    PriceDb db(dbPath, Catalog::builtin(), unseeded());
    addPrices(db, 5);
    const DbBackups backups(dbPath, 3);
    EXPECT_TRUE(backups.list().empty());
    std::vector<std::string> made;
    for (int i = 0; i < 5; ++i) {
        addPrices(db, 1, 100 + i);
        made.push_back(backups.make(db));
    }
    const auto list = backups.list();
    ASSERT_EQ(list.size(), 3u); // only the newest three are kept
    EXPECT_EQ(list[0].path, made[4]);
    EXPECT_EQ(list[1].path, made[3]);
    EXPECT_EQ(list[2].path, made[2]);
    EXPECT_FALSE(fs::exists(made[0]));
    EXPECT_EQ(fs::path(list[0].path).parent_path(), fs::path(dbPath + ".backups"));
    EXPECT_NE(list[0].takenUtc.find(" UTC"), std::string::npos);
    EXPECT_GT(list[0].bytes, 0u);
    EXPECT_FALSE(problemWithDatabaseFile(list[0].path).has_value());
    EXPECT_EQ(pricesIn(list[0].path), 10u);
    EXPECT_EQ(pricesIn(list[2].path), 8u);
}

TEST_F(DbRecoveryTest, APartialBackupLeftByAKilledProcessIsCleanedUpWhenOld) {
    PriceDb db(dbPath, Catalog::builtin(), unseeded());
    const DbBackups backups(dbPath);
    fs::create_directories(backups.directory());
    const std::string oldPart = backups.directory() + "/backup-20261101T000000Z.sqlite.123.part";
    const std::string freshPart = backups.directory() + "/backup-20261122T000000Z.sqlite.456.part";
    std::ofstream(oldPart) << "half a backup";
    std::ofstream(freshPart) << "another process's backup in progress";
    fs::last_write_time(oldPart, fs::file_time_type::clock::now() - std::chrono::hours(2));
    backups.make(db);
    EXPECT_FALSE(fs::exists(oldPart));
    EXPECT_TRUE(fs::exists(freshPart));
    EXPECT_EQ(backups.list().size(), 1u); // parts are never listed as backups
}

TEST_F(DbRecoveryTest, AnAutomaticBackupIsMadeOncePerInterval) {
    PriceDb db(dbPath, Catalog::builtin(), unseeded());
    const DbBackups backups(dbPath);
    const auto first = backups.makeIfDue(db);
    ASSERT_TRUE(first.has_value());
    EXPECT_FALSE(backups.makeIfDue(db).has_value()); // the newest is seconds old
    // Age the newest backup by renaming it to an old time: the next start makes a new one.
    fs::rename(*first, dir.file("prices.sqlite.backups/backup-20251101T120000Z.sqlite"));
    const auto second = backups.makeIfDue(db);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(backups.list().size(), 2u);
    EXPECT_EQ(backups.list().front().path, *second);
    EXPECT_EQ(backups.list().back().takenUtc, "2025-11-01 12:00:00 UTC");
}

TEST_F(DbRecoveryTest, OnlyGoodGpuAdvisorDatabasesCountAsUsable) {
    { std::ofstream(dir.file("junk.sqlite")) << "not a database at all, but long enough to have a header....."; }
    {
        SQLite::Database other(dir.file("other.sqlite"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        other.exec("CREATE TABLE t (x)");
    }
    { PriceDb db(dir.file("ours?#%.sqlite"), Catalog::builtin(), unseeded()); }
    EXPECT_NE(problemWithDatabaseFile(dir.file("junk.sqlite")).value_or("").find("damaged or not a database"),
              std::string::npos);
    EXPECT_NE(problemWithDatabaseFile(dir.file("other.sqlite")).value_or("").find("not a GPU Advisor database"),
              std::string::npos);
    EXPECT_TRUE(problemWithDatabaseFile(dir.file("missing.sqlite")).has_value());
    EXPECT_FALSE(problemWithDatabaseFile(dir.file("ours?#%.sqlite")).has_value()); // URI characters escaped
}

TEST_F(DbRecoveryTest, ADamagedDatabaseIsSetAsideWholeAndTheNewestGoodBackupRestored) {
    {
        PriceDb db(dbPath, Catalog::builtin(), unseeded());
        addPrices(db, 300);
        DbBackups(dbPath).make(db);
        addPrices(db, 100, 300); // made after the backup: these are in the damaged file only
    }
    damage(dbPath);
    { std::ofstream(dbPath + "-wal") << "a stale log that must move with its database"; }
    // A damaged backup newer than the good one is skipped.
    { std::ofstream(dir.file("prices.sqlite.backups/backup-29991231T000000Z.sqlite")) << "broken"; }
    const std::string damagedBytes = files::readAll(dbPath);

    const RecoveryOutcome r = setAsideAndRestore(dbPath);

    EXPECT_EQ(files::readAll(r.setAsidePath), damagedBytes); // kept aside, untouched
    EXPECT_NE(r.setAsidePath.find("prices.sqlite.damaged-"), std::string::npos) << r.setAsidePath;
    EXPECT_TRUE(fs::exists(r.setAsidePath + "-wal"));
    EXPECT_FALSE(fs::exists(dbPath + "-wal"));
    ASSERT_TRUE(r.restoredFrom.has_value());
    EXPECT_EQ(r.restoredFrom->find("2999"), std::string::npos) << *r.restoredFrom;
    EXPECT_EQ(pricesIn(dbPath), 300u);
}

TEST_F(DbRecoveryTest, WithoutABackupTheDamagedFileIsSetAsideAndAFreshDatabaseStarts) {
    { std::ofstream(dbPath) << "not a database, and long enough to have a header for SQLite to read...."; }
    const RecoveryOutcome r = setAsideAndRestore(dbPath);
    EXPECT_FALSE(r.restoredFrom.has_value());
    EXPECT_FALSE(fs::exists(dbPath));
    EXPECT_TRUE(fs::exists(r.setAsidePath));
    EXPECT_EQ(pricesIn(dbPath), 0u);
    // A second recovery the same second does not overwrite the first file set aside.
    { std::ofstream(dbPath, std::ios::trunc) << "damaged again"; }
    const RecoveryOutcome again = setAsideAndRestore(dbPath);
    EXPECT_NE(again.setAsidePath, r.setAsidePath);
    EXPECT_TRUE(fs::exists(r.setAsidePath));
}

TEST_F(DbRecoveryTest, RestoringABackupKeepsTheReplacedDatabase) {
    std::string backup;
    {
        PriceDb db(dbPath, Catalog::builtin(), unseeded());
        addPrices(db, 2);
        backup = DbBackups(dbPath).make(db);
        addPrices(db, 3, 2);
    }
    const std::string kept = restoreBackup(dbPath, backup);
    EXPECT_EQ(pricesIn(dbPath), 2u);
    EXPECT_EQ(pricesIn(kept), 5u);
    EXPECT_NE(kept.find(".replaced-"), std::string::npos) << kept;
}

TEST_F(DbRecoveryTest, ABadBackupIsRefusedAndChangesNothing) {
    {
        PriceDb db(dbPath, Catalog::builtin(), unseeded());
        addPrices(db, 4);
    }
    { std::ofstream(dir.file("bad.sqlite")) << "definitely not a database, long enough for a header......"; }
    try {
        restoreBackup(dbPath, dir.file("bad.sqlite"));
        FAIL();
    } catch (const AdvisorError& e) {
        EXPECT_NE(std::string(e.what()).find("bad.sqlite"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("nothing was changed"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pricesIn(dbPath), 4u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 2); // db + bad
}

TEST(DbRules, RowsAnotherProgramWroteAreNamedByTableIdAndField) {
    testing::TempDir dir;
    const std::string path = dir.file("p.sqlite");
    {
        PriceDb db(path, Catalog::builtin(), unseeded());
        addPrices(db, 2); // ids 1 and 2: as the app stores them
        db.addCloudOffer(testing::hgxA100Offer()); // id 1
        EXPECT_TRUE(db.rowsBreakingRules().empty());
    }
    {
        // A SQLite browser: the schema's checks let these through, the app's rules do not.
        SQLite::Database raw(path, SQLite::OPEN_READWRITE);
        raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                 "VALUES ('rtx-4090', 1e300, 'USD', 'new', 'last week')"); // id 3
        raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                 "VALUES ('rtx-3090', 700, 'USD', 'used', '2030-01-01')"); // id 4
        raw.exec("UPDATE cloud_offers SET observed_date = '2099-05' WHERE id = 1");
    }
    PriceDb db(path, Catalog::builtin(), unseeded());
    std::vector<std::string> found;
    for (const auto& row : db.rowsBreakingRules()) {
        found.push_back(std::string(row.kind == PriceDb::RowProblem::Kind::CloudOffer ? "offer " : "price ") +
                        std::to_string(row.id) + ": " + row.problem.describe());
    }
    EXPECT_EQ(
        found,
        (std::vector<std::string>{
            "price 3: " + path + ": price 3: field 'amount': is implausibly large (over 1,000,000,000): '1.0e+300'",
            "price 3: " + path +
                ": price 3: field 'observed_date': is not a date: 'last week'; use YYYY-MM-DD or YYYY-MM",
            "price 4: " + path + ": price 4: field 'observed_date': is in the future (2030-01-01; today is 2026-11-22)",
            "offer 1: " + path +
                ": cloud offer 1: field 'observed_date': is in the future (2099-05; today is 2026-11-22)"}));
}

TEST(DbRules, ASettingAnotherProgramWroteIsReadAsItsDefaultAndNamed) {
    testing::TempDir dir;
    const std::string path = dir.file("p.sqlite");
    {
        PriceDb db(path, Catalog::builtin(), unseeded());
        Settings s = db.settings();
        s.cpuWatts = 150;
        db.saveSettings(s);
        SQLite::Database raw(path, SQLite::OPEN_READWRITE);
        raw.exec("UPDATE settings SET value = '7' WHERE key = 'utilization'"); // 700%
        raw.exec("UPDATE settings SET value = 'abc' WHERE key = 'years'");
        raw.exec("UPDATE settings SET value = 'custom-removed-gpu' WHERE key = 'reference_gpu'");
        raw.exec("INSERT INTO settings (key, value) VALUES ('a_newer_versions_key', 'x')");
    }
    PriceDb db(path, Catalog::builtin(), unseeded());
    const Settings s = db.settings();
    EXPECT_DOUBLE_EQ(s.utilization, 0.15); // the seed's default, not 7
    EXPECT_DOUBLE_EQ(s.years, 5);
    EXPECT_DOUBLE_EQ(s.cpuWatts, 150); // the valid ones are kept
    EXPECT_EQ(s.referenceGpu, "rtx-4090");
    std::vector<std::string> found;
    for (const auto& row : db.rowsBreakingRules()) {
        EXPECT_EQ(row.kind, PriceDb::RowProblem::Kind::Setting);
        found.push_back(row.problem.describe());
    }
    // A reference GPU no longer in the catalog and a newer version's key are not refusals.
    EXPECT_EQ(found,
              (std::vector<std::string>{
                  path + ": settings: field 'utilization': must be a fraction between 0 and 1 (0.15 = 15%), got '7'",
                  path + ": settings: field 'years': not a number: 'abc'"}));
}

TEST(DbRules, TheShippedPricesAndOffersKeepTheRules) {
    testing::TempDir dir;
    PriceDb::Options seeded;
    seeded.today = Date{2026, 11, 22};
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), seeded);
    ASSERT_GT(db.priceCount(), 50u);
    std::vector<std::string> found;
    for (const auto& row : db.rowsBreakingRules()) {
        found.push_back(row.problem.describe());
    }
    EXPECT_EQ(found, std::vector<std::string>{});
}

} // namespace
} // namespace advisor
