// `gpu-advisor db check|backup|backups|restore`: look after the price database file.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/table.h"
#include "common/format.h"

#include "prices/db_recovery.h"

#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

namespace advisor::cli {
namespace {

// Stored rows and settings the app would refuse, one per line, then how to be rid of them.
void printRefused(std::ostream& out, const std::vector<PriceDb::RowProblem>& refused) {
    std::vector<std::int64_t> priceIds;
    std::vector<std::int64_t> offerIds;
    bool setting = false;
    for (const auto& row : refused) {
        out << "  " << row.problem.describe() << '\n';
        if (row.kind == PriceDb::RowProblem::Kind::Setting) {
            setting = true; // no id to remove: the default is used until it is set again
            continue;
        }
        auto& ids = row.kind == PriceDb::RowProblem::Kind::CloudOffer ? offerIds : priceIds;
        if (ids.empty() || ids.back() != row.id) {
            ids.push_back(row.id);
        }
    }
    if (!priceIds.empty() || !offerIds.empty()) {
        out << "Correct them on the Prices or Cloud offers page, or remove them:\n";
    }
    for (const auto& [command, ids] : {std::pair{"prices", &priceIds}, std::pair{"cloud", &offerIds}}) {
        if (!ids->empty()) {
            out << "  gpu-advisor " << command << " remove";
            for (const auto id : *ids) {
                out << ' ' << id;
            }
            out << '\n';
        }
    }
    if (setting) {
        out << "A refused setting is read as its default until it is set again: gpu-advisor settings set KEY VALUE\n";
    }
}

int check(Context& ctx) {
    std::optional<std::string> unusable; // damaged, or not ours to open
    int version = 0;
    size_t prices = 0;
    std::vector<PriceDb::RowProblem> refused; // what another program wrote against the app's rules
    try {
        PriceDb& db = ctx.db();
        const std::string integrity = db.integrityCheck();
        version = db.schemaVersion();
        prices = db.priceCount();
        if (integrity != "ok") {
            unusable = ctx.dbPath() + " is damaged (integrity check: " + integrity + ")";
        } else {
            refused = db.rowsBreakingRules();
        }
    } catch (const std::exception& e) {
        unusable = e.what();
    }
    std::optional<std::string> problem = unusable;
    if (!unusable && !refused.empty()) {
        problem = ctx.dbPath() + ": " + format::count(static_cast<long long>(refused.size()), "stored value") +
                  " the app would refuse (written by another program?)";
    }
    const auto backups = DbBackups(ctx.dbPath()).list();
    if (ctx.json()) {
        nlohmann::json j{{"path", ctx.dbPath()}, {"ok", !problem}, {"backups", backups.size()}};
        j["problem"] = problem ? nlohmann::json(*problem) : nlohmann::json(nullptr);
        if (!unusable) {
            j["schema_version"] = version;
            j["prices"] = prices;
            j["rule_problems"] = nlohmann::json::array();
            for (const auto& row : refused) {
                j["rule_problems"].push_back(row.problem.describe());
            }
        }
        ctx.printJson(j);
    } else if (unusable) {
        ctx.out() << *unusable << '\n';
    } else {
        ctx.out() << ctx.dbPath() << ": " << (problem ? "usable" : "ok") << " (schema version " << version << ", "
                  << format::count(static_cast<long long>(prices), "price") << ", "
                  << format::count(static_cast<long long>(backups.size()), "backup") << ")\n";
        if (problem) {
            ctx.out() << *problem << ":\n";
            printRefused(ctx.out(), refused);
        }
    }
    return problem ? 1 : 0;
}

int backup(Context& ctx) {
    const std::string path = DbBackups(ctx.dbPath()).make(ctx.db());
    if (ctx.json()) {
        ctx.printJson({{"backup", path}});
    } else {
        ctx.out() << "backed up to " << path << '\n';
    }
    return 0;
}

int listBackups(Context& ctx) {
    const DbBackups backups(ctx.dbPath());
    const auto all = backups.list();
    if (ctx.json()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& b : all) {
            rows.push_back({{"path", b.path}, {"taken_utc", b.takenUtc}, {"bytes", b.bytes}});
        }
        ctx.printJson({{"directory", backups.directory()}, {"backups", rows}});
        return 0;
    }
    if (all.empty()) {
        ctx.out() << "no backups yet in " << backups.directory() << '\n';
        return 0;
    }
    TextTable t({"TAKEN", "BYTES", "FILE"});
    for (const auto& b : all) {
        t.addRow({b.takenUtc, std::to_string(b.bytes), b.path});
    }
    t.print(ctx.out());
    return 0;
}

// With FILE: that backup replaces the database (kept as .replaced-<time>). Without: the newest
// good backup replaces it; a database that cannot be opened is set aside untouched first.
int restore(Context& ctx, const Args& args) {
    if (args.positionals().size() > 1) {
        throw UsageError("expected at most one backup file");
    }
    const std::string& dbPath = ctx.dbPath();
    nlohmann::json j{{"path", dbPath}};
    std::string message;
    bool damaged = false;
    if (args.positionals().empty()) {
        try {
            ctx.db();
        } catch (const DatabaseUnusable& e) {
            if (e.reason() == DatabaseUnusable::Reason::Newer) {
                throw; // a newer version's data is not damaged: only an explicit FILE replaces it
            }
            damaged = true;
        }
    }
    if (damaged) {
        ctx.closeDb();
        const RecoveryOutcome r = setAsideAndRestore(dbPath);
        j["set_aside"] = r.setAsidePath;
        j["restored_from"] = r.restoredFrom ? nlohmann::json(*r.restoredFrom) : nlohmann::json(nullptr);
        message = dbPath + " could not be used; it is kept as " + r.setAsidePath + "\n" +
                  (r.restoredFrom ? "restored from " + *r.restoredFrom
                                  : std::string("no good backup: a fresh database starts at the next use"));
    } else {
        std::string from;
        if (!args.positionals().empty()) {
            from = args.positionals().front();
        } else if (const auto newest = DbBackups(dbPath).newestUsable()) {
            from = newest->path;
        } else {
            throw AdvisorError("no good backup of " + dbPath + " in " + DbBackups(dbPath).directory() +
                               "; nothing was changed");
        }
        ctx.closeDb();
        const std::string kept = restoreBackup(dbPath, from);
        j["restored_from"] = from;
        j["replaced_kept_as"] = kept.empty() ? nlohmann::json(nullptr) : nlohmann::json(kept);
        message = "restored " + dbPath + " from " + from + (kept.empty() ? "" : "\nthe replaced database is kept as " + kept);
    }
    if (ctx.json()) {
        ctx.printJson(j);
    } else {
        ctx.out() << message << '\n';
    }
    return 0;
}

} // namespace

