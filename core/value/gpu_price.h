#pragma once
/// \file
/// Which price a GPU "costs" today, chosen from its price history by a rule.

#include "prices/price.h"
#include "prices/settings.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::value {

struct ChosenPrice {
    double usd = 0;
    std::string basis; ///< e.g. "average of new $1,599 (2025-08) and used $1,200 (2023-10)"
    std::optional<Price> newestNew;
    std::optional<Price> newestUsed;
};

/// The newest new and newest used USD prices of one GPU, combined by `rule`. Prices in other
/// currencies are ignored (no exchange rates are kept). nullopt when the rule finds no price
/// (e.g. newest-used for a GPU without used prices).
std::optional<ChosenPrice> choosePrice(const std::vector<Price>& pricesOfGpu, PriceRule rule);

/// Used/new ratio of a GPU's newest prices (for the default resale value), when both exist.
std::optional<double> usedToNewRatio(const std::vector<Price>& pricesOfGpu);

} // namespace advisor::value
