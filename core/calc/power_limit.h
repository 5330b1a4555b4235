#pragma once
/// \file
/// Power limiting: how much speed a lower power limit costs. Dynamic power is ~ f x V^2 and,
/// near the top of the clock range, voltage scales with clock, so power ~ clock^3: the clock
/// falls with the cube root of the power. Seed check: an RTX 2080 Ti (250 W) limited by 50 W
/// runs BERT-large inference (the seed's worst case, taken as fully clock-bound) about 7%
/// slower: (200/250)^(1/3) = 0.928. The model applies the cube law to cards whose board power
/// per SM is below their chip's best (perf::EffectiveSpecs).
/// Deep limits cost more than the cube root says: once the voltage is at its floor, power falls
/// only linearly with the clock, and the memory, fans and regulators keep drawing their share
/// whatever the clock (measured sweeps in resources/perf/power-limit-sweeps.csv: an
/// RTX 3090 at 200 W ran long prompts at 0.60 of its 350 W speed, where the cube root gives 0.84).
/// Only the clock-bound part of the work slows down (the performance model's share: all GPU-side
/// work; of LLM token generation, the reads' own work at the core clock, a quarter of their time -
/// the weights stream at the memory clock, and its fixed time per token is mostly the host's; not
/// GPU-independent overhead).

#include "catalog/gpu.h"
#include "perf/model.h"
#include "common/errors.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

/// The exponent of power in clock (P ~ f^3): the performance model's own law.
constexpr double kPowerClockExponent = perf::kPowerClockExponent;
/// Drivers refuse limits below roughly a third of the board power (e.g. RTX 3090: 100 W of 350 W).
constexpr double kMinimumLimitFraction = 0.3;
/// Below this share of the board power the voltage is at its floor (fitted, with the next constant,
/// on the sweeps named above; the cube law holds above it: the seed's -50 W, Puget's 4x RTX 3090 at
/// 280 W, the LLM sweeps at 250-300 W).
constexpr double kVoltageFloorPowerRatio = 2.0 / 3.0;
/// The share of the board power that does not follow the core clock (memory, fans, regulators):
/// below the voltage floor the clock falls linearly, reaching zero at this power.
constexpr double kClockIndependentPowerShare = 0.25;

struct PowerLimitRange {
    double minimumWatts = 0;
    double maximumWatts = 0; ///< the TDP
};

PowerLimitRange powerLimitRange(const Gpu& g);

/// Why `limitWatts` is not a limit g can run at ("is above the board power (TDP) of 450 W;
/// valid range for RTX 4090: 135-450 W"), or nothing when it can. One wording for the
/// power-limit calculator, the build check and the PSU size.
std::optional<std::string> powerLimitProblem(const Gpu& g, double limitWatts);

/// Clock ratio at a power limit: (limit / TDP)^(1/3) down to the voltage floor, at most 1; below
/// it, linear from the floor's clock to zero at the clock-independent power.
double clockRatio(double limitWatts, double tdpWatts);

/// Whether a limit is below the voltage floor (where the clock falls faster than the cube root).
bool belowVoltageFloor(double limitWatts, double tdpWatts);

/// A card sold at less board power per SM than the voltage floor of its chip's best-fed card
/// (RTX PRO 6000 Max-Q: 47% of the RTX 5090's, L4, T4, H100 PCIe): the calculator counts the floor
/// from the card's own TDP, but the same silicon capped that low is already below its floor, and no
/// sweep of such a part was found (docs/performance-model.md), so its curve may be optimistic.
struct LowPowerPart {
    double powerPerSmRatio = 1; ///< its board power per SM over the chip's best-fed card's
    std::string chipTop;        ///< that card
    std::string scope;          ///< what the two share: "the same AD102", "the same SMs (GB205)"
};
std::optional<LowPowerPart> lowPowerPart(const perf::PerfModel& model, const Gpu& g);
/// One sentence for the command line and the Power limit tab.
std::string describeLowPowerPart(const Gpu& g, const LowPowerPart& part);

/// Relative performance (1 at TDP) when `clockBoundShare` of the time scales with the clock.
double relativePerformance(double limitWatts, double tdpWatts, double clockBoundShare);

struct PowerLimitInput {
    double limitWatts = 0;
    int count = 1;
    double clockBoundShare = 1.0; ///< from the performance model's time shares; 1 = the seed's worst case
    double utilization = 0.15;
    double kwhPriceUsd = 0.175;
};

struct PowerLimitResult {
    PowerLimitRange range;
    double clockRatio = 1;
    bool belowVoltageFloor = false;      ///< the clock falls linearly there, not with the cube root
    double relativePerformance = 1;      ///< for the given clock-bound share
    double worstCaseRelativePerformance = 1; ///< fully clock-bound work (the seed's measurement)
    double slowdownPct = 0;
    double savedWatts = 0;               ///< all GPUs
    double savedKwhPerYear = 0;
    double savedUsdPerYear = 0;
    double perfPerWattGain = 1;          ///< performance per watt relative to running at TDP
};

/// Throws InputError naming the field: a limit outside the card's range (powerLimitProblem),
/// counts outside 1..64, shares or utilization outside 0..1, a negative electricity price.
PowerLimitResult powerLimit(const Gpu& g, const PowerLimitInput& in);

struct PowerCurvePoint {
    double watts = 0;
    double relativePerformance = 1;
};

/// Performance from the minimum limit to the TDP, `points` samples.
std::vector<PowerCurvePoint> powerCurve(const Gpu& g, double clockBoundShare, int points = 25);

/// How much of a GPU's time in this work scales with its clock (the performance model's
/// Prediction::clockBoundShare).
double clockBoundShare(const perf::PerfModel& model, const Gpu& g, const perf::PerfQuery& query);

} // namespace advisor::calc
