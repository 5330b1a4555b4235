#include "calc/kv_cache.h"

#include <algorithm>

namespace advisor::calc {

int windowedLayers(const AttentionShape& a) {
    return a.slidingWindow > 0 ? std::clamp(a.slidingLayers, 0, a.layers) : 0;
}

double kvValuesPerLayerToken(const AttentionShape& a) {
    return a.latentDim > 0 ? static_cast<double>(a.latentDim) : 2.0 * a.kvHeads * a.headDim;
}

double kvCacheValues(const AttentionShape& a, double contextTokens) {
    const double tokens = std::max(0.0, contextTokens);
    const int sliding = windowedLayers(a);
    const double slidingTokens = std::min(tokens, static_cast<double>(a.slidingWindow));
    return kvValuesPerLayerToken(a) * ((a.layers - sliding) * tokens + sliding * slidingTokens);
}

namespace {

// Mean over t = 1..n of min(t, window): all of them within the window, the window after it.
double meanSeen(double n, double window) {
    if (n <= window) {
        return (n + 1.0) / 2.0;
    }
    return (window * (window + 1.0) / 2.0 + (n - window) * window) / n;
}

} // namespace

double meanAttendedPositions(const AttentionShape& a, double promptTokens) {
    const double n = std::max(1.0, promptTokens);
    const int sliding = windowedLayers(a);
    return (a.layers - sliding) * meanSeen(n, n) + sliding * meanSeen(n, a.slidingWindow);
}

double attentionFlopsPerPromptToken(const AttentionShape& a, double promptTokens) {
    return 4.0 * a.queryHeads * a.headDim * meanAttendedPositions(a, promptTokens);
}

} // namespace advisor::calc
