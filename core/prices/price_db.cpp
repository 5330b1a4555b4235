#include "prices/price_db.h"

#include "common/embedded_resources.h"
#include "common/text.h"
#include "prices/price_io.h"
#include "prices/schema.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include <sys/stat.h>
#include <unordered_set>

namespace advisor {
namespace {

constexpr const char* kSelectPrice =
    "SELECT p.id, p.gpu_id, g.name, p.amount, p.currency, p.condition, p.source, p.source_url, "
    "p.observed_date, p.note FROM prices p JOIN gpus g ON g.id = p.gpu_id ";

Price readPrice(SQLite::Statement& q) {
    Price p;
    p.id = q.getColumn(0).getInt64();
    p.gpuId = q.getColumn(1).getString();
    p.gpuName = q.getColumn(2).getString();
    p.amount = q.getColumn(3).getDouble();
    p.currency = q.getColumn(4).getString();
    p.condition = parseCondition(q.getColumn(5).getString()).value_or(Condition::New);
    p.source = q.getColumn(6).getString();
    p.sourceUrl = q.getColumn(7).getString();
    p.observed = Date::parse(q.getColumn(8).getString()).value_or(Date{});
    p.note = q.getColumn(9).getString();
    return p;
}

// A stable text key of an observation, for duplicate detection in bulk imports.
std::string observationKey(const Price& p) {
    std::string k;
    k.reserve(128);
    for (const std::string* s : {&p.gpuId, &p.currency, &p.source, &p.sourceUrl, &p.note}) {
        k += *s;
        k += '\x1f';
    }
    k += text::formatDoubleExact(p.amount);
    k += '\x1f';
    k += toString(p.condition);
    k += '\x1f';
    k += p.observed.toString();
    return k;
}

bool isBusy(const SQLite::Exception& e) {
    const int code = e.getErrorCode() & 0xFF;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

// Which file is open, so that a rename of it by another process can be noticed.
std::pair<std::uint64_t, std::uint64_t> identityOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return {0, 0};
    }
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

[[noreturn]] void throwOpenFailure(const std::string& path, const SQLite::Exception& e) {
    const int code = e.getErrorCode() & 0xFF;
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
        throw DatabaseUnusable(DatabaseUnusable::Reason::Damaged, path,
                               path + " is damaged or not a database (" + e.what() + "); nothing was written to it");
    }
    throw AdvisorError("cannot open the price database " + path + ": " + e.what());
}

} // namespace

PriceDb::PriceDb(const std::string& path, const Catalog& builtin) : PriceDb(path, builtin, Options{}) {}

PriceDb::PriceDb(const std::string& path, const Catalog& builtin, Options options)
    : path_(path), base_(builtin), catalog_(builtin), today_(options.today.value_or(Date::today())), options_(options) {
    if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(parent, ec);
    }
    try {
        db_ = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                                 options.busyTimeoutMs);
        // Until the checks below pass, closing must not checkpoint a leftover WAL into the file:
        // a damaged or foreign database is left exactly as it was found.
        sqlite3_db_config(db_->getHandle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        db_->exec("PRAGMA foreign_keys = ON");
        // Reading the schema is the first real access: it fails here for non-SQLite files.
        const int version = db_->execAndGet("PRAGMA user_version").getInt();
        const int appId = db_->execAndGet("PRAGMA application_id").getInt();
        const int tables =
            db_->execAndGet("SELECT count(*) FROM sqlite_master WHERE type = 'table'").getInt();
        if (appId != schema::kApplicationId && (tables > 0 || version > 0)) {
            throw DatabaseUnusable(DatabaseUnusable::Reason::Foreign, path,
                                   path + " is a SQLite database of another application; GPU Advisor "
                                          "will not modify it");
        }
        if (version > schema::currentVersion()) {
            throw DatabaseUnusable(DatabaseUnusable::Reason::Newer, path,
                                   path + " was written by a newer GPU Advisor (schema version " +
                                       std::to_string(version) + "; this version knows up to " +
                                       std::to_string(schema::currentVersion()) + ")");
        }
        // Damaged pages: find them before anything is written (quick_check reads every page).
        if (tables > 0) {
            const std::string check = db_->execAndGet("PRAGMA quick_check").getString();
            if (check != "ok") {
                throw DatabaseUnusable(DatabaseUnusable::Reason::Damaged, path,
                                       path + " is damaged (integrity check: " + check.substr(0, 200) +
                                           "); nothing was written to it");
            }
        }
        sqlite3_db_config(db_->getHandle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
        fileIdentity_ = identityOf(path_);
        db_->exec("PRAGMA journal_mode = WAL");
        db_->exec("PRAGMA synchronous = FULL");
        migrate();
        syncCatalog();
        loadCustomGpus();
        if (options.seedDefaults) {
            seedIfNew();
            seedCloudOffersIfNew();
        }
    } catch (const SQLite::Exception& e) {
        throwOpenFailure(path, e);
    }
}

