#include "perf/llm_offload.h"

#include "common/format.h"
#include "common/text.h"
#include "perf/llm_inference.h"
#include "perf/terms.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
namespace {

// The vocabulary an unnamed model's output head is taken to have: Llama 3's.
constexpr double kDefaultVocabulary = 128256.0;

// The output head's bytes: at most half the weights a token reads (every token reads the head,
// so it is among a mixture of experts' shared weights, at their bits; a tiny model's head is not
// all of it).
double headBytes(const PerfQuery& q) {
    const double params =
        q.llmOutputHeadParamsBillion.value_or(kDefaultVocabulary * llamaLikeHidden(activeParamsBillion(q)) / 1e9);
    return std::min(weightParts(q).sharedBytes(params), 0.5 * llmWeightBytesRead(q, 1));
}

double gpuCapacityBytes(const Gpu& g, const PerfQuery& q) {
    return std::max(0.0, g.memoryGb - kGpuRuntimeReserveGb) * 1e9 * std::max(1, q.gpus);
}

// Whole layers on the GPUs, their KV cache with them; the output head on the CPU unless -ngl
// asks for more than the layers.
OffloadSplit splitByLayers(const PerfQuery& q, OffloadSplit s) {
    const double head = headBytes(q);
    const double bodyHeld = s.heldBytes - head;
    const double bodyRead = llmBytesPerStep(q) - head;
    if (q.llmGpuLayers) {
        s.gpuLayers = std::clamp(*q.llmGpuLayers, 0, s.layers + 1);
    } else {
        s.gpuLayers = bodyHeld <= s.gpuCapacityBytes
                          ? s.layers
                          : static_cast<int>(std::floor(s.layers * s.gpuCapacityBytes / bodyHeld));
    }
    s.headInRam = s.gpuLayers <= s.layers;
    const double onGpu = gpuLayerShare(s);
    const double headInRam = s.headInRam ? head : 0.0;
    s.ramHeldBytes = (1.0 - onGpu) * bodyHeld + headInRam;
    s.ramBytesPerStep = (1.0 - onGpu) * bodyRead + headInRam;
    s.gpuBytesPerStep = onGpu * bodyRead + (s.headInRam ? 0.0 : head);
    s.cpuLayersRun = s.layers - std::min(s.gpuLayers, s.layers);
    return s;
}

// Every layer on the GPUs, with the routed experts of the first --n-cpu-moe layers in RAM. Where only
// every step-th layer holds experts (llama.cpp's layer i when i + 1 is a multiple of the step), the
// first N layers hold N / step of them, and the CPU runs those.
OffloadSplit splitByExperts(const PerfQuery& q, OffloadSplit s, double sharedHeld, double routedHeld) {
    s.moeLayerStep = std::clamp(q.llmMoeLayerStep, 1, std::max(1, s.layers));
    const int mixtureLayers = s.layers / s.moeLayerStep;
    if (q.llmCpuMoeLayers) {
        s.cpuMoeLayers = std::clamp(*q.llmCpuMoeLayers, 0, s.layers);
    } else {
        const double routedOnGpu = std::max(0.0, s.gpuCapacityBytes - sharedHeld);
        const int needed = static_cast<int>(std::ceil(mixtureLayers * (1.0 - routedOnGpu / routedHeld) - 1e-9));
        s.cpuMoeLayers = std::min(s.layers, std::min(mixtureLayers, needed) * s.moeLayerStep);
    }
    const int cpuMixtureLayers = s.cpuMoeLayers / s.moeLayerStep;
    const double inRam = cpuMixtureLayers / static_cast<double>(mixtureLayers);
    // A step reads the routed experts its sequences' routers pick.
    const double routedRead = routedHeld * routedShareRead(q);
    s.expertsInRam = true;
    s.gpuLayers = s.layers;
    s.ramHeldBytes = inRam * routedHeld;
    s.ramBytesPerStep = inRam * routedRead;
    s.gpuBytesPerStep = llmBytesPerStep(q) - s.ramBytesPerStep;
    s.cpuLayersRun = cpuMixtureLayers;
    return s;
}

} // namespace

double gpuLayerShare(const OffloadSplit& split) {
    return split.expertsInRam ? 1.0 : std::min(split.gpuLayers, split.layers) / static_cast<double>(split.layers);
}

int llmLayersOf(const PerfQuery& q) {
    return q.llmLayers > 0 ? q.llmLayers : llamaLikeLayers(activeParamsBillion(q));
}

double llamaLikeHidden(double paramsBillion) {
    return std::max(128.0, std::round(std::cbrt(paramsBillion * 1e9 / 0.09375) / 128.0) * 128.0);
}

