#pragma once
/// \file
/// Token generation with as many sequences as the GPUs' memory holds (PerfQuery::
/// llmSequencesFillMemory): what a server batching every request it can keeps in memory, the
/// figure a buyer of an inference card compares cards by, since a card with more memory holds
/// more sequences beside the same weights.

#include "perf/model.h"

#include <string>

namespace advisor::perf {

/// The share of the GPUs' memory a serving engine gives the weights and the KV caches: vLLM's
/// gpu_memory_utilization and TensorRT-LLM's free_gpu_memory_fraction both default to 0.9; the
/// rest holds activations, CUDA graphs and the CUDA context.
inline constexpr double kServingMemoryFraction = 0.9;

/// The most sequences whose KV caches (each llmDepthTokens + llmContextTokens deep) fit beside
/// every weight in kServingMemoryFraction of q.gpus of `g`, at most kMaxLlmSequences; 0 when the
/// weights and one sequence's cache do not fit.
int llmSequencesThatFit(const Gpu& g, const PerfQuery& q);

/// q as predicted: with llmSequencesFillMemory, llmSequences set to llmSequencesThatFit (one when
/// none fits, so the model's does-not-fit note and system-RAM placement apply) and the flag
/// cleared; otherwise q unchanged.
PerfQuery withSequencesResolved(const Gpu& g, PerfQuery q);

/// Why a query that fills the memory ran `sequences`: "37 sequences fill 90% of 80 GB: 4.87 GB
/// of weights and 1.87 GB of KV cache each ...", or that not even one fits.
std::string sequencesThatFitNote(const Gpu& g, const PerfQuery& q, int sequences);

} // namespace advisor::perf
