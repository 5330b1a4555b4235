#include "cli/context.h"

#include "prices/db_recovery.h"

#include "app_identity.h"

#include <QApplication>

#include <filesystem>
#include <ostream>

namespace advisor::cli {

Context::Context(std::ostream& out, std::ostream& err, bool json, std::string dbPath,
                 std::optional<std::string> catalogPath)
    : out_(out), err_(err), json_(json), dbPath_(std::move(dbPath)), catalogPath_(std::move(catalogPath)) {}

Context::~Context() = default;

const Catalog& Context::catalog() {
    if (db_) {
        return db_->catalog();
    }
    // The user's own GPUs count too, but reading the catalog never creates a database.
    if (!triedDb_ && std::filesystem::exists(dbPath_)) {
        triedDb_ = true;
        try {
            return db().catalog();
        } catch (const DatabaseUnusable&) {
            err_ << "warning: your own GPUs are not available: the price database cannot be used "
                    "(see 'gpu-advisor db check')\n";
        } catch (const std::exception& e) {
            err_ << "warning: your GPUs in " << dbPath_ << " are not available: " << e.what() << '\n';
        }
    }
    return baseCatalog();
}

Settings Context::settings() {
    return db_ || std::filesystem::exists(dbPath_) ? db().settings() : Settings{};
}

const Catalog& Context::baseCatalog() {
    if (!baseCatalog_) {
        baseCatalog_ = catalogPath_ ? Catalog::fromFile(*catalogPath_) : Catalog::builtin();
    }
    return *baseCatalog_;
}

PriceDb& Context::db() {
    if (!db_) {
        // The shipped (or --catalog) GPUs: the database adds the user's own to them. Not
        // catalog(), which may already hold them from this very database.
        const Catalog& base = baseCatalog();
        try {
            db_ = std::make_unique<PriceDb>(dbPath_, base);
        } catch (const DatabaseUnusable& e) {
            if (e.reason() == DatabaseUnusable::Reason::Newer) {
                throw DatabaseUnusable(e.reason(), e.path(),
                                       std::string(e.what()) + "; update GPU Advisor, or give another file with --db");
            }
            throw DatabaseUnusable(e.reason(), e.path(),
                                   std::string(e.what()) +
                                       "\nRun 'gpu-advisor db restore' to keep it aside and continue with the "
                                       "newest good backup (or a fresh database).");
        }
        for (const auto& note : db_->openNotes()) {
            err_ << "warning: " << note << '\n';
        }
        // The daily rolling backup; a failure to back up must not stop the command.
        try {
            if (autoBackup_) {
                DbBackups(dbPath_).makeIfDue(*db_);
            }
        } catch (const std::exception& e) {
            err_ << "warning: " << e.what() << '\n';
        }
    }
    return *db_;
}

void Context::closeDb() {
    db_.reset();
}

QApplication& Context::gui() {
    if (auto* existing = qobject_cast<QApplication*>(QCoreApplication::instance())) {
        return *existing;
    }
    if (!gui_) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
            qputenv("QT_QPA_PLATFORM", "offscreen"); // drawing to files needs no display
        }
        static int argc = 1;
        static char name[] = "gpu-advisor";
        static char* argv[] = {name, nullptr};
        gui_ = std::make_unique<QApplication>(argc, argv);
        app::setApplicationIdentity();
    }
    return *gui_;
}

void Context::printJson(const nlohmann::json& doc) const {
    out_ << doc.dump(2) << '\n';
}

} // namespace advisor::cli
