#pragma once
// eval-serving's check of the serving engine's split by experts (attention data parallel with
// expert parallelism, DEP) on a later release's runs so split, never fitted on.

#include "cli/context.h"
#include "cli/eval_serving_rows.h"
#include "eval/full_load.h"
#include "perf/model.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

namespace advisor::cli {

/// Each run predicted as split (by experts) with the shipped constants, with its exchanges at one
/// all-reduce's time (their bytes alone), with the exchange fitted without its model (LEFT OUT),
/// and as if split by tensors over the same cards (the engine's other split): the bands of each,
/// over NVLink and over PCIe; and perf's band for the split, with the never-fitted runs so split.
struct ExpertSplitCheck {
    nlohmann::json rows = nlohmann::json::array();
    Band asSplit, asSplitNvlink, asSplitPcie, bytesOnly, heldOut, asTensors, asTensorsNvlink, asTensorsPcie, perfBand;
    int predictedFast = 0;
    eval::ExpertExchangeFit fit; ///< on these runs, each model also held out
    TextTable table = fullLoadTable("LEFT OUT");

    ExpertSplitCheck(Context& ctx, const perf::PerfModel& model, const std::vector<eval::FullLoadRun>& runs,
                     const std::vector<eval::FullLoadRun>& neverFitted);
    nlohmann::json json() const;
    void print(std::ostream& out) const;
};

} // namespace advisor::cli
