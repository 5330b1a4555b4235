#pragma once
/// \file
/// What every command gets: where to write, whether to write JSON, and lazy access
/// to the catalog and the price database.

#include "catalog/catalog.h"
#include "prices/price_db.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

class QApplication;

namespace advisor::cli {

class Context {
public:
    Context(std::ostream& out, std::ostream& err, bool json, std::string dbPath,
            std::optional<std::string> catalogPath);
    ~Context();

    std::ostream& out() const { return out_; }
    std::ostream& err() const { return err_; }
    bool json() const { return json_; }

    /// The shipped catalog (or --catalog FILE) plus the user's GPUs when a database is open.
    const Catalog& catalog();
    /// Opens the database on first use (creating and seeding it if new).
    PriceDb& db();
    const std::string& dbPath() const { return dbPath_; }
    /// The user's settings, or the defaults when there is no database yet (reading settings
    /// never creates one).
    Settings settings();
    /// Closes the database (before its file is replaced by a restore).
    void closeDb();
    /// Opening the database makes the day's backup; commands that manage backups turn that off.
    void suppressAutomaticBackup() { autoBackup_ = false; }

    /// A QApplication for commands that draw (chart, screenshot): the offscreen platform
    /// unless QT_QPA_PLATFORM says otherwise, so no display is needed. Lives as long as the
    /// context, so it is gone before the program's exit handlers run.
    QApplication& gui();

    /// Prints one JSON document on stdout.
    void printJson(const nlohmann::json& doc) const;

private:
    const Catalog& baseCatalog(); ///< shipped or --catalog GPUs, without the user's

    std::ostream& out_;
    std::ostream& err_;
    bool json_;
    std::string dbPath_;
    std::optional<std::string> catalogPath_;
    std::optional<Catalog> baseCatalog_;
    std::unique_ptr<PriceDb> db_;
    bool triedDb_ = false;
    bool autoBackup_ = true;
    std::unique_ptr<QApplication> gui_;
};

} // namespace advisor::cli
