#include "prices/db_recovery.h"

#include "common/errors.h"
#include "common/file_io.h"
#include "prices/price_db.h"
#include "prices/schema.h"

#include <SQLiteCpp/Database.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <regex>
#include <tuple>

namespace fs = std::filesystem;

namespace advisor {
namespace {

// Backups are named by the UTC time they were taken, so that their names sort and say their age.
const std::regex kBackupName(R"(backup-(\d{8})T(\d{6})Z(?:-(\d+))?\.sqlite)");

std::string utcStamp(std::time_t t, const char* format) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

std::string nowStamp() {
    return utcStamp(std::time(nullptr), "%Y%m%dT%H%M%SZ");
}

struct ParsedName {
    std::time_t taken;
    int sequence;
};

std::optional<ParsedName> parseBackupName(const std::string& name) {
    std::smatch m;
    if (!std::regex_match(name, m, kBackupName)) {
        return std::nullopt;
    }
    std::tm tm{};
    const std::string d = m[1], t = m[2];
    tm.tm_year = std::stoi(d.substr(0, 4)) - 1900;
    tm.tm_mon = std::stoi(d.substr(4, 2)) - 1;
    tm.tm_mday = std::stoi(d.substr(6, 2));
    tm.tm_hour = std::stoi(t.substr(0, 2));
    tm.tm_min = std::stoi(t.substr(2, 2));
    tm.tm_sec = std::stoi(t.substr(4, 2));
    return ParsedName{timegm(&tm), m[3].matched ? std::stoi(m[3]) : 0};
}

// A name not yet taken: "<base><suffix>", then "<base>-2<suffix>", ...
std::string freeName(const std::string& base, const std::string& suffix) {
    std::string candidate = base + suffix;
    for (int n = 2; fs::exists(candidate); ++n) {
        candidate = base + "-" + std::to_string(n) + suffix;
    }
    return candidate;
}

// SQLite's URI syntax gives '%', '?' and '#' special meaning; escape them in a path.
std::string fileUri(const std::string& path) {
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            uri += buf;
        } else {
            uri += c;
        }
    }
    return uri;
}

// The journal files that belong to a database; they must move with it, or SQLite would
// replay one database's write-ahead log into another.
const std::vector<std::string> kCompanions = {"-wal", "-shm", "-journal"};

void renameWithCompanions(const std::string& from, const std::string& to) {
    fs::rename(from, to);
    for (const auto& suffix : kCompanions) {
        if (fs::exists(from + suffix)) {
            fs::rename(from + suffix, to + suffix);
        }
    }
}

// Copies `from` beside the database under a temporary name, flushed to disk, so that a rename
// can then put it in place whole.
std::string stageCopy(const std::string& from, const std::string& databasePath) {
    const std::string staged = databasePath + ".restoring";
    fs::copy_file(from, staged, fs::copy_options::overwrite_existing);
    files::syncToDisk(staged);
    return staged;
}

} // namespace

DbBackups::DbBackups(std::string databasePath, size_t keep)
    : dbPath_(std::move(databasePath)), dir_(dbPath_ + ".backups"), keep_(std::max<size_t>(keep, 1)) {}

std::vector<BackupFile> DbBackups::list() const {
    std::vector<std::tuple<std::time_t, int, BackupFile>> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const auto parsed = parseBackupName(entry.path().filename().string());
        if (!parsed || !entry.is_regular_file()) {
            continue;
        }
        BackupFile b{entry.path().string(), utcStamp(parsed->taken, "%Y-%m-%d %H:%M:%S UTC"),
                     entry.file_size()};
        found.emplace_back(parsed->taken, parsed->sequence, std::move(b));
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) > std::tie(std::get<0>(b), std::get<1>(b));
    });
    std::vector<BackupFile> out;
    for (auto& f : found) {
        out.push_back(std::move(std::get<2>(f)));
    }
    return out;
}

