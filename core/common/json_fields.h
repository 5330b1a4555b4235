#pragma once
/// \file
/// Typed, validated access to the fields of a JSON object. Every failure throws an
/// InputError naming the file, the entry and the dotted field path ("memory.size_gb"),
/// so a broken data file points at exactly what to fix.

#include "common/errors.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor {

/// Lines (1-based) where each element of the array under top-level key `key` starts
/// (or of the top-level array when `key` is empty). nlohmann::json keeps no positions, so
/// this scans the text (strings and nesting aware) to point errors in an entry at its line.
std::vector<int> jsonArrayElementLines(std::string_view text, std::string_view key);

/// Parses a JSON document from outside. Any failure - bad syntax, a number out of range, bad
/// UTF-8 - becomes an InputError naming the file and, where known, the line.
template <typename Json = nlohmann::json>
Json parseJsonDocument(std::string_view text, const std::string& fileLabel);

/// The records of a table file in JSON: {"format": formatName, "version": 1, key: [...]}, or a
/// bare list. Throws InputError naming the file for an empty or oversized file, bad JSON,
/// another format or a missing list.
class JsonFields;

struct JsonRecords {
    nlohmann::json items;   ///< the array
    std::vector<int> lines; ///< where each item starts (see jsonArrayElementLines)

    /// The line item `i` starts on, or 0 when it is not known.
    int lineOf(size_t i) const { return i < lines.size() ? lines[i] : 0; }
    /// Item `i`'s fields, its errors located at `fileLabel`, its line and `entry` ("issue 3").
    JsonFields fieldsOf(size_t i, const std::string& fileLabel, const std::string& entry) const;
};
JsonRecords parseJsonRecords(std::string_view text, const std::string& fileLabel, const std::string& formatName,
                             const std::string& key);

class JsonFields {
public:
    JsonFields(const nlohmann::json& object, InputLocation where);

    /// The value at a dotted path, or nullptr when absent or JSON null.
    const nlohmann::json* find(std::string_view path) const;

    std::string requireString(std::string_view path) const;
    std::optional<std::string> optionalString(std::string_view path) const;
    /// Required finite number > 0.
    double requirePositive(std::string_view path) const;
    /// Absent/null -> nullopt; otherwise a finite number > 0.
    std::optional<double> optionalPositive(std::string_view path) const;
    /// Absent/null -> nullopt; otherwise a finite number >= 0.
    std::optional<double> optionalNonNegative(std::string_view path) const;
    int requireInt(std::string_view path, int min, int max) const;
    std::optional<int> optionalInt(std::string_view path, int min, int max) const;
    bool optionalBool(std::string_view path, bool fallback) const;
    std::vector<std::string> optionalStringArray(std::string_view path) const;

    [[noreturn]] void fail(std::string_view path, const std::string& reason) const;

private:
    double number(std::string_view path, const nlohmann::json& v) const;

    const nlohmann::json& object_;
    InputLocation where_;
};

namespace detail {
[[noreturn]] void throwJsonError(std::string_view text, const std::string& fileLabel, const nlohmann::json::exception& e);
}

template <typename Json>
Json parseJsonDocument(std::string_view text, const std::string& fileLabel) {
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        detail::throwJsonError(text, fileLabel, e);
    }
}

} // namespace advisor