PriceDb::~PriceDb() = default;

int PriceDb::schemaVersion() const {
    return db_->execAndGet("PRAGMA user_version").getInt();
}

void PriceDb::withWriteTransaction(const std::function<void()>& fn) {
    // BEGIN IMMEDIATE takes the write lock up front, so two writers queue on the busy
    // timeout instead of failing with "database is locked" when upgrading a read lock.
    constexpr int kAttempts = 5;
    for (int attempt = 1;; ++attempt) {
        try {
            SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
            fn();
            tx.commit();
            return;
        } catch (const SQLite::Exception& e) {
            if (!isBusy(e) || attempt == kAttempts) {
                throw AdvisorError("the price database " + path_ + " could not be written: " + e.what());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50 * attempt));
        }
    }
}

void PriceDb::migrate() {
    const int from = schemaVersion();
    if (from == schema::currentVersion()) {
        return;
    }
    if (from > 0) {
        // Keep the user's data safe before changing its shape.
        backupTo(path_ + ".v" + std::to_string(from) + ".bak");
    }
    for (const auto& m : schema::migrations()) {
        if (m.toVersion <= from) {
            continue;
        }
        withWriteTransaction([&] {
            m.apply(*db_);
            db_->exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
            db_->exec("PRAGMA user_version = " + std::to_string(m.toVersion));
        });
    }
}

void PriceDb::syncCatalog() {
    // Catalog GPUs are rows so that prices can reference them with a foreign key.
    std::map<std::string, std::string> stored;
    SQLite::Statement q(*db_, "SELECT id, name FROM gpus WHERE origin = 'catalog'");
    while (q.executeStep()) {
        stored[q.getColumn(0).getString()] = q.getColumn(1).getString();
    }
    bool needed = false;
    for (const auto& g : catalog_.gpus()) {
        const auto it = stored.find(g.id);
        if (it == stored.end() || it->second != g.name) {
            needed = true;
            break;
        }
    }
    if (!needed) {
        return;
    }
    withWriteTransaction([&] {
        SQLite::Statement ins(*db_, "INSERT INTO gpus (id, name, origin) VALUES (?, ?, 'catalog') "
                                    "ON CONFLICT(id) DO UPDATE SET name = excluded.name");
        for (const auto& g : catalog_.gpus()) {
            ins.bind(1, g.id);
            ins.bind(2, g.name);
            ins.exec();
            ins.reset();
        }
    });
}

namespace {
constexpr const char* kShippedPricesFile = "resources/prices/default_prices.csv";

std::vector<LocatedPriceInput> shippedPriceRows() {
    const auto data = resources::find("prices/default_prices.csv");
    return data ? priceio::parseCsv(*data, kShippedPricesFile) : std::vector<LocatedPriceInput>{};
}
} // namespace

ImportOutcome PriceDb::importShippedPrices() {
    return importPrices(shippedPriceRows());
}

void PriceDb::seedIfNew() {
    const bool seeded =
        db_->execAndGet("SELECT count(*) FROM meta WHERE key = 'seeded_prices'").getInt() > 0;
    if (seeded) {
        return;
    }
    const auto rows = shippedPriceRows();
    if (rows.empty()) {
        return;
    }
    importPrices(rows);
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded_prices', ?)");
        q.bind(1, std::string(kShippedPricesFile) + " (" + std::to_string(rows.size()) + " rows)");
        q.exec();
    });
}

