#include "calc/memory_split.h"

#include "calc/model_query.h"
#include "common/format.h"
#include "perf/llm_inference.h"

namespace advisor::calc {
namespace {

// A mixture of experts' weights as perf divides them (perf::weightParts: the shared part every
// token reads, the routed experts), at the bits the estimate's engine and precision give them.
perf::WeightParts weightPartsOf(const MemoryInput& in) {
    perf::PerfQuery q;
    q.llmWeights = in.weights;
    q.llmEngine = in.engine.value_or(perf::LlmEngine::TensorRtLlm);
    q.gpus = in.shardGpus;
    q.llmSplit = perf::LlmSplit::Experts;
    if (in.model != nullptr) {
        applyModelShape(q, *in.model);
    } else {
        q.llmParamsBillion = in.paramsBillion; // no routing known: every weight shared
    }
    return perf::weightParts(q);
}

std::string gpusText(int n) {
    return std::to_string(n) + " GPUs";
}

} // namespace

InferenceSplit inferenceSplit(const MemoryInput& in, double weightsBytes) {
    const int n = in.shardGpus;
    InferenceSplit s;
    s.cacheSequences = in.batch;
    if (n <= 1) {
        return s;
    }
    s.weightsShare = 1.0 / n;
    s.cacheDivisor = n;
    s.widthDivisor = n;
    s.weightsDetail = ", split over " + gpusText(n);
    const perf::LlmSplit split = in.split.value_or(perf::LlmSplit::Tensors);
    if (!in.split) {
        s.note = "per GPU with " + gpusText(n) + " (model split over the GPUs)";
        return s;
    }
    if (split == perf::LlmSplit::Tensors) {
        s.weightsDetail += " by tensors";
        s.note = "per GPU with " + gpusText(n) +
                 " split by tensors: each holds its share of every layer's heads "
                 "and columns, and of each sequence's KV cache";
        return s;
    }
    s.widthDivisor = 1;
    if (split == perf::LlmSplit::Layers) {
        s.weightsDetail += " by layers";
        s.cacheDetail = ", each GPU its layers' share";
        s.note = "per GPU with " + gpusText(n) + " split by layers (pipeline parallel): each holds 1/" +
                 std::to_string(n) + " of the layers with their KV cache, and a layer's whole width";
        return s;
    }
    // Split by experts (TensorRT-LLM's attention data parallel with expert parallelism): each GPU
    // serves its own requests with the shared part whole and 1/N of the routed experts.
    const perf::WeightParts w = weightPartsOf(in);
    const double shared = w.sharedBytes(w.sharedBillion);
    const double routed = w.routedBytes(w.routedBillion);
    s.weightsShare = (shared + routed / n) / (shared + routed);
    s.cacheSequences = (in.batch + n - 1) / n; // the busiest GPU's whole requests
    s.cacheDivisor = 1;
    if (w.routedBillion <= 0) {
        s.weightsDetail = ", a whole copy on each of the " + gpusText(n) +
                          ": a model without routed experts split by experts is served data parallel";
    } else {
        s.weightsDetail = ", split over " + gpusText(n) + " by experts: the shared " +
                          format::number(w.sharedBillion, 1) + "B (" +
                          format::gigabytes(weightsBytes * shared / (shared + routed) / 1e9) + ") whole on each, 1/" +
                          std::to_string(n) + " of the routed experts' " + format::number(w.routedBillion, 1) + "B";
    }
    s.cacheDetail = ", each GPU its own " + std::to_string(s.cacheSequences) + " of the " + std::to_string(in.batch) +
                    " requests, whole";
    s.note = "per GPU with " + gpusText(n) +
             " split by experts (attention data parallel with expert parallelism): the busiest GPU's share, "
             "with each request's KV cache on one GPU and every GPU's tokens after the exchange";
    return s;
}

} // namespace advisor::calc
