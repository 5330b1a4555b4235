#include "perf/model.h"

#include "common/format.h"
#include "perf/attention_at_depth.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/llm_throughput.h"
#include "perf/llm_training.h"
#include "perf/sequences_at_speed.h"
#include "perf/sequences_that_fit.h"
#include "perf/serving_engine.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace advisor::perf {
namespace {

// Time per sample by where it goes. The GPU-side terms and the per-sample overhead follow the
// batch gain; the host's per-step time is divided by the batch instead.
struct Times {
    double compute = 0, memory = 0, vector = 0, latency = 0, overhead = 0, host = 0;
    double batchScale = 1;
    double total() const { return (compute + memory + vector + latency + overhead) / batchScale + host; }
    double share(double part) const { return part / batchScale / total(); }
};

// The profile's share of matmuls left in FP32, for rows of the benchmark source it was seen in.
double fp32MatmulShareFor(const WorkloadProfile* profile, const PerfQuery& q) {
    return profile == nullptr ? 0.0 : profile->fp32MatmulShareFor(q.benchmarkSource);
}

// The profile a query runs with: a language model's; a named benchmark network's, fitted; or
// none (the class's shares).
const WorkloadProfile* profileOf(const PerfQuery& q, const ModelConstants& c) {
    return q.llmTrainingParamsBillion > 0 ? &llmTrainingProfile() : c.profileFor(q.workloadName);
}

Times singleGpuTimes(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c) {
    const WorkloadProfile* profile = profileOf(q, c);
    const TimeShares& sh = profile != nullptr ? profile->shares : c.sharesFor(q.workload);
    const Metric m = metricRunOn(s, q.metric, c);
    Times t;
    // All GPU-side work runs at the sustained clock: the SMs, and with them the L2 cache and the
    // rate at which memory requests are issued (A100 PCIe at 250 W: 0.92x the 400 W SXM4 module
    // in Lambda's 2020-21 runs, more than its compute share alone would lose).
    const double clock = s.sustainedClock;
    const double fp32Matmuls = fp32MatmulShareFor(profile, q);
    const double sparse = q.sparsity24 && sparseMatmulsApply(s, m) ? 1.0 / kSparseMatmulSpeedup : 1.0;
    t.compute = sh.compute * matmulTimeFactor(s, m, fp32Matmuls, c) * sparse / std::max(clock, 1e-9);
    // Inference fuses the elementwise kernels into the matmuls and saves nothing for a backward
    // pass, so its activation traffic shrinks more than its FLOPs (ModelConstants::
    // inferenceMemoryFactor).
    const double inferenceMemory = isTraining(m) ? 1.0 : c.inferenceMemoryFactor;
    t.memory = sh.memory * inferenceMemory * bytesMultiplier(m, c) * c.referenceBandwidthGbs /
               std::max(effectiveBandwidthGbs(s, m, c) * clock, 1e-9);
    // Inference runs no optimizer and fuses elementwise work into matmul epilogues, so both
    // the CUDA-core work and the fixed overhead shrink by the same factor.
    const double inference = isTraining(m) ? 1.0 : c.inferenceOverheadFactor;
    t.vector = sh.vector * inference * c.referenceVectorTflops / std::max(s.vectorTflops * clock, 1e-9);
    // Part of the overhead is latency-bound GPU work, retired at SM count x clock; the rest is
    // the host's, the same on every GPU.
    const double latencyPart = c.latencyBoundOverheadFraction;
    t.latency = sh.overhead * latencyPart * inference * c.referenceSmClockGhz / std::max(s.smClockGhz * clock, 1e-9);
    t.overhead = sh.overhead * (1.0 - latencyPart) * inference;
    t.host = sh.hostStep * inference / clampedBatchMultiplier(q.batchMultiplier);
    const double gain = profile != nullptr ? profile->batchGainPerDoubling : c.batchGainPerDoubling;
    t.batchScale = batchScaling(q.batchMultiplier, gain);
    return t;
}

} // namespace

bool newerThanTheTrainingCalibration(const Gpu& g) {
    return g.vendor == "NVIDIA" &&
           (g.architecture == "Ada" || g.architecture == "Hopper" || g.architecture == "Blackwell");
}

