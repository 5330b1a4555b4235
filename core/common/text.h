#pragma once
/// \file
/// Small text helpers shared by the parsers: strict number parsing, UTF-8
/// validation and ASCII case handling. No locale is consulted anywhere.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::text {

std::string toLower(std::string_view s);
std::string_view trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool startsWith(std::string_view s, std::string_view prefix);
/// a < b ignoring the case of ASCII letters (SQLite's NOCASE): compared in place, no copies.
bool lessIgnoringAsciiCase(std::string_view a, std::string_view b);

/// The candidate the user most likely meant by `typed`, for "did you mean ...?": the only
/// candidate that starts with it ("--memory" -> "--memory-gb"), else the only one closest to
/// it within two edits ("recomend" -> "recommend"); nullopt when none is close or two tie.
std::optional<std::string> closestMatch(std::string_view typed, const std::vector<std::string>& candidates);

/// Byte offset of the first invalid UTF-8 sequence, or nullopt when the text is valid.
std::optional<size_t> firstInvalidUtf8(std::string_view s);

/// True when s holds a control character other than tab, CR and LF (e.g. NUL from binary junk).
bool hasControlCharacters(std::string_view s);

/// Why a number could not be parsed, for messages like "not a number: 'abc'".
enum class NumberError { Empty, NotANumber, NotFinite, OutOfRange };

struct ParsedNumber {
    std::optional<double> value;
    NumberError error = NumberError::Empty;
};

/// Parses a decimal number (optional sign, digits, '.', exponent). Rejects NaN,
/// infinities, hex, thousands separators and trailing junk; whitespace around is allowed.
ParsedNumber parseNumber(std::string_view s);

/// A fraction written as a number or as a percentage: "0.15" and "15%" are both 0.15.
ParsedNumber parseFraction(std::string_view s);

/// Human-readable reason for a NumberError, including the offending text.
std::string describeNumberError(NumberError e, std::string_view input);

/// Parses a base-10 integer; nullopt on junk or overflow.
std::optional<long long> parseInteger(std::string_view s);

/// Shortest text that reads back to exactly the same double (round-trip exact).
std::string formatDoubleExact(double v);

/// Quotes s for messages, shortening very long text: 'abc', 'aaaa...(10485760 bytes)'.
std::string quoteForMessage(std::string_view s);

} // namespace advisor::text