std::string DbBackups::make(const PriceDb& db) const {
    try {
        fs::create_directories(dir_);
        // Within one second, a sequence number above every existing one keeps names in time order
        // even after pruning has removed the first of them.
        const std::string stamp = nowStamp();
        int sequence = -1;
        for (const auto& b : list()) {
            const std::string name = fs::path(b.path).filename().string();
            if (name.rfind("backup-" + stamp, 0) == 0) {
                sequence = std::max(sequence, parseBackupName(name)->sequence);
            }
        }
        const std::string target =
            (fs::path(dir_) / ("backup-" + stamp + (sequence < 0 ? "" : "-" + std::to_string(sequence + 1)) +
                               ".sqlite"))
                .string();
        // Private to this call: two processes starting in the same second must not share it.
        const std::string tmp = target + "." + std::to_string(std::random_device{}()) + ".part";
        db.backupTo(tmp);
        files::syncToDisk(tmp);
        fs::rename(tmp, target);
        const auto all = list();
        for (size_t i = keep_; i < all.size(); ++i) {
            fs::remove(all[i].path);
        }
        removeAbandonedParts();
        return target;
    } catch (const fs::filesystem_error& e) {
        throw AdvisorError("cannot back up " + dbPath_ + " into " + dir_ + ": " + e.code().message());
    } catch (const std::exception& e) {
        throw AdvisorError("cannot back up " + dbPath_ + " into " + dir_ + ": " + e.what());
    }
}

// A process killed while writing a backup leaves its temporary file; one an hour old is
// nobody's work in progress any more.
void DbBackups::removeAbandonedParts() const {
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        std::error_code ignored;
        if (entry.path().extension() == ".part" && now - entry.last_write_time(ignored) > std::chrono::hours(1)) {
            fs::remove(entry.path(), ignored);
        }
    }
}

std::optional<std::string> DbBackups::makeIfDue(const PriceDb& db, std::chrono::hours interval) const {
    const auto all = list();
    if (!all.empty()) {
        const auto newest = parseBackupName(fs::path(all.front().path).filename().string());
        const auto age = std::chrono::seconds(std::time(nullptr) - newest->taken);
        if (age < interval) {
            return std::nullopt;
        }
    }
    return make(db);
}

std::optional<BackupFile> DbBackups::newestUsable() const {
    for (auto& b : list()) {
        if (!problemWithDatabaseFile(b.path)) {
            return b;
        }
    }
    return std::nullopt;
}

std::optional<std::string> problemWithDatabaseFile(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return path + " does not exist";
    }
    if (!fs::is_regular_file(path, ec)) {
        return path + " is not a file";
    }
    try {
        // immutable: read the file as it is - no locks, no -shm, no journal replay or checkpoint.
        SQLite::Database db(fileUri(path) + "?immutable=1", SQLite::OPEN_READONLY | SQLite::OPEN_URI);
        if (db.execAndGet("PRAGMA application_id").getInt() != schema::kApplicationId) {
            return path + " is not a GPU Advisor database";
        }
        if (db.execAndGet("PRAGMA user_version").getInt() > schema::currentVersion()) {
            return path + " was written by a newer GPU Advisor";
        }
        const std::string check = db.execAndGet("PRAGMA quick_check").getString();
        if (check != "ok") {
            return path + " is damaged (integrity check: " + check.substr(0, 200) + ")";
        }
    } catch (const std::exception& e) {
        return path + " is damaged or not a database (" + e.what() + ")";
    }
    return std::nullopt;
}

RecoveryOutcome setAsideAndRestore(const std::string& databasePath) {
    RecoveryOutcome out;
    try {
        out.setAsidePath = freeName(databasePath + ".damaged-" + nowStamp(), "");
        renameWithCompanions(databasePath, out.setAsidePath);
        if (const auto backup = DbBackups(databasePath).newestUsable()) {
            fs::rename(stageCopy(backup->path, databasePath), databasePath);
            out.restoredFrom = backup->path;
        }
    } catch (const fs::filesystem_error& e) {
        throw AdvisorError("cannot set " + databasePath + " aside: " + e.code().message());
    }
    return out;
}

std::string restoreBackup(const std::string& databasePath, const std::string& backupPath) {
    if (const auto problem = problemWithDatabaseFile(backupPath)) {
        throw AdvisorError("cannot restore: " + *problem + "; nothing was changed");
    }
    std::string keptAs;
    try {
        const std::string staged = stageCopy(backupPath, databasePath);
        if (fs::exists(databasePath)) {
            keptAs = freeName(databasePath + ".replaced-" + nowStamp(), "");
            renameWithCompanions(databasePath, keptAs);
        }
        fs::rename(staged, databasePath);
    } catch (const fs::filesystem_error& e) {
        throw AdvisorError("cannot restore " + databasePath + " from " + backupPath + ": " +
                           e.code().message());
    }
    return keptAs;
}

} // namespace advisor
