#pragma once
/// \file
/// Units in the types: a watt is not a dollar. Each quantity is a thin wrapper
/// around a double with only the arithmetic that keeps its unit meaningful.

#include <compare>

namespace advisor {

template <class Tag>
struct Quantity {
    double value = 0.0;

    constexpr Quantity() = default;
    constexpr explicit Quantity(double v) : value(v) {}

    constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
    constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
    constexpr Quantity operator*(double k) const { return Quantity(value * k); }
    constexpr Quantity operator/(double k) const { return Quantity(value / k); }
    constexpr double operator/(Quantity o) const { return value / o.value; }
    constexpr Quantity& operator+=(Quantity o) {
        value += o.value;
        return *this;
    }
    constexpr auto operator<=>(const Quantity&) const = default;
};

template <class Tag>
constexpr Quantity<Tag> operator*(double k, Quantity<Tag> q) {
    return q * k;
}

using Watts = Quantity<struct WattsTag>;
using KilowattHours = Quantity<struct KilowattHoursTag>;
using Gigabytes = Quantity<struct GigabytesTag>;
using GigabytesPerSecond = Quantity<struct GigabytesPerSecondTag>;
using Teraflops = Quantity<struct TeraflopsTag>;
using Usd = Quantity<struct UsdTag>;
using Days = Quantity<struct DaysTag>;
using Years = Quantity<struct YearsTag>;
using KgCo2e = Quantity<struct KgCo2eTag>;

constexpr double kHoursPerYear = 24.0 * 365.0; ///< the seed's "24 hours * 365 days"

} // namespace advisor
