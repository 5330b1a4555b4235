#pragma once
/// \file
/// The user's price database (SQLite): prices, user-defined GPUs and settings.
/// Every change is one transaction; the schema is versioned and migrated forward
/// (with a backup first); a file that is not ours is never modified.

#include "catalog/catalog.h"
#include "common/date.h"
#include "common/table_columns.h"
#include "prices/cloud_offer.h"
#include "prices/price.h"
#include "prices/settings.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace advisor {

/// A located input row for bulk operations (import), so errors can name file and line.
struct LocatedPriceInput {
    InputLocation where;
    PriceInput input;
    /// The file's own name for a field where it differs ("price" for amount, "date" for
    /// observed_date), so that errors name the column the user wrote. Shared by a file's rows.
    SpelledColumns columnNames = nullptr;
};

struct ImportOutcome {
    size_t added = 0;
    size_t duplicates = 0; ///< rows identical to a stored price (or to an earlier row), skipped
    std::vector<std::int64_t> addedIds; ///< in file order (undo removes them)
};

/// The file at the database path cannot be used as it is. Nothing was written to it.
class DatabaseUnusable : public AdvisorError {
public:
    enum class Reason {
        Damaged, ///< not SQLite, or SQLite with damaged pages (integrity check failed)
        Foreign, ///< another application's SQLite database
        Newer,   ///< written by a newer GPU Advisor (schema version too high)
    };
    DatabaseUnusable(Reason reason, std::string path, const std::string& message)
        : AdvisorError(message), reason_(reason), path_(std::move(path)) {}
    Reason reason() const { return reason_; }
    const std::string& path() const { return path_; }

private:
    Reason reason_;
    std::string path_;
};

class PriceDb {
public:
    struct Options {
        bool seedDefaults = true;       ///< fill a new database from resources/prices/
        std::optional<Date> today;      ///< "now" for validation; tests pin it
        int busyTimeoutMs = 10000;      ///< wait this long for another writer
    };

    /// Opens (creating if needed) the database at `path`. Throws DatabaseUnusable naming the
    /// file - before writing anything to it - if it is damaged or not SQLite, belongs to
    /// another application, or was made by a newer version of GPU Advisor; AdvisorError for
    /// other failures (permissions, disk).
    PriceDb(const std::string& path, const Catalog& builtin, Options options);
    PriceDb(const std::string& path, const Catalog& builtin);
    ~PriceDb();
    PriceDb(const PriceDb&) = delete;
    PriceDb& operator=(const PriceDb&) = delete;

    const std::string& path() const { return path_; }
    int schemaVersion() const;
    /// The shipped catalog plus the user's own GPUs.
    const Catalog& catalog() const { return catalog_; }
    const Date& today() const { return today_; }

    // --- prices ---------------------------------------------------------------
    /// All prices (or those of one GPU id), by GPU name, newest first.
    std::vector<Price> prices(const std::optional<std::string>& gpuId = std::nullopt) const;
    std::optional<Price> price(std::int64_t id) const;
    size_t priceCount() const;
    /// Validates and stores one price; returns its id. Throws InputError (nothing stored).
    std::int64_t addPrice(const PriceInput& in, const InputLocation& where = {"", 0, "", ""});
    /// Replaces the observation of an existing price. Throws InputError if invalid or unknown id.
    void updatePrice(std::int64_t id, const PriceInput& in, const InputLocation& where = {"", 0, "", ""});
    /// Removes a price; returns what was removed (for undo). Throws InputError for an unknown id.
    Price removePrice(std::int64_t id);
    /// Removes several prices in one transaction (all or none); returns them for undo.
    std::vector<Price> removePrices(const std::vector<std::int64_t>& ids);
    /// Re-inserts a removed price under its old id (undo of removePrice).
    void restorePrice(const Price& p);
    /// Re-inserts several removed prices in one transaction.
    void restorePrices(const std::vector<Price>& prices);
    /// All-or-nothing import: validates every row first; if any row is bad, throws one
    /// InputError listing every bad row and changes nothing.
    ImportOutcome importPrices(const std::vector<LocatedPriceInput>& rows,
                               const std::function<bool(size_t done, size_t total)>& progress = {});
    /// The prices this version ships (resources/prices/default_prices.csv, which seeds a new
    /// database), imported into this one: a database made by an older version gains the rows
    /// added since, and rows it already holds are skipped (a price the user removed comes back).
    ImportOutcome importShippedPrices();

