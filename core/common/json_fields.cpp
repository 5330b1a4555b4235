#include "common/json_fields.h"

#include <algorithm>

#include "common/text.h"

#include <cmath>

namespace advisor {

JsonFields::JsonFields(const nlohmann::json& object, InputLocation where)
    : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) {
        throw InputError(where_, "must be a JSON object");
    }
}

const nlohmann::json* JsonFields::find(std::string_view path) const {
    const nlohmann::json* node = &object_;
    for (const auto& part : text::split(path, '.')) {
        if (!node->is_object()) {
            return nullptr;
        }
        const auto it = node->find(part);
        if (it == node->end()) {
            return nullptr;
        }
        node = &*it;
    }
    return node->is_null() ? nullptr : node;
}

void JsonFields::fail(std::string_view path, const std::string& reason) const {
    InputLocation at = where_;
    at.field = std::string(path);
    throw InputError(at, reason);
}

std::string JsonFields::requireString(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        fail(path, "is missing; a text value is required");
    }
    if (!v->is_string()) {
        fail(path, std::string("must be text, got ") + v->type_name());
    }
    auto s = v->get<std::string>();
    if (text::trim(s).empty()) {
        fail(path, "must not be empty");
    }
    return s;
}

std::optional<std::string> JsonFields::optionalString(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return std::nullopt;
    }
    if (!v->is_string()) {
        fail(path, std::string("must be text, got ") + v->type_name());
    }
    return v->get<std::string>();
}

double JsonFields::number(std::string_view path, const nlohmann::json& v) const {
    if (!v.is_number()) {
        fail(path, std::string("must be a number, got ") + v.type_name());
    }
    const double d = v.get<double>();
    if (!std::isfinite(d)) {
        fail(path, "must be a finite number");
    }
    return d;
}

double JsonFields::requirePositive(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        fail(path, "is missing; a positive number is required");
    }
    const double d = number(path, *v);
    if (d <= 0) {
        fail(path, "must be greater than zero, got " + text::formatDoubleExact(d));
    }
    return d;
}

std::optional<double> JsonFields::optionalPositive(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return std::nullopt;
    }
    const double d = number(path, *v);
    if (d <= 0) {
        fail(path, "must be greater than zero when given, got " + text::formatDoubleExact(d));
    }
    return d;
}

std::optional<double> JsonFields::optionalNonNegative(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return std::nullopt;
    }
    const double d = number(path, *v);
    if (d < 0) {
        fail(path, "must not be negative, got " + text::formatDoubleExact(d));
    }
    return d;
}

int JsonFields::requireInt(std::string_view path, int min, int max) const {
    const auto v = optionalInt(path, min, max);
    if (!v) {
        fail(path, "is missing; a whole number is required");
    }
    return *v;
}

std::optional<int> JsonFields::optionalInt(std::string_view path, int min, int max) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return std::nullopt;
    }
    const double d = number(path, *v);
    if (d != std::floor(d)) {
        fail(path, "must be a whole number, got " + text::formatDoubleExact(d));
    }
    if (d < min || d > max) {
        fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                       ", got " + text::formatDoubleExact(d));
    }
    return static_cast<int>(d);
}

bool JsonFields::optionalBool(std::string_view path, bool fallback) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return fallback;
    }
    if (!v->is_boolean()) {
        fail(path, std::string("must be true or false, got ") + v->type_name());
    }
    return v->get<bool>();
}

std::vector<std::string> JsonFields::optionalStringArray(std::string_view path) const {
    const auto* v = find(path);
    if (v == nullptr) {
        return {};
    }
    if (!v->is_array()) {
        fail(path, std::string("must be a list of text values, got ") + v->type_name());
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < v->size(); ++i) {
        const auto& item = (*v)[i];
        if (!item.is_string()) {
            fail(std::string(path) + "[" + std::to_string(i) + "]", "must be text");
        }
        out.push_back(item.get<std::string>());
    }
    return out;
}

