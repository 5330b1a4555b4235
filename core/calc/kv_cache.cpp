#include "calc/kv_cache.h"

#include <algorithm>

namespace advisor::calc {

int windowedLayers(const AttentionShape& a) {
    return a.slidingWindow > 0 ? std::clamp(a.slidingLayers, 0, a.layers) : 0;
}

int fullAttentionLayers(const AttentionShape& a) {
    return std::max(0, a.layers - windowedLayers(a) - std::max(0, a.linearLayers));
}

double recurrentStateBytes(const AttentionShape& a) {
    return std::max(0, a.linearLayers) * std::max(0.0, a.linearStateValues) * kRecurrentStateBytesPerValue;
}

double kvValuesPerLayerToken(const AttentionShape& a) {
    return a.latentDim > 0 ? static_cast<double>(a.latentDim) : 2.0 * a.kvHeads * a.headDim;
}

double kvCacheValues(const AttentionShape& a, double contextTokens) {
    const double tokens = std::max(0.0, contextTokens);
    const int sliding = windowedLayers(a);
    const double slidingTokens = std::min(tokens, static_cast<double>(a.slidingWindow));
    return kvValuesPerLayerToken(a) * (fullAttentionLayers(a) * tokens + sliding * slidingTokens);
}

double kvCacheValuesReservedWhole(const AttentionShape& a, double contextTokens) {
    AttentionShape whole = a;
    whole.slidingWindow = 0;
    whole.slidingLayers = 0;
    return kvCacheValues(whole, contextTokens);
}

namespace {

// Sum of min(x, window) over x = from..to (whole numbers, from >= 1): the positions up to the
// window add themselves, the rest the window each.
double sumCappedAt(double from, double to, double window) {
    const double last = std::min(to, window);
    const double upToWindow = last >= from ? (from + last) * (last - from + 1.0) / 2.0 : 0.0;
    const double beyond = std::max(0.0, to - std::max(window, from - 1.0));
    return upToWindow + beyond * window;
}

// Mean over t = 1..n of min(depth + t, window): token t of a prompt after `depth` cached tokens
// sees depth + t positions, a windowed layer no more than its window.
double meanSeen(double n, double depth, double window) {
    return sumCappedAt(depth + 1.0, depth + n, window) / n;
}

} // namespace

double meanAttendedPositions(const AttentionShape& a, double promptTokens, double depthTokens) {
    const double n = std::max(1.0, promptTokens);
    const double depth = std::max(0.0, depthTokens);
    const int sliding = windowedLayers(a);
    return fullAttentionLayers(a) * meanSeen(n, depth, depth + n) + sliding * meanSeen(n, depth, a.slidingWindow);
}

double attentionFlopsPerPromptToken(const AttentionShape& a, double promptTokens, double depthTokens) {
    return 4.0 * a.queryHeads * a.headDim * meanAttendedPositions(a, promptTokens, depthTokens);
}

} // namespace advisor::calc
