#pragma once
/// \file
/// How inference's memory divides over several GPUs as TensorRT-LLM splits a model
/// (perf::LlmSplit): what the busiest GPU holds of the weights, of the KV cache and of one
/// layer's working set. Internal to calc::estimateMemory.

#include "calc/memory.h"

#include <string>

namespace advisor::calc {

struct InferenceSplit {
    /// The busiest GPU's share of all the weights' bytes: 1/N split by tensors or layers; split by
    /// experts the shared part whole and 1/N of the routed experts (a dense model: all of it).
    double weightsShare = 1;
    /// The sequences whose KV cache a GPU keeps: all of them, or split by experts its own requests.
    int cacheSequences = 1;
    /// Those sequences' cache spread over this many GPUs (by tensors or layers: N; by experts: 1).
    double cacheDivisor = 1;
    /// One layer's activations and attention scores spread over this many GPUs: N split by tensors
    /// (each GPU holds its heads' and columns' share); 1 by layers (a GPU runs whole layers) or by
    /// experts (after the exchange each GPU holds every GPU's tokens).
    double widthDivisor = 1;
    /// Said with the weights: ", split over 8 GPUs by experts: ..." ("" on one GPU).
    std::string weightsDetail;
    /// Said with the KV cache ("" where every GPU holds a share of every sequence's cache).
    std::string cacheDetail;
    /// The estimate's note on the split ("" on one GPU).
    std::string note;
};

/// The split of `in` (its shardGpus, split, engine, batch) whose weights take `weightsBytes` in all.
/// Unnamed (in.split unset), every item divides evenly over the GPUs, as the estimate did before
/// splits were named. Split by experts, the shared part is perf::weightParts's.
InferenceSplit inferenceSplit(const MemoryInput& in, double weightsBytes);

} // namespace advisor::calc
