#include "calc/kv_cache.h"

#include <algorithm>

namespace advisor::calc {

double kvValuesPerLayerToken(const AttentionShape& a) {
    return a.latentDim > 0 ? static_cast<double>(a.latentDim) : 2.0 * a.kvHeads * a.headDim;
}

double kvCacheValues(const AttentionShape& a, double contextTokens) {
    const double tokens = std::max(0.0, contextTokens);
    const int sliding = a.slidingWindow > 0 ? std::clamp(a.slidingLayers, 0, a.layers) : 0;
    const double slidingTokens = std::min(tokens, static_cast<double>(a.slidingWindow));
    return kvValuesPerLayerToken(a) * ((a.layers - sliding) * tokens + sliding * slidingTokens);
}

} // namespace advisor::calc
