// The words a recommendation's input is given in (tasks, domains, rankings) and the performance
// query it asks the model for each setup.
#include "advisor/recommender.h"
#include "perf/workload.h"

#include <algorithm>

namespace advisor::advice {

const char* toString(Task t) {
    switch (t) {
    case Task::Train:
        return "train";
    case Task::FineTune:
        return "fine-tune";
    case Task::Inference:
        return "inference";
    }
    return "train";
}

const char* toString(Domain d) {
    switch (d) {
    case Domain::Transformers:
        return "transformers";
    case Domain::Cnn:
        return "cnn";
    case Domain::Llm:
        return "llm";
    case Domain::ImageGeneration:
        return "image-generation";
    }
    return "transformers";
}

std::optional<Task> parseTask(std::string_view s) {
    for (const auto t : {Task::Train, Task::FineTune, Task::Inference}) {
        if (s == toString(t)) {
            return t;
        }
    }
    return std::nullopt;
}

std::optional<Domain> parseDomain(std::string_view s) {
    for (const auto d : {Domain::Transformers, Domain::Cnn, Domain::Llm, Domain::ImageGeneration}) {
        if (s == toString(d)) {
            return d;
        }
    }
    return std::nullopt;
}

const char* toString(RankBy r) {
    return r == RankBy::Speed ? "speed" : "perf-per-dollar";
}

std::optional<RankBy> parseRankBy(std::string_view s) {
    for (const auto r : {RankBy::PerfPerDollar, RankBy::Speed}) {
        if (s == toString(r)) {
            return r;
        }
    }
    return std::nullopt;
}

perf::PerfQuery queryFor(const RecommendInput& in) {
    perf::PerfQuery q;
    q.workload = (in.domain == Domain::Cnn || in.domain == Domain::ImageGeneration) ? perf::WorkloadClass::Cnn
                                                                                     : perf::WorkloadClass::Transformer;
    if (in.task == Task::Inference) {
        if (in.domain == Domain::Llm) {
            q.metric = perf::Metric::LlmDecode;
            q.llmWeights = in.llmWeights.value_or(in.eightBit ? perf::Precision::Int8 : perf::Precision::Fp16);
            const double bytesPerParam = perf::llmBitsPerWeight(q.llmWeights, in.llmEngine) / 8.0;
            q.llmParamsBillion = in.llmParamsBillion.value_or(std::max(0.5, in.memoryGb * 0.85 / bytesPerParam));
            q.llmActiveParamsBillion = in.llmActiveParamsBillion.value_or(0);
            q.llmSequences = in.llmSequences;
            q.llmSequencesFillMemory = in.llmSequencesFillMemory;
            q.llmMinSequenceSpeed = in.llmMinSequenceSpeed;
            q.llmEngine = in.llmEngine;
            q.llmSplit = in.llmSplit;
            q.llmExperts = in.llmExperts;
            q.llmExpertsPerToken = in.llmExpertsPerToken;
            if (in.llmContextTokens) {
                q.llmContextTokens = *in.llmContextTokens;
                q.llmKvCacheValues = in.llmKvCacheValues;
                q.llmKvCacheValuesReserved = in.llmKvCacheValuesReserved;
                q.llmKvCacheValuesHeld = in.llmKvCacheValuesHeld;
            }
            q.llmRecurrentStateBytes = in.llmRecurrentStateBytes;
            q.llmLayers = in.llmLayers;
            q.llmOutputHeadParamsBillion = in.llmOutputHeadParamsBillion;
            q.llmHidden = in.llmHidden;
            q.llmKvHeads = in.llmKvHeads;
            q.llmLatentKv = in.llmLatentKv;
            q.llmMoeLayerStep = in.llmMoeLayerStep;
            q.llmWeightBits = in.llmWeightBits;
            q.llmSharedWeightBits = in.llmSharedWeightBits;
            q.systemRamGbs = in.systemRamGbs;
        } else {
            q.metric = in.eightBit ? perf::Metric::Int8Inference : perf::Metric::Fp16Inference;
        }
    } else {
        q.metric = perf::Metric::Fp16Training; // 8-bit training is not modelled (nor in the seed)
        if (in.domain == Domain::Llm) {
            // Training or fine-tuning a language model: its own profile (perf/llm_training.h).
            q.llmTrainingParamsBillion = in.llmParamsBillion.value_or(perf::kDefaultLanguageModelParamsBillion);
        }
    }
    return q;
}

} // namespace advisor::advice
