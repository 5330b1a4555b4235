#pragma once
/// \file
/// The one formatter for money, sizes and ratios used in tables, charts and messages.
/// Locale-independent on purpose: output must not change with the user's LC_ALL.

#include <string>

namespace advisor::format {

/// 1599 -> "$1,599"; 2.14 -> "$2.14"; other currencies: "1,599 EUR".
std::string money(double amount, const std::string& currency = "USD");

/// Fixed decimals with thousands separators: number(12345.678, 1) -> "12,345.7".
std::string number(double v, int decimals);

/// 24 -> "24 GB"; 0.5 -> "0.5 GB".
std::string gigabytes(double gb);

/// Up to `maxDecimals` decimals, trailing zeros dropped: trimmed(5.0, 2) -> "5",
/// trimmed(2.5, 2) -> "2.5" (years of use, which come in halves).
std::string trimmed(double v, int maxDecimals);

/// 0.333 -> "0.33x".
std::string ratio(double r);

/// 0.071 -> "7.1%".
std::string percent(double fraction, int decimals = 1);

/// count(1, "GPU") -> "1 GPU"; count(4, "GPU") -> "4 GPUs" (English plural with "s").
std::string count(long long n, const std::string& noun);

} // namespace advisor::format
