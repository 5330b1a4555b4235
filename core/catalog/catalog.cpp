#include "catalog/catalog.h"

#include "common/json_fields.h"

#include "catalog/gpu_json.h"
#include "common/embedded_resources.h"
#include "common/file_io.h"
#include "common/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace advisor {
namespace {

bool formMatches(const std::string& wanted, const std::string& formCode) {
    return text::startsWith(formCode, wanted);
}

std::string normalizedMemoryType(const std::string& t) {
    std::string out;
    for (const char c : text::toLower(t)) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            out += c;
        }
    }
    return out;
}

bool variantsMatch(const NameKey& q, const Gpu& g) {
    if (q.memoryGb && *q.memoryGb != static_cast<int>(std::lround(g.memoryGb))) {
        return false;
    }
    if (q.form && !formMatches(*q.form, g.formCode)) {
        return false;
    }
    if (q.memoryType && *q.memoryType != normalizedMemoryType(g.memoryType)) {
        return false;
    }
    if (q.nvlink && g.interconnect != InterconnectType::NvLink) {
        return false;
    }
    return true;
}

std::string names(const std::vector<const Gpu*>& gpus) {
    std::vector<std::string> parts;
    for (const auto* g : gpus) {
        parts.push_back(g->name);
    }
    return text::join(parts, ", ");
}

} // namespace

std::string Resolution::message() const {
    switch (status) {
    case ResolveStatus::Found:
        return "";
    case ResolveStatus::Ambiguous:
        return "'" + query + "' is ambiguous; it matches " + names(candidates) +
               ". Add the memory size or form (for example '80GB' or 'SXM') or use the full name";
    case ResolveStatus::NotFound:
        if (candidates.empty()) {
            return "unknown GPU '" + query + "'; 'gpu-advisor gpus list' shows the known GPUs";
        }
        return "unknown GPU '" + query + "'; did you mean " + names(candidates) + "?";
    }
    return "";
}