std::vector<Price> PriceDb::prices(const std::optional<std::string>& gpuId) const {
    std::vector<Price> out;
    out.reserve(gpuId ? 0 : priceCount());
    SQLite::Statement q(*db_, std::string(kSelectPrice) + (gpuId ? "WHERE p.gpu_id = ? " : ""));
    if (gpuId) {
        q.bind(1, *gpuId);
    }
    while (q.executeStep()) {
        out.push_back(readPrice(q));
    }
    // By GPU name (ignoring case), newest first, then as entered. Sorted here rather than by
    // ORDER BY: SQLite's sorter took 0.29 s of a 0.43 s read of 100,000 prices.
    std::sort(out.begin(), out.end(), [](const Price& a, const Price& b) {
        if (a.gpuName != b.gpuName) {
            if (text::lessIgnoringAsciiCase(a.gpuName, b.gpuName)) {
                return true;
            }
            if (text::lessIgnoringAsciiCase(b.gpuName, a.gpuName)) {
                return false;
            }
        }
        if (a.observed != b.observed) {
            return b.observed < a.observed;
        }
        return a.id < b.id;
    });
    return out;
}

std::optional<Price> PriceDb::price(std::int64_t id) const {
    SQLite::Statement q(*db_, std::string(kSelectPrice) + "WHERE p.id = ?");
    q.bind(1, id);
    if (q.executeStep()) {
        return readPrice(q);
    }
    return std::nullopt;
}

size_t PriceDb::priceCount() const {
    return static_cast<size_t>(db_->execAndGet("SELECT count(*) FROM prices").getInt64());
}

namespace {

constexpr const char* kInsertPrice =
    "INSERT INTO prices (id, gpu_id, amount, currency, condition, source, source_url, observed_date, note) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

void bindAndRun(SQLite::Statement& q, const Price& p, std::optional<std::int64_t> id) {
    if (id) {
        q.bind(1, *id);
    } else {
        q.bind(1);
    }
    q.bind(2, p.gpuId);
    q.bind(3, p.amount);
    q.bind(4, p.currency);
    q.bind(5, toString(p.condition));
    q.bind(6, p.source);
    q.bind(7, p.sourceUrl);
    q.bind(8, p.observed.toString());
    q.bind(9, p.note);
    q.exec();
    q.reset();
}

} // namespace

std::int64_t PriceDb::insert(const Price& p, std::optional<std::int64_t> id) {
    SQLite::Statement q(*db_, kInsertPrice);
    bindAndRun(q, p, id);
    return db_->getLastInsertRowid();
}

std::int64_t PriceDb::addPrice(const PriceInput& in, const InputLocation& where) {
    std::vector<InputProblem> problems;
    const auto p = validatePrice(in, catalog_, today_, where, problems);
    if (!p) {
        throw InputError(std::move(problems));
    }
    std::int64_t id = 0;
    withWriteTransaction([&] { id = insert(*p, std::nullopt); });
    return id;
}

void PriceDb::updatePrice(std::int64_t id, const PriceInput& in, const InputLocation& where) {
    std::vector<InputProblem> problems;
    const auto p = validatePrice(in, catalog_, today_, where, problems);
    if (!p) {
        throw InputError(std::move(problems));
    }
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "UPDATE prices SET gpu_id = ?, amount = ?, currency = ?, condition = ?, "
                                  "source = ?, source_url = ?, observed_date = ?, note = ? WHERE id = ?");
        q.bind(1, p->gpuId);
        q.bind(2, p->amount);
        q.bind(3, p->currency);
        q.bind(4, toString(p->condition));
        q.bind(5, p->source);
        q.bind(6, p->sourceUrl);
        q.bind(7, p->observed.toString());
        q.bind(8, p->note);
        q.bind(9, id);
        if (q.exec() == 0) {
            throw InputError({"", 0, "", "id"}, "no price with id " + std::to_string(id));
        }
    });
}

Price PriceDb::removePrice(std::int64_t id) {
    return removePrices({id}).front();
}