std::optional<std::string> measuredCheckNote(const Gpu& g, Metric m) {
    const auto check = g.modelChecks.find(toString(m));
    return check == g.modelChecks.end()
               ? std::nullopt
               : std::optional<std::string>("measured on this GPU (never fitted): " + check->second);
}

PerfModel::PerfModel(const Catalog& catalog, ModelConstants constants)
    : catalog_(catalog), constants_(std::move(constants)) {
    for (const auto& g : catalog_.gpus()) {
        specs_.emplace(g.id, deriveSpecs(g, constants_, &catalog_));
    }
}

EffectiveSpecs PerfModel::specs(const Gpu& g) const {
    const auto it = specs_.find(g.id);
    if (it != specs_.end()) {
        return it->second;
    }
    return deriveSpecs(g, constants_, &catalog_);
}

double modelThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                       Prediction* out) {
    const int n = std::max(1, q.gpus);
    // As many sequences as fit (at a speed) are settled first; otherwise the fast path copies nothing.
    if (q.llmSequencesFillMemory && q.metric == Metric::LlmDecode) {
        return modelThroughput(s, g, withSequencesResolved(s, g, q, c), c, out);
    }
    if (isLlm(q.metric) && q.llmEngine == LlmEngine::TensorRtLlm) {
        return servingThroughput(s, g, q, c, out);
    }
    if (q.metric == Metric::LlmDecode) {
        return decodeThroughput(s, g, q, c, out);
    }
    if (q.metric == Metric::LlmPrefill) {
        return prefillThroughput(s, g, q, c, out);
    }
    const Times t = singleGpuTimes(s, q, c);
    const double single = 1.0 / t.total();
    const Link link = linkBandwidth(g, n, q.interconnect);
    const double eff = q.llmTrainingParamsBillion > 0
                           ? llmDataParallelEfficiency(single, n, link, q.metric, c)
                           : dataParallelEfficiency(single, n, link, q.workload, q.metric, q.batchMultiplier, c);
    if (out != nullptr) {
        out->singleGpu = single;
        out->efficiency = eff;
        out->computeShare = t.share(t.compute);
        out->memoryShare = t.share(t.memory);
        out->vectorShare = t.share(t.vector);
        out->latencyShare = t.share(t.latency);
        // GPU-independent time: the per-sample overhead and the host's per-step time.
        out->overheadShare = t.share(t.overhead) + t.host / t.total();
        out->clockBoundShare = 1.0 - out->overheadShare;
    }
    return single * n * eff;
}

double PerfModel::throughput(const Gpu& g, const PerfQuery& q) const {
    const auto it = specs_.find(g.id);
    if (it != specs_.end()) {
        return modelThroughput(it->second, g, q, constants_);
    }
    return modelThroughput(deriveSpecs(g, constants_, &catalog_), g, q, constants_);
}

double PerfModel::relative(const Gpu& g, const Gpu& reference, const PerfQuery& q) const {
    PerfQuery one = q;
    one.gpus = 1;
    return throughput(g, q) / throughput(reference, one);
}

