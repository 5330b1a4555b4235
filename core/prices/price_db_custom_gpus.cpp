// PriceDb's custom GPUs: cards the user defines, stored with their specification as JSON in
// the gpus table and added to the catalog after the built-in ones.
#include "prices/price_db.h"

#include "catalog/gpu_json.h"
#include "common/text.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

namespace advisor {

void PriceDb::loadCustomGpus() {
    SQLite::Statement q(*db_, "SELECT id, spec_json FROM gpus WHERE origin = 'custom' ORDER BY id");
    while (q.executeStep()) {
        const std::string id = q.getColumn(0).getString();
        const auto where = InputLocation{path_, 0, "custom GPU '" + id + "'", ""};
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(q.getColumn(1).getString());
        } catch (const nlohmann::json::exception& e) {
            throw AdvisorError(path_ + ": custom GPU '" + id + "' has an unreadable specification: " + e.what());
        }
        Gpu g = gpuFromJson(j, where);
        g.custom = true;
        try {
            catalog_.add(g, path_);
        } catch (const InputError&) {
            // A catalog update gave a built-in GPU this GPU's name or alias (say the user
            // defined "RTX 5000 Ada" before the catalog had it): keep the user's GPU and its
            // prices under a name that says whose it is, rather than refusing the database.
            const std::string original = g.name;
            g.name += " (yours)";
            g.aliases.clear();
            catalog_.add(g, path_);
            openNotes_.push_back("your GPU '" + original + "' now has the name of a catalog GPU; it is listed as '" +
                                 g.name + "'");
        }
    }
}

std::vector<Gpu> PriceDb::customGpus() const {
    std::vector<Gpu> out;
    for (const auto& g : catalog_.gpus()) {
        if (g.custom) {
            out.push_back(g);
        }
    }
    return out;
}

std::string PriceDb::addCustomGpu(Gpu gpu) {
    std::string slug;
    for (const char c : text::toLower(gpu.name)) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (alnum) {
            slug += c;
        } else if (!slug.empty() && slug.back() != '-') {
            slug += '-';
        }
    }
    while (!slug.empty() && slug.back() == '-') {
        slug.pop_back();
    }
    gpu.id = "custom-" + slug;
    gpu.custom = true;
    // Round-trip through JSON so the stored form passes the same validation as the catalog.
    const nlohmann::json spec = gpuToJson(gpu);
    Gpu checked = gpuFromJson(spec, {"custom GPU", 0, "'" + gpu.name + "'", ""});
    checked.custom = true;
    Catalog next = catalog_;
    next.add(checked, "custom GPU '" + gpu.name + "'");
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "INSERT INTO gpus (id, name, origin, spec_json) VALUES (?, ?, 'custom', ?)");
        q.bind(1, checked.id);
        q.bind(2, checked.name);
        q.bind(3, spec.dump());
        q.exec();
    });
    catalog_ = std::move(next);
    return checked.id;
}

void PriceDb::removeCustomGpu(const std::string& id) {
    const Gpu* g = catalog_.findById(id);
    if (g == nullptr) {
        throw InputError({"", 0, "", "id"}, "no GPU with id '" + id + "'");
    }
    if (!g->custom) {
        throw InputError({"", 0, "", "id"}, "'" + g->name + "' is a catalog GPU; only your own GPUs can be removed");
    }
    withWriteTransaction([&] {
        SQLite::Statement q(*db_, "DELETE FROM gpus WHERE id = ? AND origin = 'custom'");
        q.bind(1, id);
        q.exec();
    });
    Catalog rebuilt = base_;
    for (auto& c : customGpus()) {
        if (c.id != id) {
            rebuilt.add(c, path_);
        }
    }
    catalog_ = std::move(rebuilt);
}

} // namespace advisor
