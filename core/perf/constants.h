#pragma once
/// \file
/// Every constant of the performance model in one place, each with the seed fact or
/// fit it comes from. Fitted values live in resources/perf/calibration.json (written by
/// `gpu-advisor calibrate`) with their provenance; the defaults here are the seed priors.

#include "perf/workload.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace advisor::perf {

/// Where a class's time goes on the reference GPU (V100 SXM2, fp16 training, typical
/// batch): tensor-core matmuls, memory traffic, work on the CUDA cores (the seed's
/// "operations needed to prepare the matrix multiplication like img2col", normalisation,
/// activations, optimizer), and overhead: host time (launches, CPU) and latency-bound work
/// (ModelConstants::latencyBoundOverheadFraction). They add up to 1.
struct TimeShares {
    double compute = 0.15;
    double memory = 0.55;
    double vector = 0.1;
    double overhead = 0.2;
    /// Host time per training step (CPU launches of many small sequential kernels), in the same
    /// units at the typical batch but divided by the batch multiplier: a step costs it whatever its
    /// batch and GPU. Not part of the sum of 1. Fitted for recurrent networks only, which launch
    /// kernels per time step (Lambda 2022-23, not fitted: tacotron2 on an A100 80GB SXM4 at batch
    /// 256 ran 1.57x the A100 40GB PCIe at batch 144; the cards and +13% per doubling give 1.37x).
    double hostStep = 0;
};

/// A named benchmark workload's own profile, fitted on the calibration data: where its time
/// goes, how strongly its throughput follows the batch size, and how much of its matmul work
/// mixed precision left in FP32. Networks of one class differ (tacotron2's recurrent decoder is
/// latency-bound; Lambda's 2020-21 TransformerXL runs gain as little from fp16 as from TF32), and
/// a query naming the workload uses these instead of its class's shares and the seed's batch gain.
struct WorkloadProfile {
    WorkloadClass workloadClass = WorkloadClass::Transformer;
    TimeShares shares;
    double batchGainPerDoubling = 0.136;
    /// Share of the matmul FLOPs of a mixed-precision (fp16) training step that ran in FP32: on
    /// TF32 tensor cores where the GPU has them (PyTorch's default on Ampere until 1.12), else on
    /// the CUDA cores. Lambda 2020-21 on a V100: TransformerXL trained only 1.6x faster in fp16
    /// than in fp32, BERT 3.5x. It is a property of the software that ran the benchmark, not of
    /// the network (Lambda's 2022-23 re-run ranks the GPUs on TransformerXL as on BERT), so it
    /// applies only to queries for rows of the same source (PerfQuery::benchmarkSource): a new
    /// measurement, or any prediction in the app, runs every matmul in fp16 as autocast does.
    /// A proxy rather than a confirmed mechanism: Lambda's TransformerXL logs show apex O2 (an
    /// fp16 model) on the old and the new software stack alike (docs/performance-model.md).
    /// One share per benchmark source the network's mixed-precision rows came from.
    std::map<std::string, double> fp32MatmulShares;
    /// The per-GPU batch the profile's fitted times are at, by training metric ("fp16-training",
    /// "fp32-training"): the geometric mean of the calibration's single-GPU batches, the batch
    /// multiplier's 1 there (Lambda 2020-21's ResNet-50 in fp16: about 426 images). `eval-model`
    /// takes a row of this network relative to it, so a file run at 64 images per GPU is predicted
    /// at a sixth of the typical batch rather than at its own reference row's; empty in files
    /// written before it (the reference row's batch is then taken as typical).
    std::map<std::string, double> typicalPerGpuBatch;

    /// The share fitted on `source`'s rows; 0 for any other source and for app predictions.
    double fp32MatmulShareFor(const std::string& source) const;
    /// The typical per-GPU batch for a metric, if the calibration knew one.
    std::optional<double> typicalPerGpuBatchFor(Metric m) const;
};

