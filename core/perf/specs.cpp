#include "perf/specs.h"

#include "catalog/catalog.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/terms.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace advisor::perf {
namespace {

// The published GPU with the same vendor and chip whose FP32 throughput is closest.
const Gpu* chipPeer(const Gpu& g, const Catalog* peers) {
    if (peers == nullptr || g.chip.empty() || !g.fp32Tflops) {
        return nullptr;
    }
    const Gpu* best = nullptr;
    for (const auto& p : peers->gpus()) {
        if (p.id == g.id || p.vendor != g.vendor || p.chip != g.chip || !p.tensor.fp16Fp32Acc || !p.fp32Tflops) {
            continue;
        }
        if (best == nullptr || std::fabs(*p.fp32Tflops - *g.fp32Tflops) < std::fabs(*best->fp32Tflops - *g.fp32Tflops)) {
            best = &p;
        }
    }
    return best;
}

// A GPU with the same vendor, chip, SM count and memory bus, and a published L2: NVIDIA's L2
// slices sit with the memory controllers, so such a configuration has the same L2 (L40 and
// RTX 6000 Ada, both AD102 with 142 SMs and 384 bits, publish 96 MB; the L40S does not).
const Gpu* l2Peer(const Gpu& g, const Catalog* peers) {
    if (peers == nullptr || g.chip.empty() || !g.computeUnits || !g.memoryBusBits) {
        return nullptr;
    }
    for (const auto& p : peers->gpus()) {
        if (p.id != g.id && !p.custom && p.vendor == g.vendor && p.chip == g.chip && p.computeUnits == g.computeUnits &&
            p.memoryBusBits == g.memoryBusBits && p.l2CacheMb) {
            return &p;
        }
    }
    return nullptr;
}

// FP32 lanes per SM (per CU / Xe-core) as the published FP32 rates count them: 64 on GP100,
// Volta, Turing, GA100, CDNA 1 and CDNA 2 (MI250X: 220 CUs x 1.7 GHz x 128 FLOPs = 47.9 TFLOPS;
// MI100: 120 x 1.502 x 128 = 23.1); 128 on
// GP102, GA10x, Ada, Hopper, Blackwell, CDNA 3 and RDNA 3 (dual issue: MI300X 304 CUs x 2.1 GHz x
// 256 = 163.4) and Intel's Xe cores. Dividing the FP32 rate by twice this gives SM count x clock.
double fp32LanesPerUnit(const Gpu& g) {
    const std::string& a = g.architecture;
    const bool sixtyFour =
        a == "Volta" || a == "Turing" || a == "CDNA 1" || a == "CDNA 2" || g.chip == "GA100" || g.chip == "GP100";
    return sixtyFour ? 64.0 : 128.0;
}

// SMs per compute unit, counted by the threads a unit issues per clock: an NVIDIA SM issues
// four 32-thread warp instructions per clock (128), an AMD CU one 64-thread wave instruction
// per 4 clocks on each of its four SIMDs (64), an Intel Xe core 128 lanes.
double smEquivalentsPerUnit(const Gpu& g) { return g.vendor == "AMD" ? 0.5 : 1.0; }

// Board power and clock per SM: what the sustained-clock term compares within a chip.
struct PerSm {
    double watts = 0, clock = 0; ///< clock as FP32 TFLOPS per SM (same chip: proportional to GHz)
};
std::optional<PerSm> perSm(const Gpu& g) {
    if (!g.computeUnits || *g.computeUnits <= 0 || !g.fp32Tflops || *g.fp32Tflops <= 0 || g.tdpW <= 0) {
        return std::nullopt;
    }
    return PerSm{g.tdpW / *g.computeUnits, *g.fp32Tflops / *g.computeUnits};
}

// Seed power law (power ~ clock^3), anchored at the shipped card of the same chip (or of the
// GPU's configuration peer: the DGX Spark's GB10 against the RTX 5070's 48 SMs) with the most
// board power per SM, taken to hold its published boost clock: a card with less power per SM
// sustains top clock x (its W per SM / top's)^(1/3), which may be below its own boost clock
// (A100 PCIe 250 W vs SXM4 400 W, A10 150 W vs RTX 3090 Ti 450 W, RTX 6000 Ada vs RTX 4090).
// Prompt processing's dense matmuls follow the same anchor with their own exponent
// (ModelConstants::prefillPowerClockExponent).
void deriveSustainedClock(const Gpu& g, const ModelConstants& c, const Catalog* peers, EffectiveSpecs& s) {
    const auto own = perSm(g);
    if (peers == nullptr || g.chip.empty() || !own) {
        return;
    }
    const Gpu* top = nullptr;
    PerSm best;
    for (const auto& p : peers->gpus()) {
        const auto ps = perSm(p);
        // Only shipped cards anchor a chip: a GPU the user defines must not move the others, nor
        // a card whose catalog entry says why its power per SM is no measure of its clock.
        const bool sameSms = p.chip == g.chip || p.id == g.configurationPeer;
        const bool mayAnchor = !p.custom && p.notAClockAnchor.empty();
        if (mayAnchor && p.vendor == g.vendor && sameSms && ps && ps->watts > best.watts) {
            best = *ps;
            top = &p;
        }
    }
    if (top == nullptr || top->id == g.id) {
        return;
    }
    s.chipPowerPerSmRatio = own->watts / best.watts;
    s.chipTopName = top->name;
    // A configuration peer has the GPU's SMs on another chip: as many (the DGX Spark's GB10 and the
    // RTX 5070) or the same design in another number (Strix Halo's 40 RDNA 3.5 CUs and the RX 7900 XTX's 96).
    const std::string unit = g.computeUnitName.empty() ? "SM" : g.computeUnitName;
    s.chipTopScope = top->chip == g.chip                   ? "the same " + g.chip
                     : top->computeUnits == g.computeUnits ? "the same SMs (" + top->chip + ")"
                                                           : "the same kind of " + unit + " (" + top->chip + ")";
    if (!g.notAClockAnchor.empty()) {
        s.notes.push_back("its board power per SM does not set " + g.chip + "'s sustained clock for the other cards " +
                          "(the catalog says why); its own clock is derived from the " + top->name + "'s");
    }
    const auto clockAt = [&](double exponent) {
        // A card that may not anchor the chip (or one the user defines) can have more power per SM
        // than the anchor: the same law then lets it run faster than the anchor, up to its own boost.
        const double ratio = own->watts / best.watts;
        const double law = ratio > 1.0 ? std::pow(ratio, 1.0 / exponent) : clockAtPowerRatio(ratio, exponent);
        const double clock = best.clock / own->clock * law;
        return clock >= 0.995 ? 1.0 : clock;
    };
    const auto detail = [&](double clock, const std::string& law) {
        return format::number(g.tdpW, 0) + " W for " + std::to_string(*g.computeUnits) + " " +
               (g.computeUnitName.empty() ? "SM" : g.computeUnitName) + "s vs " + top->name + "'s " +
               format::number(top->tdpW, 0) + " W for " + std::to_string(*top->computeUnits) + " on " + s.chipTopScope +
               ": sustained clock " + format::percent(clock, 0) + " of the boost clock (" + law + ")";
    };
    s.sustainedClock = clockAt(kPowerClockExponent);
    if (s.sustainedClock < 1.0) {
        s.sustainedClockDetail = detail(s.sustainedClock, "seed: clock ~ power^(1/3), RTX 2080 Ti -50 W ~ -7%");
    }
    s.denseMatmulClock = clockAt(c.prefillPowerClockExponent);
    if (s.denseMatmulClock < 1.0) {
        const double e = c.prefillPowerClockExponent;
        s.denseMatmulClockDetail =
            detail(s.denseMatmulClock, std::fabs(e - 1.0) < 1e-9
                                           ? "chained dense matmuls: clock ~ power, the voltage at its floor"
                                           : "chained dense matmuls: clock ~ power^(1/" + format::number(e, 2) + ")");
    }
}

std::optional<double> scaled(const std::optional<double>& v, double k) {
    return v ? std::optional<double>(*v * k) : std::nullopt;
}

/// INT8 dot products on the CUDA cores (dp4a) came with compute capability 6.1: every NVIDIA
/// chip from GP102/GP104/GP106/GP107 on, but not GP100 (6.0, the P100's) or anything older.
bool hasDp4a(const Gpu& g) {
    return g.vendor == "NVIDIA" && g.architecture != "Maxwell" && g.architecture != "Kepler" &&
           !text::startsWith(g.chip, "GP100");
}

} // namespace

