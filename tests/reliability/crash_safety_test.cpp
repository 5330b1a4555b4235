// Crash safety: the real command line is killed (SIGKILL) at random moments while it imports
// thousands of prices and while it adds single prices. After every kill the database must pass
// SQLite's integrity check and open in GPU Advisor, each import must be wholly applied or not
// at all, and every change the command acknowledged must be there.
//
// CRASH_SAFETY_RUNS sets the number of runs (10 by default; the `long` label runs 50).
// CRASH_SAFETY_SEED repeats a run's random kill moments; the seed is printed on failure.
#include "support/process.h"
#include "support/temp_dir.h"

#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include <signal.h>

namespace advisor::testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kImportRows = 5000;

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

struct Acknowledged {
    std::int64_t id;
    double amount;
};

class CrashSafety : public ::testing::Test {
protected:
    TempDir dir;
    std::string db = dir.file("prices.sqlite");
    std::vector<std::string> env = {"LC_ALL=C.UTF-8", "XDG_CONFIG_HOME=" + dir.file("config"),
                                    "XDG_DATA_HOME=" + dir.file("data")};

    std::vector<std::string> cli(std::vector<std::string> args) const {
        args.insert(args.begin(), {"--db", db});
        return args;
    }

    // A CSV of kImportRows valid, distinct prices tagged with the run's source.
    std::string writeImport(int run) const {
        const std::string path = dir.file("import-" + std::to_string(run) + ".csv");
        std::ofstream f(path);
        f << "gpu,amount,observed_date,currency,condition,source,source_url,note\n";
        for (int i = 0; i < kImportRows; ++i) {
            f << (i % 2 ? "RTX 3090" : "RTX 4090") << ',' << 1000 + i << ".25,2025-06-01,USD,"
              << (i % 3 ? "new" : "used") << ",crash-import-" << run << ",,row " << i << '\n';
        }
        return path;
    }

    long long count(const std::string& where) const {
        SQLite::Database d(db, SQLite::OPEN_READONLY);
        return d.execAndGet("SELECT count(*) FROM prices WHERE " + where).getInt64();
    }
};

