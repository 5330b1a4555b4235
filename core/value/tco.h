#pragma once
/// \file
/// Total cost of ownership of a desktop setup: the desktop around the GPUs, the GPUs,
/// electricity for N years, minus (optionally) what the GPUs sell for at the end.
/// Seed defaults: 5 years, 0.175 USD/kWh, 15% utilization -> an RTX 4090 (450 W) uses
/// 591 kWh and about $100 of electricity a year.

#include "catalog/gpu.h"
#include "common/errors.h"

#include <optional>
#include <string>

namespace advisor::value {

struct TcoInput {
    double gpuPriceUsd = 0;        ///< one GPU
    int gpuCount = 1;
    double gpuWatts = 0;           ///< per GPU: TDP, or the power limit
    double desktopBaseCostUsd = 0; ///< one desktop without GPUs
    int gpusPerDesktop = 8;        ///< how many GPUs one desktop holds (more GPUs -> more desktops)
    double electricityUsdPerKwh = 0.175;
    double utilization = 0.15;     ///< fraction of the time the GPUs run (0..1)
    double years = 5;
    std::optional<double> resaleFraction; ///< of the GPU price, recovered after `years`; nullopt = no resale
};

struct Tco {
    double desktopUsd = 0;      ///< desktops around the GPUs
    double gpusUsd = 0;         ///< price x count
    double kwhPerYear = 0;
    double electricityPerYearUsd = 0;
    double electricityUsd = 0;  ///< over `years`
    double resaleUsd = 0;       ///< subtracted
    double totalUsd = 0;
    int desktops = 1;
};

/// Throws InputError (field named) for negative costs, utilization outside 0..1, years <= 0,
/// or a resale fraction outside 0..1 (resale above the purchase price is rejected).
Tco totalCostOfOwnership(const TcoInput& in);

/// Electricity: kWh per year = watts x utilization x 24 x 365 / 1000 (the seed's formula).
double kwhPerYear(double watts, double utilization);

} // namespace advisor::value
