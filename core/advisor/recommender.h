#pragma once
/// \file
/// The live recommender: what the 2023 flowchart would say today, from the performance model,
/// the user's prices and settings. A shortlist ranked by performance per dollar among GPUs that
/// fit the memory and the budget, each with its reasons and caveats; multi-card alternatives
/// for the same money; and the cloud when the break-even says so.

#include "catalog/catalog.h"
#include "perf/model.h"
#include "prices/cloud_offer.h"
#include "prices/price.h"
#include "prices/settings.h"
#include "value/tco.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::advice {

enum class Task { Train, FineTune, Inference };
enum class Domain { Transformers, Cnn, Llm, ImageGeneration };
/// Performance per dollar (the seed's ranking), or the fastest within the budget (the chart's
/// "Are you rich?": money is not what limits you).
enum class RankBy { PerfPerDollar, Speed };

const char* toString(Task t);
const char* toString(Domain d);
std::optional<Task> parseTask(std::string_view s);
std::optional<Domain> parseDomain(std::string_view s);
const char* toString(RankBy r);
std::optional<RankBy> parseRankBy(std::string_view s);

struct RecommendInput {
    Task task = Task::Train;
    Domain domain = Domain::Transformers;
    double memoryGb = 24;   ///< needed (directly, or from the memory calculator)
    bool eightBit = false;  ///< 8-bit precision is acceptable (seed: otherwise select by 16-bit)
    double budgetUsd = 0;   ///< for the GPUs
    bool usedOk = true;     ///< used prices count
    int maxGpus = 1;        ///< GPUs the user is willing to run
    /// Organisations buy for servers: server modules allowed; GeForce cards left out (NVIDIA's
    /// GeForce driver licence does not allow data-center deployment); new prices only (warranty).
    bool organization = false;
    RankBy rankBy = RankBy::PerfPerDollar;
    Settings settings;         ///< years, utilization, electricity, desktop cost, reference
    std::optional<double> llmParamsBillion; ///< LLM inference: model size (default from memory)
    /// LLM inference with a mixture of experts: the parameters each token reads (Mixtral 8x7B:
    /// 12.9 of 46.7); unset for a dense model.
    std::optional<double> llmActiveParamsBillion;
    /// LLM inference: the weights' precision (int4 = llama.cpp Q4_K_M); default int8 when
    /// eightBit, else fp16.
    std::optional<perf::Precision> llmWeights;
    /// LLM inference: the tokens of context each reply reads, which size the KV cache the memory
    /// must hold and token generation reads; unset: the memory calculator's 4,096 and perf's 512.
    std::optional<int> llmContextTokens;
    /// A published model's own K and V elements read at llmContextTokens (calc::kvCacheValuesRead);
    /// unset: the size law.
    std::optional<double> llmKvCacheValues;
    /// What TensorRT-LLM reserves of them where sliding windows make that more
    /// (calc::kvCacheValuesReservedWhole); unset: llmKvCacheValues.
    std::optional<double> llmKvCacheValuesReserved;
    /// perf::PerfQuery::llmKvCacheValuesHeld: a chunked layer's whole chunk, where it reads less.
    std::optional<double> llmKvCacheValuesHeld;
    /// A published model's KV heads and whether its cache is latent (perf::PerfQuery::llmKvHeads):
    /// what each card holds of the cache when the engine splits the model by tensors.
    int llmKvHeads = 0;
    bool llmLatentKv = false;
    /// Every how many of its layers hold its experts (perf::PerfQuery::llmMoeLayerStep).
    int llmMoeLayerStep = 1;
    /// A published model's recurrent state per sequence (linear-attention layers;
    /// calc::recurrentStateBytes); 0: none.
    double llmRecurrentStateBytes = 0;
    /// LLM inference: the requests served at once (token generation's sequences), each holding
    /// its own KV cache; ranked by their tokens/s together.
    int llmSequences = 1;
    /// Instead of llmSequences, as many requests as each card's memory holds beside the weights
    /// (perf/sequences_that_fit.h): cards ranked by what each serves at full load.
    bool llmSequencesFillMemory = false;
    /// With llmSequencesFillMemory: of the requests that fit, only as many as each still get this many
    /// tokens/s (perf::PerfQuery::llmMinSequenceSpeed): cards ranked by what they serve at that speed.
    std::optional<double> llmMinSequenceSpeed;
    /// LLM inference: the software serving it (perf::PerfQuery::llmEngine): llama.cpp's kernels or
    /// a serving engine's (TensorRT-LLM), which the tokens/s ranked are for.
    perf::LlmEngine llmEngine = perf::LlmEngine::LlamaCpp;
    /// How the serving engine splits a model over a setup's cards (perf::PerfQuery::llmSplit):
    /// by tensors (NVLink, or two cards), by layers (PCIe cards) or, a mixture of experts, by its
    /// experts; llama.cpp splits by layers.
    perf::LlmSplit llmSplit = perf::LlmSplit::Tensors;
    /// Instead of llmSplit, each setup of several cards split whichever way the serving engine
    /// runs it fastest (Candidate::llmSplit says which; by experts only a mixture of experts).
    bool llmSplitFastest = false;
    /// A mixture of experts' routed experts and experts per token (from a published model), which
    /// set how many experts the sequences read together; 0: not known.
    int llmExperts = 0;
    int llmExpertsPerToken = 0;
    /// A published model's layers, output head (vocabulary x width) and its own 4-bit file's bits
    /// per weight, with those of the weights every token reads where the file keeps them apart
    /// (perf::PerfQuery's fields of those names); 0 / unset: from the size.
    int llmLayers = 0;
    std::optional<double> llmOutputHeadParamsBillion;
    std::optional<int> llmHidden; ///< its width (tensor parallelism's all-reduces); unset: from the size
    std::optional<double> llmWeightBits;
    std::optional<double> llmSharedWeightBits;
    /// LLM inference: system RAM (nominal GB/s) a card too small for the model may leave the rest
    /// in, as llama.cpp does (perf/llm_offload.h): such a card is a candidate on its own, at its
    /// speed with the rest in RAM. Unset: every card must hold the memory.
    std::optional<double> systemRamGbs;
    int shortlistSize = 5;
};

