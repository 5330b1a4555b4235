// `gpu-advisor perf`: one GPU's predicted throughput with its explanation.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "common/format.h"
#include "perf/llm_inference.h"
#include "perf/llm_offload.h"
#include "perf/model.h"
#include "perf/serving_engine.h"

#include <optional>
#include <ostream>

namespace advisor::cli {
namespace {

// What the expected error of a prediction for q was measured on.
bool servingPrompt(const perf::PerfQuery& q) {
    return q.metric == perf::Metric::LlmPrefill && q.llmEngine == perf::LlmEngine::TensorRtLlm;
}

// Token generation in the engine with grouped-query attention on the tensor cores (XQA).
bool servingXqa(const perf::PerfQuery& q) {
    return q.metric == perf::Metric::LlmDecode && q.llmEngine == perf::LlmEngine::TensorRtLlm &&
           perf::servingAttentionOnTensorCores(q);
}

// The engine's check (eval-serving) whose errors perf reports for q, other than the 0.9 tables'
// leave-one-architecture-out; null for those and for the calibration's.
const char* servingCheck(const perf::PerfQuery& q) {
    if (q.gpus > 1 && q.llmSplit == perf::LlmSplit::Experts && q.llmExperts == 0) {
        perf::PerfQuery one = q; // a dense model split by experts: a whole copy on each card
        one.gpus = 1;
        return servingCheck(one);
    }
    if (perf::isLlm(q.metric) && q.llmEngine == perf::LlmEngine::TensorRtLlm && q.llmExperts > 0) {
        if (q.gpus > 1 && q.llmSplit == perf::LlmSplit::Experts) {
            return "TensorRT-LLM's published full-load throughput of mixtures of experts split by experts (DEP) "
                   "over 2-8 cards: a later release's Llama 4 Maverick, Qwen3 235B-A22B and 30B-A3B and gpt-oss-120b, "
                   "each model predicted by the exchange's time fitted without it, and 1.0's Qwen3 and Llama 4 rows, "
                   "never fitted (eval-serving)";
        }
        return "TensorRT-LLM's published full-load throughput of four mixtures of experts on one card: a later "
               "release's three, each predicted by the routed experts' matmul share fitted without it, and 1.0's "
               "Qwen3 30B-A3B and Llama 4 Scout rows, never fitted (eval-serving)";
    }
    if (perf::isLlm(q.metric) && q.llmEngine == perf::LlmEngine::TensorRtLlm && q.gpus > 1 &&
        q.llmSplit == perf::LlmSplit::Layers) {
        return "TensorRT-LLM 1.0's published full-load throughput of 2-8 RTX PRO 6000s split by layers, no constant "
               "fitted on it (eval-serving)";
    }
    if (perf::isLlm(q.metric) && q.llmEngine == perf::LlmEngine::TensorRtLlm && q.llmWeights == perf::Precision::Fp4) {
        return "TensorRT-LLM 1.0's published full-load NVFP4 throughput, each GPU predicted by the FP4 rate share "
               "fitted without it (eval-serving)";
    }
    if (servingPrompt(q)) {
        return "TensorRT-LLM's published first-token latencies, no constant fitted on them (eval-serving)";
    }
    if (servingXqa(q)) {
        return "TensorRT-LLM 1.0's published full-load throughput, no constant fitted on it (eval-serving)";
    }
    return nullptr;
}

std::string accuracyBasis(const perf::PerfQuery& q) {
    if (const char* check = servingCheck(q)) {
        return std::string("error on ") + check;
    }
    return perf::isLlm(q.metric) && q.llmEngine == perf::LlmEngine::TensorRtLlm
               ? "leave-one-architecture-out error on TensorRT-LLM's published throughput (eval-serving)"
               : "leave-one-architecture-out error on the calibration data";
}

// Milliseconds a prompt of the query's context takes at the predicted prompt tokens/s.
double promptMs(const perf::Prediction& p, const perf::PerfQuery& q) {
    return 1000.0 * std::max(1, q.llmContextTokens) / p.throughput;
}

// How far such predictions were off for an architecture the fit never saw.
nlohmann::json accuracyJson(const std::optional<perf::ErrorBand>& band,
                            const std::string& basis = "leave-one-architecture-out error on the calibration data") {
    if (!band) {
        return nullptr;
    }
    return {{"basis", basis},
            {"median_abs_error_pct", band->medianPct},
            {"p90_abs_error_pct", band->p90Pct},
            {"rows", band->rows}};
}

void printAccuracy(std::ostream& o, const std::optional<perf::ErrorBand>& band, const perf::PerfQuery& q) {
    const perf::Metric m = q.metric;
    if (!band) {
        return;
    }
    // Where the docs check the inference metrics the calibration never measured.
    const char* inferenceCheck =
        m == perf::Metric::Int8Inference
            ? " (none of them inference; docs/performance-model.md checks 8-bit inference on MLPerf)"
        : m == perf::Metric::Fp16Inference
            ? " (none of them inference; docs/performance-model.md checks 16-bit inference on "
              "timm's PyTorch runs)"
            : "";
    const char* check = servingCheck(q);
    const std::string measuredOn =
        check != nullptr  ? std::string("on ") + check
        : !perf::isLlm(m) ? "leave-one-architecture-out on training measurements"
        : q.llmEngine == perf::LlmEngine::TensorRtLlm
            ? "leave-one-architecture-out on TensorRT-LLM's published throughput (eval-serving)"
            : "leave-one-architecture-out on llama.cpp measurements";
    o << "  expected error: about " << format::number(band->medianPct, 0) << "% (median), "
      << format::number(band->p90Pct, 0) << "% or more for 1 in 10 - " << measuredOn << inferenceCheck << '\n';
}

// Where the model sits when part of it stays in system RAM, and the speed that gives.
nlohmann::json offloadJson(const perf::OffloadSplit& s, double ramGbs, double tokensPerSecond) {
    return {{"system_ram_gbs", ramGbs},
            {"tokens_per_s", tokensPerSecond},
            {"held_gb", s.heldBytes / 1e9},
            {"gpu_capacity_gb", s.gpuCapacityBytes / 1e9},
            {"ram_held_gb", s.ramHeldBytes / 1e9},
            {"gpu_gb_per_step", s.gpuBytesPerStep / 1e9},
            {"ram_gb_per_step", s.ramBytesPerStep / 1e9},
            {"layers", s.layers},
            {"gpu_layers", s.gpuLayers},
            {"cpu_moe_layers", s.cpuMoeLayers},
            {"moe_layer_step", s.moeLayerStep},
            {"output_head_in_ram", s.headInRam},
            {"experts_in_ram", s.expertsInRam},
            {"cpu_layers_run", s.cpuLayersRun},
            {"over_capacity", s.overCapacity}};
}

// A prompt's copy of what is in system RAM to the GPU for each micro-batch (perf::prefillOffload).
void addPromptCopy(nlohmann::json& offload, const Gpu& g, const perf::PerfQuery& q, const perf::PerfModel& model) {
    if (q.metric != perf::Metric::LlmPrefill) {
        return;
    }
    const perf::PrefillOffload o = perf::prefillOffload(g, q, model.throughput(g, perf::allOnGpus(q)));
    offload["copied_gb_per_step"] = o.copiedBytesPerStep / 1e9;
    offload["experts_picked_share"] = o.expertsPickedShare;
    offload["pcie_gbs"] = o.pcieGbs;
    offload["copy_gbs"] = o.copyGbs;
    offload["ram_binds_copy"] = o.ramBindsCopy;
}

nlohmann::json predictionJson(const perf::Prediction& p, const perf::PerfQuery& q, double relative,
                              const Gpu& reference) {
    nlohmann::json factors = nlohmann::json::array();
    for (const auto& f : p.factors) {
        factors.push_back({{"name", f.name}, {"effect", f.effect}, {"detail", f.detail}});
    }
    nlohmann::json j = {{"metric", perf::toString(q.metric)},
                        {"throughput", p.throughput},
                        {"unit", p.unit},
                        {"single_gpu", p.singleGpu},
                        {"efficiency", p.efficiency},
                        {"bound", p.bound},
                        {"time_shares",
                         {{"compute", p.computeShare},
                          {"memory", p.memoryShare},
                          {"vector", p.vectorShare},
                          {"latency", p.latencyShare},
                          {"overhead", p.overheadShare},
                          {"system_ram", p.systemRamShare}}},
                        {"compute_roof_tflops", p.computeRoofTflops},
                        {"effective_bandwidth_gbs", p.effectiveBandwidthGbs},
                        {"factors", factors},
                        {"notes", p.notes},
                        {"sparsity_2_4", q.sparsity24}};
    if (perf::isLlm(q.metric)) {
        j["llm"] = {{"params_billion", q.llmParamsBillion},
                    {"active_params_billion",
                     q.llmActiveParamsBillion > 0 ? nlohmann::json(q.llmActiveParamsBillion) : nlohmann::json()},
                    {"weights", perf::toString(q.llmWeights)},
                    {"context_tokens", q.llmContextTokens},
                    {"depth_tokens", q.llmDepthTokens},
                    {"kv_cache", perf::toString(q.llmKvCache)},
                    {"sequences", q.metric == perf::Metric::LlmDecode ? p.llmSequences : 1},
                    {"sequences_fill_memory", q.metric == perf::Metric::LlmDecode && q.llmSequencesFillMemory},
                    {"min_sequence_speed", q.metric == perf::Metric::LlmDecode && q.llmMinSequenceSpeed
                                               ? nlohmann::json(*q.llmMinSequenceSpeed)
                                               : nlohmann::json()},
                    {"engine", perf::toString(q.llmEngine)}};
        if (q.llmEngine == perf::LlmEngine::TensorRtLlm) {
            j["llm"]["split"] = perf::toString(q.llmSplit);
        }
        if (q.metric == perf::Metric::LlmPrefill) {
            j["llm"]["micro_batch_tokens"] = q.llmMicroBatchTokens;
            j["prompt_ms"] = promptMs(p, q); // the prompt's time: to its first token
        }
        if (q.metric == perf::Metric::LlmDecode) {
            j["tokens_per_s_per_sequence"] = p.throughput / std::max(1, p.llmSequences);
        }
        if (p.offload) {
            j["offload"] = offloadJson(*p.offload, q.systemRamGbs.value_or(perf::kDefaultSystemRamGbs), p.throughput);
        }
    } else {
        j["workload"] = perf::toString(q.workload);
        if (!q.workloadName.empty()) {
            j["benchmark_workload"] = q.workloadName;
        }
        if (q.llmTrainingParamsBillion > 0) {
            j["language_model"] = {{"params_billion", q.llmTrainingParamsBillion}};
        }
        j["relative_to_reference"] = relative;
        j["reference"] = reference.name;
        j["batch_multiplier"] = q.batchMultiplier;
    }
    return j;
}

void printPrediction(std::ostream& o, const perf::Prediction& p, const perf::PerfQuery& q, double relative,
                     const Gpu& reference, std::optional<double> typicalBatch) {
    o << perf::toString(q.metric);
    if (perf::isLlm(q.metric)) {
        o << " " << describeLlm(q) << ": " << format::number(p.throughput, 1) << " tokens/s";
        if (q.metric == perf::Metric::LlmPrefill) {
            o << " (a prompt of " << format::number(q.llmContextTokens, 0) << " tokens in "
              << format::number(promptMs(p, q), 1) << " ms)";
        }
        if (q.metric == perf::Metric::LlmDecode && p.llmSequences > 1) {
            o << " (" << format::number(p.throughput / p.llmSequences, 1) << " for each of "
              << format::number(p.llmSequences, 0) << " sequences)";
        }
        o << '\n';
    } else {
        o << " (" << (q.workloadName.empty() ? std::string() : q.workloadName + ", ")
          << (q.llmTrainingParamsBillion > 0 ? "language model of " + format::number(q.llmTrainingParamsBillion, 1) +
                                                   "B parameters, "
                                             : std::string())
          << perf::toString(q.workload) << "): " << format::number(p.throughput, 2) << " " << p.unit << "; "
          << format::ratio(relative) << " " << reference.name << "\n";
    }
    o << "  bound by " << p.bound << " (time: compute " << format::percent(p.computeShare, 0) << ", memory "
      << format::percent(p.memoryShare, 0) << ", CUDA cores " << format::percent(p.vectorShare, 0) << ", latency-bound "
      << format::percent(p.latencyShare, 0) << ", overhead " << format::percent(p.overheadShare, 0)
      << (p.offload ? (q.metric == perf::Metric::LlmPrefill ? ", copies from system RAM " : ", CPU and system RAM ") +
                            format::percent(p.systemRamShare, 0)
                      : std::string())
      << ")\n";
    o << "  compute roof " << format::number(p.computeRoofTflops, 1) << " TFLOPS, effective bandwidth "
      << format::number(p.effectiveBandwidthGbs, 0) << " GB/s\n";
    if (typicalBatch) {
        o << "  batch: " << format::number(q.batchMultiplier * *typicalBatch, 0) << " per GPU (--batch "
          << format::number(q.batchMultiplier, 2) << " of the " << format::number(*typicalBatch, 0) << " per GPU that "
          << q.workloadName << "'s profile was fitted at)\n";
    }
    for (const auto& f : p.factors) {
        o << "  " << f.name << ": x" << format::number(f.effect, 3) << " - " << f.detail << '\n';
    }
    for (const auto& n : p.notes) {
        o << "  note: " << n << '\n';
    }
}

// --system-ram, --gpu-layers and --cpu-moe-layers into q: LLM inference with part of the model
// in system RAM. UsageError naming the option when one is bad.
void readOffloadOptions(const Args& args, const PerfOptions& opts, perf::PerfQuery& q) {
    const bool any = args.has("system-ram") || args.has("gpu-layers") || args.has("cpu-moe-layers");
    if (!any) {
        return;
    }
    if (opts.metric && !perf::isLlm(*opts.metric)) {
        throw UsageError("--system-ram, --gpu-layers and --cpu-moe-layers describe LLM inference with part of the "
                         "model in system RAM; give --metric llm-decode or llm-prefill (or no --metric)");
    }
    args.refuseTogether({"gpu-layers"}, {"cpu-moe-layers"});
    readSystemRam(args, true, q);
    const int layers = perf::llmLayersOf(q);
    q.llmGpuLayers = args.integer("gpu-layers", 0, layers + 1);
    if (args.has("cpu-moe-layers") && q.llmExperts == 0) {
        throw UsageError("--cpu-moe-layers leaves a mixture of experts' routed experts in RAM: give a --model that is "
                         "one (mixtral-8x7b, qwen3-30b-a3b, gpt-oss-120b, ...)");
    }
    q.llmCpuMoeLayers = args.integer("cpu-moe-layers", 0, layers);
}

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const Gpu& g = ctx.catalog().require(args.required("gpu"), "--gpu");
    const Gpu& reference = ctx.catalog().require(args.value("reference").value_or("RTX 4090"), "--reference");
    const Calibration cal = calibration(args);
    const perf::PerfModel model(ctx.catalog(), cal.constants);
    const perf::ModelAccuracy& accuracy = cal.accuracy;
    PerfOptions opts = perfOptions(args, GpuSetup::Several, cal.constants);
    readOffloadOptions(args, opts, opts.query);
    std::vector<perf::Metric> metrics;
    if (opts.metric) {
        metrics.push_back(*opts.metric);
    } else {
        metrics = {perf::Metric::Int8Inference, perf::Metric::Fp16Inference, perf::Metric::Fp16Training,
                   perf::Metric::Fp32Training};
        if (hasLlmOptions(args) || opts.query.systemRamGbs || opts.query.llmGpuLayers || opts.query.llmCpuMoeLayers) {
            // An LLM was described: show what it does too, rather than ignore the options.
            metrics.insert(metrics.end(), {perf::Metric::LlmDecode, perf::Metric::LlmPrefill});
        }
    }
    nlohmann::json list = nlohmann::json::array();
    if (!ctx.json()) {
        ctx.out() << g.name << (opts.query.gpus > 1 ? " x" + std::to_string(opts.query.gpus) : "") << '\n';
    }
    for (const auto m : metrics) {
        perf::PerfQuery q = opts.query;
        q.metric = m;
        const perf::Prediction p = model.explain(g, q);
        const double relative = perf::isLlm(m) ? 0.0 : model.relative(g, reference, q);
        if (ctx.json()) {
            auto j = predictionJson(p, q, relative, reference);
            if (!perf::isLlm(m)) {
                const auto typical = model.constants().typicalPerGpuBatch(q.workloadName, m);
                j["typical_per_gpu_batch"] = typical ? nlohmann::json(*typical) : nlohmann::json();
            }
            if (perf::isLlm(m) && q.llmEngine == perf::LlmEngine::LlamaCpp && !p.offload && !perf::llmFits(g, q) &&
                !g.isCompleteSystem()) {
                // What the note says: the speed with the rest in an assumed desktop's RAM.
                perf::PerfQuery offloaded = q;
                offloaded.systemRamGbs = perf::kDefaultSystemRamGbs;
                const perf::Prediction o = model.explain(g, offloaded);
                j["if_offloaded"] = offloadJson(*o.offload, perf::kDefaultSystemRamGbs, o.throughput);
                addPromptCopy(j["if_offloaded"], g, offloaded, model);
            } else if (p.offload) {
                addPromptCopy(j["offload"], g, q, model);
            }
            j["expected_error"] = accuracyJson(accuracy.forQuery(q), accuracyBasis(q));
            if (q.gpus > 1 && !perf::isLlm(m)) {
                j["expected_scaling_error"] = accuracyJson(accuracy.scaling);
            }
            list.push_back(std::move(j));
        } else {
            printPrediction(ctx.out(), p, q, relative, reference,
                            model.constants().typicalPerGpuBatch(q.workloadName, m));
            printAccuracy(ctx.out(), accuracy.forQuery(q), q);
            if (q.gpus > 1 && !perf::isLlm(m) && accuracy.scaling) {
                ctx.out() << "  expected error of the " << q.gpus << "-GPU scaling: about "
                          << format::number(accuracy.scaling->medianPct, 0) << "% (median), "
                          << format::number(accuracy.scaling->p90Pct, 0) << "% or more for 1 in 10\n";
            }
        }
    }
    if (ctx.json()) {
        ctx.printJson({{"gpu", g.name}, {"gpu_id", g.id}, {"gpus", opts.query.gpus},
                       {"model", model.constants().provenance}, {"predictions", list}});
    }
    return 0;
}

// The help's paragraph on a model partly in system RAM, with the fitted constants.
std::string offloadHelp() {
    return "A model that does not fit the GPUs runs as llama.cpp runs it with the rest in system RAM when\n"
           "--system-ram gives the RAM: a DDR kind and speed (ddr5-5600: two channels, 89.6 GB/s;\n"
           "ddr4-3200x4: four) or GB/s. As many whole layers as fit go on the GPUs and the CPU runs the\n"
           "rest and the output head; a mixture of experts keeps all but the routed experts of some\n"
           "layers on the GPUs (--n-cpu-moe). Generating tokens, the CPU reads its part at " +
           format::percent(perf::kRamReadEfficiency, 0) + " of the RAM's bandwidth\nand spends " +
           format::trimmed(perf::kCpuLayerMs, 2) +
           " ms per layer per token (fitted on llama.cpp runs: gpu-advisor eval-offload).\nA prompt "
           "(llm-prefill) runs on the GPU, which copies what is in RAM there for each\nmicro-batch (of a "
           "mixture of experts, the experts its tokens pick) over PCIe at " +
           format::percent(perf::kPcieCopyEfficiency, 0) + " of\nthe link's rate (fitted on an RTX 3090's "
           "runs). --gpu-layers (llama.cpp's -ngl) and\n--cpu-moe-layers (--n-cpu-moe) place it yourself. "
           "Without --system-ram such a model's\nspeed is shown as if it fitted, and a note gives it with "
           "the rest in dual-channel DDR5-5600.\n";
}

} // namespace

