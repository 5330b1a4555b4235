#include "perf/attention_at_depth.h"

#include "common/format.h"

#include <algorithm>

namespace advisor::perf {
namespace {

constexpr const char* kNoteStart = "flash attention: ";

} // namespace

// Rates from the llama-bench runs in tests/fixtures/validation (validation_attention_depth_test
// recomputes both columns): far below the model's on most discrete cards, and on one machine
// 4x apart by the model's attention heads (the DGX Spark: Gemma 3 4B's 8 heads of 256 sharing 4
// KV heads the slowest, Qwen3 30B-A3B's 32 of 128 sharing 4 the fastest). No form fitted them all:
// a flat rate is refuted by the Spark's spread, a bandwidth bound by the Spark itself (round 51).
const std::vector<MeasuredAttentionRate>& measuredAttentionRates() {
    static const std::vector<MeasuredAttentionRate> rates{
        {"RTX 4090", "an RTX 4090", "CUDA", 37.0, 37.0, 110.1, "Qwen3.5 27B, build 8720, depths 0 and 32K"},
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
           ": read a long prompt's speed on most cards as an upper bound, and the expected error below as that of "
           "prompts on an empty cache";
}

bool hasAttentionAtDepthNote(const std::vector<std::string>& notes) {
    return std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.rfind(kNoteStart, 0) == 0; });
}

std::string attentionChartNote() {
    // The discrete cards: one rate each (the DGX Spark's spread is by model, around the model's).
    double least = 0, most = 0;
    int cards = 0;
    for (const auto& r : measuredAttentionRates()) {
        if (r.highTflops > r.lowTflops) {
            continue;
        }
        const double below = r.modelTflops / r.lowTflops;
        least = cards == 0 ? below : std::min(least, below);
        most = std::max(most, below);
        ++cards;
    }
    return "long prompts: llama.cpp's flash attention ran " + format::number(least, 1) + "-" + format::number(most, 0) +
           "x below the model's rate on the " + std::to_string(cards) +
           " discrete cards measured: read as upper bounds (each card's caveats)";
}

} // namespace advisor::perf