    // --- cloud offers -----------------------------------------------------------------
    /// All offers (or those of one GPU id), by provider, newest first.
    std::vector<CloudOffer> cloudOffers(const std::optional<std::string>& gpuId = std::nullopt) const;
    std::optional<CloudOffer> cloudOffer(std::int64_t id) const;
    /// Validates and stores an offer; throws InputError naming every bad field.
    std::int64_t addCloudOffer(const CloudOfferInput& in, const InputLocation& where = {"", 0, "", ""});
    CloudOffer removeCloudOffer(std::int64_t id);
    /// Removes several offers in one transaction (all or none); returns them for undo.
    std::vector<CloudOffer> removeCloudOffers(const std::vector<std::int64_t>& ids);
    /// Re-inserts removed offers under their old ids (undo), in one transaction.
    void restoreCloudOffers(const std::vector<CloudOffer>& offers);
    /// Replaces the offer `id` with the validated `in` (a correction, not a new observation) and
    /// returns the offer as it was, for undo. Throws InputError naming every bad field, or the
    /// id when there is no such offer; nothing changes then.
    CloudOffer updateCloudOffer(std::int64_t id, const CloudOfferInput& in, const InputLocation& where = {"", 0, "", ""});
    /// Writes `offer` over the stored offer of the same id (undo and redo of an update).
    void replaceCloudOffer(const CloudOffer& offer);
    /// All-or-nothing import of offers (offerio::parseFile): validates every row first and, if
    /// any is bad, throws one InputError listing every bad row and changes nothing. Rows
    /// identical to a stored offer (or to an earlier row) are skipped.
    ImportOutcome importCloudOffers(const std::vector<LocatedCloudOfferInput>& rows);

    // --- user-defined GPUs ------------------------------------------------------
    std::vector<Gpu> customGpus() const;
    /// What opening had to adjust for the user to read: a user's GPU whose name a catalog
    /// update gave to a built-in GPU is kept (with its prices) under "NAME (yours)".
    const std::vector<std::string>& openNotes() const { return openNotes_; }
    /// Stores a user-defined GPU. Its id gets the prefix "custom-". Throws InputError on
    /// a clash with a catalog name/alias or invalid fields.
    std::string addCustomGpu(Gpu gpu);
    /// Removes a user-defined GPU and its prices. Throws InputError for catalog GPUs.
    void removeCustomGpu(const std::string& id);

    // --- settings ---------------------------------------------------------------
    Settings settings() const;
    void saveSettings(const Settings& s);

    /// Changes whenever another connection (another process) commits; poll to notice them.
    std::int64_t externalChangeCounter() const;

    /// True when the file at path() is no longer the one opened (a restore by another
    /// process renamed it away): writes would go to the old file, so reopen.
    bool fileWasReplaced() const;

    /// SQLite's full integrity check: "ok", or the first problems it found.
    std::string integrityCheck() const;

    /// A stored row that the app would refuse if it were typed now (another program wrote it).
    struct RowProblem {
        enum class Kind { Price, CloudOffer, Setting } kind = Kind::Price;
        std::int64_t id = 0;  ///< of the price or cloud offer (0 for a setting)
        InputProblem problem; ///< located as "<path>: price 12: field 'amount': ..."
    };
    /// Every such problem of the prices, cloud offers (one per bad field, by id) and settings
    /// (which use their default instead).
    std::vector<RowProblem> rowsBreakingRules() const;

    /// Writes a consistent copy of the database to `target` (online; safe while in use).
    void backupTo(const std::string& target) const;

private:
    void migrate();
    void syncCatalog();
    void loadCustomGpus();
    void seedIfNew();
    void seedCloudOffersIfNew();
    /// Inserts `o`; under o.id when it is set (> 0), else under a new id.
    std::int64_t insertCloudOffer(const CloudOffer& o);
    void withWriteTransaction(const std::function<void()>& fn);
    std::int64_t insert(const Price& p, std::optional<std::int64_t> id);

    std::string path_;
    std::pair<std::uint64_t, std::uint64_t> fileIdentity_{0, 0}; ///< device and inode at open
    std::unique_ptr<SQLite::Database> db_;
    Catalog base_;    ///< the shipped catalog this database was opened with
    Catalog catalog_; ///< base_ plus the user's GPUs
    std::vector<std::string> openNotes_;
    Date today_;
    Options options_;
};

} // namespace advisor