Command perfCommand() {
    return {"perf", "predicted throughput of a GPU setup, with the reasoning",
            "Usage: gpu-advisor perf --gpu NAME [--gpus N] [--metric M] [--workload W] [--batch X]\n"
            "                        [--pcie-gen G] [--pcie-lanes L] [--nvlink] [--reference NAME]\n"
            "                        [--params-billion P [--active-params-billion A] | --model ID]\n"
            "                        [--weights fp16|int8|int4|fp4] [--context TOKENS] [--depth TOKENS]\n"
            "                        [--kv-cache f16|fp8|q8_0|q4_0] [--sequences N|max] [--min-sequence-speed T]\n"
            "                        [--ubatch TOKENS]\n"
            "                        [--system-ram ddr5-5600|ddr4-3200x4|GBS] [--gpu-layers N | --cpu-moe-layers N]\n"
            "                        [--engine llama.cpp|tensorrt-llm [--split tensors|layers|experts]]\n"
            "                        [--sparsity] [--constants calibration.json]\n\n"
            "Metrics: int8-inference, fp16-inference, fp16-training, fp32-training, and llm-decode and\n"
            "llm-prefill (tokens/s for an LLM of --params-billion, default 8, or a published --model such\n"
            "as llama-3.1-70b or mixtral-8x7b; a mixture of experts reads and multiplies only its\n"
            "--active-params-billion per token). Default: the first four, and the LLM ones too when an\n"
            "LLM option is given. Token generation reads the weights and the KV cache for every token: a\n"
            "--model's own attention (KV heads, sliding windows, latent KV) sizes the cache, else its size\n"
            "does; --kv-cache stores it in 8 or 4 bits (llama.cpp's --cache-type-k/-v, vLLM's fp8).\n"
            "For llm-prefill --context is the prompt's length: each token attends to those before it,\n"
            "so attention's FLOPs per token grow with it (default 512, llama-bench's pp512). --depth is\n"
            "what the cache already holds (llama-bench's -d, a chat's earlier turns): a prompt attends to\n"
            "it as well, and a generated token reads it as well (default 0). --sequences is how many\n"
            "sequences generate together (a server's concurrent requests, llama-batched-bench's B;\n"
            "default 1): each step reads the weights once for all and each one's KV cache, and\n"
            "multiplies each one's token; tokens/s is theirs together (a mixture of experts reads every\n"
            "expert some sequence's router picks); --sequences max runs as many as fit beside the\n"
            "weights in 90% of the memory (vLLM's and TensorRT-LLM's default), a server's full load.\n"
            "--min-sequence-speed T runs, of those that fit, the most that each still generate T tokens/s\n"
            "(each step takes longer the more sequences share it): the users a setup serves at a reading\n"
            "speed you promise them, between prompts (new requests' prompts run in the same steps and\n"
            "slow them). The note says what one more would get.\n"
            "--ubatch is the prompt tokens each step multiplies\n"
            "(llama.cpp's -ub, default 512): each step reads the weights its tokens use once, and a\n"
            "mixture of experts gives each expert it picks a few of them, which llama.cpp's quantized\n"
            "matmul pads to whole tiles of 128 tokens: larger steps fill them.\n"
            "--engine is the software that runs the LLM: llama.cpp (default; the calibration's runs) or\n"
            "tensorrt-llm, a serving engine whose kernels stream the memory at its full rate, multiply a\n"
            "batch's tokens as one matmul beside the weights' reads, and split a model over --gpus by\n"
            "tensors (each card a share of every layer, with two all-reduces per layer over its links,\n"
            "each waiting longer the more cards there are, and each card keeping at least one KV head\n"
            "whole: Qwen3's 4 on 8 cards hold the cache twice over);\n"
            "its weights take its own files' bytes (int8: FP8 or INT8, 8 bits; int4: INT4 AWQ, 4.125,\n"
            "multiplied in FP16; fp4: NVFP4, 4.5, on Blackwell's FP4 tensor cores at a share of their\n"
            "rate fitted on the 1.0 release's NVFP4 throughput; llama.cpp's fp4 is MXFP4, 4.25 bits)\n"
            "and a prompt is one step (the weights read once, then its tokens' matmuls), its time the\n"
            "time to the first token (prompt_ms in --json); a grouped-query model's attention runs on\n"
            "the tensor cores (XQA) as current releases run it. A mixture of experts' routed experts\n"
            "multiply at a fitted share of the dense rate on cards whose dense peak needs warpgroup MMA\n"
            "(Hopper, B200, GB200). Its default scheduler admits a request only when its prompt and\n"
            "whole answer fit, a sliding-window layer's cache reserved at the whole length as it writes\n"
            "it: the requests it holds at once are --sequences max's at a --context of that length.\n"
            "--split layers splits the model over --gpus by layers instead (pipeline parallel): each\n"
            "card holds whole layers and steps its own micro-batch of the sequences, with no\n"
            "all-reduces to wait on, so PCIe cards keep up, but each step hands its state to every\n"
            "other card (" +
                format::number(perf::kServingPipelineHandOverMs, 2) +
                " ms each, fitted); one prompt crosses\n"
                "the cards in turn. --split experts splits a mixture of experts by its experts\n"
                "(TensorRT-LLM's attention data parallel with expert parallelism, DEP): each card serves its\n"
                "own share of the sequences with the attention and every weight but the routed experts\n"
                "whole, and holds 1/N of the routed experts; each mixture layer gathers the step's tokens to\n"
                "every card and sends the experts' outputs back, an all-gather and a reduce-scatter each as\n"
                "long as an all-reduce (a dense model is copied whole on each card: data parallel).\n"
                "Fitted on TensorRT-LLM 0.9's published throughput, checked on its first-token latencies\n"
                "and on the 1.0 and a later release's full-load throughput and a later release's DEP runs\n"
                "(gpu-advisor eval-serving, which fits the 1.0 release's NVFP4 share and hand-over and the\n"
                "later one's routed experts' share).\n" +
                offloadHelp() +
                "Workloads: transformer (default), cnn, rnn, recsys, or a network of the calibration data\n"
                "(bert_large_squad, resnet50, gnmt, ...; also \"BERT-Large\", \"ResNet-50 v1.5\" and the\n"
                "other names in resources/perf/workload_names.json), predicted with its own fitted profile,\n"
                "or llm: a transformer language model of --params-billion (default 8) or --model, whose time\n"
                "follows from its size (nearly all large matmuls) rather than from 2020-21 networks.\n"
                "--batch is the per-GPU batch relative to the typical one (1; for a calibration workload's\n"
                "training, the batch its profile was fitted at, which is shown: resnet50 426 images in fp16,\n"
                "220 in fp32). Throughput is in units of one V100 SXM2 training in fp16 and relative to\n"
                "--reference (default RTX 4090). Every factor's effect is shown, and how far such\n"
                "predictions were off for architectures the calibration never saw.\n" +
                std::string(kSparsityHelp),
            [](Context& ctx, const std::vector<std::string>& rest) {
                const auto specs = perfOptionSpecs({{"gpu"},
                                                    {"reference"},
                                                    {"constants"},
                                                    sparsityOption(),
                                                    systemRamOption(),
                                                    {"gpu-layers"},
                                                    {"cpu-moe-layers"}});
                return run(ctx, Args::parse(rest, specs));
            }};
}

} // namespace advisor::cli
