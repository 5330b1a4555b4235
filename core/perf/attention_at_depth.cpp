#include "perf/attention_at_depth.h"

#include "common/format.h"
#include "perf/terms.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace advisor::perf {
namespace {

constexpr const char* kNoteStart = "flash attention: ";

// The least and the most of some measured ratios, as a note quotes their range.
std::pair<double, double> rangeOf(const std::vector<double>& values) {
    const auto [least, most] = std::minmax_element(values.begin(), values.end());
    return {*least, *most};
}

} // namespace

// Rates from the llama-bench runs in tests/fixtures/validation (validation_attention_depth_test
// recomputes both columns): far below the model's on most discrete cards, and on one machine
// 4x apart by the model's attention heads (the DGX Spark: Gemma 3 4B's 8 heads of 256 sharing 4
// KV heads the slowest, Qwen3 30B-A3B's 32 of 128 sharing 4 the fastest). No form fitted them all:
// a flat rate is refuted by the Spark's spread, a bandwidth bound by the Spark itself (round 51).
const std::vector<MeasuredAttentionRate>& measuredAttentionRates() {
    static const std::vector<MeasuredAttentionRate> rates{
        {"RTX 4090", "an RTX 4090", "CUDA, build 8720", 37.0, 37.0, 110.1, "Qwen3.5 27B, build 8720, depths 0 and 32K"},
        // Four months on (round 68): whole prompts of 30K and 88K tokens of the same architecture.
        {"RTX 4090", "an RTX 4090", "CUDA, build b10689", 122.0, 122.0, 110.1,
         "Qwen3.8 27B, build b10689, prompts of 30,029 and 88,029 tokens"},
        {"RX 7900 XTX", "an RX 7900 XTX", "ROCm", 35.9, 35.9, 81.9, "Llama 3 8B, PR #26284, depths 0 and 4K"},
        {"RX 9060 XT 16GB", "an RX 9060 XT", "ROCm", 15.3, 15.3, 68.4,
         "Llama 3 8B, PR #28102 master, depths 4K and 32K"},
        {"Arc Pro B70", "an Arc Pro B70", "SYCL", 3.5, 3.5, 122.3, "Qwen3.5 27B, build b8840, pp512 and pp32768"},
        {"DGX Spark", "a DGX Spark", "CUDA", 14.4, 56.1, 23.3, "five models, depths 0 and 32K"},
    };
    return rates;
}

std::optional<std::string> attentionAtDepthNote(double attentionShare, double attentionTflops) {
    if (attentionShare < kAttentionNoteShare) {
        return std::nullopt;
    }
    const auto tflops = [](double v) { return format::number(v, v < 10 ? 1 : 0); };
    const auto& rates = measuredAttentionRates();
    std::string measured;
    for (size_t i = 0; i < rates.size(); ++i) {
        const auto& r = rates[i];
        const char* separator = i == 0 ? "" : i + 1 == rates.size() ? " and " : ", ";
        measured += separator + tflops(r.lowTflops) +
                    (r.highTflops > r.lowTflops ? "-" + tflops(r.highTflops) : std::string()) +
                    (i == 0 ? " TFLOPS on " : " on ") + r.label + " (" + r.backend +
                    (i == 0 ? "; this model: " : "; ") + tflops(r.modelTflops) + ")" +
                    (r.highTflops > r.lowTflops ? " as the model's attention heads varied" : "");
    }
    return kNoteStart + format::percent(attentionShare, 0) + " of this prompt's time, run here at " +
           format::number(attentionTflops, 1) +
           " TFLOPS (the FP16 matmul rate); llama.cpp builds of 2025-26 ran it on a deep cache at " + measured +
           ": read a long prompt's speed as an upper bound where a card's build ran it below this model's rate, and "
           "the expected error below as that of prompts on an empty cache";
}

bool hasAttentionAtDepthNote(const std::vector<std::string>& notes) {
    return std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.rfind(kNoteStart, 0) == 0; });
}

