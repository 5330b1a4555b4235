#pragma once
/// \file
/// Which calibration network a benchmark's workload name stands for. Benchmark files spell
/// networks their own way ("ResNet-50 v1.5", "BERT-Large", "Mask R-CNN"); a name that means a
/// calibration network is predicted with that network's fitted profile instead of its class's
/// shares. Names are compared by workloadNameKey, then through the aliases in
/// resources/perf/workload_names.json.

#include "perf/constants.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::perf {

/// Lower-case letters and digits only: "ResNet-50 v1.5" -> "resnet50v15", "Mask R-CNN" -> "maskrcnn".
std::string workloadNameKey(std::string_view name);

/// Other names of one calibration network.
struct WorkloadAliases {
    std::string profile;              ///< the calibration workload ("bert_large_squad")
    std::vector<std::string> aliases; ///< as written in the file
    std::string why;                  ///< what the network is, so the alias can be checked
};

/// Parses a workload-names file; errors name the file, the entry's line and the field, and an
/// alias that names two networks is an error.
std::vector<WorkloadAliases> parseWorkloadAliases(std::string_view text, const std::string& fileLabel);

/// The shipped aliases (resources/perf/workload_names.json, compiled in).
const std::vector<WorkloadAliases>& builtinWorkloadAliases();

/// The fitted profile's name for a benchmark workload name: the name itself when it is a
/// profile, else the profile whose name or alias has the same workloadNameKey, else "" (the
/// workload is predicted with its class's shares).
std::string profileNameFor(const std::string& workloadName, const ModelConstants& constants,
                           const std::vector<WorkloadAliases>& aliases = builtinWorkloadAliases());

} // namespace advisor::perf
