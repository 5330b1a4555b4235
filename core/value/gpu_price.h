#pragma once
/// \file
/// Which price a GPU "costs" today, chosen from its price history by a rule.

#include "catalog/gpu.h"
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

/// The prices of one GPU among all of them.
std::vector<Price> pricesOf(const std::vector<Price>& all, const std::string& gpuId);

/// What a desktop adds around a GPU: the settings' base cost (everything but the GPUs), or
/// nothing for a complete computer (DGX Spark), whose price already buys its CPU, memory,
/// storage and power supply.
double desktopBaseCostFor(const Gpu& gpu, const Settings& settings);
/// The CPU-and-system watts drawn beside the GPUs: `cpuWatts`, or none for a complete computer,
/// whose TDP is its whole chip's (the GB10's 140 W holds its CPU).
double cpuWattsFor(const Gpu& gpu, double cpuWatts);

/// A desktop with `gpuCount` of one GPU, priced from the database: desktopBaseCostFor plus the
/// GPUs at the price the settings' rule chooses.
struct PricedDesktop {
    double usd = 0;
    double baseUsd = 0;
    int gpuCount = 1;
    ChosenPrice gpu;
    /// e.g. "desktop $700 + 2 x $1,599 (newest new $1,599 (2025-08-01))"; without the desktop
    /// for complete computers ("2 x $3,999 (...)")
    std::string basis() const;
};

/// nullopt when the rule finds no USD price for the GPU.
std::optional<PricedDesktop> priceDesktop(const Gpu& gpu, const std::vector<Price>& pricesOfGpu,
                                          const Settings& settings, int gpuCount);

/// Used/new ratio of a GPU's newest prices (for the default resale value), when both exist.
std::optional<double> usedToNewRatio(const std::vector<Price>& pricesOfGpu);

} // namespace advisor::value
