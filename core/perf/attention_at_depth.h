#pragma once
/// \file
/// What llama.cpp was measured at on a deep cache, against the model: its flash attention in a
/// prompt (far below the FP16 tensor rate the model uses on most cards and builds, experiments
/// round 51; at it with a 2026 CUDA build on an RTX 4090, round 68) and its token
/// generation (falling faster than the cache's bytes, which the model's decodeCacheReadShare was
/// set on; rounds 53-54). The caveats a long prompt's and a deep cache's predictions carry.

#include "perf/constants.h"
#include "perf/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace advisor::perf {

/// One card's attention rate between two depths of llama-bench runs of one build:
/// (extra attention FLOPs per prompt token) / (extra seconds per token), over the models it ran.
struct MeasuredAttentionRate {
    std::string gpu;        ///< the catalog's name
    std::string label;      ///< as the note names it: "an RTX 4090"
    std::string backend;    ///< "CUDA", "ROCm", "SYCL"
    double lowTflops = 0;   ///< the slowest model's rate
    double highTflops = 0;  ///< the fastest model's (= low for one model)
    double modelTflops = 0; ///< the model's rate for the card (prefillAttentionTflops, 4-bit weights)
    std::string runs;       ///< which runs (tests/fixtures/validation)
};

/// The measured rates the note quotes (tests recompute them from the fixtures and the model).
const std::vector<MeasuredAttentionRate>& measuredAttentionRates();

/// Attention's share of a prompt's time from which the note is shown.
inline constexpr double kAttentionNoteShare = 0.10;

/// "flash attention: 52% of this prompt's time, run here at 110.1 TFLOPS ..." when attention
/// takes at least kAttentionNoteShare of the prompt's time, else nothing.
std::optional<std::string> attentionAtDepthNote(double attentionShare, double attentionTflops);

/// Whether a prediction's notes hold attentionAtDepthNote's.
bool hasAttentionAtDepthNote(const std::vector<std::string>& notes);

/// One same-build pair of token-generation runs, at depth 0 and after 32,768 cached tokens
/// (tests/fixtures/validation): the model over the measured speed at each.
struct MeasuredDecodeAtDepth {
    std::string gpu;             ///< the catalog's name
    std::string workload;        ///< the depth-0 row's workload; the deep row adds "@d32768"
    std::string file;            ///< its file in tests/fixtures/validation
    double modelOverMeasured0;   ///< at depth 0
    double modelOverMeasured32K; ///< after 32,768 tokens
};

/// The runs deepCacheDecodeNote quotes, with the model as shipped (a test recomputes both ratios
/// from the fixtures).
const std::vector<MeasuredDecodeAtDepth>& measuredDecodeAtDepth();

/// Cached tokens from which a token-generation prediction carries deepCacheDecodeNote.
inline constexpr double kDeepCacheNoteTokens = 16384;

/// "a deep cache: this model reads this f16 cache at 65% of the rate the weights stream at ... An
/// f16 cache's 65% is the share 6 same-build llama.cpp runs ... fell by ...; against its speed at
/// depth 0 the model ends from 11% below to 1% above them there. The same work per value gives
/// q8_0 50% and q4_0 34% ..." when the cache holds at least kDeepCacheNoteTokens, else nothing.
/// The shares are the constants' (perf::cacheReadShare).
std::optional<std::string> deepCacheDecodeNote(double cachedTokens, KvCacheType type, const ModelConstants& c);

/// A chart's one-line note when some of its prompts carry attentionAtDepthNote: "long prompts:
/// llama.cpp's flash attention ran 2.3-35x below the model's rate in 4 discrete cards' runs and
/// 1.1x it on an RTX 4090 (CUDA, build b10689) ...", from measuredAttentionRates.
std::string attentionChartNote();

} // namespace advisor::perf