/// LLaMA 3 8B's parameters in billions (model card): the one model size of the llama.cpp
/// calibration rows.
constexpr double kLlama3_8bParamsBillion = 8.03;

struct ModelConstants {
    // --- single GPU ---------------------------------------------------------------------
    std::array<TimeShares, 4> shares{}; ///< by WorkloadClass (fitted)
    /// Seed, tensor-core section: a 32x32 matmul costs 504 cycles without tensor cores and
    /// 235 with them; CUDA-core matmuls reach only 235/504 of the FFMA peak.
    double noTensorCorePenalty = 504.0 / 235.0;
    /// Seed, async copy/TMA section: overlapping global->shared copies speeds matmul ~15%.
    double asyncCopyGain = 0.15;
    /// Seed: TMA's index computation "is particularly important for 8-bit" (twice the
    /// elements per byte). Assumed another 15% for 8-bit on TMA GPUs (not measured).
    double tmaEightBitGain = 0.15;
    /// Seed, L2 section: on Ada (72 MB L2) BERT-large matmuls fit in L2, 1.5-2.0x faster.
    /// Applied to the memory term, ramping on a log scale from l2NoBenefitMb to l2FullBenefitMb.
    double l2CacheGain = 0.5;
    double l2NoBenefitMb = 6.0;
    double l2FullBenefitMb = 72.0;
    /// fp32 (TF32) training moves more bytes than mixed precision; AMP keeps weights,
    /// gradients and optimizer state in fp32 and only activations in fp16 -> ~1.5x.
    double fp32BytesMultiplier = 1.5;
    /// Seed: doubling the batch size raises throughput by 13.6% (CNNs; 13.5% transformers).
    double batchGainPerDoubling = 0.136;
    /// Inference is forward-only at larger batches with fused elementwise work and no
    /// optimizer, so CUDA-core work and GPU-independent costs are a smaller share than in
    /// training. Solved by the fitter from the seed's "RTX 4090 ~ 0.33x H100 SXM for 8-bit
    /// inference" (there are no inference benchmarks to fit).
    double inferenceOverheadFactor = 0.125;
    /// Inference's memory time relative to training's, per unit of matmul work. Training
    /// in PyTorch runs batch norm, activations and residual adds as kernels of their own, each
    /// reading and writing the activations, and reads them all again backwards: about 18 passes
    /// over the activations for 3 passes' worth of FLOPs (forward and two backward). Inference
    /// fuses them into the matmuls and keeps nothing for a backward pass: about 2 passes for
    /// one pass of FLOPs, (2 / 18) / (1 / 3) = 1/3. Not fitted (no inference benchmarks); MLPerf
    /// Inference v3.0 checks it (docs/performance-model-experiments.md, round 14).
    double inferenceMemoryFactor = 1.0 / 3.0;
    /// Part of each class's overhead share that is latency-bound work on the GPU (kernel
    /// prologues and tails, small kernels that cannot fill the SMs, synchronisation: a number of
    /// cycles on every SM) rather than host time: it runs at SM count x clock
    /// (EffectiveSpecs::smClockGhz). Seed: latencies are counted in cycles (global memory ~380,
    /// shared memory ~34). Not fitted: the in-sample fit cannot tell it from the GPU-independent
    /// part, so it was chosen on leave-one-architecture-out error (0 to 1 tried; 0.2-0.25 best;
    /// docs/performance-model-experiments.md, round 9).
    double latencyBoundOverheadFraction = 0.25;
    /// Seed: "For old GPUs, Int8 inference performance is close to the 16-bit inference
    /// performance" -> INT8 tensor peak (2x FP16) counts half without FP8 support.
    double int8EfficiencyWithoutFp8 = 0.5;
    /// Mixed-precision training on a GPU without tensor cores runs as fp32 training (see
    /// perf::metricRunOn); false restores "fp16 saves memory traffic" (for comparison only).
    bool fp16WithoutTensorCoresAsFp32 = true;

