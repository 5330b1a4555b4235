#pragma once
/// \file
/// LLM inference in a serving engine (PerfQuery::llmEngine = TensorRT-LLM) instead of llama.cpp.
/// Its kernels stream the weights and the KV cache at the rate the memory streams at (llama.cpp's
/// cap on the bytes each SM keeps in flight does not bind them), a step's sequences multiply the
/// weights as one matmul that runs beside the weights' reads, attention works through the cache
/// on the CUDA cores beside its reads, and each step has a fixed time that grows with the
/// sequences (scheduling, sampling and launching kernels for each of them).
///
/// Token generation, one step of B sequences on N GPUs (tensor parallel: each card holds 1/N):
///   max(weights read / (N x bandwidth), B x 2 x active parameters / (N x matmul rate))
///   + max(B x one sequence's KV cache / (N x bandwidth), B x its attention FLOPs / (N x rate))
///     (the rate: a fitted share of the FP32 rate on the CUDA cores, or on the tensor cores for
///     grouped-query attention (XQA) the matmul rate in FP16; servingAttentionOnTensorCores)
///   + llama.cpp's time per token + k x log2 B
///   + on N > 1, two all-reduces per layer of B tokens' activations (a ring: 2 (N-1)/N of them
///     over each card's link) and a latency each
/// with llama.cpp's calibrated bandwidth efficiency and time per token (the step's time at one
/// sequence). A prompt of P tokens is one step (servingPromptSeconds):
///   weights read / (N x bandwidth) + P x (2 x active parameters + attention FLOPs) / (N x rate)
///   + llama.cpp's time per token + the all-reduces of P tokens
/// so a short prompt's tokens come slower than a long one's (the time to its first token).
/// The five constants here were fitted on TensorRT-LLM 0.9's published peak-throughput tables
/// (resources/perf/tensorrt-llm-0.9-throughput.csv): three on 51 single-GPU rows of dense models
/// on H100, H200, L40S and A100, the all-reduce's two on 29 tensor-parallel rows of dense models
/// with those fixed: `gpu-advisor eval-serving`.

#include "perf/accuracy.h"
#include "perf/model.h"

