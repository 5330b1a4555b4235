#include "calc/kv_cache.h"

#include <algorithm>
#include <cmath>

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

// Sum of ((x - 1) mod chunk) + 1 over x = 1..n: each whole chunk adds 1..chunk, the last part 1..r.
double sumInChunksUpTo(double n, double chunk) {
    const double whole = std::floor(std::max(0.0, n) / chunk);
    const double rest = std::max(0.0, n) - whole * chunk;
    return whole * chunk * (chunk + 1.0) / 2.0 + rest * (rest + 1.0) / 2.0;
}

// Sum over x = from..to of the positions x sees in a windowed layer: min(x, window), or in a
// chunked one the positions since its chunk began.
double sumSeen(const AttentionShape& a, double from, double to) {
    if (a.chunked) {
        return sumInChunksUpTo(to, a.slidingWindow) - sumInChunksUpTo(from - 1.0, a.slidingWindow);
    }
    return sumCappedAt(from, to, a.slidingWindow);
}

} // namespace

double meanAttendedPositions(const AttentionShape& a, double promptTokens, double depthTokens) {
    const double n = std::max(1.0, promptTokens);
    const double depth = std::max(0.0, depthTokens);
    const int sliding = windowedLayers(a);
    return fullAttentionLayers(a) * sumCappedAt(depth + 1.0, depth + n, depth + n) / n +
           (sliding > 0 ? sliding * sumSeen(a, depth + 1.0, depth + n) / n : 0.0);
}

double kvCacheValuesRead(const AttentionShape& a, double contextTokens) {
    return contextTokens <= 0 || !a.chunked ? kvCacheValues(a, contextTokens)
                                            : meanKvCacheValuesRead(a, contextTokens, contextTokens);
}

double meanKvCacheValuesRead(const AttentionShape& a, double first, double last) {
    const double from = std::max(1.0, std::round(first));
    const double to = std::max(from, std::round(last));
    const int sliding = windowedLayers(a);
    const double count = to - from + 1.0;
    return kvValuesPerLayerToken(a) *
           (fullAttentionLayers(a) * (from + to) / 2.0 + (sliding > 0 ? sliding * sumSeen(a, from, to) / count : 0.0));
}

double attentionFlopsPerPromptToken(const AttentionShape& a, double promptTokens, double depthTokens) {
    return 4.0 * a.queryHeads * a.headDim * meanAttendedPositions(a, promptTokens, depthTokens);
}

} // namespace advisor::calc