    /// Fitted profiles of the calibration workloads, by name ("resnet50", "tacotron2", ...).
    std::map<std::string, WorkloadProfile> workloadProfiles;

    // --- multi GPU (data parallel training) --------------------------------------------
    /// All-reduce cost per class: gradient bytes per sample relative to reference compute (fitted).
    std::array<double, 4> allReduceCost{0.004, 0.004, 0.008, 0.006};
    /// Per-step synchronisation cost per doubling of GPUs, relative to a reference step (fitted).
    double syncLatency = 0.013;
    /// Per-step wait for the slowest GPU per doubling of GPUs, as a share of the GPU's own step
    /// (fitted): synchronous data parallelism steps at the pace of the last GPU to finish, and
    /// the spread between GPUs scales with the step, not with a fixed time. 0 (files written
    /// before the term) leaves all synchronisation a fixed time per step.
    double stragglerFraction = 0.0;
    /// Seed: 8x A100 (NVLink 3 + NVSwitch) has 5% (CNN) / 7% (transformer) less overhead than
    /// 8x V100 (NVLink 2, hybrid cube-mesh without NVSwitch). Modelled as extra overhead for
    /// SXM2 systems above 4 GPUs, solved from the seed by the fitter.
    std::array<double, 4> cubeMeshOverhead{0.05, 0.07, 0.05, 0.05};

    // --- LLM inference (llama.cpp-style, batch 1 decode, layer split) -----------------
    double decodeBandwidthEfficiency = 0.85; ///< achieved / peak memory bandwidth (fitted)
    double decodeOverheadMs = 1.0;           ///< per-token fixed cost, milliseconds (fitted)
    /// Bytes a batch-1 decode kernel draws per SM per clock at most (decodeBandwidthGbs;
    /// fitted; 0 = no cap, as in files written before the term).
    double decodeBytesPerSmClock = 0.0;
    /// Time per generated token for each boundary between the GPUs of a layer split, in
    /// milliseconds: llama.cpp runs each card's layers as a graph of its own, then copies the
    /// token's activations (a few kB) to the next card and waits for them, a fixed latency
    /// whatever the GPU. Measured, not fitted by `calibrate` (the calibration rows are single
    /// GPUs): XiongjieDai's May 2024 llama-bench table, LLaMA 3 8B tg512 on 2-8 RTX 3090s and
    /// RTX 4090s, lost 0.05-0.41 ms per token for each card added, 0.18 ms in the median (RTX
    /// 3090, Q4_K_M: 115.4 tokens/s on one card, 104.2 on six). Files written before the term: 0.
    double decodeHopMs = 0.18;
    /// The rate a generated token's attention reads an f16 KV cache at, as a share of the rate the
    /// weights stream at: the flash-decode kernel works through the cache in small tiles with dot
    /// products, a softmax and reductions per position, where the weights' matrix-vector products
    /// stream large rows. Measured, not fitted by `calibrate` (its tg rows hold a few hundred
    /// cached tokens): six same-build llama.cpp pairs at depth 0 and 32K (a DGX Spark on five
    /// models, an RTX 4090 on Qwen3.5 27B) fell as if the cache streamed at 0.52-0.77 of the
    /// weights' rate (performance-model-experiments.md, round 53, where 0.65 was written down with
    /// its predictions). The work beyond the bytes is taken to be the same per cached value for
    /// every cache type (decodeCacheWorkBytes), which gives a q8_0 cache 0.50 and a q4_0 cache 0.34:
    /// two server runs of those types, not used to set it, fell so (rounds 54 and 56). Files
    /// written before the term: 1 (the weights' rate).
    double decodeCacheReadShare = 0.65;
    /// Prompt processing: [0] 16-bit weights, [1] quantized weights (dequantised on the fly).
    std::array<double, 2> prefillComputeEfficiency{0.6, 0.55}; ///< achieved / peak FP16 tensor (fitted)
    /// Time per token outside the tensor-core matmuls (dequantisation, norms, attention), in
    /// microseconds per billion parameters: it grows with the model (fitted, GPU-independent).
    /// llama.cpp's pp512 took 8.0x as long per token on LLaMA 3 70B as on 8B on an A100 80GB
    /// PCIe (8.8x the parameters); a fixed time per token would make that ratio 5.9.
    std::array<double, 2> prefillOverheadUsPerBillionParams{3.0, 6.0};
    /// Exponent of power in clock for a chain of large dense matmuls (power ~ clock^e). They
    /// draw the most power per clock, so a card short of power per SM runs them low on its
    /// voltage/frequency curve, where the voltage sits at its floor and power ~ f x Vmin^2 grows
    /// only linearly with clock: e = 1, not the seed's 3 (kPowerClockExponent), which holds
    /// near the top of the curve and for training. Measured: llama.cpp prompt processing
    /// delivers about the same TFLOPS per board watt across the cards of one architecture
    /// (XiongjieDai, May 2024: RTX 4090 0.33, RTX 6000 Ada 0.36, RTX 4000 Ada 0.38 at 450, 300
    /// and 130 W); the RTX 6000 Ada, with 1.1x the RTX 4090's tensor roof on two thirds of its
    /// power, ran prompts at 0.71x its speed. Files written before the term: 3.
    double prefillPowerClockExponent = 1.0;
    /// Prompt processing counts attention's FLOPs (PerfQuery::llmPrefillAttentionFlops); false
    /// leaves them out (for the explanation's factor only, not stored).
    bool prefillAttention = true;
    /// Prompt processing waits for each micro-batch's weight reads where they take longer than
    /// its multiplies (prefillWeightTime); false: multiplies only (for the
    /// explanation's factor only, not stored).
    bool prefillWeightReads = true;
    /// Prompt processing pads each routed expert's tokens to whole matmul tiles (routedTilePadding);
    /// false: no padding (for the explanation's factor only, not stored).
    bool prefillExpertTiles = true;

