// `gpu-advisor db ...` and what every command does with a database it cannot use:
// a clear error naming the file, the file untouched, and a way back through `db restore`.
#include "cli_runner.h"

#include "catalog/catalog.h"
#include "prices/price_db.h"
#include "support/shipped_prices.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace advisor::testing {
namespace {

namespace fs = std::filesystem;

const std::string kJunk(4096, 'x');

TEST(DbCli, CheckReportsAHealthyDatabase) {
    Cli cli;
    const auto doc = cli.json({"db", "check"});
    EXPECT_EQ(doc.at("ok"), true);
    EXPECT_EQ(doc.at("path"), cli.db());
    EXPECT_EQ(doc.at("prices"), testing::kShippedPrices);
    EXPECT_TRUE(doc.at("problem").is_null());
    EXPECT_EQ(doc.at("backups"), 0); // db commands make no automatic backup...
    ASSERT_EQ(cli.run({"prices", "list"}).exitCode, 0);
    EXPECT_EQ(cli.json({"db", "check"}).at("backups"), 1); // ...other commands make the day's one
    const auto human = cli.run({"db", "check"});
    EXPECT_NE(
        human.out.find(": ok (schema version 2, " + std::to_string(testing::kShippedPrices) + " prices, 1 backup)"),
        std::string::npos)
        << human.out;
}

TEST(DbCli, CheckNamesRowsAnotherProgramWroteThatBreakTheRules) {
    Cli cli;
    ASSERT_EQ(cli.run({"prices", "list"}).exitCode, 0);
    std::int64_t priceId = 0;
    {
        // A SQLite browser stores what the app refuses; the schema's own checks pass.
        SQLite::Database raw(cli.db(), SQLite::OPEN_READWRITE);
        raw.exec("INSERT INTO prices (gpu_id, amount, currency, condition, observed_date) "
                 "VALUES ('rtx-4090', 1599, 'USD', 'new', '2999-01-01')");
        priceId = raw.getLastInsertRowid();
        raw.exec("UPDATE cloud_offers SET on_demand_usd_per_hour = 5e6 WHERE id = 3");
        raw.exec("INSERT OR REPLACE INTO settings (key, value) VALUES ('utilization', '7')");
    }
    const std::string id = std::to_string(priceId);
    const auto human = cli.run({"db", "check"});
    EXPECT_EQ(human.exitCode, 1);
    EXPECT_NE(human.out.find(": usable (schema version 2"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("3 stored values the app would refuse (written by another program?):\n"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find(": price " + id + ": field 'observed_date': is in the future (2999-01-01; today is"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find(": cloud offer 3: field 'on_demand_usd_per_hour': must be more than 0 and at most "
                             "10,000 USD per hour, got '5000000.0'"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("  gpu-advisor prices remove " + id + "\n  gpu-advisor cloud remove 3\n"),
              std::string::npos)
        << human.out;
    // A setting is read as its default meanwhile, and set again rather than removed.
    EXPECT_NE(
        human.out.find(": settings: field 'utilization': must be a fraction between 0 and 1 (0.15 = 15%), got '7'\n"),
        std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("A refused setting is read as its default until it is set again"), std::string::npos);
    EXPECT_EQ(cli.json({"settings", "list"}).at("settings").at("utilization"), "0.15");
    const auto asJson = cli.run({"--json", "db", "check"});
    EXPECT_EQ(asJson.exitCode, 1);
    const auto doc = nlohmann::json::parse(asJson.out);
    EXPECT_EQ(doc.at("ok"), false);
    EXPECT_EQ(doc.at("rule_problems").size(), 3u);
    EXPECT_EQ(doc.at("prices"), testing::kShippedPrices + 1);
    // Removing them as suggested makes the check pass.
    ASSERT_EQ(cli.run({"prices", "remove", id}).exitCode, 0);
    ASSERT_EQ(cli.run({"cloud", "remove", "3"}).exitCode, 0);
    ASSERT_EQ(cli.run({"settings", "set", "utilization", "15%"}).exitCode, 0);
    EXPECT_EQ(cli.run({"db", "check"}).exitCode, 0);
}

TEST(DbCli, YourOwnGpusWorkEverywhereAndSurviveACatalogThatTakesTheirName) {
    Cli cli;
    ASSERT_EQ(cli.run({"prices", "list"}).exitCode, 0);
    {
        PriceDb db(cli.db(), Catalog::builtin());
        Gpu g = Catalog::builtin().require("RTX 4000 Ada");
        g.id.clear();
        g.name = "Foo X1";
        g.aliases.clear();
        db.addCustomGpu(g);
    }
    // Every command opens the database once; a user's GPU was once loaded twice.
    const auto listed = cli.run({"prices", "list"});
    EXPECT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_EQ(cli.run({"gpus", "show", "Foo X1"}).exitCode, 0);

    // A later catalog adds a GPU of that name: the user's GPU stays, renamed, with a warning.
    {
        SQLite::Database raw(cli.db(), SQLite::OPEN_READWRITE);
        SQLite::Statement q(raw, "UPDATE gpus SET name = 'RTX 5000 Ada', spec_json = replace(spec_json, "
                                 "'\"Foo X1\"', '\"RTX 5000 Ada\"') WHERE origin = 'custom'");
        ASSERT_EQ(q.exec(), 1);
    }
    const auto after = cli.run({"prices", "list"});
    EXPECT_EQ(after.exitCode, 0) << after.err;
    EXPECT_NE(after.err.find("warning: your GPU 'RTX 5000 Ada' now has the name of a catalog GPU; it is listed as "
                             "'RTX 5000 Ada (yours)'"),
              std::string::npos)
        << after.err;
    const auto mine = cli.run({"gpus", "show", "RTX 5000 Ada (yours)"});
    EXPECT_EQ(mine.exitCode, 0) << mine.err;
    EXPECT_NE(mine.out.find("20 GB"), std::string::npos) << mine.out; // the user's card, not the catalog's 32 GB
}

TEST(DbCli, BackupsAreMadeListedAndRestored) {
    Cli cli;
    const auto made = cli.json({"db", "backup"}).at("backup").get<std::string>();
    EXPECT_TRUE(fs::exists(made));
    ASSERT_EQ(cli.run({"prices", "add", "--gpu", "RTX 4090", "--price", "1234"}).exitCode, 0);
    const auto listed = cli.json({"db", "backups"});
    EXPECT_EQ(listed.at("directory"), cli.db() + ".backups");
    ASSERT_EQ(listed.at("backups").size(), 1u); // the add made none: today's backup exists
    EXPECT_EQ(listed.at("backups")[0].at("path"), made);

    const auto restored = cli.json({"db", "restore", made});
    EXPECT_EQ(restored.at("restored_from"), made);
    const std::string kept = restored.at("replaced_kept_as");
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"),
              testing::kShippedPrices); // the added price is gone from the database...
    SQLite::Database keptDb(kept); // ...but kept beside it
    EXPECT_EQ(keptDb.execAndGet("SELECT count(*) FROM prices").getInt(), testing::kShippedPrices + 1);

    // A mistyped backup name is said plainly, and nothing changes.
    const std::string missing = cli.file("no-such-backup.sqlite");
    const auto typo = cli.run({"db", "restore", missing});
    EXPECT_EQ(typo.exitCode, 1);
    EXPECT_EQ(typo.err, "error: cannot restore: " + missing + " does not exist; nothing was changed\n");
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"), testing::kShippedPrices);
}

TEST(DbCli, ADamagedDatabaseIsRefusedByNameUntilRestored) {
    Cli cli;
    ASSERT_EQ(cli.run({"db", "backup"}).exitCode, 0);
    cli.write("prices.sqlite", kJunk);
    const auto refused = cli.run({"prices", "list"});
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_NE(refused.err.find("error: " + cli.db() + " is damaged or not a database"), std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("gpu-advisor db restore"), std::string::npos) << refused.err;
    EXPECT_EQ(cli.read("prices.sqlite"), kJunk);
    const auto check = cli.run({"--json", "db", "check"});
    EXPECT_EQ(check.exitCode, 1);
    EXPECT_EQ(nlohmann::json::parse(check.out).at("ok"), false);

    const auto r = cli.json({"db", "restore"});
    const std::string aside = r.at("set_aside");
    EXPECT_EQ(cli.read(fs::path(aside).filename().string()), kJunk); // kept, byte for byte
    EXPECT_FALSE(r.at("restored_from").is_null());
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"), testing::kShippedPrices);
}

TEST(DbCli, CatalogCommandsStillWorkBesideADamagedDatabase) {
    Cli cli;
    cli.write("prices.sqlite", kJunk);
    const auto r = cli.run({"gpus", "show", "RTX 4090"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("warning: your own GPUs are not available"), std::string::npos) << r.err;
    EXPECT_EQ(cli.read("prices.sqlite"), kJunk);
}

TEST(DbCli, RestoreWithoutAnyBackupSaysSoAndChangesNothing) {
    Cli cli;
    ASSERT_EQ(cli.run({"db", "check"}).exitCode, 0);
    ASSERT_FALSE(fs::exists(cli.db() + ".backups"));
    const auto r = cli.run({"db", "restore"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no good backup of " + cli.db()), std::string::npos) << r.err;
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"), testing::kShippedPrices);
}

TEST(DbCli, ADatabaseFromANewerVersionIsNeverSetAside) {
    Cli cli;
    ASSERT_EQ(cli.run({"db", "check"}).exitCode, 0);
    SQLite::Database(cli.db(), SQLite::OPEN_READWRITE).exec("PRAGMA user_version = 99");
    const auto r = cli.run({"db", "restore"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("newer GPU Advisor"), std::string::npos) << r.err;
    for (const auto& entry : fs::directory_iterator(fs::path(cli.db()).parent_path())) {
        EXPECT_EQ(entry.path().string().find(".damaged-"), std::string::npos) << entry.path();
    }
    EXPECT_NE(cli.run({"prices", "list"}).err.find("update GPU Advisor, or give another file with --db"),
              std::string::npos);
}

} // namespace
} // namespace advisor::testing
