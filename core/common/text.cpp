#include "common/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace advisor::text {

std::string toLower(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

std::string_view trim(std::string_view s) {
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && isSpace(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && isSpace(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        const size_t pos = s.find(sep, start);
        if (pos == std::string_view::npos) {
            out.emplace_back(s.substr(start));
            return out;
        }
        out.emplace_back(s.substr(start, pos - start));
        start = pos + 1;
    }
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) {
            out += sep;
        }
        out += parts[i];
    }
    return out;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool lessIgnoringAsciiCase(std::string_view a, std::string_view b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [&](char x, char y) { return lower(x) < lower(y); });
}

namespace {

/// Levenshtein distance (insertions, deletions and substitutions), one row at a time.
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::optional<std::string> closestMatch(std::string_view typed, const std::vector<std::string>& candidates) {
    if (typed.empty()) {
        return std::nullopt;
    }
    std::vector<std::string> extending;
    for (const auto& c : candidates) {
        if (c.size() > typed.size() && startsWith(c, typed)) {
            extending.push_back(c);
        }
    }
    if (extending.size() == 1) {
        return extending.front();
    }
    constexpr size_t kMaxEdits = 2;
    std::optional<std::string> best;
    size_t bestDistance = kMaxEdits + 1;
    bool tie = false;
    for (const auto& c : candidates) {
        const size_t d = editDistance(typed, c);
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
            tie = false;
        } else if (d == bestDistance) {
            tie = true;
        }
    }
    if (tie || bestDistance == 0 || bestDistance >= typed.size()) { // "ab" is not a typo of "xy"
        return std::nullopt;
    }
    return best;
}

std::optional<size_t> firstInvalidUtf8(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = 0;
        uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n) {
            return i;
        }
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) {
                return i;
            }
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        // Reject overlong encodings, surrogates and code points beyond U+10FFFF.
        const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
                              (len == 4 && cp < 0x10000);
        if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            return i;
        }
        i += len;
    }
    return std::nullopt;
}

bool hasControlCharacters(std::string_view s) {
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
            return true;
        }
    }
    return false;
}

ParsedNumber parseFraction(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.back() == '%') {
        ParsedNumber n = parseNumber(s.substr(0, s.size() - 1));
        if (n.value) {
            *n.value /= 100.0;
        }
        return n;
    }
    return parseNumber(s);
}

ParsedNumber parseNumber(std::string_view s) {
    s = trim(s);
    if (s.empty()) {
        return {std::nullopt, NumberError::Empty};
    }
    // from_chars does not accept a leading '+', people do write it.
    std::string_view body = s;
    if (body.front() == '+') {
        body.remove_prefix(1);
    }
    // Only plain decimal syntax: digits, one sign, '.', exponent.
    for (const char c : body) {
        const bool ok = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == 'E' ||
                        c == '+';
        if (!ok) {
            const std::string lower = toLower(body);
            if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos) {
                return {std::nullopt, NumberError::NotFinite};
            }
            return {std::nullopt, NumberError::NotANumber};
        }
    }
    double v = 0;
    const auto* first = body.data();
    const auto* last = body.data() + body.size();
    const auto [ptr, ec] = std::from_chars(first, last, v, std::chars_format::general);
    if (ec == std::errc::result_out_of_range) {
        return {std::nullopt, NumberError::OutOfRange};
    }
    if (ec != std::errc() || ptr != last) {
        return {std::nullopt, NumberError::NotANumber};
    }
    if (!std::isfinite(v)) {
        return {std::nullopt, NumberError::NotFinite};
    }
    return {v, NumberError::Empty};
}

std::string describeNumberError(NumberError e, std::string_view input) {
    switch (e) {
    case NumberError::Empty:
        return "is empty; a number is required";
    case NumberError::NotANumber:
        return "not a number: " + quoteForMessage(input);
    case NumberError::NotFinite:
        return "must be a finite number, got " + quoteForMessage(input);
    case NumberError::OutOfRange:
        return "number out of range: " + quoteForMessage(input);
    }
    return "invalid number";
}

std::optional<long long> parseInteger(std::string_view s) {
    s = trim(s);
    if (s.empty()) {
        return std::nullopt;
    }
    if (s.front() == '+') {
        s.remove_prefix(1);
    }
    long long v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) {
        return std::nullopt;
    }
    return v;
}

std::string formatDoubleExact(double v) {
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    if (ec != std::errc()) {
        return "0";
    }
    return std::string(buf, ptr);
}

std::string quoteForMessage(std::string_view s) {
    constexpr size_t kMax = 40;
    std::string shown;
    size_t cut = std::min(kMax, s.size());
    // Never cut inside a multi-byte UTF-8 sequence.
    while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    const std::string_view head = s.substr(0, cut);
    for (const char ch : head) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7F) {
            static const char* hex = "0123456789abcdef";
            shown += "\\x";
            shown += hex[c >> 4];
            shown += hex[c & 0xF];
        } else {
            shown += ch;
        }
    }
    if (firstInvalidUtf8(shown).has_value()) {
        shown = "<not valid UTF-8>";
    }
    if (s.size() > kMax) {
        return "'" + shown + "...' (" + std::to_string(s.size()) + " bytes)";
    }
    return "'" + shown + "'";
}

} // namespace advisor::text