namespace detail {

void throwJsonError(std::string_view text, const std::string& fileLabel, const nlohmann::json::exception& e) {
    int line = 0;
    if (const auto* pe = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
        // byte is the 1-based offset of the error: turn it into a line.
        const size_t upTo = std::min(text.size(), pe->byte > 0 ? static_cast<size_t>(pe->byte - 1) : 0);
        line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upTo), '\n'));
    }
    std::string what = e.what();
    if (const auto pos = what.find("] "); pos != std::string::npos) { // drop "[json.exception.x.101] "
        what = what.substr(pos + 2);
    }
    throw InputError({fileLabel, line, "", ""}, "not valid JSON: " + what);
}

} // namespace detail

std::vector<int> jsonArrayElementLines(std::string_view t, std::string_view key) {
    std::vector<int> lines;
    std::vector<char> stack; // open containers
    int line = 1;
    std::string lastKey;
    std::string current;
    bool inString = false;
    bool escaped = false;
    bool afterColon = false; // inside an object: the next string is a value, not a key
    int targetDepth = -1;    // -1 not found yet, -2 finished, else stack size inside the target
    bool expectValue = false;
    for (const char c : t) {
        if (c == '\n') {
            ++line;
        }
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
                if (!stack.empty() && stack.back() == '{' && !afterColon) {
                    lastKey = current;
                }
            } else {
                current += c;
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            continue;
        }
        if (targetDepth > 0 && static_cast<int>(stack.size()) == targetDepth && expectValue && c != ']') {
            lines.push_back(line);
            expectValue = false;
        }
        switch (c) {
        case '"':
            inString = true;
            current.clear();
            break;
        case ':':
            afterColon = true;
            break;
        case '{':
        case '[':
            stack.push_back(c);
            afterColon = false;
            if (c == '[' && targetDepth == -1 &&
                ((key.empty() && stack.size() == 1) ||
                 (!key.empty() && stack.size() == 2 && stack[0] == '{' && lastKey == key))) {
                targetDepth = static_cast<int>(stack.size());
                expectValue = true;
            }
            break;
        case '}':
        case ']':
            if (!stack.empty()) {
                if (static_cast<int>(stack.size()) == targetDepth) {
                    targetDepth = -2;
                }
                stack.pop_back();
            }
            afterColon = false;
            break;
        case ',':
            afterColon = false;
            if (targetDepth > 0 && static_cast<int>(stack.size()) == targetDepth) {
                expectValue = true;
            }
            break;
        default:
            break;
        }
    }
    return lines;
}

JsonFields JsonRecords::fieldsOf(size_t i, const std::string& fileLabel, const std::string& entry) const {
    return JsonFields(items[i], {fileLabel, lineOf(i), entry, ""});
}

JsonRecords parseJsonRecords(std::string_view textIn, const std::string& fileLabel, const std::string& formatName,
                             const std::string& key) {
    constexpr size_t kMaxBytes = 256 * 1024 * 1024;
    if (textIn.size() > kMaxBytes) {
        throw InputError({fileLabel, 0, "", ""}, "file is larger than the limit of 256 MiB");
    }
    if (text::trim(textIn).empty()) {
        throw InputError({fileLabel, 0, "", ""}, "file is empty; expected a JSON document");
    }
    nlohmann::json doc = parseJsonDocument(textIn, fileLabel);
    JsonRecords out;
    if (doc.is_array()) {
        out.items = std::move(doc);
        out.lines = jsonArrayElementLines(textIn, "");
        return out;
    }
    if (!doc.is_object() || !doc.contains(key) || !doc[key].is_array()) {
        throw InputError({fileLabel, 1, "", key}, "expected an object with a '" + key + "' list");
    }
    if (doc.contains("format") && doc["format"] != formatName) {
        throw InputError({fileLabel, 1, "", "format"}, "is not '" + formatName + "'");
    }
    out.items = std::move(doc[key]);
    out.lines = jsonArrayElementLines(textIn, key);
    return out;
}

} // namespace advisor
