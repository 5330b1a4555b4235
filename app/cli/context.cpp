#include "cli/context.h"

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

void Context::printJson(const nlohmann::json& doc) const {
    out_ << doc.dump(2) << '\n';
}

} // namespace advisor::cli