Prediction PerfModel::explain(const Gpu& g, const PerfQuery& query) const {
    const EffectiveSpecs s = specs(g);
    const PerfQuery q = withSequencesResolved(s, g, query, constants_);
    Prediction p;
    p.throughput = modelThroughput(s, g, q, constants_, &p);
    p.unit = isLlm(q.metric) ? "tokens/s" : "x one V100 SXM2 training in fp16";
    p.llmSequences = q.metric == Metric::LlmDecode ? std::max(1, q.llmSequences) : 0;
    p.notes = s.notes;
    if (query.llmSequencesFillMemory && q.metric == Metric::LlmDecode) {
        p.notes.push_back(query.llmMinSequenceSpeed ? sequencesAtSpeedNote(s, g, query, constants_, p.llmSequences)
                                                    : sequencesThatFitNote(g, query, p.llmSequences));
    }
    if (isLlm(q.metric) && q.llmEngine == LlmEngine::TensorRtLlm) {
        explainServing(s, g, q, constants_, p);
        return p;
    }
    if (auto check = measuredCheckNote(g, q.metric)) {
        p.notes.push_back(std::move(*check));
    }
    const Metric runs = metricRunOn(s, q.metric, constants_);
    p.computeRoofTflops = q.metric == Metric::LlmPrefill
                              ? prefillMatmulTflops(s, q.llmWeights, constants_) * s.denseMatmulClock
                              : computeRoofTflops(s, runs) * s.sustainedClock;
    const double decodeBandwidth = decodeBandwidthGbs(s, constants_);
    p.effectiveBandwidthGbs = q.metric == Metric::LlmDecode ? decodeBandwidth
                              : isLlm(q.metric)             ? s.bandwidthGbs
                                                            : effectiveBandwidthGbs(s, runs, constants_);
    const double top =
        std::max({p.computeShare, p.memoryShare, p.vectorShare, p.latencyShare, p.overheadShare, p.systemRamShare});
    if (p.systemRamShare == top) {
        p.bound = q.metric == Metric::LlmPrefill ? "copying from system RAM to the GPU"
                                                 : "the CPU's reads from system RAM";
    } else if (p.memoryShare == top && q.metric == Metric::LlmDecode &&
               decodeBandwidth < s.bandwidthGbs * constants_.decodeBandwidthEfficiency) {
        p.bound = "memory traffic the SMs can keep in flight";
    } else if (p.memoryShare == top) {
        p.bound = "memory bandwidth";
    } else if (p.computeShare == top) {
        p.bound = "compute";
    } else if (p.vectorShare == top) {
        p.bound = "CUDA-core (non-matmul) work";
    } else if (p.latencyShare == top) {
        p.bound = "latency-bound work";
    } else {
        p.bound = "overhead";
    }

    // How much each named term moved the prediction: predict again without it.
    const auto without = [&](auto&& change, const EffectiveSpecs& alt) {
        ModelConstants c = constants_;
        change(c);
        return modelThroughput(alt, g, q, c);
    };
    const auto add = [&](const std::string& name, double other, const std::string& detail) {
        if (other > 0 && std::fabs(p.throughput / other - 1.0) > 1e-9) {
            p.factors.push_back({name, p.throughput / other, detail});
        }
    };
    const bool quantizedPrefill = q.metric == Metric::LlmPrefill && !isSixteenBit(q.llmWeights);
    if (s.dp4aTops > 0 && (runs == Metric::Int8Inference || quantizedPrefill)) {
        EffectiveSpecs floatOnly = s;
        floatOnly.dp4aTops = 0;
        floatOnly.eightBitTflops = s.fp16InferTflops;
        add("INT8 dot products (dp4a)", without([](ModelConstants&) {}, floatOnly),
            "no tensor cores, but 8-bit integer dot products on the CUDA cores, 4 multiply-adds per lane per clock (" +
                format::number(s.dp4aTops, 1) + " TOPS; with the CUDA-core matmul penalty " +
                format::number(integerMatmulTflops(s, constants_), 1) + " against " +
                format::number(s.fp16InferTflops, 1) + " TFLOPS for float matmuls): " +
                (quantizedPrefill ? "llama.cpp's quantized matmuls (MMQ) run on them"
                                  : "TensorRT's INT8 kernels run on them"));
    }
    if (q.sparsity24) {
        if (sparseMatmulsApply(s, runs)) {
            PerfQuery dense = q;
            dense.sparsity24 = false;
            Prediction densePrediction;
            const double other = modelThroughput(s, g, dense, constants_, &densePrediction);
            add("2:4 sparsity", other,
                "2 of every 4 weights zero: the sparse tensor cores multiply them at twice the dense rate "
                "(seed: up to 2x on the matmuls), which took " + format::percent(densePrediction.computeShare, 0) +
                    " of the dense time");
        } else if (isLlm(q.metric)) {
            p.notes.push_back("2:4 sparsity not applied: llama.cpp-style LLM inference runs dense weights");
        } else {
            const std::string why = s.sparsity24
                                        ? " runs this precision's matmuls on CUDA cores, not its sparse tensor cores"
                                        : " has no sparse tensor cores (Ampere and later have them)";
            p.notes.push_back("2:4 sparsity not applied: " + g.name + why + ", so the dense speed is shown");
        }
    }
    if (!isLlm(q.metric)) {
        add("L2 cache", without([](ModelConstants& c) { c.l2CacheGain = 0; }, s),
            format::number(s.l2Mb, 0) + " MB L2 lets tiles stay on chip (seed: Ada's 72 MB L2, 1.5-2.0x for BERT-large matmuls)");
        add("asynchronous copy / TMA", without([](ModelConstants& c) { c.asyncCopyGain = 0; }, s),
            "global->shared copies overlap with tensor-core work (seed: ~15%)");
        add("TMA for 8-bit", without([](ModelConstants& c) { c.tmaEightBitGain = 0; }, s),
            "hardware index computation matters most at 8-bit (twice the elements per byte)");
        add("latency-bound work", without([](ModelConstants& c) { c.latencyBoundOverheadFraction = 0; }, s),
            format::percent(constants_.latencyBoundOverheadFraction, 0) + " of the overhead runs on the GPU at SM count x " +
                "clock (" + format::number(s.smClockGhz * s.sustainedClock / constants_.referenceSmClockGhz, 2) +
                "x a V100's) instead of taking the same time on every GPU");
        if (!isTraining(q.metric)) {
            add("fused inference", without([](ModelConstants& c) { c.inferenceMemoryFactor = 1; }, s),
                "elementwise work fused into the matmuls and nothing kept for a backward pass: memory traffic " +
                    format::number(constants_.inferenceMemoryFactor, 2) +
                    "x training's for the same matmul work (about 2 passes over the activations for 1 pass of "
                    "FLOPs, against 18 for 3)");
        }
        const WorkloadProfile* profile = profileOf(q, constants_);
        const bool fittedProfile = profile != nullptr && q.llmTrainingParamsBillion <= 0;
        if (q.llmTrainingParamsBillion > 0) {
            PerfQuery asClass = q;
            asClass.llmTrainingParamsBillion = 0;
            asClass.workloadName.clear();
            add("language-model scale", modelThroughput(s, g, asClass, constants_),
                format::number(q.llmTrainingParamsBillion, 1) +
                    "B parameters: on a V100 half the time in matmuls and half at memory speed, no per-step overhead "
                    "and no batch gain; the " + std::string(toString(q.workload)) +
                    " class's shares, fitted on 2020-21 networks, carry the GPU-independent time of BERT-sized steps");
            p.notes.push_back("language model: an even split of matmuls and memory traffic (perf/llm_training.h), "
                              "not fitted; compared with MosaicML's 2023 and NVIDIA's 2025 LLM training runs "
                              "(docs/performance-model.md)");
        }
        add("batch size",
            without(
                [](ModelConstants& c) {
                    c.batchGainPerDoubling = 0;
                    for (auto& entry : c.workloadProfiles) {
                        entry.second.batchGainPerDoubling = 0;
                    }
                },
                s),
            "x" + format::number(q.batchMultiplier, 2) + " the typical batch (" +
                (fittedProfile ? q.workloadName + ": +" + format::number(profile->batchGainPerDoubling * 100, 1) +
                                     "% per doubling, fitted"
                               : std::string("seed: +13.6% per doubling")) +
                ")");
        const TimeShares& shares = profile != nullptr ? profile->shares : constants_.sharesFor(q.workload);
        if (shares.hostStep > 0) {
            add("host time per step",
                without(
                    [&](ModelConstants& c) {
                        c.shares[static_cast<size_t>(q.workload)].hostStep = 0;
                        if (profile != nullptr) {
                            c.workloadProfiles[q.workloadName].shares.hostStep = 0;
                        }
                    },
                    s),
                (profile != nullptr ? q.workloadName : toString(q.workload)) + ": " +
                    format::number(shares.hostStep, 2) + " of a V100's time per sample at the typical batch, " +
                    "divided by the batch (x" + format::number(q.batchMultiplier, 2) +
                    " here; fitted): a recurrent step launches many small kernels one after another, and their "
                    "CPU time is the same whatever the GPU, so a small batch or a fast GPU waits on it");
        }
        if (fittedProfile) {
            p.notes.push_back("time shares and batch gain: the fitted profile of the benchmark workload " +
                              q.workloadName);
            if (fp32MatmulShareFor(profile, q) > 0 && runs == Metric::Fp16Training) {
                add("matmuls left in FP32",
                    without(
                        [&](ModelConstants& c) { c.workloadProfiles[q.workloadName].fp32MatmulShares.clear(); }, s),
                    format::percent(fp32MatmulShareFor(profile, q), 0) + " of " + q.workloadName +
                        "'s matmul work ran in FP32 in the mixed-precision runs of '" + q.benchmarkSource +
                        "' (fitted), at " +
                        format::number(computeRoofTflops(s, Metric::Fp32Training) * s.sustainedClock, 1) +
                        " TFLOPS on this GPU" + (s.tf32 ? " (TF32 tensor cores)" : " (CUDA cores)"));
            }
        }
        if (isTraining(q.metric) && q.workload == WorkloadClass::Cnn && newerThanTheTrainingCalibration(g)) {
            // Most newer runs of such cards' CNN training came out faster than the model; the B200's
            // mixed-precision CNNs on 2025 software did not (experiments round 72).
            p.notes.push_back("CNN training on a card newer than the calibration's runs: the model was slow on most "
                              "newer runs of such cards (Lambda 2022-23, H100 SXM5 ResNet-50 by 27%; timm 2025, RTX "
                              "4090 and 5090 CNNs by 16% in the median; the RTX 6000 Ada, held to 300 W, came out "
                              "close), so read it as a floor (docs/performance-model.md); the exception: a B200's "
                              "mixed-precision ResNet-50 and SSD in Lambda's 2025 runs, where the model was 11-17% "
                              "fast");
        }
        if (s.sustainedClock < 1.0) {
            EffectiveSpecs full = s;
            full.sustainedClock = 1.0;
            add("board power", without([](ModelConstants&) {}, full), s.sustainedClockDetail);
        }
        if (runs != q.metric) {
            add("mixed precision without tensor cores",
                without([](ModelConstants& c) { c.fp16WithoutTensorCoresAsFp32 = false; }, s),
                "no tensor cores: fp16 matmuls run on the CUDA cores in FP32 and casts and loss scaling use up the "
                "memory saved, so fp16 training runs at the fp32 speed (GTX 1080 Ti measured: 1.2x, V100: 2.1x)");
        }
        if (s.fp16AccumulateHalfRate && q.metric == Metric::Fp16Training) {
            EffectiveSpecs full = s;
            full.fp16TrainTflops = g.tensor.fp16Fp16Acc.value_or(s.fp16TrainTflops);
            add("GeForce half-rate FP32 accumulate", without([](ModelConstants&) {}, full),
                "mixed-precision training accumulates in FP32, which GeForce cards run at half the FP16 rate");
        }
        if (!s.tensorCores || (q.metric == Metric::Fp32Training && !s.tf32)) {
            add("no tensor cores for this precision",
                without([](ModelConstants& c) { c.noTensorCorePenalty = 1.0; }, deriveSpecs(g, [&] {
                            ModelConstants c = constants_;
                            c.noTensorCorePenalty = 1.0;
                            return c;
                        }(), &catalog_)),
                "matmuls on CUDA cores take 504 instead of 235 cycles (seed's 32x32 example)");
        }
        if (q.gpus > 1) {
            const Link link = linkBandwidth(g, q.gpus, q.interconnect);
            // What was asked of the interconnect but cannot be had is said, not silently dropped.
            if (q.interconnect.nvlinkBridge && std::string(link.kind) == "PCIe") {
                p.notes.push_back(g.interconnect != InterconnectType::NvLink || !g.interconnectGbs
                                      ? "no NVLink bridge: " + g.name + " has no NVLink; the GPUs talk over PCIe"
                                      : "no NVLink bridge: bridges join pairs of cards, so " + std::to_string(q.gpus) +
                                            " GPUs talk over PCIe");
            }
            if (std::string(link.kind) == "PCIe" && q.interconnect.pcieGen > g.pcieGen) {
                p.notes.push_back("PCIe gen " + std::to_string(q.interconnect.pcieGen) + " asked for; " + g.name +
                                  " is a gen " + std::to_string(g.pcieGen) + " card, so gen " +
                                  std::to_string(g.pcieGen) + " is used");
            }
            if (std::string(link.kind) == "PCIe" && q.interconnect.pcieLanes > g.pcieLanes) {
                p.notes.push_back(std::to_string(q.interconnect.pcieLanes) + " PCIe lanes asked for; " + g.name +
                                  " has " + std::to_string(g.pcieLanes) + ", so x" + std::to_string(g.pcieLanes) +
                                  " is used");
            }
            p.factors.push_back({std::to_string(q.gpus) + " GPUs", q.gpus * p.efficiency,
                                 std::string(isTraining(q.metric) ? "data parallel over " : "independent replicas; ") +
                                     (isTraining(q.metric)
                                          ? std::string(link.kind) + " at " + format::number(link.gbPerSecond, 1) +
                                                " GB/s per direction" +
                                                (std::string(link.kind) == "PCIe"
                                                     ? " (gen " + std::to_string(link.pcieGen) + " x" +
                                                           std::to_string(link.lanes) + ")"
                                                     : "") +
                                                (link.cubeMesh ? ", NVLink 2 cube-mesh without NVSwitch" : "") +
                                                ", efficiency " + format::percent(p.efficiency)
                                          : "no synchronisation")});
            add("waiting for the slowest GPU", without([](ModelConstants& c) { c.stragglerFraction = 0; }, s),
                "each step ends when the last of the " + std::to_string(q.gpus) + " GPUs finishes: " +
                    format::percent(constants_.stragglerFraction, 2) +
                    " of the step per doubling of GPUs (fitted), whatever the GPU, batch or link");
        }
    } else {
        if (q.metric == Metric::LlmDecode) {
            add("bytes in flight per SM",
                without([](ModelConstants& c) { c.decodeBytesPerSmClock = 0; }, s),
                "a batch-1 matrix-vector kernel (llama.cpp's, 2024) keeps only so many bytes in flight per SM, so the "
                "SMs draw at most " +
                    format::number(constants_.decodeBytesPerSmClock, 1) + " bytes per SM per clock (fitted): " +
                    format::number(constants_.decodeBytesPerSmClock * s.smClockGhz, 0) + " GB/s here, against " +
                    format::number(s.bandwidthGbs * constants_.decodeBandwidthEfficiency, 0) +
                    " GB/s the memory streams (Little's law)");
            add("reading the KV cache", without([](ModelConstants& c) { c.decodeCacheReadShare = 1.0; }, s),
                "the decode kernel reads this " + std::string(toString(q.llmKvCache)) + " cache at " +
                    format::percent(cacheReadShare(q.llmKvCache, constants_), 0) +
                    " of the rate the weights stream at: its work on each cached value (dot products, softmax, "
                    "dequantisation) takes as long as reading " +
                    format::number(decodeCacheWorkBytes(constants_), 2) +
                    " bytes more, whatever the cache's type (an f16 cache at " +
                    format::percent(constants_.decodeCacheReadShare, 0) +
                    ", measured on llama.cpp runs at depth 0 and 32K, not fitted)");
            p.notes.push_back(decodeBytesNote(q));
            if (auto note = deepCacheDecodeNote(cachedTokens(q), q.llmKvCache, constants_)) {
                p.notes.push_back(std::move(*note));
            }
            if (q.llmSequences > 1) {
                PerfQuery alone = q;
                alone.llmSequences = 1;
                add(std::to_string(q.llmSequences) + " sequences at once", modelThroughput(s, g, alone, constants_),
                    sequencesDetail(q));
            }
        }
        if (q.metric == Metric::LlmPrefill) {
            const double withoutAttention = without([](ModelConstants& c) { c.prefillAttention = false; }, s);
            add("attention over the prompt", withoutAttention,
                format::number(prefillAttentionFlops(q) / 1e9, 2) + " GFLOP per token beside the weights' " +
                    format::number(2.0 * activeParamsBillion(q), 1) + " for a " +
                    format::number(q.llmContextTokens, 0) + "-token prompt" +
                    (q.llmDepthTokens > 0 ? " after " + format::number(q.llmDepthTokens, 0) + " tokens in the cache"
                                          : "") +
                    " (it grows with the context), " +
                    (s.tensorCores ? std::string("on the FP16 tensor cores with FP32 sums") +
                                         (s.fp16AccumulateHalfRate ? ": this GeForce card's half rate" : "")
                                   : std::string("at this card's 16-bit training rate (no tensor cores)")));
            // Attention's share of the prompt's time: the rest is what the prompt takes without it.
            if (auto note = attentionAtDepthNote(1.0 - p.throughput / withoutAttention,
                                                 prefillAttentionTflops(s, q.llmWeights, constants_))) {
                p.notes.push_back(std::move(*note));
            }
        }
        if (q.metric == Metric::LlmPrefill && p.memoryShare > 0) {
            add("weights read per micro-batch", without([](ModelConstants& c) { c.prefillWeightReads = false; }, s),
                prefillReadsFactorDetail(s, g, q, constants_));
        }
        if (const double tile = quantizedTileTokens(s.tensorCores);
            q.metric == Metric::LlmPrefill && routedTilePadding(q, prefillTokensPerStep(q), tile) > 1.0) {
            add("routed experts' matmul tiles", without([](ModelConstants& c) { c.prefillExpertTiles = false; }, s),
                routedTilesDetail(q, tile));
        }
        if (q.metric == Metric::LlmPrefill && s.denseMatmulClock < 1.0) {
            EffectiveSpecs full = s;
            full.denseMatmulClock = 1.0;
            add("board power", without([](ModelConstants&) {}, full), s.denseMatmulClockDetail);
        }
        if (quantizedPrefill && s.tensorCores && g.vendor == "NVIDIA" && g.tensor.int8) {
            p.notes.push_back(int8PromptSoftwareNote());
        }
        if (activeParamsBillion(q) < q.llmParamsBillion) {
            p.notes.push_back(mixtureOfExpertsNote(q));
        }
        if (q.gpus > 1) {
            if (q.metric == Metric::LlmDecode) {
                add("handing each token between GPUs",
                    without([](ModelConstants& c) { c.decodeHopMs = 0; }, s),
                    format::number(constants_.decodeHopMs, 2) + " ms per token at each of the " +
                        std::to_string(q.gpus - 1) +
                        " boundaries between cards, whatever the GPU or link (measured: llama.cpp, LLaMA 3 8B on "
                        "2-8 RTX 3090s and 4090s, May 2024)");
            }
            p.notes.push_back(layerSplitNote());
        }
        if (offloads(g, q)) {
            const double ifFits = modelThroughput(s, g, allOnGpus(q), constants_);
            add(p.offload->expertsInRam ? "routed experts in system RAM" : "layers in system RAM", ifFits,
                q.metric == Metric::LlmPrefill ? prefillOffloadDetail(g, q, prefillOffload(g, q, ifFits))
                                               : offloadDetail(*p.offload, q));
            if (p.offload->overCapacity) {
                p.notes.push_back(overCapacityNote(*p.offload));
            }
        } else if (!llmFits(g, q)) {
            PerfQuery offloaded = q;
            offloaded.systemRamGbs = kDefaultSystemRamGbs;
            const bool ramBeside = !g.isCompleteSystem(); // a complete computer's memory is all it has
            p.notes.push_back(doesNotFitNote(
                g, q, ramBeside ? std::optional(modelThroughput(s, g, offloaded, constants_)) : std::nullopt));
            if (q.metric == Metric::LlmPrefill && ramBeside) {
                p.notes.push_back(prefillOffloadNote(g, q, prefillOffload(g, q, p.throughput)));
            }
        }
        if (auto note = promptPlacementNote(g, q)) {
            p.notes.push_back(*note);
        }
    }
    return p;
}

} // namespace advisor::perf