int llamaLikeLayers(double paramsBillion) {
    return std::max(1, static_cast<int>(std::lround(llamaLikeHidden(paramsBillion) / 128.0)));
}

std::optional<SystemRam> parseSystemRam(std::string_view text, std::string* problem) {
    const std::string t = text::toLower(text::trim(text));
    const auto fail = [&](const std::string& why) -> std::optional<SystemRam> {
        if (problem != nullptr) {
            *problem = why;
        }
        return std::nullopt;
    };
    if (const auto gbs = text::parseNumber(t).value) {
        if (!(*gbs > 0 && *gbs <= kMaxSystemRamGbs)) {
            return fail("must be above 0 and at most " + format::number(kMaxSystemRamGbs, 0) + " GB/s, got " +
                        text::quoteForMessage(text));
        }
        return SystemRam{*gbs, format::trimmed(*gbs, 1) + " GB/s"};
    }
    const std::string usage = "expected a DDR kind and speed such as ddr5-5600 or ddr4-3200x4 (x channels; "
                              "default 2), or GB/s such as 89.6; got " +
                              text::quoteForMessage(text);
    const size_t dash = t.find('-');
    if (dash == std::string::npos ||
        (t.compare(0, dash, "ddr3") != 0 && t.compare(0, dash, "ddr4") != 0 && t.compare(0, dash, "ddr5") != 0)) {
        return fail(usage);
    }
    const std::string kind = "DDR" + t.substr(3, dash - 3);
    std::string rest = t.substr(dash + 1);
    long long channels = 2;
    if (const size_t x = rest.find('x'); x != std::string::npos) {
        const auto n = text::parseInteger(rest.substr(x + 1));
        if (!n || *n < 1 || *n > 24) {
            return fail("channels must be a whole number from 1 to 24 (ddr5-5600x4); got " +
                        text::quoteForMessage(text));
        }
        channels = *n;
        rest.resize(x);
    }
    const auto speed = text::parseInteger(rest);
    if (!speed) {
        return fail(usage);
    }
    if (*speed < 800 || *speed > 12800) {
        return fail("the speed must be 800 to 12,800 MT/s (ddr5-5600); got " + text::quoteForMessage(text));
    }
    // Each channel moves 8 bytes per transfer.
    const double gbs = static_cast<double>(*speed) * 8.0 * static_cast<double>(channels) / 1000.0;
    const std::string width = channels == 1   ? "single-channel"
                              : channels == 2 ? "dual-channel"
                              : channels == 4 ? "quad-channel"
                              : channels == 8 ? "eight-channel"
                                              : std::to_string(channels) + "-channel";
    return SystemRam{gbs, width + " " + kind + "-" + std::to_string(*speed)};
}

bool offloads(const Gpu& g, const PerfQuery& q) {
    // A prompt copies what is in RAM to the GPU; a complete computer's GPU reads that memory itself.
    const bool promptCopied = q.metric == Metric::LlmPrefill && !g.isCompleteSystem();
    if (q.metric != Metric::LlmDecode && !promptCopied) {
        return false;
    }
    // A complete computer (DGX Spark, Strix Halo) has no RAM beside its unified memory for the rest
    // of a model that does not fit: only layers the user puts on its CPU (-ngl) run outside the GPU.
    const bool moreRamOutside = q.systemRamGbs && !g.isCompleteSystem();
    return q.llmGpuLayers.has_value() || q.llmCpuMoeLayers.has_value() || (moreRamOutside && !llmFits(g, q));
}

OffloadSplit planOffload(const Gpu& g, const PerfQuery& q) {
    OffloadSplit s;
    s.gpuCapacityBytes = gpuCapacityBytes(g, q);
    s.heldBytes = llmBytesHeld(q);
    s.layers = llmLayersOf(q);
    if (expertRoutingKnown(q) && !(q.llmGpuLayers && !q.llmCpuMoeLayers)) {
        // The shared part (attention, embeddings, a shared expert) stays on the GPUs first.
        const WeightParts w = weightParts(q);
        const double routedHeld = w.routedBytes(w.routedBillion);
        const double sharedHeld = s.heldBytes - routedHeld;
        if (q.llmCpuMoeLayers || sharedHeld <= s.gpuCapacityBytes) {
            s = splitByExperts(q, s, sharedHeld, routedHeld);
        } else {
            s = splitByLayers(q, s);
        }
    } else {
        s = splitByLayers(q, s);
    }
    s.overCapacity = s.heldBytes - s.ramHeldBytes > s.gpuCapacityBytes * (1.0 + 1e-9);
    return s;
}

double cpuSecondsPerStep(const OffloadSplit& split, double ramGbs) {
    return cpuSecondsPerStep(split, ramGbs, kRamReadEfficiency, kCpuLayerMs);
}

