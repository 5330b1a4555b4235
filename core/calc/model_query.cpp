#include "calc/model_query.h"

#include "calc/kv_cache.h"

namespace advisor::calc {

void applyModelShape(perf::PerfQuery& q, const ModelShape& m) {
    q.llmParamsBillion = m.paramsBillion;
    q.llmActiveParamsBillion = m.activeParamsBillion;
    q.llmExperts = m.experts;
    q.llmExpertsPerToken = m.expertsPerToken;
    q.llmMoeLayerStep = m.moeLayerStep;
    q.llmLayers = m.layers;
    if (m.hidden > 0) {
        q.llmHidden = m.hidden;
    }
    if (m.vocab > 0) {
        q.llmOutputHeadParamsBillion = static_cast<double>(m.vocab) * m.hidden / 1e9;
    }
    const AttentionShape attention = attentionShapeOf(m);
    if (attention.latentDim == 0 && attention.kvHeads > 0) {
        q.llmQueryGroup = attention.queryHeads / attention.kvHeads; // grouped-query attention above 1
    }
    q.llmKvHeads = attention.latentDim == 0 ? attention.kvHeads : 0;
    q.llmLatentKv = attention.latentDim > 0;
    const double cached = static_cast<double>(q.llmDepthTokens) + q.llmContextTokens;
    q.llmKvCacheValues = kvCacheValuesRead(attention, cached);
    q.llmKvCacheValuesHeld.reset();
    if (attention.chunked) {
        q.llmKvCacheValuesHeld = kvCacheValues(attention, cached);
    }
    q.llmKvCacheValuesReserved.reset();
    if (attention.slidingWindow > 0) {
        q.llmKvCacheValuesReserved = kvCacheValuesReservedWhole(attention, cached);
    }
    q.llmRecurrentStateBytes = recurrentStateBytes(attention);
    q.llmPrefillAttentionFlops = attentionFlopsPerPromptToken(attention, q.llmContextTokens, q.llmDepthTokens);
    // A 4-bit release's own file (gpt-oss's MXFP4) is what either 4-bit choice reads.
    if ((q.llmWeights == perf::Precision::Int4 || q.llmWeights == perf::Precision::Fp4) && m.int4BitsPerWeight > 0) {
        q.llmWeightBits = m.int4BitsPerWeight;
        if (m.int4SharedBitsPerWeight > 0) {
            q.llmSharedWeightBits = m.int4SharedBitsPerWeight;
        }
    }
}

} // namespace advisor::calc
