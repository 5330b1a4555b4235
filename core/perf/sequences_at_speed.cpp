#include "perf/sequences_at_speed.h"

#include "common/format.h"
#include "perf/sequences_that_fit.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

// Each of `sequences`' tokens/s when they generate together.
double speedOfEach(const EffectiveSpecs& s, const Gpu& g, PerfQuery q, const ModelConstants& c, int sequences) {
    q.llmSequencesFillMemory = false;
    q.llmMinSequenceSpeed.reset();
    q.llmSequences = sequences;
    return modelThroughput(s, g, q, c) / sequences;
}

// A speed below `wanted` with as many decimals as it takes not to read as `wanted` (19.98, not 20.0).
std::string speedBelow(double speed, double wanted) {
    int decimals = 1;
    while (decimals < 4 && std::round(speed * std::pow(10.0, decimals)) / std::pow(10.0, decimals) >= wanted) {
        ++decimals;
    }
    return format::number(speed, decimals);
}

int sequencesThatFitOrOne(const Gpu& g, const PerfQuery& q) {
    return std::max(1, llmSequencesThatFit(g, q));
}

} // namespace

int llmSequencesAtSpeed(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c) {
    const double wanted = q.llmMinSequenceSpeed.value_or(0.0);
    const int fit = sequencesThatFitOrOne(g, q);
    if (speedOfEach(s, g, q, c, fit) >= wanted) {
        return fit;
    }
    // Each one's speed falls as sequences join: the largest count in [1, fit) that keeps it.
    int keeps = 1, falls = fit;
    if (speedOfEach(s, g, q, c, 1) < wanted) {
        return 1;
    }
    while (falls - keeps > 1) {
        const int mid = keeps + (falls - keeps) / 2;
        (speedOfEach(s, g, q, c, mid) >= wanted ? keeps : falls) = mid;
    }
    return keeps;
}

PerfQuery withSequencesResolved(const EffectiveSpecs& s, const Gpu& g, PerfQuery q, const ModelConstants& c) {
    if (q.metric == Metric::LlmDecode && q.llmSequencesFillMemory && q.llmMinSequenceSpeed) {
        q.llmSequences = llmSequencesAtSpeed(s, g, q, c);
        q.llmSequencesFillMemory = false;
        q.llmMinSequenceSpeed.reset();
        return q;
    }
    q.llmMinSequenceSpeed.reset();
    return withSequencesResolved(g, q);
}

int PerfModel::sequencesRun(const Gpu& g, const PerfQuery& q) const {
    return std::max(1, withSequencesSettled(g, q).llmSequences);
}

PerfQuery PerfModel::withSequencesSettled(const Gpu& g, const PerfQuery& q) const {
    return withSequencesResolved(specs(g), g, q, constants_);
}

std::string sequencesAtSpeedNote(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                                 int sequences) {
    const double wanted = q.llmMinSequenceSpeed.value_or(0.0);
    const std::string speed = format::trimmed(wanted, 1) + " tokens/s";
    const double each = speedOfEach(s, g, q, c, sequences);
    const int fit = sequencesThatFitOrOne(g, q);
    if (each < wanted) {
        return "at least " + speed + " for each sequence: not even one alone gets it (" + format::number(each, 1) +
               " tokens/s); shown for one";
    }
    if (sequences >= fit) {
        const std::string more = fit >= kMaxLlmSequences ? "the most the model takes" : "more memory would serve more";
        return "at least " + speed + " for each sequence: all " + std::to_string(fit) +
               " that fit keep it (each gets " + format::number(each, 1) + " tokens/s); " + more;
    }
    return "at least " + speed + " for each sequence: " + std::to_string(sequences) + " at once keep it (each gets " +
           format::number(each, 1) + " tokens/s; with " + std::to_string(sequences + 1) + ", " +
           speedBelow(speedOfEach(s, g, q, c, sequences + 1), wanted) + "), of the " + std::to_string(fit) +
           " that would fit";
}

} // namespace advisor::perf
