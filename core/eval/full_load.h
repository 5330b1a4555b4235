#pragma once
/// \file
/// A current serving engine at full load (resources/perf/tensorrt-llm-1.0-full-load.csv: the
/// TensorRT-LLM 1.0 perf overview's trtllm-bench runs, requests fed without pause): total output
/// tokens/s of a published model on 1-8 GPUs for requests of input_tokens in and output_tokens out.
/// Never fitted on: a check of the engine's constants, fitted on the 0.9 release's tables, with a
/// current release's decode attention (XQA on the tensor cores for grouped-query models).
///   gpu,model,gpus,weights,kv_cache,input_tokens,output_tokens,output_tokens_per_s,source[,split]
/// `model` is a published model's id (calc/model_shapes.h): its shape sizes the cache and the work;
/// `split` is how the run split the model over its GPUs, tensors (default), layers or experts.

#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf/serving_engine.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

struct FullLoadRun {
    int line = 0;
    std::string gpu;   ///< resolved against the catalog when predicted
    std::string model; ///< the published model's id
    /// llm-decode in tensorrt-llm on the row's GPUs at the mean context (input + output / 2).
    perf::PerfQuery query;
    int inputTokens = 0, outputTokens = 0;
    /// A prompt token's attention FLOPs from the model's own attention (its query heads, sliding
    /// windows and chunks; calc::attentionFlopsPerPromptToken), as perf --model counts them.
    double promptAttentionFlops = 0;
    double outputTokensPerSecond = 0; ///< all the GPUs together
    std::string source;
    bool mixtureOfExperts() const { return query.llmExperts > 0; }
};

/// Every bad row is reported (file, line, field); nothing is returned unless all are valid. The runs
/// were on servers: each PCIe card is read at 16 lanes, as the 0.9 fit reads its L40S servers'.
std::vector<FullLoadRun> readFullLoadRuns(std::string_view text, const std::string& fileLabel);
/// The shipped runs (compiled in).
std::vector<FullLoadRun> builtinFullLoadRuns();
/// A later release's perf overview, the same columns (resources/perf/tensorrt-llm-later-full-load.csv):
/// Llama 3.3 70B at new lengths and GPU counts, and three mixtures of experts (Qwen3 30B-A3B,
/// gpt-oss-20b and -120b). Its dense rows are never fitted on; its mixtures on warpgroup-MMA cards
/// fit the routed experts' share (fitRoutedMatmulShare).
std::vector<FullLoadRun> builtinLaterFullLoadRuns();
/// The 1.0 overview's rows the 1.0 file leaves out, the same columns
/// (resources/perf/tensorrt-llm-1.0-never-fitted.csv): its mixtures of experts (Qwen3 30B-A3B on
/// 1-8 cards, Qwen3 235B-A22B and Llama 4 Maverick on eight, Llama 4 Scout on one or four) and
/// Llama 3.1 405B on eight RTX PRO 6000s split by layers.
/// No constant is fitted on them: a check of the routed share and the hand-over, fitted elsewhere.
std::vector<FullLoadRun> builtinNeverFittedFullLoadRuns();

/// The later release's runs of mixtures of experts split by experts (DEP: attention data parallel
/// with expert parallelism), the same columns (resources/perf/tensorrt-llm-later-expert-split.csv):
/// Llama 4 Maverick, Qwen3 235B-A22B and gpt-oss-120b over 2-8 B200s, GB200s, H200s or H100s, and
/// Qwen3 30B-A3B and 235B-A22B over 2 or 8 RTX PRO 6000s. No constant is fitted on them.
std::vector<FullLoadRun> builtinExpertSplitFullLoadRuns();

/// Whether the run split the model over its GPUs by layers (pipeline parallel).
bool splitByLayers(const FullLoadRun& run);
/// Whether the run split a mixture of experts over its GPUs by experts (attention data parallel with
/// expert parallelism).
bool splitByExperts(const FullLoadRun& run);

/// The requests the run holds at once in the model: as many as fit whole (the prompt and the whole
/// answer, as TensorRT-LLM's default scheduler reserves them) beside the weights in 90% of the
/// GPUs' memory (perf/sequences_that_fit.h), at least one and at most trtllm-bench's 4,096.
int fullLoadSequences(const Gpu& g, const FullLoadRun& run);

