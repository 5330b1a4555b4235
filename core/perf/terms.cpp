#include "perf/terms.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {

double computeRoofTflops(const EffectiveSpecs& s, Metric m) {
    switch (m) {
    case Metric::Fp16Training:
        return s.fp16TrainTflops;
    case Metric::Fp32Training:
        return s.fp32TrainTflops;
    case Metric::Int8Inference:
        return s.eightBitTflops;
    case Metric::Fp16Inference:
    case Metric::LlmDecode:
    case Metric::LlmPrefill:
        return s.fp16InferTflops;
    }
    return s.fp16TrainTflops;
}

double integerMatmulTflops(const EffectiveSpecs& s, const ModelConstants& c) {
    return s.dp4aTops / c.noTensorCorePenalty;
}

double prefillMatmulTflops(const EffectiveSpecs& s, Precision weights, const ModelConstants& c) {
    return isSixteenBit(weights) ? s.fp16InferTflops : std::max(s.fp16InferTflops, integerMatmulTflops(s, c));
}

double denseMatmulTflops(const EffectiveSpecs& s, Metric runs) { return computeRoofTflops(s, runs) * s.denseMatmulClock; }

double matmulTimeFactor(const EffectiveSpecs& s, Metric m, double fp32MatmulShare, const ModelConstants& c) {
    const double own = c.referenceComputeTflops / std::max(computeRoofTflops(s, m), 1e-9);
    if (m != Metric::Fp16Training || fp32MatmulShare <= 0) {
        return own;
    }
    const double f = std::min(fp32MatmulShare, 1.0);
    const double fp32 = c.referenceComputeTflops / std::max(computeRoofTflops(s, Metric::Fp32Training), 1e-9);
    return (1.0 - f) * own + f * fp32;
}

bool sparseMatmulsApply(const EffectiveSpecs& s, Metric runs) {
    if (!s.sparsity24 || !s.tensorCores || isLlm(runs)) {
        return false;
    }
    return runs != Metric::Fp32Training || s.tf32;
}

double l2CacheFactor(double l2Mb, const ModelConstants& c) {
    if (l2Mb <= c.l2NoBenefitMb) {
        return 1.0;
    }
    const double ramp = std::log(l2Mb / c.l2NoBenefitMb) / std::log(c.l2FullBenefitMb / c.l2NoBenefitMb);
    return 1.0 + c.l2CacheGain * std::min(1.0, ramp);
}

double asyncCopyFactor(const EffectiveSpecs& s, const ModelConstants& c) {
    return (s.asyncCopy || s.tma) ? 1.0 + c.asyncCopyGain : 1.0;
}

double tmaFactor(const EffectiveSpecs& s, Metric m, const ModelConstants& c) {
    return (s.tma && m == Metric::Int8Inference) ? 1.0 + c.tmaEightBitGain : 1.0;
}

double effectiveBandwidthGbs(const EffectiveSpecs& s, Metric m, const ModelConstants& c) {
    return s.bandwidthGbs * l2CacheFactor(s.l2Mb, c) * asyncCopyFactor(s, c) * tmaFactor(s, m, c);
}

double bytesMultiplier(Metric m, const ModelConstants& c) {
    switch (m) {
    case Metric::Fp32Training:
        return c.fp32BytesMultiplier;
    case Metric::Int8Inference:
        return 0.5;
    default:
        return 1.0;
    }
}

Metric metricRunOn(const EffectiveSpecs& s, Metric m, const ModelConstants& c) {
    if (m == Metric::Fp16Training && !s.tensorCores && c.fp16WithoutTensorCoresAsFp32) {
        return Metric::Fp32Training;
    }
    return m;
}

double clockAtPowerRatio(double powerRatio, double exponent) {
    return std::min(1.0, std::pow(std::max(powerRatio, 0.0), 1.0 / exponent));
}

double batchScaling(double batchMultiplier, const ModelConstants& c) {
    return batchScaling(batchMultiplier, c.batchGainPerDoubling);
}

double batchScaling(double batchMultiplier, double gainPerDoubling) {
    const double m = clampedBatchMultiplier(batchMultiplier);
    return std::pow(1.0 + gainPerDoubling, std::log2(m));
}

double pcieGbsPerDirection(int pcieGen, int lanes) {
    return 0.985 * lanes * std::pow(2.0, pcieGen - 3);
}

