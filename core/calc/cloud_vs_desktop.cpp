#include "calc/cloud_vs_desktop.h"

#include "calc/psu.h"
#include "common/errors.h"
#include "common/format.h"
#include "prices/settings.h"
#include "value/tco.h"

#include <algorithm>
#include <cmath>

namespace advisor::calc {

CloudVsDesktop compareCloudAndDesktop(const CloudVsDesktopInput& in) {
    const auto reject = [](const char* field, const std::string& why) {
        throw InputError({"cloud vs desktop", 0, "", field}, why);
    };
    const auto finiteNonNegative = [](double v) { return std::isfinite(v) && v >= 0; };
    if (!finiteNonNegative(in.desktopCostUsd) || in.desktopCostUsd > kMaxDesktopCostUsd) {
        reject("desktop_cost", "must be an amount from 0 to 1,000,000,000,000 USD");
    }
    // All the desktop's GPUs together: up to 64 of the largest modules (1,400 W each).
    if (!finiteNonNegative(in.gpuWatts) || in.gpuWatts > 100000) {
        reject("gpu_watts", "must be between 0 and 100,000 W (all the desktop's GPUs together)");
    }
    if (const auto problem = wattsProblem(in.cpuWatts)) {
        reject("cpu_watts", *problem);
    }
    if (!(in.utilization >= 0 && in.utilization <= 1)) {
        reject("utilization", "must be a fraction between 0 and 1 (0.15 = 15%)");
    }
    if (const auto problem = electricityPriceProblem(in.kwhPriceUsd)) {
        reject("kwh_price", *problem);
    }
    // Ten times the dearest cloud offer the database takes (10,000 USD an hour), for a price
    // scaled to the desktop's GPU count.
    if (!finiteNonNegative(in.cloudHourlyUsd) || in.cloudHourlyUsd > 100000) {
        reject("cloud_hourly", "must be between 0 and 100,000 USD per hour");
    }
    if (!(in.years > 0 && in.years <= 30)) {
        reject("years", "must be more than 0 and at most 30");
    }
    if (in.resaleFraction && !(*in.resaleFraction >= 0 && *in.resaleFraction <= 1)) {
        reject("resale_fraction", "must be between 0 and 1: resale above the purchase price is not possible");
    }
    if (!(in.workRatio > 0) || !std::isfinite(in.workRatio)) {
        reject("work_ratio", "must be greater than 0");
    }
    CloudVsDesktop r;
    r.desktopKwhPerYear = value::kwhPerYear(in.gpuWatts + in.cpuWatts, in.utilization);
    r.desktopElectricityPerYearUsd = r.desktopKwhPerYear * in.kwhPriceUsd;
    r.desktopElectricityPerDayUsd = r.desktopElectricityPerYearUsd / 365.0;
    // The cloud runs the same hours of work as the desktop (utilization x 24 h a day),
    // scaled by how much more work a desktop-hour does than a cloud-hour.
    r.cloudPerDayUsd = in.cloudHourlyUsd * in.utilization * 24.0 * in.workRatio;
    const double resale = in.resaleFraction ? *in.resaleFraction * in.desktopCostUsd : 0.0;
    r.netDesktopCostUsd = in.desktopCostUsd - resale;
    r.desktopKgCo2PerYear = r.desktopKwhPerYear * in.gridKgCo2PerKwh;
    const double saving = r.cloudPerDayUsd - r.desktopElectricityPerDayUsd;
    if (saving > 0) {
        r.breakEvenDays = r.netDesktopCostUsd / saving;
    } else if (in.utilization == 0) {
        r.neverReason = "at 0% utilization the desktop does no work, so renting would cost nothing either";
    } else if (r.cloudPerDayUsd == 0) {
        r.neverReason = "the cloud costs nothing for the same work";
    } else {
        r.neverReason = "the cloud costs " + format::money(r.cloudPerDayUsd) + " a day for the same work, no more than " +
                        "the desktop's electricity (" + format::money(r.desktopElectricityPerDayUsd) + " a day)";
    }
    const auto costsOnDay = [&](double day) {
        CostPoint p;
        p.day = day;
        p.desktopUsd = in.desktopCostUsd + r.desktopElectricityPerDayUsd * day - (day >= in.years * 365.0 ? resale : 0.0);
        p.cloudUsd = r.cloudPerDayUsd * day;
        return p;
    };
    r.overYears = costsOnDay(in.years * 365.0);
    // Curves over the years of use (or past the break-even), about 200 points.
    const double horizon = std::max(in.years * 365.0, r.breakEvenDays ? *r.breakEvenDays * 1.25 : 0.0);
    const int steps = 200;
    for (int i = 0; i <= steps; ++i) {
        r.curve.push_back(costsOnDay(horizon * i / steps));
    }
    return r;
}

double workRatio(const perf::PerfModel& model, const Gpu& desktop, int desktopCount, const Gpu& cloud, int cloudCount,
                 perf::PerfQuery query) {
    // GPU-hours of independent work (jobs, sweeps): per-GPU speed times the GPU counts.
    query.gpus = 1;
    const double here = model.throughput(desktop, query);
    const double there = model.throughput(cloud, query);
    return there > 0 && cloudCount > 0 ? here / there * desktopCount / cloudCount : 1.0;
}

} // namespace advisor::calc
