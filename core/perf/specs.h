#pragma once
/// \file
/// The roofs the model works with, derived once per GPU from its catalog entry. Where a
/// figure is not published, a documented substitute is used and noted - a GPU without
/// tensor cores gets its honest (CUDA-core) figure, never an error.

#include "catalog/gpu.h"
#include "perf/constants.h"

#include <string>
#include <vector>

namespace advisor {
class Catalog;
}

namespace advisor::perf {

struct EffectiveSpecs {
    std::string gpuId;
    double fp16TrainTflops = 0;  ///< FP16 matmul with FP32 accumulate (mixed-precision training)
    double fp16InferTflops = 0;  ///< best 16-bit rate for inference (FP16 accumulate allowed)
    double fp32TrainTflops = 0;  ///< TF32 tensor rate, or FP32 CUDA cores / no-tensor-core penalty
    double eightBitTflops = 0;   ///< FP8 (Ada/Hopper+), INT8 x practical efficiency, dp4a, else 16-bit
    double fourBitTflops = 0;    ///< FP4 tensor rate (Blackwell, MI350); 0 where the card has none
    double vectorTflops = 0;     ///< FP32 on the CUDA cores (non-matmul work)
    /// INT8 dot products on the CUDA cores (dp4a: 4 multiply-adds per lane per clock, so 4x the
    /// FP32 rate; a Tesla P40's 11.76 TFLOPS FP32 is its datasheet's 47 TOPS INT8). Set only for
    /// GPUs without tensor cores that have the instruction (compute capability 6.1 on: not GP100);
    /// 0 elsewhere. llama.cpp's quantized matmuls and TensorRT's INT8 run on it there.
    double dp4aTops = 0;
    /// SM count x boost clock in GHz (compute units for AMD and Intel), derived from the FP32 rate
    /// and the FP32 lanes per SM: the rate at which latency-bound work retires (ModelConstants::
    /// latencyBoundOverheadFraction). V100 SXM2: 15.7 TFLOPS / (2 x 64 lanes) = 122.7.
    double smClockGhz = 0;
    bool tensorCores = false;
    bool fp8 = false;
    bool tf32 = false;
    bool fp16AccumulateHalfRate = false; ///< GeForce: FP32-accumulate runs at half the FP16-accumulate rate
    double bandwidthGbs = 0;
    double l2Mb = 0;
    bool asyncCopy = false;
    bool tma = false;
    bool warpgroupMma = false; ///< Gpu::warpgroupMma
    bool sparsity24 = false; ///< sparse tensor cores for 2:4 structured sparsity (Ampere and later)
    /// Clock the chip sustains under load, relative to the boost clock its published rates
    /// assume: below 1 when the board's power per SM is less than that of the best-fed card
    /// with the same chip (seed power law: clock ~ power^(1/3)). Scales all GPU-side time.
    double sustainedClock = 1.0;
    std::string sustainedClockDetail; ///< how it was derived, in words (empty when 1)
    /// The same for a chain of large dense matmuls (LLM prompt processing), whose power grows
    /// with clock by ModelConstants::prefillPowerClockExponent.
    double denseMatmulClock = 1.0;
    std::string denseMatmulClockDetail; ///< in words (empty when 1)
    /// Board power per SM against the chip's best-fed shipped card (1: it is that card, or has no
    /// peer), and that card's name: how far below its chip's top this card is sold.
    double chipPowerPerSmRatio = 1.0;
    std::string chipTopName;
    std::string chipTopScope;       ///< what the two share: "the same AD102", "the same SMs (GB205)"
    std::vector<std::string> notes; ///< every substitute used, in words
    bool estimated = false;         ///< at least one roof is a substitute, not a published figure
};

/// Derives the roofs. `peers` (optional) lets a GPU with unpublished tensor figures borrow
/// the tensor/FP32 ratio of a published GPU with the same chip (e.g. H200 NVL from H200 SXM).
EffectiveSpecs deriveSpecs(const Gpu& g, const ModelConstants& c, const Catalog* peers = nullptr);

} // namespace advisor::perf
