#pragma once
/// \file
/// Calendar dates with day or month precision. Price observations are often only
/// known to the month ("2023-10"), so precision is part of the value.

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace advisor {

struct Date {
    int year = 0;
    int month = 0; ///< 1..12
    int day = 0;   ///< 1..31, or 0 when only the month is known

    bool hasDay() const { return day != 0; }

    /// "YYYY-MM-DD" or "YYYY-MM".
    std::string toString() const;

    /// Days since 1970-01-01; month-precision dates count from the first of the month.
    long long daysSinceEpoch() const;

    /// Ordered by (year, month, day); a month-precision date sorts before its days.
    auto operator<=>(const Date&) const = default;

    /// Parses "YYYY-MM-DD" or "YYYY-MM" (real calendar dates only, years 1900-9999).
    static std::optional<Date> parse(std::string_view s);

    /// Today's date in UTC.
    static Date today();
};

/// True when d lies after `today` (a month-precision date is in the future only if its month is).
bool isInFuture(const Date& d, const Date& today);

/// True when d lies more than 365 days before `newest`: a price or cloud offer that much older
/// than the newest one is history rather than today's market (GPU and cloud prices move
/// within a year). False when `newest` is unset.
bool isOverAYearBefore(const Date& d, const Date& newest);

} // namespace advisor
