#pragma once
/// \file
/// How many prices a new database is seeded with: the rows of resources/prices/default_prices.csv
/// (one place to change when that file grows).

namespace advisor::testing {

inline constexpr int kShippedPrices = 143;

} // namespace advisor::testing