EffectiveSpecs deriveSpecs(const Gpu& g, const ModelConstants& c, const Catalog* peers) {
    EffectiveSpecs s;
    s.gpuId = g.id;
    s.bandwidthGbs = g.memoryBandwidthGbs;
    s.asyncCopy = g.asyncCopy;
    s.sparsity24 = g.sparsity24;
    s.tma = g.tma;
    s.warpgroupMma = g.warpgroupMma;
    const double fp32 = g.fp32Tflops.value_or(0);
    const bool matrixUnits = g.tensorCoreGeneration != "none";
    TensorThroughput t = g.tensor;
    // Unpublished tensor figures on a chip we know: borrow the peer's, scaled by FP32 throughput.
    if (matrixUnits && !g.hasTensorCores()) {
        if (const Gpu* peer = chipPeer(g, peers)) {
            const double k = fp32 / *peer->fp32Tflops;
            const auto& pt = peer->tensor;
            t = {scaled(pt.fp16Fp32Acc, k), scaled(pt.fp16Fp16Acc, k), scaled(pt.bf16, k), scaled(pt.tf32, k),
                 scaled(pt.fp8, k),         scaled(pt.int8, k),        scaled(pt.fp4, k)};
            s.estimated = true;
            s.notes.push_back("tensor figures not published; estimated from " + peer->name +
                              " (same chip) scaled by FP32 throughput (x" + format::number(k, 3) + ")");
        }
    }

    // 16-bit training: FP16 inputs, FP32 accumulate (what AMP uses).
    if (t.fp16Fp32Acc) {
        s.fp16TrainTflops = *t.fp16Fp32Acc;
        s.tensorCores = true;
    } else if (t.bf16) {
        s.fp16TrainTflops = *t.bf16; // BF16 always accumulates in FP32
        s.tensorCores = true;
    } else if (t.fp16Fp16Acc) {
        s.fp16TrainTflops = *t.fp16Fp16Acc;
        s.tensorCores = true;
        s.estimated = true;
        s.notes.push_back("FP32-accumulate rate not published; assumed equal to the FP16-accumulate rate "
                          "(full rate, as on NVIDIA professional cards)");
    } else if (matrixUnits && fp32 > 0) {
        // Intel's XMX: no documented matrix rate with a stated accumulate type.
        s.fp16TrainTflops = 2.0 * fp32 / c.noTensorCorePenalty;
        s.estimated = true;
        s.notes.push_back("no published matrix-unit rate; assumed packed FP16 at 2x FP32, with the "
                          "no-tensor-core matmul penalty");
    } else {
        s.fp16TrainTflops = fp32 / c.noTensorCorePenalty;
        s.notes.push_back("no tensor cores: FP16 runs on CUDA cores at the FP32 rate, and matmuls reach only "
                          "235/504 of it (seed: 504 vs 235 cycles)");
        if (hasDp4a(g)) {
            s.dp4aTops = 4.0 * fp32;
        }
    }

    // 16-bit inference may use FP16 accumulate (TensorRT, llama.cpp): GeForce's full rate.
    s.fp16InferTflops = std::max(s.fp16TrainTflops, t.fp16Fp16Acc.value_or(0));
    s.fp16AccumulateHalfRate = t.fp16Fp16Acc && t.fp16Fp32Acc && *t.fp16Fp16Acc > 1.5 * *t.fp16Fp32Acc;

    // 32-bit training: TF32 tensor cores where present (PyTorch's default on Ampere+). TF32 is
    // NVIDIA's: RDNA 3's WMMA has no FP32-input mode (a measured 7900 XTX runs TF32 GEMMs at
    // its FP32 rate), so an AMD card without a published figure keeps its vector rate.
    if (t.tf32) {
        s.fp32TrainTflops = *t.tf32;
        s.tf32 = true;
    } else if (s.tensorCores && g.vendor == "NVIDIA" && (g.asyncCopy || t.bf16)) {
        s.fp32TrainTflops = s.fp16TrainTflops / 2.0;
        s.tf32 = true;
        s.estimated = true;
        s.notes.push_back("TF32 rate not published; taken as half the FP16/FP32-accumulate rate "
                          "(the Ampere/Ada ratio)");
    } else {
        s.fp32TrainTflops = fp32 / c.noTensorCorePenalty;
    }

    // 8-bit inference: FP8 on Ada/Hopper+ (FP16 accumulate where the card doubles it), INT8
    // tensor cores at the seed's practical efficiency, dp4a on the CUDA cores of cards without
    // tensor cores, else no gain over 16-bit.
    if (t.fp8) {
        const double accRatio = s.fp16AccumulateHalfRate ? *t.fp16Fp16Acc / *t.fp16Fp32Acc : 1.0;
        s.eightBitTflops = *t.fp8 * accRatio;
        s.fp8 = true;
        // FP4's published rate already sums in FP32 on GeForce too (RTX 5090: 1,676 TFLOPS dense,
        // 4x its FP32-accumulate FP8), so it takes no accumulate ratio.
        if (t.fp4) {
            s.fourBitTflops = *t.fp4;
        }
    } else if (t.int8) {
        s.eightBitTflops = std::max(s.fp16InferTflops, *t.int8 * c.int8EfficiencyWithoutFp8);
    } else if (s.dp4aTops > 0) {
        s.eightBitTflops = std::max(s.fp16InferTflops, integerMatmulTflops(s, c));
    } else {
        s.eightBitTflops = s.fp16InferTflops;
        if (s.tensorCores) {
            s.notes.push_back("no 8-bit tensor rate published: 8-bit inference counted at the 16-bit rate");
        }
    }

    // CUDA-core throughput for the non-matmul work. B100 publishes no FP32 figure: borrow the
    // FP32/tensor ratio of a GPU of the same architecture.
    s.vectorTflops = fp32;
    if (s.vectorTflops <= 0 && peers != nullptr) {
        for (const auto& p : peers->gpus()) {
            if (p.architecture == g.architecture && p.vendor == g.vendor && p.fp32Tflops && p.tensor.fp16Fp32Acc &&
                s.fp16TrainTflops > 0 && p.form == g.form) {
                s.vectorTflops = *p.fp32Tflops / *p.tensor.fp16Fp32Acc * s.fp16TrainTflops;
                s.estimated = true;
                s.notes.push_back("FP32 rate not published; estimated from " + p.name + "'s FP32/tensor ratio: " +
                                  format::number(s.vectorTflops, 0) + " TFLOPS");
                break;
            }
        }
    }
    if (s.vectorTflops <= 0) {
        s.vectorTflops = s.fp16TrainTflops / 8.0; // a conservative ratio when nothing is known
        s.estimated = true;
        s.notes.push_back("FP32 rate not published; assumed 1/8 of the tensor rate");
    }

    deriveSustainedClock(g, c, peers, s);
    s.smClockGhz = s.vectorTflops * 1000.0 / (2.0 * fp32LanesPerUnit(g)) * smEquivalentsPerUnit(g);

    if (g.l2CacheMb) {
        s.l2Mb = *g.l2CacheMb;
    } else if (const Gpu* peer = l2Peer(g, peers)) {
        s.l2Mb = *peer->l2CacheMb;
        s.estimated = true;
        s.notes.push_back("L2 size not published; taken from " + peer->name + " (same " + g.chip + ", " +
                          std::to_string(*g.computeUnits) + " " + (g.computeUnitName.empty() ? "SM" : g.computeUnitName) +
                          "s, " + std::to_string(*g.memoryBusBits) + "-bit bus): " + format::number(s.l2Mb, 0) + " MB");
    } else {
        s.l2Mb = c.l2NoBenefitMb;
        s.estimated = true;
        s.notes.push_back("L2 size not published; no cache benefit assumed");
    }
    return s;
}

} // namespace advisor::perf
