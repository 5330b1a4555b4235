#include "calc/psu.h"

#include "calc/power_limit.h"
#include "common/format.h"

#include <cmath>
#include <utility>

namespace advisor::calc {

const std::vector<double>& standardPsuSizes() {
    static const std::vector<double> sizes = {450,  550,  650,  750,  850,  1000, 1050, 1100, 1200,
                                              1300, 1350, 1400, 1500, 1600, 2000, 2400, 2800};
    return sizes;
}

std::string describeCables(const Connectors& c) {
    std::string out;
    const auto add = [&out](int n, const char* kind) {
        if (n > 0) {
            out += (out.empty() ? "" : ", ") + std::to_string(n) + " x " + kind;
        }
    };
    add(c.pcie8Pin, "PCIe 8-pin");
    add(c.hpwr16Pin, "12VHPWR/12V-2x6");
    add(c.eps8Pin, "EPS 8-pin");
    return out;
}

Connectors connectorsFor(const Gpu& g, int count) {
    Connectors c;
    const auto& k = g.connectors;
    c.pcie8Pin = (k.pcie8Pin + k.pcie6Pin + 2 * k.nv12Pin) * count;
    c.hpwr16Pin = k.hpwr16Pin * count;
    c.eps8Pin = k.eps8Pin * count;
    if (k.nv12Pin > 0) {
        c.notes.push_back("the 12-pin connector of RTX 30 Founders Editions is fed by two 8-pin PCIe cables (adapter)");
    }
    if (k.hpwr16Pin > 0) {
        const int adapters = static_cast<int>(std::ceil(g.tdpW / 150.0));
        c.notes.push_back("12VHPWR/12V-2x6: use a native cable, or an adapter from " + std::to_string(adapters) +
                          " x 8-pin PCIe per card; push the plug in until it clicks (seed: melted connectors were "
                          "badly inserted plugs)");
    }
    if (k.eps8Pin > 0) {
        c.notes.push_back(g.name + " takes a CPU-style 8-pin (EPS) cable, not a PCIe one");
    }
    if (g.isCompleteSystem()) {
        c.notes.push_back(g.name + " is a complete computer with its own power supply: no PSU cable");
    } else if (g.form != FormFactor::Pcie) {
        c.notes.push_back(g.name + " is a module (" + g.formLabel + "): it is powered by a server baseboard, not a PSU cable");
    } else if (k.pcie6Pin + k.pcie8Pin + k.nv12Pin + k.hpwr16Pin + k.eps8Pin == 0) {
        c.notes.push_back(k.label.empty() ? "connectors of " + g.name + " are not recorded; check the card"
                                          : g.name + ": " + k.label);
    }
    return c;
}

std::optional<std::string> wattsProblem(double watts) {
    if (std::isfinite(watts) && watts >= 0 && watts <= 20000) {
        return std::nullopt;
    }
    return "must be between 0 and 20,000 W";
}

std::optional<std::string> powerSpikeNote(const PsuInput& in) {
    const bool cardOnAPsuCable = in.gpu == nullptr || in.gpu->form == FormFactor::Pcie;
    if (!cardOnAPsuCable || in.gpuWatts < kPowerSpikeNoteWatts) {
        return std::nullopt;
    }
    return "power spikes: each card may draw up to 3x its power (" + format::number(3 * in.gpuWatts, 0) +
           " W) for 0.1 ms; an ATX 3.x PSU with a native 12V-2x6 cable is tested to carry twice its rating that "
           "briefly, an older ATX 2.x one is not and may shut down: size it larger (Intel: 1,100 W of ATX 2.x where "
           "750 W of ATX 3.0 carries a 300 W GPU)";
}

PsuResult sizePsu(const PsuInput& in) {
    const auto reject = [](const char* field, const std::string& why) {
        throw InputError({"PSU", 0, "", field}, why);
    };
    if (in.gpu != nullptr && in.gpu->isCompleteSystem()) {
        reject("gpu", in.gpu->name + " is a complete computer with its own power supply: there is no PSU to size");
    }
    for (const auto& [field, watts] : {std::pair{"gpu_watts", in.gpuWatts}, std::pair{"cpu_watts", in.cpuWatts},
                                       std::pair{"other_watts", in.otherWatts}}) {
        if (const auto problem = wattsProblem(watts)) {
            reject(field, *problem);
        }
    }
    if (in.gpuCount < 1 || in.gpuCount > 64) {
        reject("count", "must be between 1 and 64");
    }
    if (!(in.bufferPct >= 0 && in.bufferPct <= 100)) {
        reject("buffer_pct", "must be between 0 and 100");
    }
    if (!(in.psuEfficiency > 0 && in.psuEfficiency <= 1)) {
        reject("psu_efficiency", "must be more than 0 and at most 1");
    }
    PsuResult r;
    r.requiredWatts = in.gpuWatts * in.gpuCount + in.cpuWatts + in.otherWatts;
    r.withBufferWatts = r.requiredWatts * (1.0 + in.bufferPct / 100.0);
    for (const double s : standardPsuSizes()) {
        if (s >= r.withBufferWatts - 1e-9) {
            r.recommendedPsuWatts = s;
            break;
        }
    }
    if (r.recommendedPsuWatts == 0) {
        r.notes.push_back("no single desktop PSU is large enough: use two PSUs or a server chassis");
    } else if (r.recommendedPsuWatts > kLargestDesktopPsuWatts) {
        r.notes.push_back("few standard desktop PSUs exceed " + format::number(kLargestDesktopPsuWatts, 0) +
                          " W, and US outlets rarely support them (seed); consider power limits, a server/mining PSU "
                          "(check the form factor) or two PSUs");
    }
    if (in.gpu != nullptr) {
        r.connectors = connectorsFor(*in.gpu, in.gpuCount);
    }
    if (auto spikes = powerSpikeNote(in)) {
        r.notes.push_back(std::move(*spikes));
    }
    // The wall: sustained draw of the load through the PSU, against the circuit's continuous rating.
    const double wall = r.requiredWatts / in.psuEfficiency;
    const auto circuit = [&](const char* name, double volts, double amps, double continuousFactor) {
        const double cap = volts * amps * continuousFactor;
        r.circuits.push_back({name, cap, wall, wall <= cap});
    };
    circuit("US 120 V 15 A (80% continuous)", 120, 15, 0.8);
    circuit("US 120 V 20 A (80% continuous)", 120, 20, 0.8);
    circuit("EU 230 V 16 A", 230, 16, 1.0);
    return r;
}

std::optional<PsuFitLimit> powerLimitForPsu(const PsuInput& in, double psuWatts) {
    if (in.gpu == nullptr || in.gpuCount < 1) {
        return std::nullopt;
    }
    const double budget = psuWatts / (1.0 + in.bufferPct / 100.0) - in.cpuWatts - in.otherWatts;
    const double limit = std::floor(budget / in.gpuCount / 10.0) * 10.0; // a round number of watts
    if (limit < powerLimitRange(*in.gpu).minimumWatts || limit >= in.gpuWatts) {
        return std::nullopt;
    }
    return PsuFitLimit{limit, 1.0 - relativePerformance(limit, in.gpu->tdpW, 1.0)};
}

PsuVerdict judgePsu(const PsuInput& in, double psuWatts) {
    return judgePsu(in, sizePsu(in), psuWatts);
}

PsuVerdict judgePsu(const PsuInput& in, const PsuResult& r, double psuWatts) {
    PsuVerdict v;
    v.sufficient = psuWatts >= r.withBufferWatts;
    if (v.sufficient) {
        v.text = "enough";
        return v;
    }
    v.fix = powerLimitForPsu(in, psuWatts);
    v.text = "too small: the build needs " + format::number(r.withBufferWatts, 0) + " W with the " +
             format::number(in.bufferPct, 0) + "% buffer";
    if (v.fix) {
        v.text += "; a power limit of " + format::number(v.fix->limitWatts, 0) + " W per GPU makes it enough (at most " +
                  format::percent(v.fix->worstSlowdown, 0) + " slower)";
    }
    return v;
}

} // namespace advisor::calc
