#pragma once
/// \file
/// The GPU catalog: shipped specifications (resources/catalog/gpus.json) plus any
/// GPUs the user defined, with tolerant but never-guessing name resolution.

#include "catalog/gpu.h"
#include "catalog/name_key.h"
#include "common/errors.h"

#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

namespace advisor {

enum class ResolveStatus { Found, Ambiguous, NotFound };

struct Resolution {
    ResolveStatus status = ResolveStatus::NotFound;
    const Gpu* gpu = nullptr;              ///< set when Found
    std::vector<const Gpu*> candidates;    ///< Ambiguous: the matches; NotFound: suggestions
    bool nvlinkRequested = false;          ///< the name said "NVLink" (a bridged setup)
    std::string query;

    /// "'A100' is ambiguous: ..." / "unknown GPU 'X'; did you mean ...?"; empty when Found.
    std::string message() const;
};

class Catalog {
public:
    Catalog() = default;

    /// Parses and validates a catalog document. Throws InputError naming fileLabel,
    /// the entry ("entry 12 ('RTX 4090')") and the field.
    static Catalog fromJson(std::string_view text, const std::string& fileLabel);
    static Catalog fromFile(const std::string& path);
    /// The catalog compiled into the program.
    static const Catalog& builtin();

    const std::vector<Gpu>& gpus() const { return gpus_; }
    size_t size() const { return gpus_.size(); }
    const Gpu* findById(std::string_view id) const;

    /// Resolves a user-typed name, id or alias. Never picks silently among variants.
    Resolution resolve(std::string_view name) const;

    /// Like resolve(), but throws InputError(where, message) unless exactly one GPU matches.
    const Gpu& require(std::string_view name, const std::string& where = "") const;

    /// The catalog's spelling of a vendor typed in any case ("nvidia" -> "NVIDIA"); throws
    /// InputError(where, ...) listing the vendors when no GPU has it.
    const std::string& requireVendor(std::string_view vendor, const std::string& where = "") const;

    /// Adds a user-defined GPU; throws InputError when its id, name or an alias collides.
    void add(Gpu gpu, const std::string& where = "");

private:
    struct Key {
        size_t gpuIndex;
        NameKey key;
    };
    void index(size_t gpuIndex);
    void checkUnique(const Gpu& g, const InputLocation& where) const;

    std::vector<Gpu> gpus_;
    std::vector<Key> keys_; ///< name + aliases of every GPU
};

/// Memoises Catalog::resolve() for bulk work; valid while the catalog is unchanged.
class ResolutionCache {
public:
    explicit ResolutionCache(const Catalog& catalog) : catalog_(catalog) {}
    const Resolution& resolve(std::string_view name);

private:
    const Catalog& catalog_;
    std::unordered_map<std::string, Resolution> cache_;
};

} // namespace advisor