Catalog Catalog::fromJson(std::string_view textIn, const std::string& fileLabel) {
    const nlohmann::json doc = parseJsonDocument(textIn, fileLabel);
    if (!doc.is_object() || !doc.contains("gpus") || !doc["gpus"].is_array()) {
        throw InputError({fileLabel, 0, "", "gpus"}, "expected an object with a 'gpus' list");
    }
    Catalog cat;
    const auto& list = doc["gpus"];
    cat.gpus_.reserve(list.size());
    // Every bad entry is reported, each at the line where it starts. The lines are found only
    // when something is wrong: a good catalog (the built-in one, at every start) is not scanned.
    std::vector<int> lines;
    std::vector<InputProblem> problems;
    for (size_t i = 0; i < list.size(); ++i) {
        std::string label = "entry " + std::to_string(i + 1);
        if (list[i].is_object() && list[i].contains("name") && list[i]["name"].is_string()) {
            label += " ('" + list[i]["name"].get<std::string>() + "')";
        }
        try {
            Gpu g = gpuFromJson(list[i], {fileLabel, 0, label, ""});
            cat.checkUnique(g, {fileLabel, 0, label, ""});
            cat.gpus_.push_back(std::move(g));
            cat.index(cat.gpus_.size() - 1);
        } catch (const InputError& e) {
            if (lines.empty()) {
                lines = jsonArrayElementLines(textIn, "gpus");
            }
            for (InputProblem p : e.problems()) {
                p.where.line = i < lines.size() ? lines[i] : 0;
                problems.push_back(std::move(p));
            }
        }
    }
    for (size_t i = 0; i < cat.gpus_.size() && problems.empty(); ++i) {
        const Gpu& g = cat.gpus_[i];
        if (g.configurationPeer.empty()) {
            continue;
        }
        const Gpu* peer = cat.findById(g.configurationPeer);
        if (peer == nullptr || peer == &g || peer->vendor != g.vendor) {
            if (lines.empty()) {
                lines = jsonArrayElementLines(textIn, "gpus");
            }
            problems.push_back(
                {{fileLabel, i < lines.size() ? lines[i] : 0, "entry " + std::to_string(i + 1) + " ('" + g.name + "')",
                  "compute.configuration_peer"},
                 "'" + g.configurationPeer + "' is not the id of another " + g.vendor + " GPU in this catalog"});
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    if (cat.gpus_.empty()) {
        throw InputError({fileLabel, 0, "", "gpus"}, "the catalog lists no GPUs");
    }
    return cat;
}

Catalog Catalog::fromFile(const std::string& path) {
    return fromJson(files::readAll(path), path);
}

const Catalog& Catalog::builtin() {
    static const Catalog cat = [] {
        const auto data = resources::find("catalog/gpus.json");
        if (!data) {
            throw AdvisorError("the GPU catalog was not built into this program");
        }
        return fromJson(*data, "resources/catalog/gpus.json");
    }();
    return cat;
}

const Gpu* Catalog::findById(std::string_view id) const {
    for (const auto& g : gpus_) {
        if (g.id == id) {
            return &g;
        }
    }
    return nullptr;
}

void Catalog::index(size_t gpuIndex) {
    const Gpu& g = gpus_[gpuIndex];
    keys_.push_back({gpuIndex, parseNameKey(g.name)});
    keys_.push_back({gpuIndex, parseNameKey(g.id)});
    for (const auto& a : g.aliases) {
        keys_.push_back({gpuIndex, parseNameKey(a)});
    }
}

void Catalog::checkUnique(const Gpu& g, const InputLocation& where) const {
    const auto at = [&where](const char* field) {
        InputLocation l = where;
        l.field = field;
        return l;
    };
    if (findById(g.id) != nullptr) {
        throw InputError(at("id"), "id '" + g.id + "' is used twice");
    }
    std::vector<std::string> labels = {g.name};
    labels.insert(labels.end(), g.aliases.begin(), g.aliases.end());
    for (const auto& label : labels) {
        const NameKey k = parseNameKey(label);
        if (k.model.empty()) {
            throw InputError(at("name"), "'" + label + "' has no model part (only brand or variant words)");
        }
        for (const auto& existing : keys_) {
            if (existing.key == k) {
                throw InputError(at(label == g.name ? "name" : "aliases"),
                                 "'" + label + "' is already the name or alias of " +
                                     gpus_[existing.gpuIndex].name);
            }
        }
    }
}

Resolution Catalog::resolve(std::string_view name) const {
    Resolution r;
    r.query = std::string(text::trim(name));
    const NameKey q = parseNameKey(r.query);
    r.nvlinkRequested = q.nvlink;
    if (q.model.empty()) {
        return r;
    }

    // 1. A name or alias written exactly (ignoring case, punctuation and brand words).
    const auto addExact = [&](NameKey key, std::set<size_t>& into) {
        key.nvlink = false;
        for (const auto& k : keys_) {
            const bool linkOk = !q.nvlink || gpus_[k.gpuIndex].interconnect == InterconnectType::NvLink;
            if (k.key == key && linkOk) {
                into.insert(k.gpuIndex);
            }
        }
    };
    std::set<size_t> matches;
    addExact(q, matches);
    // 2. Otherwise every GPU of that model whose variant matches what the name says.
    const auto sameModel = [&](const std::vector<std::string>& model) {
        for (const auto& k : keys_) {
            if (k.key.model == model && variantsMatch(q, gpus_[k.gpuIndex])) {
                matches.insert(k.gpuIndex);
            }
        }
    };
    if (matches.empty()) {
        sameModel(q.model);
    }
    // 2b. A GeForce number without its series ("4090 24GB", "1080 Ti"): RTX or GTX, a name or
    // alias written out first ("3080" is the "RTX 3080" alias, not also the 12 GB card).
    if (matches.empty() && isBareGeForceNumber(q)) {
        std::vector<NameKey> withSeries;
        for (const char* series : {"rtx", "gtx"}) {
            NameKey k = q;
            k.model.emplace_back(series);
            std::sort(k.model.begin(), k.model.end());
            withSeries.push_back(std::move(k));
        }
        for (const auto& k : withSeries) {
            addExact(k, matches);
        }
        if (matches.empty()) {
            for (const auto& k : withSeries) {
                sameModel(k.model);
            }
        }
    }
    if (matches.size() == 1) {
        r.status = ResolveStatus::Found;
        r.gpu = &gpus_[*matches.begin()];
        return r;
    }
    if (matches.size() > 1) {
        r.status = ResolveStatus::Ambiguous;
        for (const size_t i : matches) {
            r.candidates.push_back(&gpus_[i]);
        }
        return r;
    }
    // 3. Not found: suggest GPUs sharing the most model tokens (numbers weigh most).
    std::vector<std::pair<double, size_t>> scored;
    for (size_t i = 0; i < gpus_.size(); ++i) {
        const NameKey k = parseNameKey(gpus_[i].name);
        double score = 0;
        for (const auto& t : q.model) {
            if (std::find(k.model.begin(), k.model.end(), t) != k.model.end()) {
                score += (t[0] >= '0' && t[0] <= '9') ? 2.0 : 1.0;
            }
        }
        if (score >= 2.0) {
            scored.emplace_back(score, i);
        }
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < scored.size() && i < 5; ++i) {
        r.candidates.push_back(&gpus_[scored[i].second]);
    }
    return r;
}

const Gpu& Catalog::require(std::string_view name, const std::string& where) const {
    const Resolution r = resolve(name);
    if (r.status != ResolveStatus::Found) {
        throw InputError({where, 0, "", ""}, r.message());
    }
    return *r.gpu;
}

const std::string& Catalog::requireVendor(std::string_view vendor, const std::string& where) const {
    std::vector<std::string> known;
    for (const auto& g : gpus_) {
        if (text::toLower(g.vendor) == text::toLower(vendor)) {
            return g.vendor;
        }
        if (std::find(known.begin(), known.end(), g.vendor) == known.end()) {
            known.push_back(g.vendor);
        }
    }
    throw InputError({where, 0, "", ""},
                     "no GPU in the catalog is made by '" + std::string(vendor) + "'; vendors: " + text::join(known, ", "));
}

const Resolution& ResolutionCache::resolve(std::string_view name) {
    const auto it = cache_.find(std::string(name));
    if (it != cache_.end()) {
        return it->second;
    }
    return cache_.emplace(std::string(name), catalog_.resolve(name)).first->second;
}

void Catalog::add(Gpu gpu, const std::string& where) {
    checkUnique(gpu, {where, 0, "", ""});
    gpus_.push_back(std::move(gpu));
    index(gpus_.size() - 1);
}

} // namespace advisor
