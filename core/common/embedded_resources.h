#pragma once
/// \file
/// Read-only access to the files under resources/ that are compiled into the
/// program (see cmake/EmbedResources.cmake). Paths are relative to resources/,
/// e.g. "catalog/gpus.json".

#include "common/errors.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::resources {

/// The bytes of an embedded resource, or nullopt when no such file was embedded.
std::optional<std::string_view> find(std::string_view path);

/// The bytes of a resource the program cannot work without; throws AdvisorError naming it.
inline std::string_view require(std::string_view path) {
    if (const auto data = find(path)) {
        return *data;
    }
    throw AdvisorError("missing built-in resource " + std::string(path));
}

/// Every embedded path, in build order.
std::vector<std::string_view> list();

} // namespace advisor::resources
