#include "calc/build_check.h"

#include "calc/power_limit.h"
#include "common/format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

namespace advisor::calc {

const char* toString(Severity s) {
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Critical:
        return "critical";
    }
    return "info";
}

namespace {

perf::PerfQuery trainingQuery(int gpus, int lanes) {
    perf::PerfQuery q;
    q.metric = perf::Metric::Fp16Training;
    q.workload = perf::WorkloadClass::Transformer;
    q.gpus = gpus;
    q.interconnect.pcieLanes = lanes;
    return q;
}

// Lanes per GPU for `gpus` cards: as given, else x16 for 1-2 cards and x8 for more.
int lanesFor(const BuildInput& in, int gpus) {
    return in.pcieLanesPerGpu > 0 ? in.pcieLanesPerGpu : (gpus <= 2 ? 16 : 8);
}

// Every refusal at once, each naming its field.
void validate(const BuildInput& in) {
    if (in.gpu == nullptr) {
        throw InputError({"build", 0, "", "gpu"}, "name the GPU");
    }
    std::vector<InputProblem> problems;
    const auto bad = [&problems](const char* field, std::string reason) {
        problems.push_back({{"build", 0, "", field}, std::move(reason)});
    };
    if (in.count < 1 || in.count > 16) {
        bad("count", "must be between 1 and 16 GPUs per machine");
    }
    if (in.extraGpu != nullptr && (in.extraCount < 1 || in.count + in.extraCount > 16)) {
        bad("extra_count", "must be at least 1, and all GPUs together at most 16");
    }
    if (in.extraGpu == nullptr && in.extraCount > 0) {
        bad("extra_count", "counts a second GPU type, but none is chosen");
    }
    // Slots have 1, 2, 4, 8 or 16 lanes (0: chosen by the GPU count).
    if (const int lanes = in.pcieLanesPerGpu;
        lanes != 0 && (lanes < 0 || lanes > 16 || std::popcount(static_cast<unsigned>(lanes)) != 1)) {
        bad("pcie_lanes", "must be 1, 2, 4, 8 or 16 lanes, got " + std::to_string(lanes));
    }
    if (in.slotSpacing < 0 || in.slotSpacing > 6) {
        bad("slot_spacing", "must be between 1 and 6 slots");
    }
    // Up to 100,000 of each (the psu command's ceiling for a PSU): more is a typo, not a build.
    const auto positive = [&bad](const char* field, const std::optional<double>& v, const char* unit) {
        if (v && (!std::isfinite(*v) || *v <= 0 || *v > 100000)) {
            bad(field,
                std::string("must be more than 0 and at most 100,000 ") + unit + ", got " + format::number(*v, 0));
        }
    };
    positive("ram_gb", in.ramGb, "GB");
    positive("network_gbps", in.networkGbps, "Gbit/s");
    positive("psu_watts", in.psuWatts, "W");
    if (const auto problem = wattsProblem(in.cpuWatts)) {
        bad("cpu_watts", *problem + ", got " + format::number(in.cpuWatts, 0));
    }
    if (in.powerLimitWatts) { // as the power-limit calculator: up to the TDP, down to about 30% of it
        if (auto problem = powerLimitProblem(*in.gpu, *in.powerLimitWatts)) {
            bad("limit_watts", std::move(*problem));
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
}

} // namespace

BuildReport checkBuild(const BuildInput& in, const perf::PerfModel& model) {
    validate(in);
    BuildReport r;
    const Gpu& g = *in.gpu;
    const int total = in.count + (in.extraGpu ? in.extraCount : 0);
    const auto add = [&](Severity s, const char* topic, std::string message, std::string reason) {
        r.findings.push_back({s, topic, std::move(message), std::move(reason)});
    };

    // Form factor.
    for (const Gpu* x : {in.gpu, in.extraGpu}) {
        if (x != nullptr && x->isCompleteSystem()) {
            add(Severity::Critical, "form",
                x->name + " is a complete computer (" + x->formLabel + "): bought whole, not built into a desktop",
                "it has its own CPU, memory and power supply and no PCIe bracket; two of them join over their "
                "network ports");
        } else if (x != nullptr && x->form != FormFactor::Pcie) {
            add(Severity::Critical, "form",
                x->name + " is a " + x->formLabel + " module: it needs a server baseboard (HGX/OAM), not a desktop",
                "modules have no PCIe bracket, fan or PSU connector");
        }
    }

    // Physical fit: slot widths against the spacing of the board's x16 slots.
    const int spacing = in.slotSpacing > 0 ? in.slotSpacing : (total >= 3 ? 2 : 3);
    const int width = std::max(g.slotWidth.value_or(2), in.extraGpu ? in.extraGpu->slotWidth.value_or(2) : 0);
    if (total >= 2 && width > spacing && !in.extenders) {
        add(total >= 3 ? Severity::Critical : Severity::Warning, "fit",
            std::to_string(total) + " cards of " + std::to_string(width) + " slots do not fit side by side with " +
                std::to_string(spacing) + "-slot spacing: use PCIe extenders, 2-slot (blower) variants or water cooling",
            "seed: 'The RTX 3090 and RTX 4090 are 3-slot GPUs, so one will not be able to use it in a 4x setup with "
            "the default fan design'");
    }

    // Cooling.
    const bool openAir = g.segment == Segment::Consumer;
    if (g.segment == Segment::Datacenter && g.form == FormFactor::Pcie) {
        add(Severity::Warning, "cooling", g.name + " is passively cooled: it needs a server chassis with strong front-to-back airflow",
            "data-center PCIe cards have no fan of their own");
    } else if (total >= 3 && openAir && !in.blowerOrWaterCooled && !in.extenders) {
        add(Severity::Warning, "cooling",
            "open-air coolers next to each other throttle: use blower-style cards, water cooling or PCIe extenders",
            "hardware guide: GPUs that heat each other lose 10-25%; space between GPUs gives 10-30 C");
    } else if (total == 2 && openAir && !in.blowerOrWaterCooled) {
        add(Severity::Info, "cooling", "leave at least one slot free between the two cards",
            "seed: 'GPUs are usually perfectly cooled if there is at least a small gap between GPUs'");
    }

    // PCIe lanes: what x4 or x8 costs, from the multi-GPU model.
    const int lanes = lanesFor(in, total);
    if (total >= 2) {
        const double at = model.throughput(g, trainingQuery(total, lanes));
        const double atX16 = model.throughput(g, trainingQuery(total, 16));
        const double cost = 1.0 - at / atX16;
        if (in.count >= 4 && lanes < 8) {
            add(Severity::Warning, "pcie",
                "x" + std::to_string(lanes) + " lanes per GPU cost about " + format::percent(cost, 0) +
                    " in data-parallel training here; prefer 8 lanes per GPU",
                "seed: 4 GPUs on x4 lanes lose around 5-10%");
        } else {
            add(Severity::Info, "pcie",
                "x" + std::to_string(lanes) + " lanes per GPU: " + format::percent(cost, 1) +
                    " slower than x16 in data-parallel training",
                "seed: 'For a 4 GPU setup, I would prefer 8x lanes per GPU'; fewer GPUs care even less");
        }
    }

    // CPU threads and RAM (hardware guide).
    if (in.cpuThreads) {
        const double perGpu = static_cast<double>(*in.cpuThreads) / total;
        if (perGpu < 2) {
            add(Severity::Warning, "cpu",
                format::number(perGpu, 1) + " CPU threads per GPU: get at least 2 per GPU (4 if you preprocess on the CPU)",
                "hardware guide: 'a minimum of 2 threads per GPU', 4 when data preprocessing runs on the CPU");
        } else if (perGpu < 4) {
            add(Severity::Info, "cpu", format::number(perGpu, 1) + " CPU threads per GPU: enough unless you preprocess on the CPU",
                "hardware guide: 4 threads per GPU for CPU-side preprocessing");
        }
    }
    const double largest = std::max(g.memoryGb, in.extraGpu ? in.extraGpu->memoryGb : 0.0);
    if (in.ramGb && *in.ramGb < largest) {
        add(Severity::Warning, "ram",
            format::gigabytes(*in.ramGb) + " RAM is less than the largest GPU's " + format::gigabytes(largest),
            "hardware guide: 'at least the amount of RAM that matches your biggest GPU'");
    }

    // Several machines.
    if (in.machines > 1) {
        if (!in.networkGbps || *in.networkGbps < 50) {
            add(Severity::Warning, "network",
                std::string(in.networkGbps ? format::number(*in.networkGbps, 0) + " Gbit/s is" : "an unspecified network may be") +
                    " too slow to parallelize across machines: use at least 50 Gbit/s (e.g. EDR InfiniBand)",
                "seed: '+50Gbits/s network cards'; 10 Gbit/s Ethernet works only for some CNNs or with DeepSpeed");
        }
    }

    // Speed: one data-parallel job over every GPU in the machine. Each GPU's share of it, the
    // main type slowed by its power limit; with two types the slowest paces the rest (seed).
    const perf::PerfQuery job = trainingQuery(total, lanes);
    const perf::Prediction mainJob = model.explain(g, job);
    if (in.powerLimitWatts) {
        r.powerLimitFactor = relativePerformance(*in.powerLimitWatts, g.tdpW, mainJob.clockBoundShare);
    }
    const double mainPerGpu = mainJob.throughput / total * r.powerLimitFactor;
    r.efficiency = mainJob.efficiency;
    r.throughput = mainPerGpu * in.count;
    if (in.extraGpu != nullptr) {
        const double extraPerGpu = model.throughput(*in.extraGpu, job) / total;
        std::vector<double> speeds(static_cast<size_t>(in.count), mainPerGpu);
        speeds.insert(speeds.end(), static_cast<size_t>(in.extraCount), extraPerGpu);
        const double sum = r.throughput + extraPerGpu * in.extraCount;
        r.throughput = perf::mixedPacing(speeds.data(), static_cast<int>(speeds.size()));
        r.mixedPacingLoss = 1.0 - r.throughput / sum;
        // The main cards alone, on the lanes they would get alone: can the second type even help?
        const double alone = model.throughput(g, trainingQuery(in.count, lanesFor(in, in.count))) * r.powerLimitFactor;
        const std::string worse = r.throughput < alone ? " - slower than the " + std::to_string(in.count) + " x " +
                                                             g.name + " alone"
                                                       : "";
        add(Severity::Warning, "mixed",
            "mixed GPUs in one data-parallel job run at the slowest one's pace: " + format::percent(r.mixedPacingLoss, 0) +
                " of the combined speed is lost" + worse + "; run separate jobs per GPU type instead",
            "seed: 'the fastest GPU will wait for the slowest GPU to catch up to a synchronization point'");
    }
    if (in.reference != nullptr) {
        r.referenceThroughput = model.throughput(*in.reference, trainingQuery(1, 16));
    }

    // A complete computer brings its own power supply, cooling, CPU and memory: the desktop's
    // checks (slots, lanes, cooling, RAM, PSU) do not apply to it.
    if (g.isCompleteSystem()) {
        std::erase_if(r.findings, [](const Finding& f) { return f.topic != "form" && f.topic != "network"; });
        return r;
    }

    // Power: PSU, connectors, wall circuit, and a power limit when it helps.
    PsuInput psu;
    psu.gpuWatts = in.powerLimitWatts.value_or(g.tdpW);
    psu.gpuCount = in.count;
    psu.cpuWatts = in.cpuWatts + (in.extraGpu ? in.extraGpu->tdpW * in.extraCount : 0.0);
    psu.otherWatts = in.otherWatts;
    psu.gpu = &g;
    r.psu = sizePsu(psu);
    // With no limit given, the limit per GPU that makes a PSU of `psuWatts` enough.
    const auto limitThatFits = [&](double psuWatts) -> std::optional<std::string> {
        const auto fit = in.powerLimitWatts ? std::nullopt : powerLimitForPsu(psu, psuWatts);
        if (!fit) {
            return std::nullopt;
        }
        return "limiting each GPU to " + format::number(fit->limitWatts, 0) + " W makes a " + format::number(psuWatts, 0) +
               " W PSU workable at most " + format::percent(fit->worstSlowdown, 0) + " slower";
    };
    const std::string needs = "needs " + format::number(r.psu.withBufferWatts, 0) + " W with a 10% buffer";
    if (in.psuWatts && *in.psuWatts < r.psu.withBufferWatts) {
        const auto fix = limitThatFits(*in.psuWatts);
        add(Severity::Critical, "power",
            format::number(*in.psuWatts, 0) + " W PSU is too small: the build " + needs + (fix ? "; " + *fix : ""),
            "hardware guide: GPUs + CPU + other parts, plus 10%; seed: -50 W of power limit costs about 7%");
    }
    if (r.psu.recommendedPsuWatts == 0 || r.psu.recommendedPsuWatts > kLargestDesktopPsuWatts) {
        if (const auto fix = limitThatFits(kLargestDesktopPsuWatts)) {
            add(Severity::Warning, "power", needs + "; " + *fix,
                "seed: 4x RTX 3090 at 300 W instead of 350 W saves 200 W and makes a 1600 W PSU feasible; "
                "-50 W costs about 7%");
        } else {
            add(Severity::Warning, "power", "needs more than a standard " + format::number(kLargestDesktopPsuWatts, 0) +
                                                " W PSU: " + format::number(r.psu.withBufferWatts, 0) + " W with buffer",
                "seed: few desktop PSUs exceed 1600 W; consider two PSUs or a server/mining PSU");
        }
    } else {
        add(Severity::Info, "power", "PSU: " + format::number(r.psu.recommendedPsuWatts, 0) + " W (" +
                                         format::number(r.psu.requiredWatts, 0) + " W load + 10% buffer)",
            "hardware guide: add up GPUs and CPU, +10%");
    }
    for (const auto& c : r.psu.circuits) {
        if (!c.fits && c.name.rfind("US 120 V 15 A", 0) == 0) {
            add(Severity::Warning, "power",
                "the build draws about " + format::number(c.wallDrawWatts, 0) + " W from the wall: more than a US 15 A circuit (" +
                    format::number(c.continuousWatts, 0) + " W continuous); use a 20 A circuit or power limits",
                "80% continuous-load rule; 90% PSU efficiency");
        }
    }
    if (const auto cables = describeCables(r.psu.connectors); !cables.empty()) {
        add(Severity::Info, "power", "PSU cables: " + cables,
            "hardware guide: 'even if a PSU has the required wattage, it might not have enough PCIe 8-pin connectors'");
    }
    if (auto spikes = powerSpikeNote(psu)) {
        add(Severity::Info, "power", std::move(*spikes),
            "PCIe CEM 5.0 (up to 3x for 100 us); Intel's ATX 3.0 design guide (200% of the rating for 100 us)");
    }
    if (total >= 2 && g.interconnect == InterconnectType::NvLink && g.form == FormFactor::Pcie) {
        add(Severity::Info, "pcie", "an NVLink bridge is optional", "seed: NVLink 'is useful if you have a GPU cluster with +128 GPUs'");
    }

    std::stable_sort(r.findings.begin(), r.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    return r;
}

std::string describeSpeed(const BuildInput& in, const BuildReport& r) {
    const bool relative = in.reference != nullptr && r.referenceThroughput > 0;
    std::string s = relative ? format::number(r.throughput / r.referenceThroughput, 2) + "x one " + in.reference->name
                             : format::number(r.throughput, 2) + "x one V100 SXM2";
    s += in.machines > 1 ? " per machine" : "";
    s += " (fp16 transformer training";
    const int total = in.count + (in.extraGpu != nullptr ? in.extraCount : 0);
    if (total > 1) {
        s += "; data-parallel efficiency " + format::percent(r.efficiency, 0);
    }
    if (in.powerLimitWatts) {
        s += "; power limit " + format::number(*in.powerLimitWatts, 0) + " W: " +
             format::percent(1.0 - r.powerLimitFactor, 0) + " slower";
    }
    if (in.extraGpu != nullptr) {
        s += "; paced by the slowest GPU: " + format::percent(r.mixedPacingLoss, 0) + " lost";
    }
    if (in.machines > 1) {
        s += "; across machines the network decides, which the model does not cover";
    }
    return s + ")";
}

} // namespace advisor::calc
