#pragma once
/// \file
/// The serving engine's steps by where their time goes (serving_engine.cpp), shared with the
/// explanation of its predictions (serving_explanation.cpp). Internal to core/perf.

#include "perf/model.h"
#include "perf/serving_engine.h"

#include <algorithm>

namespace advisor::perf::serving {

/// One step's time by where it goes, on all the query's GPUs.
struct StepTimes {
    double weightReads = 0, multiplies = 0, cacheReads = 0, attention = 0, overhead = 0, allReduce = 0;
    /// In token generation the weights' reads and the batch's matmul that multiplies them overlap,
    /// and so do the cache's reads and attention's work on it: the longer one of each pair counts.
    /// A prompt's step adds them (readsHidden false): see promptStep.
    bool readsHidden = true;
    double weights() const { return readsHidden ? std::max(weightReads, multiplies) : weightReads + multiplies; }
    double cache() const { return std::max(cacheReads, attention); }
    double total() const { return weights() + cache() + overhead + allReduce; }
};

/// A step of q.llmSequences generating a token each, split by tensors over q.gpus.
StepTimes decodeStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                     const ServingConstants& k);
/// A prompt step of `tokens` tokens, split by tensors over q.gpus.
StepTimes promptStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                     const ServingConstants& k, double tokens);
/// A step of `tokens` tokens of `requests` requests split by experts over q.gpus, as its busiest
/// card takes it (token generation when `decode`, else a prompt step).
StepTimes expertSplitStep(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                          const ServingConstants& k, bool decode, double tokens, int requests);

bool splitByLayers(const PerfQuery& q);
bool splitByExperts(const PerfQuery& q);
/// The query as one card that held the whole model, running `sequences` at once.
PerfQuery asOneCard(const PerfQuery& q, int sequences);
/// A step of one card of a pipeline of `stages` cards (split by layers).
StepTimes onOneStage(StepTimes t, int stages, const ServingConstants& k);
/// A pipeline's micro-batches, and the sequences in the largest.
int microBatches(const PerfQuery& q);
int microBatch(const PerfQuery& q);
/// Split by experts, the requests on the busiest card of `cards` when each takes whole ones.
int busiestCardRequests(int requests, int cards);
/// Query heads per KV head: the model's own, else a Llama-like model's.
int queryGroup(const PerfQuery& q);

} // namespace advisor::perf::serving