Command dbCommand() {
    return {"db", "check, back up or restore the price database",
            "Usage: gpu-advisor db check       integrity check of the database, and the stored prices, cloud\n"
            "                                  offers and settings the app would refuse (another program\n"
            "                                  wrote them; a refused setting is read as its default)\n"
            "       gpu-advisor db backup      make a backup now\n"
            "       gpu-advisor db backups     list the backups, newest first\n"
            "       gpu-advisor db restore [FILE]\n"
            "                                  replace the database by FILE or the newest good backup\n\n"
            "Backups live in <database>.backups/; one is made automatically each day the database\n"
            "is used, and the newest 7 are kept. Nothing is ever deleted by a restore: the\n"
            "replaced database is kept as <database>.replaced-<time>, and one that cannot be opened\n"
            "as <database>.damaged-<time>.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                if (rest.empty()) {
                    throw UsageError("missing subcommand: check, backup, backups or restore");
                }
                const Args args = Args::parse({rest.begin() + 1, rest.end()}, {});
                const std::string& sub = rest.front();
                ctx.suppressAutomaticBackup();
                if (sub == "restore") {
                    return restore(ctx, args);
                }
                args.expectPositionals(0, "");
                if (sub == "check") {
                    return check(ctx);
                }
                if (sub == "backup") {
                    return backup(ctx);
                }
                if (sub == "backups") {
                    return listBackups(ctx);
                }
                throw UsageError("unknown subcommand '" + sub + "'; use check, backup, backups or restore");
            }};
}

} // namespace advisor::cli