TEST_F(CrashSafety, KilledImportsAndAddsNeverDamageTheDatabaseOrLoseAcknowledgedChanges) {
    const int runs = envInt("CRASH_SAFETY_RUNS", 10);
    const unsigned seed = static_cast<unsigned>(envInt("CRASH_SAFETY_SEED", static_cast<int>(std::random_device{}())));
    SCOPED_TRACE("CRASH_SAFETY_SEED=" + std::to_string(seed));
    std::mt19937 rng(seed);

    // Create the database and measure an undisturbed import and add, to aim the kills.
    ASSERT_EQ(runProcess(GPU_ADVISOR_BIN, cli({"db", "check"}), env).exitCode, 0);
    auto t0 = Clock::now();
    const auto calibration = runProcess(GPU_ADVISOR_BIN, cli({"prices", "import", writeImport(-1)}), env);
    ASSERT_EQ(calibration.exitCode, 0) << calibration.err;
    const double importMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    t0 = Clock::now();
    ASSERT_EQ(runProcess(GPU_ADVISOR_BIN, cli({"prices", "add", "--gpu", "RTX 4090", "--price", "1"}), env).exitCode, 0);
    const double addMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::cout << "undisturbed: import of " << kImportRows << " rows " << importMs << " ms, add " << addMs
              << " ms; " << runs << " runs, seed " << seed << '\n';

    std::vector<Acknowledged> acknowledged;
    int importsApplied = 0, importsKilled = 0, addsKilled = 0;
    for (int run = 0; run < runs; ++run) {
        SCOPED_TRACE("run " + std::to_string(run));
        const std::string file = writeImport(run);
        // Kill moments spread over the whole import (stratified), to twice its undisturbed time
        // since the adds beside it slow it down: early kills land in start-up and parsing, later
        // ones inside the write transaction. The last run is never killed.
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const double importKillMs =
            run == runs - 1 ? 1e12 : (run + unit(rng)) / (runs - 1) * 2.0 * importMs;
        const auto start = Clock::now();
        const auto elapsedMs = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); };

        Child import(GPU_ADVISOR_BIN, cli({"prices", "import", file}), dir.path().string(), env);
        bool importDone = false;
        int adds = 0;
        while (!importDone || adds < 2) {
            // One add at a time beside the import, each killed at a random moment of its own.
            const double addKillMs = elapsedMs() + unit(rng) * 3.0 * addMs;
            const std::string amount = std::to_string(run) + "." + std::to_string(10 + adds);
            Child add(GPU_ADVISOR_BIN,
                      cli({"--json", "prices", "add", "--gpu", "RTX 3090", "--price", amount, "--source", "crash-add"}),
                      dir.path().string(), env);
            ++adds;
            bool addDone = false;
            while (!addDone) {
                if (!importDone && elapsedMs() >= importKillMs) {
                    const auto r = import.kill();
                    importDone = true;
                    (r.exitCode == 128 + SIGKILL ? importsKilled : importsApplied)++;
                    ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 128 + SIGKILL) << r.err;
                }
                if (!importDone && import.waitFor(0)) {
                    const auto r = import.wait();
                    ASSERT_EQ(r.exitCode, 0) << r.err;
                    importDone = true;
                    ++importsApplied;
                }
                if (add.waitFor(0)) {
                    const auto r = add.wait();
                    ASSERT_EQ(r.exitCode, 0) << r.err;
                    const auto p = nlohmann::json::parse(r.out).at("added");
                    acknowledged.push_back({p.at("id").get<std::int64_t>(), p.at("amount").get<double>()});
                    addDone = true;
                } else if (elapsedMs() >= addKillMs) {
                    const auto r = add.kill();
                    if (r.exitCode == 0) { // it finished just before the kill
                        const auto p = nlohmann::json::parse(r.out).at("added");
                        acknowledged.push_back({p.at("id").get<std::int64_t>(), p.at("amount").get<double>()});
                    } else {
                        ++addsKilled;
                    }
                    addDone = true;
                } else {
                    std::this_thread::sleep_for(std::chrono::microseconds(500));
                }
            }
        }

        // The file is sound, and GPU Advisor opens it.
        {
            SQLite::Database d(db, SQLite::OPEN_READONLY);
            ASSERT_EQ(d.execAndGet("PRAGMA integrity_check").getString(), "ok");
        }
        const auto check = runProcess(GPU_ADVISOR_BIN, cli({"--json", "db", "check"}), env);
        ASSERT_EQ(check.exitCode, 0) << check.out << check.err;
        // All or nothing.
        const long long imported = count("source = 'crash-import-" + std::to_string(run) + "'");
        ASSERT_TRUE(imported == 0 || imported == kImportRows) << imported << " of " << kImportRows << " rows";
        // Every acknowledged add, exactly as acknowledged.
        SQLite::Database d(db, SQLite::OPEN_READONLY);
        SQLite::Statement q(d, "SELECT amount FROM prices WHERE id = ? AND source = 'crash-add'");
        for (const auto& a : acknowledged) {
            q.bind(1, a.id);
            ASSERT_TRUE(q.executeStep()) << "acknowledged price " << a.id << " is missing";
            EXPECT_DOUBLE_EQ(q.getColumn(0).getDouble(), a.amount);
            q.reset();
        }
    }
    std::cout << "imports: " << importsApplied << " applied whole, " << importsKilled
              << " killed (none partly applied); adds: " << acknowledged.size() << " acknowledged and present, "
              << addsKilled << " killed\n";
    EXPECT_EQ(importsApplied + importsKilled, runs);
    EXPECT_GT(importsApplied, 0);
    EXPECT_GT(importsKilled, 0) << "no import was ever interrupted: the kills are mis-aimed";
    EXPECT_GT(acknowledged.size(), 0u);
}

} // namespace
} // namespace advisor::testing
