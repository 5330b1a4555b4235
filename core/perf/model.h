#pragma once
/// \file
/// The performance model: estimated throughput of any catalog GPU for the seed's chart
/// metrics (8/16/32-bit, inference or training), for transformer/CNN/RNN/recsys workloads,
/// on 1-8 GPUs, and LLM token generation and prompt processing in tokens/s.
///
/// Single GPU (sum of times, roofline-style): the time per sample is
///   share_compute * (reference TFLOPS / tensor compute roof)
/// + share_memory  * bytes multiplier * (reference GB/s / effective bandwidth)
/// + share_vector  * (reference FP32 TFLOPS / FP32 CUDA-core rate)   (non-matmul work)
/// + share_overhead (GPU-independent; smaller in inference)
/// with shares fitted per workload class (or per calibration network, or derived for a
/// language model of billions of parameters: perf/llm_training.h) and normalised to a V100 SXM2
/// (fp16 training).
/// Throughput = 1 / (time / batch scaling + host_step / batch multiplier), in units of one
/// V100 SXM2 training in fp16; host_step is the CPU time per step of recurrent networks.
/// Multi-GPU: n x single x data-parallel efficiency. Every prediction can explain itself.

#include "catalog/catalog.h"
#include "perf/constants.h"
#include "perf/offload_split.h"
#include "perf/specs.h"
#include "perf/terms.h"
#include "perf/workload.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace advisor::perf {

