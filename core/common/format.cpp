#include "common/format.h"

#include <cmath>
#include <cstdio>

namespace advisor::format {

std::string number(double v, int decimals) {
    if (!std::isfinite(v)) {
        return "n/a";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
    std::string digits(buf);
    const size_t dot = digits.find('.');
    std::string intPart = digits.substr(0, dot);
    const std::string frac = dot == std::string::npos ? "" : digits.substr(dot);
    std::string grouped;
    const int n = static_cast<int>(intPart.size());
    for (int i = 0; i < n; ++i) {
        grouped += intPart[static_cast<size_t>(i)];
        const int remaining = n - 1 - i;
        if (remaining > 0 && remaining % 3 == 0) {
            grouped += ',';
        }
    }
    const bool negative = v < 0 && std::fabs(v) >= 0.5 * std::pow(10.0, -decimals);
    return (negative ? "-" : "") + grouped + frac;
}

std::string money(double amount, const std::string& currency) {
    const bool whole = std::fabs(amount) >= 100.0 || std::fabs(amount - std::round(amount)) < 1e-9;
    // Sub-dollar amounts (electricity per kWh) keep a third decimal when it matters: $0.175.
    const bool cents = std::fabs(amount) >= 1.0 || std::fabs(amount * 100 - std::round(amount * 100)) < 1e-9;
    std::string digits = number(amount, whole ? 0 : (cents ? 2 : 3));
    if (currency == "USD") {
        if (!digits.empty() && digits.front() == '-') {
            return "-$" + digits.substr(1);
        }
        return "$" + digits;
    }
    return digits + " " + currency;
}

std::string gigabytes(double gb) {
    const bool whole = std::fabs(gb - std::round(gb)) < 1e-9;
    return number(gb, whole ? 0 : 1) + " GB";
}

std::string trimmed(double v, int maxDecimals) {
    std::string text = number(v, maxDecimals);
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') {
            text.pop_back();
        }
    }
    return text;
}

std::string ratio(double r) {
    return number(r, 2) + "x";
}

std::string percent(double fraction, int decimals) {
    return number(fraction * 100.0, decimals) + "%";
}

std::string count(long long n, const std::string& noun) {
    return number(static_cast<double>(n), 0) + " " + noun + (n == 1 ? "" : "s");
}

} // namespace advisor::format