struct Candidate {
    const Gpu* gpu = nullptr;
    int count = 1;
    Condition condition = Condition::New;
    double unitPriceUsd = 0;
    std::string priceBasis;
    double throughput = 0;          ///< the metric's units (tokens/s for LLM inference)
    double relativePerformance = 0; ///< / one reference GPU
    double perfPerDollar = 0;       ///< (relative performance / TCO), the reference GPU = 1
    value::Tco tco;
    double memoryHeadroomGb = 0; ///< per GPU (split evenly); 0 when part of the model is in RAM
    /// LLM inference on one card too small for the model, with the rest in system RAM.
    bool partlyInRam = false;
    /// LLM inference in the serving engine on several cards: how it splits the model over them.
    std::optional<perf::LlmSplit> llmSplit;
    std::vector<std::string> reasons;
    std::vector<std::string> caveats;
};

struct CloudAdvice {
    bool recommended = false;
    std::string offer;           ///< provider, instance, GPUs, date
    std::optional<double> breakEvenDays;
    std::string reason;
};

struct Recommendation {
    perf::Metric metric = perf::Metric::Fp16Training;
    perf::WorkloadClass workload = perf::WorkloadClass::Transformer;
    std::vector<Candidate> shortlist;    ///< best perf/$ first
    std::vector<Candidate> alternatives; ///< multi-card setups within the budget, fastest first
    CloudAdvice cloud;
    std::vector<std::string> notes;      ///< what was excluded and why, modelling caveats
    std::string perDollarAnchor;         ///< what perf/$ 1 is: "RTX 4090 at $1,704 used = 1"
};

/// Throws InputError naming the field for memory <= 0, a negative budget, or maxGpus outside 1..16.
Recommendation recommend(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                         const std::vector<CloudOffer>& offers, const RecommendInput& in);

/// What to know about a GPU before buying it for this use: width, vendor, tensor cores,
/// half-rate accumulate, FP8, server-only forms, power plug, estimated specs.
std::vector<std::string> hardwareCaveats(const Gpu& g, const perf::EffectiveSpecs& specs, int count,
                                         const RecommendInput& in);

/// The metric and workload class a task/domain/precision is ranked by.
perf::PerfQuery queryFor(const RecommendInput& in);

} // namespace advisor::advice