Link linkBandwidth(const Gpu& g, int gpus, const Interconnect& ic) {
    Link l;
    l.pcieGen = ic.pcieGen > 0 ? std::min(ic.pcieGen, g.pcieGen) : g.pcieGen;
    l.lanes = ic.pcieLanes > 0 ? std::min(ic.pcieLanes, g.pcieLanes) : std::min(gpus <= 2 ? 16 : 8, g.pcieLanes);
    const double pcie = pcieGbsPerDirection(l.pcieGen, l.lanes);
    if (g.form == FormFactor::Sxm || g.form == FormFactor::Oam || g.form == FormFactor::Superchip) {
        if (g.interconnectGbs) {
            l.gbPerSecond = *g.interconnectGbs / 2.0;
            l.kind = g.interconnect != InterconnectType::NvLink  ? "Infinity Fabric"
                     : g.form == FormFactor::Superchip             ? "NVLink (superchip)"
                                                                   : "NVLink (SXM)";
            l.cubeMesh = g.formCode == "sxm2" && gpus > 4;
            return l;
        }
    }
    // Complete computers (DGX Spark) join over their network ports (ConnectX-7, RoCE).
    if (g.form == FormFactor::System && g.interconnectGbs) {
        l.gbPerSecond = *g.interconnectGbs / 2.0;
        l.kind = "network";
        return l;
    }
    if (ic.nvlinkBridge && gpus == 2 && g.interconnect == InterconnectType::NvLink && g.interconnectGbs) {
        l.gbPerSecond = *g.interconnectGbs / 2.0;
        l.kind = "NVLink bridge";
        return l;
    }
    l.gbPerSecond = pcie;
    l.kind = "PCIe";
    return l;
}

double dataParallelEfficiency(double singleSpeedVsReference, int gpus, const Link& link, WorkloadClass w,
                              Metric m, double batchMultiplier, const ModelConstants& c) {
    if (gpus <= 1) {
        return 1.0;
    }
    if (!isTraining(m)) {
        return 1.0; // inference replicas do not synchronise
    }
    const double n = gpus;
    // Gradients are all-reduced in the training precision: fp32 moves twice the bytes of fp16.
    const double gradBytes = m == Metric::Fp32Training ? 2.0 : 1.0;
    const double allReduce = c.allReduceCost[static_cast<size_t>(w)] * gradBytes * 2.0 * (n - 1.0) / n /
                             std::max(link.gbPerSecond, 1e-6) * 100.0;
    const double sync = c.syncLatency * std::log2(n);
    const double perGpuBatch = clampedBatchMultiplier(batchMultiplier);
    // Fixed times per step (bytes over the link, synchronisation latency) weigh more on a faster
    // GPU's shorter step; the wait for the slowest of n GPUs is a share of the step whatever its
    // length (ModelConstants::stragglerFraction).
    double overhead = singleSpeedVsReference * (allReduce + sync) / perGpuBatch + c.stragglerFraction * std::log2(n);
    if (link.cubeMesh) {
        overhead += c.cubeMeshOverhead[static_cast<size_t>(w)] * std::log2(n) / 3.0;
    }
    return 1.0 / (1.0 + overhead);
}

double mixedPacing(const double* singleSpeeds, int count) {
    if (count <= 0) {
        return 0.0;
    }
    const double slowest = *std::min_element(singleSpeeds, singleSpeeds + count);
    return slowest * count;
}

double decodeCacheWorkBytes(const ModelConstants& c) {
    return kvCacheBytesPerValue(KvCacheType::F16) * (1.0 / c.decodeCacheReadShare - 1.0);
}

double cacheReadShare(KvCacheType t, const ModelConstants& c) {
    return kvCacheBytesPerValue(t) / (kvCacheBytesPerValue(t) + decodeCacheWorkBytes(c));
}

double decodeBandwidthGbs(const EffectiveSpecs& s, const ModelConstants& c) {
    const double streamed = s.bandwidthGbs * c.decodeBandwidthEfficiency;
    if (c.decodeBytesPerSmClock <= 0 || s.smClockGhz <= 0) {
        return streamed;
    }
    return std::min(streamed, c.decodeBytesPerSmClock * s.smClockGhz);
}

} // namespace advisor::perf
