// The explanation of a serving-engine prediction (explainServing): the bound, the roofs, and how
// far each of the engine's terms moves the figure.
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_throughput.h"
#include "perf/serving_engine.h"
#include "perf/serving_steps.h"
#include "perf/terms.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {
using namespace serving;

namespace {

// "the weights read once (2.24 ms), 128 tokens' matmuls and attention (1.32 ms) and the step's
// fixed 2.24 ms; 5.80 ms to the first token, so a short prompt's tokens come slower (...)"
std::string promptStepDetail(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c) {
    const int tokens = std::max(1, q.llmContextTokens);
    const StepTimes t = promptStep(s, g, q, c, {}, tokens);
    const auto ms = [](double seconds) { return format::number(seconds * 1000.0, seconds < 0.01 ? 2 : 1) + " ms"; };
    return "the weights read once (" + ms(t.weightReads) + "), " + format::number(tokens, 0) + " tokens' matmuls and " +
           "attention (" + ms(t.multiplies) + ")" +
           (t.allReduce > 0 ? ", their all-reduces (" + ms(t.allReduce) + ")" : std::string()) +
           " and the step's fixed " + ms(t.overhead) + "; " + ms(t.total()) +
           " to the first token, so a short prompt's tokens come slower (TensorRT-LLM 0.9's first-token latencies: "
           "`gpu-advisor eval-serving`)";
}

// The matmuls' roof in words: at the clock the card sustains under dense matmuls where its board
// power holds it below the boost clock (the "board power" factor says by how much).
std::string roofText(const EffectiveSpecs& s, const Prediction& p, const std::string& what = {}) {
    return format::number(p.computeRoofTflops, 0) + " TFLOPS" + what +
           (s.denseMatmulClock < 1.0
                ? " at its sustained clock, " + format::percent(s.denseMatmulClock, 0) + " of the boost clock"
                : std::string());
}

// The tensor rate the weights are multiplied at, in words (servingMatmulTflops).
std::string matmulRateText(const EffectiveSpecs& s, Precision weights) {
    if (weights == Precision::Int8 || weights == Precision::Fp8) {
        return "an 8-bit checkpoint on the 8-bit tensor cores";
    }
    if (weights == Precision::Fp4) {
        return s.fourBitTflops > 0 ? "NVFP4 on the FP4 tensor cores, " + format::percent(kServingFp4RateShare, 0) +
                                         " of their " + format::number(s.fourBitTflops, 0) + " (fitted)"
                                   : "NVFP4 multiplied in FP16: this card has no FP4 tensor cores";
    }
    return "FP16 with FP32 sums";
}

// The factor of a split by layers against one card that held the whole model; for one prompt,
// which gains nothing from it, a note.
template <typename Add>
void explainPipeline(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c, Prediction& p,
                     const Add& add) {
    const std::string cards = std::to_string(q.gpus);
    const std::string name = "split by layers over " + cards + " GPUs";
    if (q.metric != Metric::LlmDecode) {
        p.notes.push_back(name + ": one prompt crosses the " + cards +
                          " cards in turn, each running its share of the layers, so it takes as long as on one card "
                          "that held the model and the hand-overs between them (a split by tensors shortens it); a "
                          "batch of prompts fills them all");
        return;
    }
    const int batch = microBatch(q);
    const StepTimes t = onOneStage(decodeStep(s, g, asOneCard(q, batch), c, {}), q.gpus, {});
    add(name, servingThroughput(s, g, asOneCard(q, q.llmSequences), c),
        "each card holds 1/" + cards + " of the layers; the sequences run as " + std::to_string(microBatches(q)) +
            " micro-batch" + (microBatches(q) > 1 ? "es" : "") +
            (std::max(1, q.llmSequences) % microBatches(q) != 0 ? " of up to " : " of ") + format::number(batch, 0) +
            ", handed from card to card (pipeline parallel: no all-reduces); each card's step of " +
            format::number(t.total() * 1000.0, 2) +
            " ms (its share of the reads and multiplies, and the step's whole fixed time and hand-over to the "
            "other cards, " +
            format::number(t.overhead * 1000.0, 2) +
            " ms) moves a micro-batch one card on, so "
            "each sequence gets a token every " +
            cards + " steps");
}

// The factor of a split by experts against one card that held the whole model, and what each card
// holds, runs and exchanges; for a dense model, data parallel.
template <typename Add>
void explainExpertSplit(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                        Prediction& p, const Add& add) {
    const bool decode = q.metric == Metric::LlmDecode;
    const std::string cards = std::to_string(q.gpus);
    const int requests = decode ? std::max(1, q.llmSequences) : 1;
    const int busiest = busiestCardRequests(requests, q.gpus);
    const double perCard = llmWeightBytesHeld(q) / q.gpus / 1e9;
    const std::string own =
        decode ? "its own " + format::number(busiest, 0) + " of the " + format::number(requests, 0) + " sequences"
               : "its own prompts, a prompt on one card";
    const std::string name = "split by experts over " + cards + " GPUs";
    const double oneCard = servingThroughput(s, g, asOneCard(q, requests), c);
    if (!expertRoutingKnown(q)) {
        add(name, oneCard,
            "a dense model has no experts to split: each card holds the whole model (" + format::number(perCard, 1) +
                " GB) and serves " + own + " (data parallel), with no traffic between the cards");
        return;
    }
    const WeightParts w = weightParts(q);
    const int stepTokens = decode ? requests : std::max(1, q.llmContextTokens);
    // tokens/s x a step's seconds / its tokens = the step's share
    const double exchangeShare = servingExpertExchangeSeconds(g, q, stepTokens) * p.throughput / stepTokens;
    const Link link = servingLink(g, q);
    add(name, oneCard,
        "each card serves " + own +
            " (attention data parallel), holding the attention and every weight but the "
            "routed experts whole (" +
            format::number(w.sharedBytes(w.sharedBillion) / 1e9, 1) + " GB) and 1/" + cards + " of the " +
            std::to_string(q.llmExperts) + " routed experts (" + format::number(perCard, 1) +
            " GB a card in all); each of the " + std::to_string(servingMixtureLayers(q)) +
            " mixture layers gathers the step's tokens to every card and sends the experts' outputs back (an "
            "all-gather and a reduce-scatter over " +
            std::string(link.kind) + " at " + format::number(link.gbPerSecond, 0) +
            " GB/s per direction, each as long as an all-reduce of the tokens: " +
            format::percent(kServingLinkEfficiency, 0) + " of it and " +
            format::number(kServingAllReduceUs * std::log2(double(q.gpus)), 0) + " us each), " +
            format::percent(exchangeShare, 0) +
            " of the time; the experts are taken as evenly loaded (TensorRT-LLM's attention data parallel with "
            "expert parallelism, DEP)");
}

} // namespace