namespace advisor::perf {

/// Matmul rate achieved in a serving engine's prompts and batched token generation, as a share
/// of the tensor-core peak for the weights' precision (servingMatmulTflops). Fitted (eval-serving).
inline constexpr double kServingMatmulEfficiency = 0.660;
/// Time per step beyond llama.cpp's per-token time for each doubling of the sequences generating
/// together, in milliseconds. Fitted (eval-serving): a roofline alone leaves 5-10 ms per step
/// unexplained at TensorRT-LLM 0.9's 16-1024 sequences; at one sequence this adds nothing, which
/// the tables (16 or more sequences) cannot check.
inline constexpr double kServingStepMsPerDoubling = 0.594;
/// eval-serving's leave-one-architecture-out error, the constants fitted without each of Hopper,
/// Ada and Ampere in turn: on one GPU (51 rows of dense models) and tensor parallel (29): what
/// `perf` reports as the expected error.
inline constexpr ErrorBand kServingAccuracy{6.7, 16.3, 51};
inline constexpr ErrorBand kServingTensorParallelAccuracy{19.0, 31.4, 29};
/// Prompts (llm-prefill): the error on TensorRT-LLM 0.9's first-token latencies of one request
/// (resources/perf/tensorrt-llm-0.9-first-token.csv, dense models; never fitted on), on one GPU
/// (24 rows) and tensor parallel (16): what `perf` reports for the engine's prompts.
inline constexpr ErrorBand kServingPromptAccuracy{10.8, 18.7, 24};
inline constexpr ErrorBand kServingPromptTensorParallelAccuracy{11.9, 21.2, 16};
/// Token generation with grouped-query attention on the tensor cores (XQA, as current releases run
/// it): the error on TensorRT-LLM 1.0's full-load throughput of Llama 3.1 8B, Llama 3.3 70B and
/// Llama 3.1 405B on H100 and H200 (the FP8 rows of resources/perf/tensorrt-llm-1.0-full-load.csv;
/// never fitted on), on one GPU (30 rows) and tensor parallel (30): what `perf` reports for such
/// queries.
inline constexpr ErrorBand kServingFullLoadAccuracy{8.0, 17.2, 30};
inline constexpr ErrorBand kServingFullLoadTensorParallelAccuracy{5.9, 12.5, 30};
/// 4-bit float weights (NVFP4): the error on the same file's fp4 rows (Llama 3.3 70B on one B200,
/// GB200 or RTX PRO 6000 Blackwell Server Edition, Llama 3.1 405B on four B200s or GB200s), each
/// GPU's rows predicted by kServingFp4RateShare fitted on the other GPUs': what `perf` reports for
/// the engine's fp4 queries, prompts and token generation alike.
inline constexpr ErrorBand kServingFp4Accuracy{7.2, 22.2, 50};
/// A model split by layers over 2-8 GPUs (pipeline parallel): the error on the same file's rows of
/// Llama 3.3 70B in NVFP4 on 2, 4 and 8 RTX PRO 6000 Blackwell Server Editions split so, each count
/// of cards predicted by kServingPipelineHandOverMs fitted on the other counts' rows: what `perf`
/// reports for such queries.
inline constexpr ErrorBand kServingPipelineAccuracy{12.1, 25.6, 30};
/// A mixture of experts in the engine: the error on a later release's full-load runs of Qwen3
/// 30B-A3B, gpt-oss-20b and gpt-oss-120b on H100, H200, B200, GB200 and RTX PRO 6000 Blackwell
/// Server Edition (the mixtures' rows of resources/perf/tensorrt-llm-later-full-load.csv), each
/// model's rows on warpgroup-MMA cards predicted by kServingRoutedMatmulShare fitted without them
/// (17.8% / 46.6%, 50 rows), together with the 1.0 release's never-fitted mixtures on one card (Qwen3
/// 30B-A3B on a B200, GB200 or RTX PRO 6000, Llama 4 Scout on a B200 or GB200;
/// tensorrt-llm-1.0-never-fitted.csv, 29.1% / 86.0%, 50 rows; eval::mixtureOfExpertsHeldOutErrors):
/// what `perf` reports for such queries on one card or split by tensors or layers, splits no current
/// release's mixture rows measure (1.0's several-card runs were split by experts: experiments round 89).
/// Each prompt's attention counted from the model's own heads, windows and chunks (round 90).
inline constexpr ErrorBand kServingMixtureOfExpertsAccuracy{21.5, 58.4, 100};
/// A mixture of experts split by experts (attention data parallel with expert parallelism, DEP):
/// the error on a later release's full-load runs so split (Llama 4 Maverick, Qwen3 235B-A22B and
/// gpt-oss-120b on 2-8 B200s, GB200s, H200s or H100s, Qwen3 30B-A3B and 235B-A22B on 2 or 8 RTX PRO
/// 6000s; resources/perf/tensorrt-llm-later-expert-split.csv), each model's runs predicted by the
/// exchange's time (kServingExpertExchangeAllReduces) fitted without them (14.2% / 26.6%; shipped,
/// 14.0% / 25.5%), and the 1.0 release's several-card mixtures, run so split (its recipe sets
/// attention data parallel) and never fitted on (99 rows, 11.5% / 32.0%; eval::
/// expertSplitHeldOutErrors): what `perf` reports for such queries.
inline constexpr ErrorBand kServingExpertSplitAccuracy{13.4, 30.3, 154};
/// Share of the link's nominal rate per direction an all-reduce of tensor parallelism moves data
/// at, and its latency in microseconds on two cards, times log2 of the cards on more (a tree's
/// rounds). Fitted (eval-serving) on the tensor-parallel rows; a latency the same on any number of
/// cards (0.70 and 46 us) fitted them about as well and left TensorRT-LLM 1.0's eight-card rows
/// 10-20% fast (round 83).
inline constexpr double kServingLinkEfficiency = 0.741;
inline constexpr double kServingAllReduceUs = 28.5;

/// The rate a generated token's attention works through the cache at, as a share of the FP32
/// CUDA-core rate: TensorRT-LLM's decode attention kernel does its dot products and softmax there,
/// 4 FLOPs per cached position and unit of the query's width in each layer. The work follows the
/// query heads, so grouped-query attention, which shrinks the cache, does not shrink it. Fitted
/// (eval-serving): without it the tables' grouped-query Mistral 7B ran up to 28% slower than its
/// bytes say and the other models up to 19% faster.
inline constexpr double kServingAttentionEfficiency = 0.235;

/// Share of the FP4 tensor rate that TensorRT-LLM's NVFP4 matmuls reach, beside the FP8 and FP16
/// rates its other matmuls reach at kServingMatmulEfficiency. Fitted (eval-serving) on TensorRT-LLM
/// 1.0's full-load FP4 rows (B200, GB200, RTX PRO 6000 Blackwell Server Edition): end to end they
/// run well below the FP4 rate (each layer also quantizes its activations to FP4).
inline constexpr double kServingFp4RateShare = 0.582;
/// Time a step of a model split by layers (pipeline parallel) spends handing its state to each of
/// the other cards, in milliseconds: a step of N cards takes (N - 1) times it more. Fitted
/// (eval-serving) on TensorRT-LLM 1.0's rows of 2, 4 and 8 RTX PRO 6000s split by layers: without
/// it the eight-card rows came out 12-42% fast. Taken to be the engine's host-side exchange of
/// each micro-batch's requests and sampled tokens between the cards' processes, which grows with
/// the cards; the activations themselves (a few MB a step) take far less over PCIe.
inline constexpr double kServingPipelineHandOverMs = 0.511;
/// Share of the engine's matmul rate a mixture of experts' routed experts reach on cards whose dense
/// peak needs warpgroup MMA (Gpu::warpgroupMma: Hopper, datacenter Blackwell); their grouped
/// matmuls, one small matrix per expert after each token's activations are sorted to its experts,
/// fall that far behind the dense kernels there. On the other cards they keep the dense rate: 0.9's
/// A100 and L40S Mixtral rows and a later release's RTX PRO 6000 Qwen3 rows ask for no such share.
/// Fitted (eval-serving) on a later release's full-load rows of Qwen3 30B-A3B, gpt-oss-20b and
/// gpt-oss-120b on H100, H200, B200 and GB200; it predicts 0.9's Hopper Mixtral rows, never fitted
/// on (experiments round 86).
inline constexpr double kServingRoutedMatmulShare = 0.262;

/// The time each mixture layer's exchange of a model split by experts takes, in all-reduces of the
/// same tokens (servingAllReduceSeconds): an all-gather of the step's tokens to every card and a
/// reduce-scatter of the experts' outputs back are two collectives, each taken as long as the fitted
/// all-reduce (whose fit on NVSwitch machines holds NCCL's fastest all-reduce, not a ring's two
/// passes). Counting their bytes alone (one all-reduce's) left a later release's runs so split 22.9%
/// median off, 46 of 55 fast; two, 13.1%. A fit on those runs lands on 2.0 and, without each
/// model's runs, on 2.0-2.25 (eval-serving; experiments round 89).
inline constexpr double kServingExpertExchangeAllReduces = 2.0;

struct ServingConstants {
    double matmulEfficiency = kServingMatmulEfficiency;
    double stepMsPerDoubling = kServingStepMsPerDoubling;
    double linkEfficiency = kServingLinkEfficiency;
    double allReduceUs = kServingAllReduceUs;
    double attentionEfficiency = kServingAttentionEfficiency;
    double fp4RateShare = kServingFp4RateShare;
    double pipelineHandOverMs = kServingPipelineHandOverMs;
    double routedMatmulShare = kServingRoutedMatmulShare;
    double expertExchangeAllReduces = kServingExpertExchangeAllReduces;
};

/// The tensor rate a serving engine multiplies these weights at, in TFLOPS at the boost clock:
/// 8-bit weights at the card's 8-bit rate (FP8 where it has it, else INT8: SmoothQuant),
/// 16-bit weights and 4-bit integer ones (AWQ/GPTQ, multiplied in FP16) at the FP16 rate with FP32
/// sums, 4-bit floats (NVFP4) at k.fp4RateShare of the FP4 rate where the card has one, else in FP16.
double servingMatmulTflops(const EffectiveSpecs& s, Precision weights, const ServingConstants& k = {});

/// Tokens/s of token generation (q.llmSequences together) or prompt processing in the serving
/// engine; fills out's time shares and single-GPU speed. A model that does not fit is taken as
/// if it did: the engine keeps everything on the GPUs (explainServing notes it).
double servingThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                         Prediction* out = nullptr, const ServingConstants& k = {});