struct PerfQuery {
    Metric metric = Metric::Fp16Training;
    WorkloadClass workload = WorkloadClass::Transformer;
    int gpus = 1;
    Interconnect interconnect;
    double batchMultiplier = 1.0; ///< per-GPU batch relative to the workload's typical batch
    /// A calibration workload by name ("resnet50"): its fitted profile replaces the class's
    /// shares and batch gain. Empty or unknown: the class.
    std::string workloadName;
    /// The benchmark source of a measured row being predicted (eval-model, calibration): a
    /// software quirk fitted on that source (WorkloadProfile::fp32MatmulShares) applies only to it.
    std::string benchmarkSource;
    /// 2:4 structured-sparse weights (seed: up to 2x on the tensor-core matmuls, Ampere and
    /// later). Off by default: few trained networks are sparse. LLM metrics (llama.cpp-style)
    /// stay dense.
    bool sparsity24 = false;
    /// A transformer language model of this many parameters (billions) being trained (or run
    /// over whole sequences as 8/16-bit inference): its time follows from its size
    /// (llmTrainingProfile) instead of the class's shares or a named profile. 0: not one.
    double llmTrainingParamsBillion = 0;
    // LLM inference only
    double llmParamsBillion = 8.0; ///< the parameters held in GPU memory
    /// A mixture of experts: the parameters that work on each token (Mixtral 8x7B: 12.9 of 46.7),
    /// which token generation reads and prompt processing multiplies; 0: all of them (dense).
    double llmActiveParamsBillion = 0;
    Precision llmWeights = Precision::Int4;
    /// Bits per weight read, where a model's own release sets it (calc::ModelShape::
    /// int4BitsPerWeight); unset: llmBitsPerWeight(llmWeights, llmEngine), the engine's own files.
    std::optional<double> llmWeightBits;
    /// A mixture of experts whose file keeps the weights every token reads (attention, router,
    /// output head) apart from its routed experts: their bits per weight (gpt-oss in llama.cpp's
    /// file: Q8_0's 8.5 beside MXFP4 experts). The experts take what that leaves of llmWeightBits'
    /// total (weightParts). Unset, or the routing not known: every weight at llmWeightBits.
    std::optional<double> llmSharedWeightBits;
    /// Token generation: the tokens of context each generated token reads (a chat's length so far);
    /// prompt processing: the prompt's length.
    int llmContextTokens = 512;
    /// Tokens already in the KV cache before those (llama-bench's -d; a chat's earlier turns): a
    /// prompt's tokens attend to them as well, and a generated token reads them as well.
    int llmDepthTokens = 0;
    KvCacheType llmKvCache = KvCacheType::F16;
    /// Token generation: sequences generated together, each with its own context (a server's
    /// concurrent requests, llama-batched-bench's B). Throughput is their tokens together.
    int llmSequences = 1;
    /// Token generation: instead of llmSequences, as many sequences as the GPUs' memory holds
    /// beside the weights (perf/sequences_that_fit.h), each card its own count: a server's load.
    bool llmSequencesFillMemory = false;
    /// With llmSequencesFillMemory: of the sequences that fit, only as many as each still generate
    /// at least this many tokens/s (a server that promises each request a reading speed;
    /// perf/sequences_at_speed.h). Unset: all that fit.
    std::optional<double> llmMinSequenceSpeed;
    /// Prompt processing: the tokens one step multiplies together (llama.cpp's micro-batch, -ub;
    /// llama-bench's n_ubatch, default 512). Each step reads the weights its tokens use once: a
    /// mixture of experts' routed experts, all read for a few tokens each, can wait on memory.
    int llmMicroBatchTokens = kDefaultMicroBatchTokens;
    /// A mixture of experts' routed experts per layer and how many each token uses
    /// (calc::ModelShape::experts); 0: not known.
    int llmExperts = 0;
    int llmExpertsPerToken = 0;
    /// K and V elements one sequence caches at llmDepthTokens + llmContextTokens, from a published model's
    /// attention (calc::kvCacheValues: its KV heads, head width, sliding windows or latent KV).
    /// Unset: 64K elements per token for an 8B model, scaled by sqrt(size) (model.cpp).
    std::optional<double> llmKvCacheValues;
    /// What TensorRT-LLM reserves of them for each sequence it admits, when a model's sliding-window
    /// layers make that more (calc::kvCacheValuesReservedWhole). Unset: llmKvCacheValues.
    std::optional<double> llmKvCacheValuesReserved;
    /// The most one sequence holds by llmDepthTokens + llmContextTokens where that is more than it
    /// reads there: a chunked layer keeps up to its whole chunk (calc::kvCacheValues) but reads the
    /// tokens since the chunk began (calc::kvCacheValuesRead). Unset: llmKvCacheValues.
    std::optional<double> llmKvCacheValuesHeld;
    /// Bytes of one sequence's recurrent state in a model with linear-attention layers (Qwen3.5's
    /// Gated DeltaNet; calc::recurrentStateBytes): held beside the KV cache and read every token,
    /// the same at any context. 0: none.
    double llmRecurrentStateBytes = 0;
    /// Prompt processing: FLOPs of attention per token of a prompt of llmContextTokens read after
    /// llmDepthTokens, from a published model's attention (calc::attentionFlopsPerPromptToken). Unset:
    /// Llama 3 8B's (4 x 32 layers x 4,096 per attended position), scaled by size^(2/3) (model.cpp).
    std::optional<double> llmPrefillAttentionFlops;
    /// The model's layers (a published model's own); 0: a Llama-like model's for its size
    /// (llamaLikeLayers). Says how many llama.cpp puts on the GPUs when the model does not fit.
    int llmLayers = 0;
    /// The output head's parameters (vocabulary x width): llama.cpp runs it on the CPU unless every
    /// layer is on the GPUs. Unset: Llama 3's 128,256-token vocabulary at a Llama-like width.
    std::optional<double> llmOutputHeadParamsBillion;
    /// The model's width (a published model's hidden size): what tensor parallelism's all-reduces
    /// move per token (perf/serving_engine.h). Unset: llamaLikeHidden of its active parameters.
    std::optional<int> llmHidden;
    /// Token generation with the model left partly in system RAM (perf/llm_offload.h): the RAM's
    /// nominal bandwidth in GB/s. When set and the model does not fit the GPUs, the layers (or a
    /// mixture of experts' routed experts) that do not fit are read by the CPU from it. Unset: the
    /// speed is the one the model would have if it fitted, and a note gives the offloaded one.
    std::optional<double> systemRamGbs;
    /// llama.cpp's -ngl (layers on the GPUs; more than the layers puts the output head there too)
    /// and --n-cpu-moe (layers whose routed experts stay in RAM), instead of as many as fit.
    std::optional<int> llmGpuLayers;
    std::optional<int> llmCpuMoeLayers;
    /// The software running the model: llama.cpp's kernels (calibrated), or a serving engine's
    /// (perf/serving_engine.h), which reads the memory at its full rate and batches the sequences'
    /// multiplies into matmuls.
    LlmEngine llmEngine = LlmEngine::LlamaCpp;
    /// Query heads per KV head (a published model's heads / kv_heads; above 1, grouped-query
    /// attention). Unset: a Llama-like model's 4 (Llama 3 8B: 32 / 8), and a latent-KV model's.
    std::optional<int> llmQueryGroup;
    /// Where the serving engine's token generation runs attention (perf/serving_engine.h).
    DecodeAttention llmDecodeAttention = DecodeAttention::Auto;
    /// How the serving engine splits the model over `gpus` (llama.cpp always splits by layers).
    LlmSplit llmSplit = LlmSplit::Tensors;
    /// A published model's KV heads per layer (0: not known), and whether it caches one latent
    /// vector per layer instead (multi-head latent attention): what the serving engine's cards
    /// hold of the cache when it splits the model by tensors (kvCacheCopies).
    int llmKvHeads = 0;
    bool llmLatentKv = false;
    /// Every how many layers hold a mixture of experts' routed experts (a published model's
    /// moe_layer_step; Llama 4 Maverick: every 2nd). llama.cpp's --n-cpu-moe N then leaves the
    /// experts of the mixture layers among the first N in system RAM (N / step of them). 1: every layer.
    int llmMoeLayerStep = 1;
};

