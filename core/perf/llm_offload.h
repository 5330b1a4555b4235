#pragma once
/// \file
/// Token generation with part of an LLM left in system RAM, as llama.cpp runs a model larger
/// than its GPUs: the layers that do not fit (-ngl), or a mixture of experts' routed experts
/// (--n-cpu-moe), stay in RAM and the CPU runs them. Each token then reads the GPUs' share at
/// their speed and the rest at the RAM's, which is many times slower: a 70B model at 4 bits on
/// one 24 GB card reads about half of its 42 GB from RAM. A prompt instead runs on the GPU, the
/// weights in RAM copied there for each step (prefillOffload).

#include "catalog/gpu.h"
#include "perf/model.h"
#include "perf/offload_split.h"

#include <optional>
#include <string>
#include <string_view>

namespace advisor::perf {

/// Of each GPU's memory, what llama.cpp cannot give to weights and KV cache: the CUDA context,
/// kernels and compute buffers, typically 0.5-1 GB (the memory calculator's reserve too).
inline constexpr double kGpuRuntimeReserveGb = 1.0;

/// The RAM a note assumes when none is given: dual-channel DDR5-5600, 2 x 8 bytes x 5,600 MT/s,
/// a 2024-26 desktop's.
inline constexpr double kDefaultSystemRamGbs = 89.6;
inline constexpr const char* kDefaultSystemRamLabel = "dual-channel DDR5-5600";

/// Fitted (eval/offload_fit.h) on llama.cpp runs that left layers or experts in RAM
/// (resources/benchmarks/llamacpp-partial-offload-2026.csv): the share of the RAM's nominal
/// bandwidth the CPU draws reading its layers, and a fixed time for each layer it runs, per
/// token (its threads meet at every matrix product; the token's state crosses to the GPU and back).
inline constexpr double kRamReadEfficiency = 0.53;
inline constexpr double kCpuLayerMs = 0.40;

/// The most GB/s a --system-ram may give: twelve channels of DDR5-8800 are 845.
inline constexpr double kMaxSystemRamGbs = 2000.0;

/// A system's RAM: its nominal bandwidth and how it was described.
struct SystemRam {
    double gbPerSecond = 0;
    std::string label; ///< "dual-channel DDR5-5600", "89.6 GB/s"
};

/// "ddr5-5600" (two channels: a desktop's), "ddr4-3200x4" (four channels), or GB/s ("89.6").
/// nullopt, with `problem` saying what is wrong, for anything else.
std::optional<SystemRam> parseSystemRam(std::string_view text, std::string* problem);

/// A Llama-like model's width and layers for its size: P ~ 12 x layers x hidden^2 with
/// layers = hidden / 128, width rounded to 128 (7B: 4,224 wide, 33 layers; 8B: 4,352 and 34; 70B:
/// 9,088 and 71, where Llama 2 7B has 4,096 and 32 and 70B, with its wider MLP, 8,192 and 80).
double llamaLikeHidden(double paramsBillion);
int llamaLikeLayers(double paramsBillion);

/// The model's layers: a published model's own (PerfQuery::llmLayers), else a Llama-like model's
/// for its active size (what -ngl counts).
int llmLayersOf(const PerfQuery& q);

/// Whether q leaves part of the model in system RAM on q.gpus of g: RAM is given
/// (PerfQuery::systemRamGbs) and the model does not fit, or a placement (-ngl, --n-cpu-moe) is.
/// Token generation and prompt processing; a complete computer's prompt never (its GPU reads the
/// same memory, so no copy).
bool offloads(const Gpu& g, const PerfQuery& q);

/// Where llama.cpp would put the model: a mixture of experts whose routing is known keeps
/// everything but the routed experts of as few layers as possible on the GPUs; any other keeps
/// as many whole layers as fit, and the output head stays on the CPU. q.llmGpuLayers and
/// q.llmCpuMoeLayers, when set, say where instead.
OffloadSplit planOffload(const Gpu& g, const PerfQuery& q);

/// The share of the layers, and so of their KV cache, on the GPUs: all of them when only a
/// mixture of experts' routed experts stay in RAM.
double gpuLayerShare(const OffloadSplit& split);

/// The CPU's time per step for a split at `ramGbs`: its reads at kRamReadEfficiency of the RAM's
/// bandwidth and kCpuLayerMs for each layer it runs.
double cpuSecondsPerStep(const OffloadSplit& split, double ramGbs);
/// The same with other constants (what the fit tries).
double cpuSecondsPerStep(const OffloadSplit& split, double ramGbs, double ramReadEfficiency, double cpuLayerMs);

/// "21.5 of 42.6 GB stay in system RAM: 39 of 80 layers on the GPU (llama.cpp -ngl 39)" or, for a
/// mixture of experts, "... the routed experts of 20 of 48 layers (--n-cpu-moe 20)".
std::string offloadPlacement(const OffloadSplit& split);

/// q with everything on the GPUs: no system RAM, no placement (the speed as if the model fitted).
PerfQuery allOnGpus(PerfQuery q);

/// The explanation of a split: what stays in RAM, where (offloadPlacement), and what the CPU
/// reads per token at q's RAM and the layers it runs.
std::string offloadDetail(const OffloadSplit& split, const PerfQuery& q);

/// A placement puts more on the GPUs than they hold: llama.cpp would fail to load it.
std::string overCapacityNote(const OffloadSplit& split);

/// A prompt on a complete computer (DGX Spark, Strix Halo) given a placement (-ngl, --n-cpu-moe): its
/// figure keeps every layer on the GPU (offloads() is false) and this says so; nullopt otherwise.
std::optional<std::string> promptPlacementNote(const Gpu& g, const PerfQuery& q);

/// The model does not fit q.gpus of g: how much it needs against what they hold, that the speed
/// shown assumes it fits, and, for token generation, the speed with the rest in
/// kDefaultSystemRamLabel RAM (`offloadedTokensPerSecond`) and how to give one's own.
std::string doesNotFitNote(const Gpu& g, const PerfQuery& q, std::optional<double> offloadedTokensPerSecond);

/// The share of PCIe's nominal rate that llama.cpp's copies of weights from system RAM to the GPU
/// get: fitted (the median) on an RTX 3090's prompts with gpt-oss-120b's experts of 25-28 layers in
/// RAM at micro-batches of 256 to 8,192 (0.71-0.93 each beside the GPU's own time with its experts'
/// tiles, round 61; 0.73 before them; docs/performance-model.md).
inline constexpr double kPcieCopyEfficiency = 0.86;

/// Prompt processing with part of the model in system RAM: llama.cpp runs every step of 32 tokens
/// or more on the GPU (PR #6083), copying there the weights left in RAM (planOffload's, as token
/// generation leaves them) that the step uses: all of a layer's, and of a mixture of experts'
/// routed experts those its tokens pick (PR #15346, promptExpertsPickedShare). The copy runs over
/// PCIe at kPcieCopyEfficiency of the link's nominal rate, or the RAM's read rate if lower, and
/// adds to the GPU's own time (`tokensIfFits`).
struct PrefillOffload {
    OffloadSplit split;
    double expertsPickedShare = 1;  ///< of the routed experts in RAM, the share a step copies
    double copiedBytesPerStep = 0;  ///< what each micro-batch copies to the GPU
    double pcieGbs = 0;             ///< the link's nominal rate, one way
    double copyGbs = 0;             ///< the copy's rate: the link's at kPcieCopyEfficiency, or the RAM's
    bool ramBindsCopy = false;      ///< the RAM, not the link, sets copyGbs
    double copySecondsPerToken = 0; ///< the copies' time, shared by the prompt's tokens
    double tokensPerSecond = 0;
};
PrefillOffload prefillOffload(const Gpu& g, const PerfQuery& q, double tokensIfFits);

/// What a PrefillOffload copies, in words: "each step of up to 512 prompt tokens, llama.cpp copies
/// the 28.9 GB of them its tokens use (65% of the routed experts: ...) to the GPU over PCIe 4.0 x16
/// at about 23.3 GB/s (...)".
std::string prefillCopyDetail(const Gpu& g, const PerfQuery& q, const PrefillOffload& o);

/// The explanation of an offloaded prompt: where the model sits (offloadPlacement) and
/// prefillCopyDetail.
std::string prefillOffloadDetail(const Gpu& g, const PerfQuery& q, const PrefillOffload& o);

/// For a prompt of a model that does not fit g, when no RAM was given: how llama.cpp copies the
/// rest per step (prefillCopyDetail, with kDefaultSystemRamLabel RAM) and how to give one's own.
std::string prefillOffloadNote(const Gpu& g, const PerfQuery& q, const PrefillOffload& o);

} // namespace advisor::perf