/// The run's total output tokens/s as the model gives it: fullLoadSequences requests at once, their
/// prompts as one step and then their token generation (predictServingRun).
double predictFullLoad(const perf::PerfModel& model, const Gpu& g, const FullLoadRun& run,
                       const perf::ServingConstants& k = {});

/// The run's error in percent: predictFullLoad with k over the measured, less one.
double fullLoadErrorPct(const perf::PerfModel& model, const Gpu& g, const FullLoadRun& run,
                        const perf::ServingConstants& k = {});

/// The runs' errors, and the two constants fitted on them (least squares of the log errors): the
/// share of the FP4 tensor rate NVFP4 matmuls reach (perf::kServingFp4RateShare), on the rows with
/// fp4 weights on one GPU or split by tensors, then again without each GPU's rows to predict that
/// GPU's; and a pipeline's hand-over per other card (perf::kServingPipelineHandOverMs), on the rows
/// split by layers, then again without each count of cards to predict that count's rows.
struct FullLoadFit {
    double fp4RateShare = 0;                      ///< fitted on every fp4 row not split by layers
    double pipelineHandOverMs = 0;                ///< fitted on every row split by layers
    std::vector<double> predictedTokensPerSecond; ///< each run's, with the shipped constants
    std::vector<double> errorsPct;                ///< and its error against the measured
    /// The fitted runs: fp4 ones with the share fitted without their GPU, ones split by layers with
    /// the hand-over fitted without their count of cards.
    std::vector<std::optional<double>> heldOutPct;
};
FullLoadFit fitFullLoad(const perf::PerfModel& model, const Catalog& catalog, const std::vector<FullLoadRun>& runs);

/// The share of the engine's matmul rate a mixture of experts' routed experts reach on cards whose
/// dense peak needs warpgroup MMA (perf::kServingRoutedMatmulShare), fitted on the runs of mixtures
/// of experts on such cards (least squares of the log errors), then again without each model's runs
/// to predict that model's.
struct RoutedShareFit {
    double share = 0; ///< 0 when the runs hold no such rows
    /// At each such run's index, its error with the share fitted without its model.
    std::vector<std::optional<double>> heldOutPct;
};
RoutedShareFit fitRoutedMatmulShare(const perf::PerfModel& model, const Catalog& catalog,
                                    const std::vector<FullLoadRun>& runs);

/// The time of each mixture layer's exchange of a model split by experts, in all-reduces of the same
/// tokens (perf::kServingExpertExchangeAllReduces), fitted on the runs split by experts (least
/// squares of the log errors), then again without each model's runs to predict that model's.
struct ExpertExchangeFit {
    double allReduces = 0; ///< 0 when the runs hold no such rows
    /// At each such run's index, its error with the exchange fitted without its model.
    std::vector<std::optional<double>> heldOutPct;
};
ExpertExchangeFit fitExpertExchange(const perf::PerfModel& model, const Catalog& catalog,
                                    const std::vector<FullLoadRun>& runs);

/// The absolute errors (percent) perf's band for a mixture of experts in the engine is taken from
/// (perf::kServingMixtureOfExpertsAccuracy): the later release's mixtures, each run predicted by the
/// routed share fitted without its model (as shipped where no share is fitted: the RTX PRO 6000's),
/// and the never-fitted runs' mixtures as shipped; neither's runs split by experts, which have their
/// own band (expertSplitHeldOutErrors).
std::vector<double> mixtureOfExpertsHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                                  const std::vector<FullLoadRun>& later,
                                                  const std::vector<FullLoadRun>& neverFitted);

/// The absolute errors (percent) perf's band for a mixture split by experts is taken from
/// (perf::kServingExpertSplitAccuracy): the runs of `expertSplit`, each predicted by the exchange
/// fitted without its model (fitExpertExchange), and the never-fitted runs split by experts as shipped.
std::vector<double> expertSplitHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                             const std::vector<FullLoadRun>& expertSplit,
                                             const std::vector<FullLoadRun>& neverFitted);
/// The same with the exchange already fitted on `expertSplit` (fitExpertExchange).
std::vector<double> expertSplitHeldOutErrors(const perf::PerfModel& model, const Catalog& catalog,
                                             const ExpertExchangeFit& fit, const std::vector<FullLoadRun>& neverFitted);

} // namespace advisor::eval
