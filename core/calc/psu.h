#pragma once
/// \file
/// PSU sizing and the wall circuit. Hardware guide: add the GPUs' and CPU's watts and the
/// other components (the guide's example: 4 x 250 W + 150 W + 100 W = 1250 W), add 10% as a
/// buffer for power spikes (1375 W) and buy the next standard size (1400 W). Count the
/// PSU's PCIe power connectors too.
///
/// Power spikes: PCIe CEM 5.0 lets a card draw up to 3x its sustained power for 100 us (Intel's
/// Stephen Eastman to PCWorld, April 2022), and an ATX 3.x PSU with a native 12VHPWR/12V-2x6
/// cable must carry 200% of its rating for 100 us (Intel's ATX 3.0 design guide, as reported
/// by HotHardware). Older ATX 2.x units were not tested for it: Intel's example needs 1,100 W
/// of ATX 2.x PSU where 750 W of ATX 3.0 carries a 300 W GPU, a 300 W CPU and 150 W more.

#include "catalog/gpu.h"
#include "common/errors.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::calc {

struct PsuInput {
    double gpuWatts = 0;    ///< per GPU: TDP or the power limit
    int gpuCount = 1;
    double cpuWatts = 0;
    double otherWatts = 100;  ///< motherboard, RAM, drives, fans (the guide's 100 W)
    double bufferPct = 10;    ///< the guide's 10%
    double psuEfficiency = 0.90; ///< DC out / AC in at load (80 PLUS Gold/Platinum range)
    const Gpu* gpu = nullptr; ///< when known: connectors and form factor
};

struct Connectors {
    int pcie8Pin = 0;   ///< 6+2-pin PCIe cables (a 6-pin socket takes one too)
    int hpwr16Pin = 0;  ///< 12VHPWR / 12V-2x6 cables (or 8-pin adapters, see note)
    int eps8Pin = 0;    ///< CPU-style 8-pin on workstation/data-center boards
    std::vector<std::string> notes;
};

struct Circuit {
    std::string name;
    double continuousWatts = 0; ///< what the circuit supports continuously
    double wallDrawWatts = 0;   ///< the build's sustained draw from the wall
    bool fits = false;
};

struct PsuResult {
    double requiredWatts = 0;       ///< GPUs + CPU + other
    double withBufferWatts = 0;
    double recommendedPsuWatts = 0; ///< next standard size; 0 when none is big enough
    Connectors connectors;
    std::vector<Circuit> circuits;
    std::vector<std::string> notes;
};

/// Cards from this many watts get the note on power spikes (Gamers Nexus measured a 320 W RTX
/// 3080 at 533 W for 100 us, which shut down PSUs that carried its sustained draw).
inline constexpr double kPowerSpikeNoteWatts = 250;

/// The largest PSU most desktop cases and US outlets take (seed: "few PSUs exceed 1600 W").
inline constexpr double kLargestDesktopPsuWatts = 1600;

/// Standard PSU sizes (W) that retail desktop PSUs come in.
const std::vector<double>& standardPsuSizes();

/// Throws InputError naming the field for negative watts, counts outside 1..64, buffers outside
/// 0..100% or an efficiency outside (0, 1].
PsuResult sizePsu(const PsuInput& in);

/// What a card's power spikes ask of the PSU (see the file comment), for a card on a PSU cable
/// from kPowerSpikeNoteWatts; nullopt otherwise. sizePsu() adds it to its notes.
std::optional<std::string> powerSpikeNote(const PsuInput& in);

/// What is wrong with the watts of a build's part (nullopt: nothing): every calculator takes
/// 0 to 20,000 W for the GPUs, the CPU or the rest.
std::optional<std::string> wattsProblem(double watts);

/// A power limit per GPU that lets a given PSU carry the build.
struct PsuFitLimit {
    double limitWatts = 0;    ///< per GPU, a multiple of 10 W
    double worstSlowdown = 0; ///< against the TDP, for fully clock-bound work (clock ~ power^(1/3))
};

/// The highest power limit per GPU (10 W steps, within what in.gpu allows and below the
/// watts it draws now) at which a `psuWatts` PSU carries the GPUs, CPU and other parts with
/// the buffer (seed: 4x RTX 3090 at 300 W fit a 1600 W PSU). nullopt without a GPU, or when
/// none fits.
std::optional<PsuFitLimit> powerLimitForPsu(const PsuInput& in, double psuWatts);

/// Whether the PSU someone has is enough, said the same way everywhere.
struct PsuVerdict {
    bool sufficient = true;
    std::optional<PsuFitLimit> fix; ///< when it is not: the limit that makes it enough
    /// "enough", or "too small: the build needs 1,210 W with the 10% buffer; a power limit
    /// of 350 W per GPU makes it enough (at most 8% slower)".
    std::string text;
};
/// `sized` is sizePsu(in), when the caller has it already (the psu command and tab do).
PsuVerdict judgePsu(const PsuInput& in, const PsuResult& sized, double psuWatts);
PsuVerdict judgePsu(const PsuInput& in, double psuWatts);

/// PSU cables one card needs (its published connectors).
Connectors connectorsFor(const Gpu& g, int count);

/// "4 x 12VHPWR/12V-2x6" or "2 x PCIe 8-pin, 1 x EPS 8-pin": the kinds needed, none listed at
/// zero; empty when the cards take no cable (slot-powered).
std::string describeCables(const Connectors& c);

} // namespace advisor::calc
