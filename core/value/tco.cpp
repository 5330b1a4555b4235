#include "value/tco.h"

#include "common/units.h"

#include <cmath>

namespace advisor::value {

double kwhPerYear(double watts, double utilization) {
    return watts * utilization * kHoursPerYear / 1000.0;
}

Tco totalCostOfOwnership(const TcoInput& in) {
    const auto reject = [](const char* field, const std::string& why) {
        throw InputError({"cost of ownership", 0, "", field}, why);
    };
    if (!(in.gpuPriceUsd >= 0) || !std::isfinite(in.gpuPriceUsd)) {
        reject("gpu_price_usd", "must be a finite amount >= 0");
    }
    if (in.gpuCount < 1 || in.gpuCount > 1024) {
        reject("gpu_count", "must be between 1 and 1024");
    }
    if (!(in.gpuWatts >= 0) || in.gpuWatts > 5000) {
        reject("gpu_watts", "must be between 0 and 5000 W");
    }
    if (!(in.desktopBaseCostUsd >= 0)) {
        reject("desktop_base_cost_usd", "must be >= 0");
    }
    if (in.gpusPerDesktop < 1) {
        reject("gpus_per_desktop", "must be at least 1");
    }
    if (!(in.electricityUsdPerKwh >= 0)) {
        reject("electricity_usd_per_kwh", "must be >= 0");
    }
    if (!(in.utilization >= 0 && in.utilization <= 1)) {
        reject("utilization", "must be a fraction between 0 and 1");
    }
    if (!(in.years > 0)) {
        reject("years", "must be more than 0");
    }
    if (in.resaleFraction && !(*in.resaleFraction >= 0 && *in.resaleFraction <= 1)) {
        reject("resale_fraction", "must be between 0 and 1: a GPU does not resell for more than it cost");
    }
    Tco t;
    t.desktops = (in.gpuCount + in.gpusPerDesktop - 1) / in.gpusPerDesktop;
    t.desktopUsd = in.desktopBaseCostUsd * t.desktops;
    t.gpusUsd = in.gpuPriceUsd * in.gpuCount;
    t.kwhPerYear = kwhPerYear(in.gpuWatts * in.gpuCount, in.utilization);
    t.electricityPerYearUsd = t.kwhPerYear * in.electricityUsdPerKwh;
    t.electricityUsd = t.electricityPerYearUsd * in.years;
    t.resaleUsd = in.resaleFraction ? *in.resaleFraction * t.gpusUsd : 0.0;
    t.totalUsd = t.desktopUsd + t.gpusUsd + t.electricityUsd - t.resaleUsd;
    return t;
}

} // namespace advisor::value
