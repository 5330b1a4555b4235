#include "perf/llm_throughput.h"

#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

// One token multiplied by `billion` parameters at the prompt's matmul rate (its clock and fitted
// efficiency): prompt processing's weight time, and each further sequence's in token generation.
double matmulSecondsPerToken(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c, double billion) {
    return 2.0 * billion * 1e9 /
           (prefillMatmulTflops(s, q.llmWeights, c) * s.denseMatmulClock * 1e12 *
            c.prefillComputeEfficiency[isSixteenBit(q.llmWeights) ? 0 : 1]);
}

double weightMatmulSecondsPerToken(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c) {
    return matmulSecondsPerToken(s, q, c, activeParamsBillion(q));
}

} // namespace

PrefillWeightTime prefillWeightTime(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c) {
    // A prompt of N tokens runs in steps of U (llama.cpp's micro-batch); each step reads every
    // weight its tokens use once, so a token's share of the reads is steps x bytes / N.
    const int tokens = std::max(1, q.llmContextTokens);
    const double steps = std::ceil(double(tokens) / prefillTokensPerStep(q));
    const double secondsPerByte = steps / tokens / (s.bandwidthGbs * c.decodeBandwidthEfficiency * 1e9);
    // Each part waits for the longer of its multiplies and its reads: a dense model's matmuls do
    // hundreds of FLOPs per byte read, but a mixture of experts' routed experts each multiply only
    // U x k / E of the step's tokens (gpt-oss-120b at U = 512: 16) while all E are read.
    PrefillWeightTime t;
    const auto part = [&](double multipliedBillion, double bytesRead) {
        const double multiplies = matmulSecondsPerToken(s, q, c, multipliedBillion);
        t.multiplySeconds += multiplies;
        if (c.prefillWeightReads) {
            t.readWaitSeconds += std::max(0.0, bytesRead * secondsPerByte - multiplies);
        }
    };
    const int perStep = prefillTokensPerStep(q);
    if (!expertRoutingKnown(q)) {
        part(activeParamsBillion(q), llmWeightBytesRead(q, perStep));
        return t;
    }
    const WeightParts w = weightParts(q);
    part(w.sharedBillion, w.sharedBytes(w.sharedBillion));
    // Each routed expert's few tokens are padded to whole matmul tiles (routedTilePadding).
    const double tile = quantizedTileTokens(s.tensorCores);
    const double padding = c.prefillExpertTiles ? routedTilePadding(q, perStep, tile) : 1.0;
    part((activeParamsBillion(q) - w.sharedBillion) * padding,
         w.routedBytes(w.routedBillion * promptExpertsPickedShare(q, perStep)));
    return t;
}

std::optional<int> microBatchCoveringReads(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c) {
    if (prefillWeightTime(s, q, c).readWaitSeconds <= 0) {
        return std::nullopt;
    }
    PerfQuery larger = q;
    for (int ub = 2 * prefillTokensPerStep(q); ub <= 65536; ub *= 2) {
        larger.llmMicroBatchTokens = ub;
        larger.llmContextTokens = std::max(q.llmContextTokens, ub);
        if (prefillWeightTime(s, larger, c).readWaitSeconds <= 0) {
            return ub;
        }
    }
    return std::nullopt;
}

std::string prefillReadsFactorDetail(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q,
                                     const ModelConstants& c) {
    std::string detail = prefillReadsDetail(q);
    const auto ub = microBatchCoveringReads(s, q, c);
    if (!ub) {
        return detail;
    }
    PerfQuery larger = q;
    larger.llmMicroBatchTokens = *ub;
    larger.llmContextTokens = std::max(q.llmContextTokens, *ub);
    if (q.llmPrefillAttentionFlops) { // a longer prompt attends to more (full attention's share)
        const auto attended = [&](int n) { return q.llmDepthTokens + (std::max(1, n) + 1.0) / 2.0; };
        larger.llmPrefillAttentionFlops =
            *q.llmPrefillAttentionFlops * attended(larger.llmContextTokens) / attended(q.llmContextTokens);
    }
    return detail + " (a micro-batch of " + format::number(*ub, 0) + " covers them: about " +
           format::number(modelThroughput(s, g, larger, c), 0) + " tokens/s for a " +
           format::number(larger.llmContextTokens, 0) + "-token prompt)";
}

double decodeThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                        Prediction* out) {
    const int n = std::max(1, q.gpus);
    const int sequences = std::max(1, q.llmSequences);
    double gpuBytes = llmBytesPerStep(q);
    // What the CPU reads from system RAM and the layers it runs, when part of the model is there.
    double ramSeconds = 0;
    std::optional<OffloadSplit> split;
    if (offloads(g, q)) {
        split = planOffload(g, q);
        gpuBytes = split->gpuBytesPerStep;
        ramSeconds = cpuSecondsPerStep(*split, q.systemRamGbs.value_or(kDefaultSystemRamGbs));
    }
    // Beside its bytes, each cached value the sequences' attention reads on the GPUs (a layer
    // split's on its layers) costs the decode kernel's work on it, the same whatever the cache's
    // type (decodeCacheWorkBytes).
    const double gpuCacheValues = sequences * attentionCacheValues(q) * (split ? gpuLayerShare(*split) : 1.0);
    const double memorySeconds =
        (gpuBytes + gpuCacheValues * decodeCacheWorkBytes(c)) / (decodeBandwidthGbs(s, c) * 1e9);
    // One sequence's multiplies hide under its reads (what the calibrated decode is); each
    // further sequence generating with it adds its 2 x active parameters FLOPs at the prompt's
    // matmul rate: a small batch's matmuls do not overlap with their reads.
    const double computeSeconds = sequences == 1 ? 0.0 : (sequences - 1) * weightMatmulSecondsPerToken(s, q, c);
    // A layer split reads each card's share of the bytes in turn, so more cards add memory, not
    // bandwidth; each boundary between them adds a hand-over of the token.
    const double overheadSeconds = c.decodeOverheadMs / 1000.0;
    const double hopSeconds = (n - 1) * c.decodeHopMs / 1000.0;
    const double stepSeconds = memorySeconds + computeSeconds + overheadSeconds + ramSeconds;
    if (out != nullptr) {
        out->memoryShare = memorySeconds / stepSeconds;
        out->computeShare = computeSeconds / stepSeconds;
        out->overheadShare = overheadSeconds / stepSeconds;
        out->systemRamShare = ramSeconds / stepSeconds;
        // the batch's multiplies and the reads' own work at the core clock, not the fixed time
        out->clockBoundShare = kDecodeReadsClockBoundShare * out->memoryShare + out->computeShare;
        out->singleGpu = sequences / stepSeconds;
        out->offload = split;
    }
    return sequences / (stepSeconds + hopSeconds);
}

// Attention multiplies FP16 queries, keys and values with FP32 sums (flash attention's softmax):
// the FP16 tensor rate with FP32 accumulation, GeForce's half rate.
double prefillAttentionTflops(const EffectiveSpecs& s, Precision weights, const ModelConstants& c) {
    return computeRoofTflops(s, Metric::Fp16Training) * s.denseMatmulClock *
           c.prefillComputeEfficiency[isSixteenBit(weights) ? 0 : 1];
}

double prefillThroughput(const EffectiveSpecs& s, const PerfQuery& q, const ModelConstants& c, Prediction* out) {
    const size_t k = isSixteenBit(q.llmWeights) ? 0 : 1;
    const PrefillWeightTime weights = prefillWeightTime(s, q, c);
    const double readWaitSeconds = weights.readWaitSeconds;
    const double attentionSeconds =
        c.prefillAttention ? prefillAttentionFlops(q) / (prefillAttentionTflops(s, q.llmWeights, c) * 1e12) : 0.0;
    const double computeSeconds = weights.multiplySeconds + attentionSeconds;
    const double overheadSeconds = c.prefillOverheadUsPerBillionParams[k] * activeParamsBillion(q) / 1e6;
    const double totalSeconds = computeSeconds + readWaitSeconds + overheadSeconds;
    const double tokens = 1.0 / totalSeconds;
    if (out != nullptr) {
        out->computeShare = computeSeconds / totalSeconds;
        out->memoryShare = readWaitSeconds / totalSeconds;
        out->overheadShare = overheadSeconds / totalSeconds;
        out->clockBoundShare = out->computeShare;
        out->singleGpu = tokens;
    }
    return tokens;
}

double prefillThroughput(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                         Prediction* out) {
    if (!offloads(g, q)) {
        return prefillThroughput(s, q, c, out);
    }
    // The GPU runs the prompt as if the model fitted, waiting for each step's copy of what is in
    // system RAM.
    const PrefillOffload o = prefillOffload(g, q, prefillThroughput(s, allOnGpus(q), c, out));
    if (out != nullptr) {
        const double gpuShare = 1.0 - o.copySecondsPerToken * o.tokensPerSecond;
        out->computeShare *= gpuShare;
        out->memoryShare *= gpuShare;
        out->overheadShare *= gpuShare;
        out->clockBoundShare *= gpuShare;
        out->systemRamShare = 1.0 - gpuShare;
        out->singleGpu = o.tokensPerSecond;
        out->offload = o.split;
    }
    return o.tokensPerSecond;
}

} // namespace advisor::perf
