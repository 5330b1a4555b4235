#pragma once
/// \file
/// Checks a multi-GPU build the way the seed and the hardware guide do: physical fit
/// (3-slot cards), cooling, PCIe lanes, CPU threads, RAM, PSU and wall circuit, network for
/// several machines and mixed GPU types. Each finding has a severity and its reason.

#include "calc/psu.h"
#include "perf/model.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

enum class Severity { Info, Warning, Critical };
const char* toString(Severity s);

struct Finding {
    Severity severity = Severity::Info;
    std::string topic;   ///< "fit", "cooling", "pcie", "cpu", "ram", "power", "network", "mixed", "form"
    std::string message; ///< what to do
    std::string reason;  ///< why (the seed or guide fact, the number)
};

struct BuildInput {
    const Gpu* gpu = nullptr;
    int count = 1;
    const Gpu* extraGpu = nullptr; ///< a second GPU type in the same machine
    int extraCount = 0;
    int pcieLanesPerGpu = 0;       ///< 0: 16 for 1-2 GPUs, 8 for more
    int slotSpacing = 0;           ///< slots from one GPU slot to the next; 0: 2 for 3+ GPUs, 3 for 2
    bool blowerOrWaterCooled = false;
    bool extenders = false;        ///< PCIe extenders/risers spread the cards out
    std::optional<int> cpuThreads;
    std::optional<double> ramGb;
    int machines = 1;
    std::optional<double> networkGbps;
    double cpuWatts = 150;
    double otherWatts = 100;
    std::optional<double> powerLimitWatts; ///< per GPU of the main type
    std::optional<double> psuWatts;        ///< the PSU the user has or plans
    /// The GPU the build's speed is stated against (the user's reference GPU); null: no ratio.
    const Gpu* reference = nullptr;
};

struct BuildReport {
    std::vector<Finding> findings; ///< critical first
    PsuResult psu;
    /// fp16 transformer training of one machine, in model units (one V100 SXM2 = 1): every GPU
    /// of both types in one data-parallel job, paced by the slowest, at the power limit.
    double throughput = 0;
    double efficiency = 1;       ///< data-parallel efficiency of the job over all the machine's GPUs
    double powerLimitFactor = 1; ///< speed of a main-type GPU at the power limit (1 at the TDP)
    double mixedPacingLoss = 0;  ///< share of the GPUs' combined speed lost waiting for the slowest
    /// One reference GPU in the same units (0 without a reference).
    double referenceThroughput = 0;
};

/// The build's modelled speed in one line: "3.29x one RTX 4090 per machine (fp16 transformer
/// training; data-parallel efficiency 82%; power limit 300 W: 4% slower)". Against one V100 SXM2
/// without a reference; across machines the network decides, which the model does not cover.
std::string describeSpeed(const BuildInput& in, const BuildReport& r);

/// Throws InputError listing every refused input: a missing GPU, counts outside 1..16, a
/// second-type count without a second type, lanes other than 1/2/4/8/16, a power limit outside
/// the card's range (as the power-limit calculator), zero or negative RAM, network or PSU.
BuildReport checkBuild(const BuildInput& in, const perf::PerfModel& model);

} // namespace advisor::calc