/// Seconds a step of `tokens` prompt tokens takes (one prompt, or a batch's prompts together):
/// the time to the first token of a prompt of that many.
double servingPromptSeconds(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                            double tokens, const ServingConstants& k = {});

/// Whether the engine's token generation runs attention on the tensor cores (XQA) for q: as
/// q.llmDecodeAttention says, or by default for grouped-query attention whose group of query heads
/// per KV head (q.llmQueryGroup, unset: Llama 3's 4) is 2 to 32, the groups TensorRT-LLM's
/// XQA kernels take with one beam (their JIT-compiled ones on Ampere and later; current releases
/// take them by default with their paged KV cache: Llama 4's 5 and Falcon 180B's 29 as well as
/// Llama 3's 4 and 8). Multi-head attention (a group of 1) and groups over 32 stay on the CUDA
/// cores. TensorRT-LLM 0.9's tables ran without it (eval::readServedModel sets the CUDA cores).
bool servingAttentionOnTensorCores(const PerfQuery& q);

/// The billions of parameters each token multiplies, at the engine's dense rate: the active ones,
/// with a mixture of experts' routed ones taking 1 / k.routedMatmulShare longer on cards whose
/// dense peak needs warpgroup MMA (kServingRoutedMatmulShare).
double servingMultipliedBillion(const EffectiveSpecs& s, const PerfQuery& q, const ServingConstants& k = {});

