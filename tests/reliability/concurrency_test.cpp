// Concurrency: many command-line processes write the same database at the same moment -
// single adds, a large import and a settings change. None may fail, none may report
// "database is locked", and nothing any of them acknowledged may be missing.
#include "support/process.h"
#include "support/temp_dir.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>

namespace advisor::testing {
namespace {

constexpr int kWriters = 12;
constexpr int kImportRows = 3000;
constexpr int kRounds = 3;

TEST(Concurrency, SimultaneousWritersAllSucceedAndLoseNothing) {
    TempDir dir;
    const std::string db = dir.file("prices.sqlite");
    const std::vector<std::string> env = {"LC_ALL=C.UTF-8", "XDG_CONFIG_HOME=" + dir.file("config"),
                                          "XDG_DATA_HOME=" + dir.file("data")};
    ASSERT_EQ(runProcess(GPU_ADVISOR_BIN, {"--db", db, "db", "check"}, env).exitCode, 0);

    std::vector<std::int64_t> acknowledged;
    for (int round = 0; round < kRounds; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::string csv = dir.file("import-" + std::to_string(round) + ".csv");
        {
            std::ofstream f(csv);
            f << "gpu,amount,observed_date,currency,condition,source\n";
            for (int i = 0; i < kImportRows; ++i) {
                f << "RTX 4090," << 1200 + i << ",2025-07-01,USD,new,concurrent-import-" << round << '\n';
            }
        }
        // Start everything before waiting for anything.
        std::vector<std::unique_ptr<Child>> writers;
        writers.push_back(std::make_unique<Child>(GPU_ADVISOR_BIN, std::vector<std::string>{"--db", db, "prices", "import", csv},
                                                  dir.path().string(), env));
        writers.push_back(std::make_unique<Child>(
            GPU_ADVISOR_BIN,
            std::vector<std::string>{"--db", db, "settings", "set", "electricity_usd_per_kwh", "0.2" + std::to_string(round + 1)},
            dir.path().string(), env));
        for (int w = 0; w < kWriters; ++w) {
            writers.push_back(std::make_unique<Child>(
                GPU_ADVISOR_BIN,
                std::vector<std::string>{"--db", db, "--json", "prices", "add", "--gpu", "RTX 3090", "--price",
                                         std::to_string(round * 100 + w + 1), "--source", "concurrent-add"},
                dir.path().string(), env));
        }
        for (size_t i = 0; i < writers.size(); ++i) {
            const auto r = writers[i]->wait();
            ASSERT_EQ(r.exitCode, 0) << "writer " << i << ": " << r.err;
            EXPECT_EQ(r.err.find("locked"), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find("busy"), std::string::npos) << r.err;
            if (i >= 2) {
                acknowledged.push_back(nlohmann::json::parse(r.out).at("added").at("id").get<std::int64_t>());
            }
        }
        SQLite::Database d(db, SQLite::OPEN_READONLY);
        EXPECT_EQ(d.execAndGet("SELECT count(*) FROM prices WHERE source = 'concurrent-import-" +
                               std::to_string(round) + "'")
                      .getInt(),
                  kImportRows);
        EXPECT_EQ(d.execAndGet("SELECT value FROM settings WHERE key = 'electricity_usd_per_kwh'").getString(),
                  "0.2" + std::to_string(round + 1));
        for (const auto id : acknowledged) {
            EXPECT_EQ(d.execAndGet("SELECT count(*) FROM prices WHERE source = 'concurrent-add' AND id = " +
                                   std::to_string(id))
                          .getInt(),
                      1)
                << "acknowledged price " << id << " is missing";
        }
        EXPECT_EQ(d.execAndGet("SELECT count(*) FROM prices WHERE source = 'concurrent-add'").getInt(),
                  static_cast<int>(acknowledged.size()));
        EXPECT_EQ(d.execAndGet("PRAGMA integrity_check").getString(), "ok");
    }
}

} // namespace
} // namespace advisor::testing