double cpuSecondsPerStep(const OffloadSplit& split, double ramGbs, double ramReadEfficiency, double cpuLayerMs) {
    return split.ramBytesPerStep / (ramGbs * ramReadEfficiency * 1e9) + split.cpuLayersRun * cpuLayerMs / 1000.0;
}

std::string offloadPlacement(const OffloadSplit& s) {
    std::string text = format::number(s.ramHeldBytes / 1e9, 1) + " of " + format::number(s.heldBytes / 1e9, 1) +
                       " GB stay in system RAM: ";
    if (s.expertsInRam) {
        const std::string placement =
            "llama.cpp -ngl " + std::to_string(s.layers + 1) + " --n-cpu-moe " + std::to_string(s.cpuMoeLayers);
        if (s.moeLayerStep > 1) {
            return text + "the routed experts of " + std::to_string(s.cpuMoeLayers / s.moeLayerStep) + " of its " +
                   std::to_string(s.layers / s.moeLayerStep) + " mixture layers (one layer in " +
                   std::to_string(s.moeLayerStep) + " holds experts: those among the first " +
                   std::to_string(s.cpuMoeLayers) + " of " + std::to_string(s.layers) + " layers; " + placement + ")";
        }
        return text + "the routed experts of " + std::to_string(s.cpuMoeLayers) + " of " + std::to_string(s.layers) +
               " layers (" + placement + ")";
    }
    if (!s.headInRam) {
        return text + "none: every layer and the output head on the GPU (llama.cpp -ngl " +
               std::to_string(s.gpuLayers) + ")";
    }
    return text + std::to_string(std::min(s.gpuLayers, s.layers)) + " of " + std::to_string(s.layers) +
           " layers on the GPU, the rest and the output head on the CPU (llama.cpp -ngl " +
           std::to_string(s.gpuLayers) + ")";
}

PerfQuery allOnGpus(PerfQuery q) {
    q.systemRamGbs.reset();
    q.llmGpuLayers.reset();
    q.llmCpuMoeLayers.reset();
    return q;
}

std::string offloadDetail(const OffloadSplit& s, const PerfQuery& q) {
    const double ram = q.systemRamGbs.value_or(kDefaultSystemRamGbs);
    return offloadPlacement(s) + "; each token the CPU reads " + format::number(s.ramBytesPerStep / 1e9, 2) +
           " GB from RAM of " + format::trimmed(ram, 1) + " GB/s at " + format::percent(kRamReadEfficiency, 0) +
           " of it, and spends " + format::number(kCpuLayerMs, 2) + " ms on each of the " +
           std::to_string(s.cpuLayersRun) + " layers it runs (both fitted on llama.cpp runs), while the GPU reads " +
           format::number(s.gpuBytesPerStep / 1e9, 2) + " GB";
}

std::string overCapacityNote(const OffloadSplit& s) {
    return "does not fit: this placement puts " + format::number((s.heldBytes - s.ramHeldBytes) / 1e9, 1) +
           " GB on the GPUs, which give " + format::number(s.gpuCapacityBytes / 1e9, 1) +
           " GB to weights and KV cache (" + format::number(kGpuRuntimeReserveGb, 0) +
           " GB each goes to the runtime); llama.cpp would fail to load it";
}

std::optional<std::string> promptPlacementNote(const Gpu& g, const PerfQuery& q) {
    if (q.metric != Metric::LlmPrefill || !g.isCompleteSystem() || !(q.llmGpuLayers || q.llmCpuMoeLayers)) {
        return std::nullopt;
    }
    const std::string placement = q.llmCpuMoeLayers ? "--n-cpu-moe " + std::to_string(*q.llmCpuMoeLayers)
                                                    : "-ngl " + std::to_string(*q.llmGpuLayers);
    return "llama.cpp " + placement + " is not applied to this prompt, shown with every layer on the GPU: llama.cpp "
           "multiplies a prompt's large batches on the GPU even for the layers it keeps on the CPU, and here the GPU "
           "shares the CPU's memory, so no copy over a link is counted; what that path costs is not modelled (token "
           "generation, which runs those layers on the CPU, is)";
}

