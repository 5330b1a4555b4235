#pragma once
/// \file
/// The command-line options that describe a performance query, shared by the commands
/// that run the model (perf, value, chart, recommend).

#include "cli/args.h"
#include "perf/model.h"

#include <optional>
#include <vector>

namespace advisor::cli {

struct PerfOptions {
    perf::PerfQuery query;
    std::optional<perf::Metric> metric; ///< --metric, when given
};

/// The options perfOptions() reads, plus `extra`.
std::vector<OptionSpec> perfOptionSpecs(std::vector<OptionSpec> extra = {});

/// Reads --metric, --workload, --gpus, --batch, --pcie-gen, --pcie-lanes, --nvlink,
/// --params-billion, --weights, --context. Throws UsageError naming a bad option.
PerfOptions perfOptions(const Args& args);

} // namespace advisor::cli
