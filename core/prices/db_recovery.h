#pragma once
/// \file
/// Keeping the user's price database safe: rolling backups beside it, and recovery when the
/// file at start-up cannot be used. A damaged file is never overwritten or deleted - it is
/// renamed aside, byte for byte as it was, so nothing in it is lost for good.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

class PriceDb;

struct BackupFile {
    std::string path;
    std::string takenUtc; ///< "2026-11-22 06:41:00 UTC"
    std::uintmax_t bytes = 0;
};

/// Rolling copies of one database in the directory "<database>.backups/".
class DbBackups {
public:
    /// Keeps this many newest copies; older ones are removed when a new one is made.
    static constexpr size_t kDefaultKeep = 7;
    /// An automatic copy is made at start-up when the newest one is older than this.
    static constexpr std::chrono::hours kDefaultInterval{24};

    explicit DbBackups(std::string databasePath, size_t keep = kDefaultKeep);

    const std::string& directory() const { return dir_; }
    /// Newest first. Files in the directory that are not backups are ignored.
    std::vector<BackupFile> list() const;
    /// Writes a consistent copy of the open database (safe while it is in use), flushes it
    /// to disk, then prunes to the newest `keep`. Returns the new file's path.
    std::string make(const PriceDb& db) const;
    /// make() when the newest copy is older than `interval` (or there is none).
    std::optional<std::string> makeIfDue(const PriceDb& db,
                                         std::chrono::hours interval = kDefaultInterval) const;
    /// The newest backup that passes problemWithDatabaseFile(), if any.
    std::optional<BackupFile> newestUsable() const;

private:
    void removeAbandonedParts() const;

    std::string dbPath_;
    std::string dir_;
    size_t keep_;
};

/// Why the file cannot serve as a GPU Advisor database (not SQLite, damaged pages, another
/// application's, too new), or nothing when it can. Opens it read-only; writes nothing.
std::optional<std::string> problemWithDatabaseFile(const std::string& path);

struct RecoveryOutcome {
    std::string setAsidePath;                ///< where the unusable file now is
    std::optional<std::string> restoredFrom; ///< the backup put in its place, if any
};

/// The database at `databasePath` cannot be used: renames it (with its -wal and -shm
/// files) to "<database>.damaged-<time>" and copies the newest usable backup into its
/// place. With no usable backup the path is left empty and a fresh database will start.
/// The database must not be open in this process.
RecoveryOutcome setAsideAndRestore(const std::string& databasePath);

/// Puts `backupPath` in place of the (closed) database; the current file is kept as
/// "<database>.replaced-<time>" and that path is returned (empty when there was none).
/// Throws AdvisorError, changing nothing, when the backup itself is not usable.
std::string restoreBackup(const std::string& databasePath, const std::string& backupPath);

} // namespace advisor