std::vector<Price> PriceDb::removePrices(const std::vector<std::int64_t>& ids) {
    std::vector<Price> removed;
    withWriteTransaction([&] {
        removed.clear();
        SQLite::Statement del(*db_, "DELETE FROM prices WHERE id = ?");
        for (const auto id : ids) {
            auto p = price(id);
            if (!p) {
                throw InputError({"", 0, "", "id"}, "no price with id " + std::to_string(id));
            }
            del.bind(1, id);
            del.exec();
            del.reset();
            removed.push_back(std::move(*p));
        }
    });
    return removed;
}

void PriceDb::restorePrice(const Price& p) {
    restorePrices({p});
}

void PriceDb::restorePrices(const std::vector<Price>& prices) {
    withWriteTransaction([&] {
        SQLite::Statement ins(*db_, kInsertPrice);
        for (const auto& p : prices) {
            bindAndRun(ins, p, p.id > 0 ? std::optional<std::int64_t>(p.id) : std::nullopt);
        }
    });
}

ImportOutcome PriceDb::importPrices(const std::vector<LocatedPriceInput>& rows,
                                    const std::function<bool(size_t, size_t)>& progress) {
    // 1. Validate everything before touching the database.
    std::vector<InputProblem> problems;
    std::vector<Price> valid;
    valid.reserve(rows.size());
    ResolutionCache names(catalog_); // files repeat the same few GPU names
    for (size_t i = 0; i < rows.size(); ++i) {
        const size_t before = problems.size();
        if (auto p = validatePrice(rows[i].input, names, today_, rows[i].where, problems)) {
            valid.push_back(std::move(*p));
        }
        respellFields(problems, before, rows[i].columnNames);
        if (progress && i % 1000 == 0 && !progress(i / 2, rows.size())) {
            throw InputError({"", 0, "", ""}, "import cancelled; nothing was changed");
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    // 2. Apply in one transaction, skipping observations already stored.
    ImportOutcome outcome;
    withWriteTransaction([&] {
        outcome = {};
        std::unordered_set<std::string> known;
        for (const auto& p : prices()) {
            known.insert(observationKey(p));
        }
        SQLite::Statement ins(*db_, kInsertPrice); // prepared once for the whole file
        for (size_t i = 0; i < valid.size(); ++i) {
            if (!known.insert(observationKey(valid[i])).second) {
                ++outcome.duplicates;
                continue;
            }
            bindAndRun(ins, valid[i], std::nullopt);
            ++outcome.added;
            outcome.addedIds.push_back(db_->getLastInsertRowid());
            if (progress && i % 1000 == 0 && !progress(rows.size() / 2 + i / 2, rows.size())) {
                throw InputError({"", 0, "", ""}, "import cancelled; nothing was changed");
            }
        }
    });
    if (progress) {
        progress(rows.size(), rows.size());
    }
    return outcome;
}

Settings PriceDb::settings() const {
    std::map<std::string, std::string> kv;
    SQLite::Statement q(*db_, "SELECT key, value FROM settings");
    while (q.executeStep()) {
        kv[q.getColumn(0).getString()] = q.getColumn(1).getString();
    }
    std::vector<InputProblem> problems; // `db check` reports them (rowsBreakingRules)
    return Settings::fromStored(kv, catalog_, problems);
}

void PriceDb::saveSettings(const Settings& s) {
    if (auto problems = s.validate(catalog_); !problems.empty()) {
        throw InputError(std::move(problems));
    }
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "INSERT INTO settings (key, value) VALUES (?, ?) "
                                  "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
        for (const auto& [k, v] : s.toMap()) {
            q.bind(1, k);
            q.bind(2, v);
            q.exec();
            q.reset();
        }
    });
}

std::int64_t PriceDb::externalChangeCounter() const {
    return db_->execAndGet("PRAGMA data_version").getInt64();
}

bool PriceDb::fileWasReplaced() const {
    return identityOf(path_) != fileIdentity_;
}

std::string PriceDb::integrityCheck() const {
    SQLite::Statement q(*db_, "PRAGMA integrity_check(20)");
    std::string out;
    while (q.executeStep()) {
        out += (out.empty() ? "" : "; ") + q.getColumn(0).getString();
    }
    return out;
}

void PriceDb::backupTo(const std::string& target) const {
    std::error_code ec;
    std::filesystem::remove(target, ec);
    SQLite::Statement q(*db_, "VACUUM INTO ?");
    q.bind(1, target);
    q.exec();
}

} // namespace advisor
