#include "calc/power_limit.h"

#include "common/format.h"
#include "prices/settings.h"
#include "value/tco.h"

#include <algorithm>
#include <cmath>

namespace advisor::calc {

PowerLimitRange powerLimitRange(const Gpu& g) {
    return {std::ceil(g.tdpW * kMinimumLimitFraction), g.tdpW};
}

bool belowVoltageFloor(double limitWatts, double tdpWatts) {
    return tdpWatts > 0 && limitWatts < kVoltageFloorPowerRatio * tdpWatts;
}

double clockRatio(double limitWatts, double tdpWatts) {
    if (tdpWatts <= 0) {
        return 1.0;
    }
    if (!belowVoltageFloor(limitWatts, tdpWatts)) {
        return perf::clockAtPowerRatio(limitWatts / tdpWatts);
    }
    // Power ~ clock at a fixed voltage, on top of the clock-independent share: continuous at the floor.
    const double floorClock = perf::clockAtPowerRatio(kVoltageFloorPowerRatio);
    const double aboveFixed = (limitWatts / tdpWatts - kClockIndependentPowerShare) /
                              (kVoltageFloorPowerRatio - kClockIndependentPowerShare);
    // Drivers stop at about 30% of the TDP (kMinimumLimitFraction), above the clock-independent share;
    // the floor keeps a clock for any ratio the functions are asked about.
    constexpr double kLowestClock = 0.02;
    return std::max(kLowestClock, floorClock * aboveFixed);
}

double relativePerformance(double limitWatts, double tdpWatts, double clockBoundShare) {
    const double r = clockRatio(limitWatts, tdpWatts);
    const double share = std::clamp(clockBoundShare, 0.0, 1.0);
    return 1.0 / (share / r + (1.0 - share));
}

std::optional<std::string> powerLimitProblem(const Gpu& g, double limitWatts) {
    const auto r = powerLimitRange(g);
    const auto range = "valid range for " + g.name + ": " + format::number(r.minimumWatts, 0) + "-" +
                       format::number(r.maximumWatts, 0) + " W";
    if (!std::isfinite(limitWatts) || limitWatts > r.maximumWatts) {
        return "is above the board power (TDP) of " + format::number(g.tdpW, 0) + " W; " + range;
    }
    if (limitWatts < r.minimumWatts) {
        return "is below the card's minimum; " + range;
    }
    return std::nullopt;
}

PowerLimitResult powerLimit(const Gpu& g, const PowerLimitInput& in) {
    PowerLimitResult r;
    r.range = powerLimitRange(g);
    if (const auto problem = powerLimitProblem(g, in.limitWatts)) {
        throw InputError({"power limit", 0, "", "limit_watts"}, *problem);
    }
    if (in.count < 1 || in.count > 64) {
        throw InputError({"power limit", 0, "", "count"}, "must be between 1 and 64");
    }
    if (!(in.clockBoundShare >= 0 && in.clockBoundShare <= 1)) {
        throw InputError({"power limit", 0, "", "clock_bound_share"}, "must be between 0 and 1");
    }
    // The savings: the same wording as the cloud-vs-desktop calculator.
    if (!(in.utilization >= 0 && in.utilization <= 1)) {
        throw InputError({"power limit", 0, "", "utilization"}, "must be a fraction between 0 and 1 (0.15 = 15%)");
    }
    if (const auto problem = electricityPriceProblem(in.kwhPriceUsd)) {
        throw InputError({"power limit", 0, "", "kwh_price"}, *problem);
    }
    r.clockRatio = clockRatio(in.limitWatts, g.tdpW);
    r.belowVoltageFloor = belowVoltageFloor(in.limitWatts, g.tdpW);
    r.relativePerformance = relativePerformance(in.limitWatts, g.tdpW, in.clockBoundShare);
    r.worstCaseRelativePerformance = relativePerformance(in.limitWatts, g.tdpW, 1.0);
    r.slowdownPct = (1.0 - r.relativePerformance) * 100.0;
    r.savedWatts = (g.tdpW - in.limitWatts) * in.count;
    r.savedKwhPerYear = value::kwhPerYear(r.savedWatts, in.utilization);
    r.savedUsdPerYear = r.savedKwhPerYear * in.kwhPriceUsd;
    r.perfPerWattGain = r.relativePerformance / (in.limitWatts / g.tdpW);
    return r;
}

std::vector<PowerCurvePoint> powerCurve(const Gpu& g, double clockBoundShare, int points) {
    const auto range = powerLimitRange(g);
    std::vector<PowerCurvePoint> out;
    for (int i = 0; i < points; ++i) {
        const double w = range.minimumWatts + (range.maximumWatts - range.minimumWatts) * i / std::max(1, points - 1);
        out.push_back({w, relativePerformance(w, g.tdpW, clockBoundShare)});
    }
    return out;
}

std::optional<LowPowerPart> lowPowerPart(const perf::PerfModel& model, const Gpu& g) {
    const perf::EffectiveSpecs s = model.specs(g);
    if (s.chipTopName.empty() || s.chipPowerPerSmRatio >= kVoltageFloorPowerRatio) {
        return std::nullopt;
    }
    return LowPowerPart{s.chipPowerPerSmRatio, s.chipTopName, s.chipTopScope};
}

std::string describeLowPowerPart(const Gpu& g, const LowPowerPart& part) {
    return g.name + " is sold at " + format::percent(part.powerPerSmRatio, 0) + " of the " + part.chipTop +
           "'s board power per SM on " + part.scope +
           ", below the 2/3 at which a capped card's voltage reaches its floor; the curve counts the floor from " +
           g.name + "'s own TDP, and no such part was measured below it, so limits may cost more than shown";
}

double clockBoundShare(const perf::PerfModel& model, const Gpu& g, const perf::PerfQuery& query) {
    perf::PerfQuery one = query;
    one.gpus = 1;
    // The time shares only: the model's arithmetic without the explanation's factors.
    perf::Prediction shares;
    perf::modelThroughput(model.specs(g), g, one, model.constants(), &shares);
    return shares.clockBoundShare;
}

} // namespace advisor::calc