    // --- reference GPU the time shares are normalised to (V100 SXM2, fp16 training) ----
    double referenceComputeTflops = 125.0;  ///< its FP16 tensor rate (FP32 accumulate)
    double referenceVectorTflops = 15.7;    ///< its FP32 CUDA-core rate
    double referenceBandwidthGbs = 900.0;   ///< its effective memory bandwidth (no async, 6 MB L2)
    double referenceSmClockGhz = 15.7 * 1000.0 / 128.0; ///< its 80 SMs x 1.53 GHz, from FP32 rate / (2 x 64 lanes)

    std::string provenance = "seed priors (not fitted)";

    const TimeShares& sharesFor(WorkloadClass w) const { return shares[static_cast<size_t>(w)]; }
    /// The named workload's fitted profile, or nullptr (unknown or empty name: use the class).
    const WorkloadProfile* profileFor(const std::string& workloadName) const;
    /// The per-GPU batch a profile's training was fitted at (WorkloadProfile::typicalPerGpuBatch),
    /// if the profile exists and knows one for the metric.
    std::optional<double> typicalPerGpuBatch(const std::string& workloadName, Metric m) const;

    ModelConstants();
    nlohmann::json toJson() const;
    /// Reads constants written by toJson(); throws InputError naming the field when invalid.
    static ModelConstants fromJson(const nlohmann::json& j, const std::string& fileLabel);
    /// Reads a calibration file written by `gpu-advisor calibrate --out` (its "constants");
    /// throws InputError naming the file and field when it is not one.
    static ModelConstants fromCalibrationText(std::string_view text, const std::string& fileLabel);
    /// The calibration shipped in resources/perf/calibration.json (or the priors if absent).
    static const ModelConstants& builtin();
};

} // namespace advisor::perf