/// FLOPs of a generated token's attention for one sequence: 4 x layers x width x cached tokens.
double servingDecodeAttentionFlops(const PerfQuery& q);

/// The link the engine's cards all-reduce over: perf's (terms.h), but a datacenter card's PCIe slot
/// gives it 16 lanes whatever the count, as servers do (the 0.9 fit's L40S runs were read so), unless
/// q.interconnect sets the lanes; a desktop's 3-8 cards keep 8 each.
Link servingLink(const Gpu& g, const PerfQuery& q);

/// Seconds the all-reduces of tensor parallelism over q.gpus of g take for `tokens` tokens (two
/// per layer, each with its latency, kServingAllReduceUs x log2 of the cards, when
/// `withLatency`); 0 on one GPU.
double servingAllReduceSeconds(const Gpu& g, const PerfQuery& q, double tokens, bool withLatency,
                               const ServingConstants& k = {});

/// The layers of q's model that hold routed experts: every one, or one in llmMoeLayerStep.
int servingMixtureLayers(const PerfQuery& q);

/// Seconds the exchanges of `tokens` tokens take in the mixture layers of a model split by experts
/// over q.gpus of g: in each, an all-gather of the tokens to every card and a reduce-scatter of the
/// experts' outputs back, k.expertExchangeAllReduces all-reduces' time (servingAllReduceSeconds).
double servingExpertExchangeSeconds(const Gpu& g, const PerfQuery& q, double tokens, const ServingConstants& k = {});

/// p's bound, roofs, factors and notes for a serving-engine prediction already in p.
void explainServing(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c, Prediction& p);

} // namespace advisor::perf