std::string attentionChartNote() {
    // The discrete cards' runs: one rate each (the DGX Spark's spread is by model, around the
    // model's), most below the model's rate, a newer CUDA build at or above it (round 68).
    std::vector<double> below;
    std::string atOrAbove;
    for (const auto& r : measuredAttentionRates()) {
        if (r.highTflops != r.lowTflops) {
            continue;
        }
        if (r.lowTflops < r.modelTflops) {
            below.push_back(r.modelTflops / r.lowTflops);
        } else {
            atOrAbove += (atOrAbove.empty() ? "" : "; ") + format::number(r.lowTflops / r.modelTflops, 1) + "x it on " +
                         r.label + " (" + r.backend + ")";
        }
    }
    const auto [least, most] = rangeOf(below);
    return "long prompts: llama.cpp's flash attention ran " + format::number(least, 1) + "-" + format::number(most, 0) +
           "x below the model's rate in " + std::to_string(below.size()) + " discrete cards' runs" +
           (atOrAbove.empty() ? std::string() : " and " + atOrAbove) +
           ": read as upper bounds with such builds (each card's caveats)";
}

// Token generation on a deep cache: the model reads the cache at decodeCacheReadShare of the
// weights' rate, the share these six same-build pairs fell by (experiments, rounds 53 and 54).
const std::vector<MeasuredDecodeAtDepth>& measuredDecodeAtDepth() {
    static const std::vector<MeasuredDecodeAtDepth> runs{
        {"DGX Spark", "qwen2.5-7b-q8_0-tg32", "llamacpp-dgx-spark-2025.csv", 1.022, 0.989},
        {"DGX Spark", "qwen3-30b-a3b-q8_0-tg32", "llamacpp-dgx-spark-2025.csv", 1.041, 0.931},
        {"DGX Spark", "gpt-oss-20b-mxfp4-tg32", "llamacpp-dgx-spark-2025.csv", 0.981, 0.988},
        {"DGX Spark", "gpt-oss-120b-mxfp4-tg32", "llamacpp-dgx-spark-2025.csv", 1.071, 1.051},
        {"DGX Spark", "gemma3-4b-q4_0-tg32", "llamacpp-dgx-spark-2025.csv", 1.118, 1.069},
        {"RTX 4090", "qwen3.5-27b-q4kxl-tg64", "llamacpp-qwen35-27b-2026.csv", 1.150, 1.164},
    };
    return runs;
}

std::optional<std::string> deepCacheDecodeNote(double cachedTokens, KvCacheType type, const ModelConstants& c) {
    if (cachedTokens < kDeepCacheNoteTokens) {
        return std::nullopt;
    }
    const auto& runs = measuredDecodeAtDepth();
    // Each run's change from depth 0 to 32K, the model's against the measured: below 0 the model
    // fell further than the run.
    std::vector<double> change;
    for (const auto& run : runs) {
        change.push_back(run.modelOverMeasured32K / run.modelOverMeasured0 - 1.0);
    }
    const auto [least, most] = rangeOf(change);
    const auto side = [](double x) { return format::percent(std::fabs(x), 0) + (x < 0 ? " below" : " above"); };
    const auto share = [&](KvCacheType t) { return format::percent(cacheReadShare(t, c), 0); };
    return "a deep cache: this model reads this " + std::string(toString(type)) + " cache at " + share(type) +
           " of the rate the weights stream at (the decode kernel's work on each cached value beside its bytes). "
           "An f16 cache's " +
           share(KvCacheType::F16) + " is the share " + std::to_string(runs.size()) +
           " same-build llama.cpp runs (a DGX Spark, five models; an RTX 4090) fell by from depth 0 to 32K cached "
           "tokens; against its speed at depth 0 the model ends from " +
           side(least) + " to " + side(most) + " them there. The same work per value gives q8_0 " +
           share(KvCacheType::Q8_0) + " and q4_0 " + share(KvCacheType::Q4_0) +
           ", as two llama.cpp servers' runs fell to 241K and 64K tokens: deeper caches are checked on those two "
           "alone";
}

} // namespace advisor::perf
