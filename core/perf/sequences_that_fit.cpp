#include "perf/sequences_that_fit.h"

#include "common/format.h"
#include "perf/llm_inference.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

double servingBytes(const Gpu& g, const PerfQuery& q) {
    return kServingMemoryFraction * g.memoryGb * 1e9 * std::max(1, q.gpus);
}

} // namespace

int llmSequencesThatFit(const Gpu& g, const PerfQuery& q) {
    const double cache = reservedKvCacheBytes(q);
    const double room = servingBytes(g, q) - llmWeightBytesHeld(q);
    if (room < cache) {
        return 0;
    }
    if (cache <= 0) {
        return kMaxLlmSequences;
    }
    return static_cast<int>(std::min<double>(std::floor(room / cache), kMaxLlmSequences));
}

PerfQuery withSequencesResolved(const Gpu& g, PerfQuery q) {
    if (q.llmSequencesFillMemory && q.metric == Metric::LlmDecode) {
        q.llmSequences = std::max(1, llmSequencesThatFit(g, q));
    }
    q.llmSequencesFillMemory = false;
    return q;
}

std::string sequencesThatFitNote(const Gpu& g, const PerfQuery& q, int sequences) {
    const int gpus = std::max(1, q.gpus);
    const std::string memory = format::percent(kServingMemoryFraction, 0) + " of " +
                               (gpus > 1 ? std::to_string(gpus) + " x " : std::string()) +
                               format::trimmed(g.memoryGb, 1) + " GB";
    const std::string weights = format::number(llmWeightBytesHeld(q) / 1e9, 2) + " GB of weights";
    const std::string cache = format::number(reservedKvCacheBytes(q) / 1e9, 2) + " GB of KV cache";
    // TensorRT-LLM reserves a sliding-window layer's cache at the whole length; each step reads less.
    const std::string reserved = reservesWholeWindows(q) ? ", reserved with its sliding-window layers' at the whole "
                                                           "length as TensorRT-LLM writes them (" +
                                                               format::number(kvCacheBytes(q) / 1e9, 2) + " GB read)"
                                                         : std::string();
    const std::string engines = ": vLLM's and TensorRT-LLM's default share of memory, the rest holding activations "
                                "and the CUDA context";
    if (llmSequencesThatFit(g, q) == 0) {
        return "as many sequences as fit: not one, as " + weights + " and one sequence's " + cache + reserved +
               (reserved.empty() ? " exceed " : ", exceed ") + memory + engines + "; shown for one sequence";
    }
    const std::string capped = sequences >= kMaxLlmSequences ? " (the most the model takes; more would fit)" : "";
    return "as many sequences as fit: " + std::to_string(sequences) + capped + ", each with " + cache + " (" +
           format::number(cachedTokens(q), 0) + " tokens of context)" + reserved + ", beside " + weights + " in " +
           memory + engines;
}

} // namespace advisor::perf
