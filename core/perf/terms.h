#pragma once
/// \file
/// The named terms of the performance model. Each is a small pure function with the
/// seed fact it encodes, tested on its own (tests/core/perf_terms_test.cpp).

#include "catalog/gpu.h"
#include "perf/constants.h"
#include "perf/specs.h"
#include "perf/workload.h"

namespace advisor::perf {

/// Tensor/compute roof (TFLOPS) a metric runs at: FP16 with FP32 accumulate for training
/// (GeForce: half rate), FP16 accumulate allowed for inference, TF32 for 32-bit training,
/// FP8/INT8 for 8-bit inference.
double computeRoofTflops(const EffectiveSpecs& s, Metric m);

/// INT8 matmul rate (TOPS) of a GPU whose 8-bit work runs on dp4a (EffectiveSpecs::dp4aTops):
/// the dot-product rate with the seed's CUDA-core matmul penalty (504 vs 235 cycles), the same
/// penalty its FP32 matmuls get. 0 without dp4a. A Tesla P40: 47 / 2.14 = 21.9 TOPS, 4x its
/// FP32 matmul figure.
double integerMatmulTflops(const EffectiveSpecs& s, const ModelConstants& c);

/// The rate LLM prompt processing multiplies at (before its fitted efficiency): the 16-bit
/// inference roof, or for quantized weights on a GPU without tensor cores the dp4a rate when
/// higher (llama.cpp's quantized matmuls take 8-bit activations there: MMQ).
double prefillMatmulTflops(const EffectiveSpecs& s, Precision weights, const ModelConstants& c);

/// A large dense matrix multiply's TFLOPS in the precision a metric runs in: the roof at the
/// clock chained dense matmuls sustain on a card short of power (prompt processing's clock).
/// Measured GEMMs check it on its own (eval-model, workload class gemm).
double denseMatmulTflops(const EffectiveSpecs& s, Metric runs);

/// Time of a workload's matmul FLOPs relative to running them on the reference GPU's tensor
/// cores (referenceComputeTflops / roof). In mixed-precision training a share `fp32MatmulShare`
/// of those FLOPs stays in FP32 and runs at the FP32 training roof instead: TF32 tensor cores on
/// Ampere and later, CUDA cores before (a V100 does them 17x slower than its fp16 matmuls, an
/// A100 2x). Other metrics, or a share of 0: the metric's own roof.
double matmulTimeFactor(const EffectiveSpecs& s, Metric m, double fp32MatmulShare, const ModelConstants& c);

/// Seed ("Sparse Network Training"): with 2 of every 4 weights zero, Ampere's and later tensor
/// cores compress the weights to half and multiply twice the usual size per step: 2x on the
/// matmuls.
constexpr double kSparseMatmulSpeedup = 2.0;

/// Whether 2:4 structured-sparse weights speed up a metric's matmuls on this GPU: only where
/// the hardware has sparse tensor cores and the metric runs on tensor cores (TF32 for 32-bit
/// training; a V100's FP32 matmuls on CUDA cores do not qualify).
bool sparseMatmulsApply(const EffectiveSpecs& s, Metric runs);

/// L2-cache term: larger L2 allows larger tiles and fewer DRAM trips. 1 at or below
/// l2NoBenefitMb, 1 + l2CacheGain at or above l2FullBenefitMb, log-linear between.
double l2CacheFactor(double l2Mb, const ModelConstants& c);

/// Asynchronous global->shared copies (Ampere+; TMA on Hopper+): +15% on memory-side work.
double asyncCopyFactor(const EffectiveSpecs& s, const ModelConstants& c);

/// TMA's hardware index computation helps 8-bit most: extra factor for 8-bit inference on TMA GPUs.
double tmaFactor(const EffectiveSpecs& s, Metric m, const ModelConstants& c);

/// Effective memory bandwidth (GB/s) a metric sees: peak x L2 x async x TMA.
double effectiveBandwidthGbs(const EffectiveSpecs& s, Metric m, const ModelConstants& c);

/// Memory bandwidth (GB/s) that batch-1 LLM token generation draws. Each matrix-vector kernel
/// streams the weights once, and every SM keeps only so many bytes in flight. Little's law then
/// caps what the SMs can pull at `decodeBytesPerSmClock` bytes per SM per clock, whatever the
/// memory could deliver. The result is peak x efficiency or that cap, whichever is lower (0 = no cap).
/// HBM cards with few SMs per TB/s hit the cap: an A100 80GB streams about 1,935 GB/s at peak,
/// yet ran llama.cpp f16 decode at about 880 GB/s, where an RTX 4090 reaches 90% of its peak.
double decodeBandwidthGbs(const EffectiveSpecs& s, const ModelConstants& c);

/// The decode kernel's work on one cached key or value beyond reading it, as the bytes the weights
/// would stream in that time: an f16 value's 2 bytes x (1 / decodeCacheReadShare - 1), 1.08 at
/// 0.65. The same for any cache type (the dot products and softmax do not shrink with the bytes,
/// and a quantized value adds its dequantisation), so a q8_0 cache reads at 0.50 of the weights'
/// rate and a q4_0 one at 0.34 (experiments, round 56).
double decodeCacheWorkBytes(const ModelConstants& c);

/// The share of the weights' rate a cache of type `t` is read at: its bytes per value over those
/// bytes and decodeCacheWorkBytes (f16: decodeCacheReadShare itself).
double cacheReadShare(KvCacheType t, const ModelConstants& c);

/// Bytes moved per sample relative to 16-bit training: fp32 x fp32BytesMultiplier, 8-bit x 0.5.
double bytesMultiplier(Metric m, const ModelConstants& c);

/// The metric a GPU really runs: mixed-precision (fp16) training needs tensor cores to pay off.
/// Without them autocast's fp16 matmuls run on the CUDA cores in FP32 anyway, and the casts and
/// loss scaling use up the memory saved (GTX 1080 Ti, Lambda 2020-21: fp16 1.2x its fp32 speed
/// where a V100 gains 2.1x), so fp16 training is modelled as fp32 training there.
Metric metricRunOn(const EffectiveSpecs& s, Metric m, const ModelConstants& c);

/// The exponent of power in clock: dynamic power ~ f x V^2 with V rising with f near the top of
/// the range, so power ~ clock^3. Seed check: an RTX 2080 Ti limited by 50 W (250 -> 200 W) is
/// about 7% slower in fully clock-bound work: (200/250)^(1/3) = 0.928.
constexpr double kPowerClockExponent = 3.0;

/// Clock (relative to the clock at full power) when a chip gets `powerRatio` of that power;
/// 1 at or above full power. `exponent` is that of power in clock (power ~ clock^exponent).
double clockAtPowerRatio(double powerRatio, double exponent = kPowerClockExponent);

/// Batch multipliers are clamped to [1/16, 16]: the seed's rule is not meant for extremes.
constexpr double kMinBatchMultiplier = 1.0 / 16.0;
constexpr double kMaxBatchMultiplier = 16.0;
constexpr double clampedBatchMultiplier(double m) {
    return m < kMinBatchMultiplier ? kMinBatchMultiplier : (m > kMaxBatchMultiplier ? kMaxBatchMultiplier : m);
}

/// Batch-size scaling: (1 + gain)^log2(multiplier), the seed's +13.6% per doubling.
double batchScaling(double batchMultiplier, const ModelConstants& c);
/// The same with a given gain per doubling (a workload profile's own).
double batchScaling(double batchMultiplier, double gainPerDoubling);

/// How GPUs talk to each other in a multi-GPU setup.
struct Interconnect {
    int pcieGen = 0;       ///< 0: the GPU's own PCIe generation
    int pcieLanes = 0;     ///< lanes per GPU; 0: 16 for 1-2 GPUs, 8 for more (the seed's x8 for 4 GPUs)
    bool nvlinkBridge = false; ///< PCIe cards joined by NVLink bridges (pairs only)
};

struct Link {
    double gbPerSecond = 0; ///< per direction, per GPU
    const char* kind = "";  ///< "NVLink (SXM)", "NVLink (superchip)", "NVLink bridge", "PCIe", ...
    int lanes = 16;
    int pcieGen = 3;
    bool cubeMesh = false;  ///< NVLink 2 hybrid cube-mesh (V100 SXM2) beyond 4 GPUs: no NVSwitch
};

/// PCIe's nominal rate each way, GB/s: 0.985 per lane on 3.0 (8 GT/s, 128b/130b), doubling with
/// each later generation and halving with each earlier one.
double pcieGbsPerDirection(int pcieGen, int lanes);

/// Per-GPU all-reduce bandwidth. SXM: NVLink (per direction = half the published total);
/// bridged PCIe cards: the bridge for 2 GPUs only; otherwise PCIe at 0.985 GB/s per lane (gen 3),
/// doubling per generation.
Link linkBandwidth(const Gpu& g, int gpus, const Interconnect& ic);

/// Data-parallel training efficiency (0..1] for n GPUs: all-reduce bytes over the link and a
/// per-step synchronisation cost, both relative to the per-GPU step time (a faster GPU or a
/// smaller per-GPU batch makes communication relatively dearer); the wait for the slowest GPU,
/// a share of the step itself (the same on every GPU and batch); plus the seed's extra overhead
/// of NVLink 2 cube-mesh systems beyond 4 GPUs.
double dataParallelEfficiency(double singleSpeedVsReference, int gpus, const Link& link, WorkloadClass w,
                              Metric m, double batchMultiplier, const ModelConstants& c);

/// Mixed GPU types in one data-parallel job run at the slowest GPU's pace (seed).
double mixedPacing(const double* singleSpeeds, int count);

} // namespace advisor::perf
