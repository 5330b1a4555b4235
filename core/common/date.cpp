#include "common/date.h"

#include <chrono>
#include <cstdio>

namespace advisor {
namespace {

bool allDigits(std::string_view s) {
    for (const char c : s) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    return !s.empty();
}

int toInt(std::string_view s) {
    int v = 0;
    for (const char c : s) {
        v = v * 10 + (c - '0');
    }
    return v;
}

} // namespace

std::string Date::toString() const {
    char buf[16];
    if (hasDay()) {
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
    } else {
        std::snprintf(buf, sizeof buf, "%04d-%02d", year, month);
    }
    return buf;
}

long long Date::daysSinceEpoch() const {
    using namespace std::chrono;
    const year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                             std::chrono::day{static_cast<unsigned>(hasDay() ? day : 1)}};
    return sys_days{ymd}.time_since_epoch().count();
}

std::optional<Date> Date::parse(std::string_view s) {
    if (s.size() != 7 && s.size() != 10) {
        return std::nullopt;
    }
    if (s[4] != '-' || !allDigits(s.substr(0, 4)) || !allDigits(s.substr(5, 2))) {
        return std::nullopt;
    }
    Date d;
    d.year = toInt(s.substr(0, 4));
    d.month = toInt(s.substr(5, 2));
    if (s.size() == 10) {
        if (s[7] != '-' || !allDigits(s.substr(8, 2))) {
            return std::nullopt;
        }
        d.day = toInt(s.substr(8, 2));
        if (d.day == 0) {
            return std::nullopt;
        }
    }
    if (d.year < 1900 || d.month < 1 || d.month > 12) {
        return std::nullopt;
    }
    if (d.hasDay()) {
        using namespace std::chrono;
        const year_month_day ymd{std::chrono::year{d.year}, std::chrono::month{static_cast<unsigned>(d.month)},
                                 std::chrono::day{static_cast<unsigned>(d.day)}};
        if (!ymd.ok()) {
            return std::nullopt;
        }
    }
    return d;
}

Date Date::today() {
    using namespace std::chrono;
    const year_month_day ymd{floor<days>(system_clock::now())};
    return Date{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

bool isOverAYearBefore(const Date& d, const Date& newest) {
    return newest.year > 0 && d.daysSinceEpoch() + 365 < newest.daysSinceEpoch();
}

bool isInFuture(const Date& d, const Date& today) {
    if (d.year != today.year) {
        return d.year > today.year;
    }
    if (d.month != today.month) {
        return d.month > today.month;
    }
    return d.hasDay() && d.day > today.day;
}

} // namespace advisor
