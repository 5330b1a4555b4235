#include "cli/context.h"

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
        } catch (const std::exception& e) {
            err_ << "warning: your GPUs in " << dbPath_ << " are not available: " << e.what() << '\n';
        }
    }
    if (!baseCatalog_) {
        baseCatalog_ = catalogPath_ ? Catalog::fromFile(*catalogPath_) : Catalog::builtin();
    }
    return *baseCatalog_;
}

PriceDb& Context::db() {
    if (!db_) {
        const Catalog& base = catalog();
        db_ = std::make_unique<PriceDb>(dbPath_, base);
    }
    return *db_;
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