std::string doesNotFitNote(const Gpu& g, const PerfQuery& q, std::optional<double> offloadedTokensPerSecond) {
    const int n = std::max(1, q.gpus);
    std::string text = "does not fit: the weights and KV cache alone take " + format::number(llmBytesHeld(q) / 1e9, 1) +
                       " GB, " + (n > 1 ? std::to_string(n) + " x " : std::string()) + g.name +
                       (n > 1 ? " hold " : " holds ") + format::number(g.memoryGb * n, 0) +
                       " GB; the speed shown assumes they fit";
    if (g.isCompleteSystem()) {
        return text + ": a complete computer has no RAM beside its unified memory for the rest; more of them "
                      "(llama.cpp's RPC backend over the network) or smaller weights would make it fit";
    }
    if (!offloadedTokensPerSecond) {
        return text + " (layers left on the CPU run many times slower); more GPUs or smaller weights would make "
                      "it fit";
    }
    PerfQuery offloaded = q;
    offloaded.systemRamGbs = kDefaultSystemRamGbs;
    return text + ". With the rest in " + kDefaultSystemRamLabel + " RAM (" + format::number(kDefaultSystemRamGbs, 1) +
           " GB/s, an assumed desktop's), about " + format::number(*offloadedTokensPerSecond, 1) +
           " tokens/s: " + offloadPlacement(planOffload(g, offloaded)) +
           ". More GPUs or smaller weights would make it fit";
}

PrefillOffload prefillOffload(const Gpu& g, const PerfQuery& q, double tokensIfFits) {
    PerfQuery decode = q;
    decode.metric = Metric::LlmDecode;
    PrefillOffload o;
    o.split = planOffload(g, decode);
    const int perStep = prefillTokensPerStep(q);
    // Of what stays in RAM, the routed experts a step's tokens do not pick are not copied.
    double routedInRam = 0;
    if (expertRoutingKnown(q)) {
        const WeightParts w = weightParts(q);
        routedInRam = o.split.expertsInRam ? o.split.ramHeldBytes
                                           : (1.0 - gpuLayerShare(o.split)) * w.routedBytes(w.routedBillion);
        o.expertsPickedShare = promptExpertsPickedShare(q, perStep);
    }
    o.copiedBytesPerStep = o.split.ramHeldBytes - (1.0 - o.expertsPickedShare) * routedInRam;
    o.pcieGbs = pcieGbsPerDirection(g.pcieGen, g.pcieLanes);
    const double ramGbs = q.systemRamGbs.value_or(kDefaultSystemRamGbs) * kRamReadEfficiency;
    o.copyGbs = std::min(o.pcieGbs * kPcieCopyEfficiency, ramGbs);
    o.ramBindsCopy = ramGbs < o.pcieGbs * kPcieCopyEfficiency;
    const int tokens = std::max(1, q.llmContextTokens);
    const double steps = std::ceil(double(tokens) / perStep);
    o.copySecondsPerToken = o.copiedBytesPerStep * steps / tokens / (o.copyGbs * 1e9);
    o.tokensPerSecond = 1.0 / (1.0 / tokensIfFits + o.copySecondsPerToken);
    return o;
}

std::string prefillCopyDetail(const Gpu& g, const PerfQuery& q, const PrefillOffload& o) {
    const bool someExperts = expertRoutingKnown(q) && o.expertsPickedShare < 1.0 - 1e-9;
    const std::string ram =
        q.systemRamGbs ? format::trimmed(*q.systemRamGbs, 1) + " GB/s" : std::string(kDefaultSystemRamLabel);
    std::string text = "each step of up to " + format::number(q.llmMicroBatchTokens, 0) +
                       " prompt tokens (the micro-batch, -ub) runs on the GPU (steps of 32 or more do, PR #6083), "
                       "which first copies there the " +
                       format::number(o.copiedBytesPerStep / 1e9, 1) + " of the " +
                       format::number(o.split.ramHeldBytes / 1e9, 1) + " GB in RAM that the step uses";
    if (someExperts) {
        text += " (" + format::percent(o.expertsPickedShare, 0) +
                " of the routed experts: a prompt's tokens pick alike, as " +
                format::number(std::pow(prefillTokensPerStep(q), kPromptPicksExponent), 0) +
                " independent tokens would; PR #15346)";
    }
    text += " over PCIe " + std::to_string(g.pcieGen) + ".0 x" + std::to_string(g.pcieLanes) + " at about " +
            format::number(o.copyGbs, 1) + " GB/s (";
    if (o.ramBindsCopy) {
        return text + "what the " + ram + " RAM gives at " + format::percent(kRamReadEfficiency, 0) +
               " of its rate, below the link's " + format::number(o.pcieGbs, 1) + ")";
    }
    return text + format::percent(kPcieCopyEfficiency, 0) + " of its " + format::number(o.pcieGbs, 1) +
           ", fitted on an RTX 3090's prompts)";
}

std::string prefillOffloadDetail(const Gpu& g, const PerfQuery& q, const PrefillOffload& o) {
    return offloadPlacement(o.split) + "; " + prefillCopyDetail(g, q, o);
}

std::string prefillOffloadNote(const Gpu& g, const PerfQuery& q, const PrefillOffload& o) {
    return "a prompt with the rest in RAM: " + prefillCopyDetail(g, q, o);
}

} // namespace advisor::perf