/// One named term and how much it moved the prediction (prediction with it / without it).
struct Factor {
    std::string name;
    double effect = 1.0;
    std::string detail;
};

struct Prediction {
    double throughput = 0;  ///< V100-fp16-training units, or tokens/s for LLM metrics
    std::string unit;
    double singleGpu = 0;   ///< one GPU, same units
    double efficiency = 1;  ///< multi-GPU efficiency (1 for one GPU)
    /// "memory bandwidth", "compute", "latency-bound work", "overhead", ...; LLM decode on a card
    /// whose SMs cannot keep its memory busy: "memory traffic the SMs can keep in flight".
    std::string bound;
    /// Of one GPU's time; they add up to 1. Latency is the overhead's latency-bound part (at SM
    /// count x clock); the overhead is all GPU-independent time (fixed per sample, and the host's
    /// time per step of recurrent networks).
    double computeShare = 0, memoryShare = 0, vectorShare = 0, latencyShare = 0, overheadShare = 0;
    /// LLM inference with part of the model in system RAM: in token generation the CPU's share of
    /// the time (its reads and the layers it runs), in prompt processing the share spent copying
    /// it to the GPU; with it the shares add up to 1.
    double systemRamShare = 0;
    /// Where the model sits when part of it is read from system RAM (PerfQuery::systemRamGbs).
    std::optional<OffloadSplit> offload;
    /// Share of one GPU's time that runs at the core clock (what a power limit slows): all
    /// GPU-side work; of LLM token generation, a batch's multiplies and the reads' own work at the
    /// core clock (kDecodeReadsClockBoundShare of their time), not the bytes streaming at the memory
    /// clock nor the fixed time per token, mostly the host's (RTX PRO 6000 Blackwell at 300 W: clock
    /// 0.56x, 27B int4 token generation 0.87x its speed, as its 19% share gives).
    double clockBoundShare = 0;
    /// Token generation: the sequences generating together the prediction is for (llmSequences,
    /// or those that fit with llmSequencesFillMemory); 0 for other metrics.
    int llmSequences = 0;
    double computeRoofTflops = 0;     ///< the metric's tensor/CUDA-core rate at the sustained clock
    double effectiveBandwidthGbs = 0;
    std::vector<Factor> factors;
    std::vector<std::string> notes; ///< substitutes for unpublished figures, caveats
};

/// NVIDIA's architectures after Ampere (Ada, Hopper, Blackwell), which the 2020-21 training runs of
/// the calibration never saw. Most newer runs of their CNN training measured them faster than the
/// model (docs/performance-model.md), so predictions of it are read as a floor.
bool newerThanTheTrainingCalibration(const Gpu& g);

/// What measured runs of `g` said about the model's figure for `m` (the catalog's model_checks),
/// as a prediction's note or a recommendation's caveat says it; nullopt when the catalog has none.
std::optional<std::string> measuredCheckNote(const Gpu& g, Metric m);

/// One line for a tooltip: the bound with its share of the time, then the factors that moved
/// the prediction most (largest first), e.g. "bound by memory bandwidth (61% of the time);
/// L2 cache x1.31, board power x0.89".
std::string explanationSummary(const Prediction& p, size_t maxFactors = 4);

/// The model's arithmetic for given roofs and constants (what PerfModel and the fitter use).
/// Fills `out` (time shares, single-GPU throughput, efficiency) when not null.
double modelThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                       Prediction* out = nullptr);

class PerfModel {
public:
    explicit PerfModel(const Catalog& catalog, ModelConstants constants = ModelConstants::builtin());

    const ModelConstants& constants() const { return constants_; }
    /// Derived roofs (cached for catalog GPUs).
    EffectiveSpecs specs(const Gpu& g) const;

    /// Fast path: the throughput only (no allocation for catalog GPUs).
    double throughput(const Gpu& g, const PerfQuery& q) const;
    /// The sequences token generation on `g` runs for q: llmSequences, or those that fit
    /// (llmSequencesFillMemory), or of those the most that keep llmMinSequenceSpeed each.
    int sequencesRun(const Gpu& g, const PerfQuery& q) const;
    /// q with those sequences settled (perf/sequences_at_speed.h): the same throughput, without
    /// searching for them again on each call.
    PerfQuery withSequencesSettled(const Gpu& g, const PerfQuery& q) const;
    /// Throughput with the explanation: roofs, bound, time shares and every factor's effect.
    Prediction explain(const Gpu& g, const PerfQuery& q) const;
    /// throughput(g) / throughput(reference, same query but one GPU).
    double relative(const Gpu& g, const Gpu& reference, const PerfQuery& q) const;

private:
    const Catalog& catalog_;
    ModelConstants constants_;
    std::unordered_map<std::string, EffectiveSpecs> specs_;
};

} // namespace advisor::perf
