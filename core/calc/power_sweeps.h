#pragma once
/// \file
/// Measured power-limit sweeps (resources/perf/power-limit-sweeps.csv): a card's speed under a
/// limit relative to the same card at its board power, with the work in the performance model's
/// terms. The power-limit calculator's law below the voltage floor was chosen on them, its error
/// is reported on them (docs/performance-model.md), and the calculator shows a card's own points
/// beside its curve as evidence.

#include "catalog/catalog.h"
#include "perf/model.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

struct MeasuredPowerLimit {
    int line = 0;              ///< of the resource, for messages
    std::string source;        ///< "llmgarage-2026"
    std::string gpu;           ///< as the sweep names it (a catalog name)
    double boardWatts = 0;     ///< the sweep's 100%: the card's board power
    double limitWatts = 0;
    perf::PerfQuery query;     ///< the work, as the performance model takes it
    double measuredRelative = 0;
    std::string note;          ///< what ran and the measured figures
};

/// Parses a sweep file. Throws InputError naming the file, line and field of every bad cell.
std::vector<MeasuredPowerLimit> readPowerLimitSweeps(std::string_view text, const std::string& fileLabel);

/// The built-in sweeps (parsed once).
const std::vector<MeasuredPowerLimit>& builtinPowerLimitSweeps();

/// How near a sweep's board power must be to the card's for the sweep to count as the card's own:
/// a partner card at its own stock limit (an ASUS RTX 5090's 600 W against the reference 575 W,
/// 4%), where the law's figure at a given limit moves by at most about a point between the two
/// 100%s (400 W: 0.886 of 575 W, 0.874 of 600), not a raised limit (an RTX 3090 at 370 of 350 W).
constexpr double kSameBoardShare = 0.05;

/// The built-in sweeps measured on this GPU at its own board power, within kSameBoardShare (cards
/// run at a raised limit would not compare), whose work is of the same kind as `metric`: LLM token
/// generation, LLM prompt processing, or any other (training and inference of networks).
std::vector<const MeasuredPowerLimit*> sweepsOn(const Catalog& catalog, const Gpu& g, perf::Metric metric);

/// A sweep's source as the card's measured points name it, with the sweep's board power when it is
/// not the card's: "cmoro-2026, a 600 W board's own 100%".
std::string sweepSource(const MeasuredPowerLimit& m, const Gpu& g);

/// The work of a sweep in a few words: "llm-prefill, 229B (10B active) int4 at 198000 tokens".
std::string describeSweepWork(const MeasuredPowerLimit& m);

/// What the power-limit calculator gives for a measured point's own work on its card at the
/// sweep's board power (the performance model's clock-bound share for that work, then the law), so
/// that a card's measured points can be shown with the calculator's miss on each. Throws
/// InputError when the sweep's GPU is not in the catalog.
double calculatorFigure(const perf::PerfModel& model, const Catalog& catalog, const MeasuredPowerLimit& m);

/// A measured point near a chosen limit that the calculator misses by much: a caution for the
/// figure at that limit (two single RTX 3090s generating tokens below their floor ran 13-48 points
/// slower than the calculator says, experiments round 64).
struct MeasuredMiss {
    const MeasuredPowerLimit* point = nullptr;
    double calculator = 0; ///< calculatorFigure for the point's own work
};
/// Points of relative speed past which a miss is named.
constexpr double kNotableMissPoints = 10.0;
/// How near a measured limit must be to the chosen one, as a share of the board power.
constexpr double kNearLimitShare = 0.1;
/// The largest miss among `measured` (a card's own points, sweepsOn) within kNearLimitShare of the
/// board power of `limitWatts`, if it exceeds kNotableMissPoints.
std::optional<MeasuredMiss> notableMissNear(const perf::PerfModel& model, const Catalog& catalog,
                                            const std::vector<const MeasuredPowerLimit*>& measured, double limitWatts);
/// One sentence for the command line and the Power limit tab: "at 200 W this card measured 64.4%
/// of full speed (llm-decode, 27.0B int4 at 2,000 tokens; jeanfbrito-2026) where the calculator
/// gives 90.9%: read the figure above as optimistic". A partner board's point names its board
/// (sweepSource).
std::string describeMiss(const MeasuredMiss& miss, const Gpu& g);

} // namespace advisor::calc
