#pragma once
/// \file
/// Cloud vs desktop: when does buying pay off? The seed's worked example: a $2,200 desktop
/// with an RTX 3090 (350 W) and a 100 W CPU at $0.12/kWh and 15% utilization uses 591 kWh
/// ($71) a year; against AWS at $2.14/h it breaks even after about 300 days.

#include "perf/model.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

/// The most a desktop (or a budget for its GPUs) may cost: a thousand times the price
/// database's ceiling for one price (1e9), so 16 GPUs at any price it takes still pass; above
/// it a figure is a typo, and a break-even day or a budget it gives means nothing.
constexpr double kMaxDesktopCostUsd = 1e12;

struct CloudVsDesktopInput {
    double desktopCostUsd = 0;
    double gpuWatts = 0;   ///< all the desktop's GPUs together (TDP or power limits)
    double cpuWatts = 0;
    double utilization = 0.15;
    double kwhPriceUsd = 0.12;
    double cloudHourlyUsd = 0; ///< per instance
    double years = 5;          ///< horizon of the curves; resale happens at its end
    std::optional<double> resaleFraction; ///< of the desktop cost, recovered after `years`
    /// Work per desktop-hour / work per cloud-instance-hour (model speed ratio x GPU counts).
    /// 1 when both do the same work per hour; > 1 means more cloud hours are needed.
    double workRatio = 1.0;
    double gridKgCo2PerKwh = 0; ///< for the desktop's carbon; 0 to skip
};

struct CostPoint {
    double day = 0;
    double desktopUsd = 0; ///< purchase + electricity so far (resale credited at the horizon)
    double cloudUsd = 0;
};

struct CloudVsDesktop {
    double desktopKwhPerYear = 0;
    double desktopElectricityPerYearUsd = 0;
    double desktopElectricityPerDayUsd = 0;
    double cloudPerDayUsd = 0; ///< for the same work as the desktop does in a day
    double netDesktopCostUsd = 0; ///< purchase minus resale
    std::optional<double> breakEvenDays; ///< nullopt: never (why: neverReason)
    /// Why buying never pays off, for people ("at 0% utilization ..."); empty when it does.
    std::string neverReason;
    double desktopKgCo2PerYear = 0;
    /// Both totals at the end of the years of use (the curve may run past it, to the break-even).
    CostPoint overYears;
    std::vector<CostPoint> curve;
};

/// Break-even: net desktop cost / (cloud per day - desktop electricity per day).
/// Throws InputError naming the field for negative prices or watts, utilization outside 0..1,
/// years <= 0, or resale outside 0..1.
CloudVsDesktop compareCloudAndDesktop(const CloudVsDesktopInput& in);

/// workRatio for a desktop of `desktopCount` x `desktop` against a cloud instance of
/// `cloudCount` x `cloud`: the model's per-GPU speed ratio (same workload and metric) times
/// the GPU counts - independent jobs, no multi-GPU scaling losses on either side.
double workRatio(const perf::PerfModel& model, const Gpu& desktop, int desktopCount, const Gpu& cloud, int cloudCount,
                 perf::PerfQuery query);

} // namespace advisor::calc