void explainServing(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c, Prediction& p) {
    const bool decode = q.metric == Metric::LlmDecode;
    p.computeRoofTflops = servingMatmulTflops(s, q.llmWeights) * s.denseMatmulClock;
    p.effectiveBandwidthGbs = s.bandwidthGbs * c.decodeBandwidthEfficiency;
    const double top = std::max({p.computeShare, p.memoryShare, p.vectorShare, p.overheadShare});
    p.bound = top == p.memoryShare    ? "memory bandwidth"
              : top == p.computeShare ? "compute"
              : top == p.vectorShare  ? "attention on the CUDA cores"
                                      : "overhead";
    const auto add = [&](const std::string& name, double other, const std::string& detail) {
        if (other > 0 && std::fabs(p.throughput / other - 1.0) > 1e-9) {
            p.factors.push_back({name, p.throughput / other, detail});
        }
    };
    PerfQuery llamaCpp = q;
    llamaCpp.llmEngine = LlmEngine::LlamaCpp;
    llamaCpp.systemRamGbs.reset(); // the comparison is with the model on the GPUs, as here
    add("TensorRT-LLM's kernels", modelThroughput(s, g, llamaCpp, c),
        decode
            ? "the weights and the KV cache stream at " + format::number(p.effectiveBandwidthGbs, 0) + " GB/s (" +
                  format::percent(c.decodeBandwidthEfficiency, 0) +
                  " of the memory's rate; llama.cpp's kernels at most " + format::number(decodeBandwidthGbs(s, c), 0) +
                  " GB/s here, their cache reads slower still) and the sequences' multiplies run as one matmul at " +
                  format::percent(kServingMatmulEfficiency, 0) + " of the tensor peak (" + roofText(s, p) + ": " +
                  matmulRateText(s, q.llmWeights) + "), beside the reads"
            : "the prompt's matmuls run at " + format::percent(kServingMatmulEfficiency, 0) + " of the tensor peak (" +
                  roofText(s, p, " for these weights") + ": " + matmulRateText(s, q.llmWeights) +
                  ") in one step for the whole prompt: " +
                  promptStepDetail(s, g, splitByLayers(q) || splitByExperts(q) ? asOneCard(q, 1) : q, c));
    // The card's clock under chained dense matmuls (specs.cpp), as llama.cpp's prompts take it: what
    // the matmuls lose to a board power per SM below the chip's best card.
    if (s.denseMatmulClock < 1.0) {
        EffectiveSpecs boost = s;
        boost.denseMatmulClock = 1.0;
        add("board power", servingThroughput(boost, g, q, c), s.denseMatmulClockDetail);
    }
    if (s.warpgroupMma && expertRoutingKnown(q)) {
        ServingConstants denseRate;
        denseRate.routedMatmulShare = 1.0;
        add("routed experts' grouped matmuls", servingThroughput(s, g, q, c, nullptr, denseRate),
            "a mixture of experts' routed experts multiply at " + format::percent(kServingRoutedMatmulShare, 0) +
                " of the dense matmuls' rate on a card whose dense peak needs warpgroup MMA (fitted on a later "
                "release's full-load runs of Qwen3 30B-A3B, gpt-oss-20b and gpt-oss-120b on H100, H200, B200 and "
                "GB200): one small matmul per expert after each token's activations are sorted to its experts");
    }
    if (decode && servingAttentionOnTensorCores(q)) {
        PerfQuery cudaCores = q;
        cudaCores.llmDecodeAttention = DecodeAttention::CudaCores;
        add("attention on the tensor cores (XQA)", servingThroughput(s, g, cudaCores, c),
            "grouped-query attention: the " + std::to_string(queryGroup(q)) +
                " query heads that share a KV head are multiplied against it together on the tensor cores, as "
                "current TensorRT-LLM releases do; the 0.9 tables' runs (fitted) did it head by head on the CUDA "
                "cores, at " +
                format::percent(kServingAttentionEfficiency, 1) + " of their FP32 rate");
    }
    if (decode && q.llmSequences > 1) {
        PerfQuery alone = q;
        alone.llmSequences = 1;
        add(std::to_string(q.llmSequences) + " sequences at once", servingThroughput(s, g, alone, c),
            "each step reads the weights once for all of them and each one's KV cache, multiplies their tokens as "
            "one matmul, and takes " +
                format::number(kServingStepMsPerDoubling, 2) +
                " ms more for each doubling of the sequences (scheduling and sampling; fitted)");
    }
    if (decode) {
        p.notes.push_back(decodeBytesNote(q));
    }
    p.notes.push_back("TensorRT-LLM: fitted on its 0.9 release's published peak throughput (H100, H200, L40S, "
                      "A100; 16-1024 sequences; `gpu-advisor eval-serving`); the weights' bytes are its own files' "
                      "(8 bits for FP8 or INT8, 4.125 for INT4 AWQ, 4.5 for NVFP4) unless the model's own release "
                      "sets them");
    if (q.llmWeights == Precision::Fp4 && s.fourBitTflops <= 0) {
        p.notes.push_back("TensorRT-LLM multiplies NVFP4 weights on Blackwell's FP4 tensor cores; this card has none, "
                          "so they are taken as 4.5-bit weights multiplied in FP16, never measured");
    }
    if (g.vendor != "NVIDIA") {
        p.notes.push_back("TensorRT-LLM runs on NVIDIA GPUs only: for this " + g.vendor +
                          " card the figure is what a serving engine as efficient would give (vLLM's builds for "
                          "it, say), never measured");
    }
    if (splitByLayers(q)) {
        explainPipeline(s, g, q, c, p, add);
    } else if (splitByExperts(q)) {
        explainExpertSplit(s, g, q, c, p, add);
        PerfQuery byTensors = q;
        byTensors.llmSplit = LlmSplit::Tensors;
        p.notes.push_back("split by tensors instead (--split tensors, tensor parallel): " +
                          format::number(servingThroughput(s, g, byTensors, c), 1) + " tokens/s");
    } else if (q.gpus > 1) {
        PerfQuery one = q;
        one.gpus = 1;
        const Link link = servingLink(g, q);
        const int stepTokens = decode ? std::max(1, q.llmSequences) : std::max(1, q.llmContextTokens);
        // tokens/s x a step's seconds / its tokens = the step's share
        const double allReduceShare = servingAllReduceSeconds(g, q, stepTokens, true) * p.throughput / stepTokens;
        add("tensor parallel over " + std::to_string(q.gpus) + " GPUs", servingThroughput(s, g, one, c),
            "each card reads and multiplies its share of every layer, so their bandwidth and compute add up; "
            "after each layer's attention and MLP they sum their outputs (two all-reduces per layer over " +
                std::string(link.kind) + " at " + format::number(link.gbPerSecond, 0) +
                " GB/s per direction: " + format::percent(kServingLinkEfficiency, 0) + " of it and " +
                format::number(kServingAllReduceUs * std::log2(double(q.gpus)), 0) + " us each, fitted), " +
                format::percent(allReduceShare, 0) + " of the time");
        PerfQuery byLayers = q;
        byLayers.llmSplit = LlmSplit::Layers;
        p.notes.push_back("split by layers instead (--split layers, pipeline parallel): " +
                          format::number(servingThroughput(s, g, byLayers, c), 1) + " tokens/s");
        if (expertRoutingKnown(q)) {
            PerfQuery byExperts = q;
            byExperts.llmSplit = LlmSplit::Experts;
            p.notes.push_back("split by experts instead (--split experts, attention data parallel with expert "
                              "parallelism): " +
                              format::number(servingThroughput(s, g, byExperts, c), 1) + " tokens/s");
        }
    }
    if (!llmFits(g, q)) {
        p.notes.push_back("does not fit: " + format::number(llmBytesHeld(q) / 1e9, 1) +
                          " GB of weights and KV cache against " + format::number(g.memoryGb * std::max(1, q.gpus), 0) +
                          " GB; TensorRT-LLM keeps everything on the GPUs, so the speed shown is the one it would "
                          "have if it fitted");
    }
}

} // namespace advisor::perf
