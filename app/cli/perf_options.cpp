#include "cli/perf_options.h"

#include "calc/model_query.h"
#include "common/file_io.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/llm_offload.h"
#include "perf/workload_names.h"

namespace advisor::cli {

OptionSpec sparsityOption() {
    return {"sparsity", false};
}

bool hasLlmOptions(const Args& args) {
    return args.has("params-billion") || args.has("active-params-billion") || args.has("model") ||
           args.has("weights") || args.has("context") || args.has("depth") || args.has("kv-cache") ||
           args.has("sequences") || args.has("min-sequence-speed") || args.has("ubatch") || args.has("engine") ||
           args.has("split");
}

namespace {

// --workload llm: a transformer language model, sized by --params-billion or --model.
bool isLanguageModelWorkload(const std::string& name) {
    const auto choice = perf::parseWorkloadChoice(text::toLower(name));
    return choice && choice->languageModelParamsBillion > 0;
}

// The LLM options that only size a model, which --workload llm takes for any metric.
bool onlySizesTheModel(const Args& args) {
    return !args.has("weights") && !args.has("context") && !args.has("depth") && !args.has("kv-cache") &&
           !args.has("sequences") && !args.has("ubatch");
}

} // namespace

void refuseLlmOptionsWithoutLlmMetric(const Args& args, const PerfOptions& options) {
    if (options.query.llmTrainingParamsBillion > 0 && onlySizesTheModel(args)) {
        return;
    }
    if (hasLlmOptions(args) && !(options.metric && perf::isLlm(*options.metric))) {
        throw UsageError(std::string(kLlmOptionNames) + " describe an LLM; give --metric llm-decode or llm-prefill");
    }
}

std::optional<perf::KvCacheType> kvCacheOption(const Args& args) {
    const auto kv = args.value("kv-cache");
    if (!kv) {
        return std::nullopt;
    }
    const auto parsed = perf::parseKvCacheType(*kv);
    if (!parsed) {
        throw UsageError("--kv-cache must be f16, fp8, q8_0 or q4_0, got '" + *kv + "'");
    }
    return parsed;
}

OptionSpec systemRamOption() {
    return {"system-ram"};
}

void readSystemRam(const Args& args, bool llmInference, perf::PerfQuery& q) {
    const auto ram = args.value("system-ram");
    if (!ram) {
        return;
    }
    if (!llmInference) {
        throw UsageError("--system-ram describes LLM inference with part of the model in system RAM; give "
                         "--metric llm-decode or llm-prefill");
    }
    std::string problem;
    const auto parsed = perf::parseSystemRam(*ram, &problem);
    if (!parsed) {
        throw UsageError("--system-ram: " + problem);
    }
    q.systemRamGbs = parsed->gbPerSecond;
}

void readSequences(const Args& args, int& sequences, bool& fillMemory) {
    const auto v = args.value("sequences");
    if (!v) {
        return;
    }
    // "max": as many as each card's memory holds beside the weights (a server's load).
    fillMemory = text::toLower(*v) == "max";
    if (fillMemory) {
        return;
    }
    const auto n = text::parseInteger(*v);
    if (!n || *n < 1 || *n > perf::kMaxLlmSequences) {
        throw UsageError("option '--sequences' must be a whole number from 1 to " +
                         std::to_string(perf::kMaxLlmSequences) +
                         " or max (as many as each card's memory holds), got " + text::quoteForMessage(*v));
    }
    sequences = static_cast<int>(*n);
}

void readMinSequenceSpeed(const Args& args, perf::PerfQuery& q) {
    const auto speed = args.number("min-sequence-speed", 0.1, 100000);
    if (!speed) {
        return;
    }
    if (args.has("sequences") && !q.llmSequencesFillMemory) {
        throw UsageError("--min-sequence-speed sets how many sequences generate together (as many as fit that each "
                         "still get that many tokens/s): give it without --sequences N, or with --sequences max");
    }
    q.llmSequencesFillMemory = true;
    q.llmMinSequenceSpeed = *speed;
}

namespace {

// --split: how the serving engine splits a model over --gpus; llama.cpp's split is by layers.
// "fastest" where the command ranks setups (splitFastest given).
void readSplit(const Args& args, perf::PerfQuery& q, bool* splitFastest) {
    const auto v = args.value("split");
    if (!v) {
        return;
    }
    const bool fastest = splitFastest != nullptr && text::toLower(*v) == "fastest";
    const auto split = perf::parseLlmSplit(text::toLower(*v));
    if (!split && !fastest) {
        const std::string choices =
            splitFastest != nullptr ? "tensors, layers, experts or fastest" : "tensors, layers or experts";
        throw UsageError("option '--split' must be " + choices + ", got " + text::quoteForMessage(*v));
    }
    if (q.llmEngine != perf::LlmEngine::TensorRtLlm) {
        throw UsageError("--split chooses how the serving engine splits a model (--engine tensorrt-llm); llama.cpp "
                         "splits it by layers");
    }
    if (fastest) {
        *splitFastest = true;
    } else {
        q.llmSplit = *split;
    }
}

} // namespace

void readEngine(const Args& args, perf::PerfQuery& q, bool* splitFastest) {
    const auto v = args.value("engine");
    if (!v) {
        readSplit(args, q, splitFastest);
        return;
    }
    const auto engine = perf::parseLlmEngine(text::toLower(*v));
    if (!engine) {
        throw UsageError("option '--engine' must be llama.cpp or tensorrt-llm, got " + text::quoteForMessage(*v));
    }
    q.llmEngine = *engine;
    if (*engine != perf::LlmEngine::LlamaCpp) {
        for (const char* llamaCppOnly : {"ubatch", "system-ram", "gpu-layers", "cpu-moe-layers"}) {
            if (args.has(llamaCppOnly)) {
                throw UsageError("--" + std::string(llamaCppOnly) +
                                 " is llama.cpp's: TensorRT-LLM runs a whole prompt at once and keeps the "
                                 "whole model on the GPUs (--engine " + *v + ")");
            }
        }
    }
    readSplit(args, q, splitFastest);
}

std::vector<OptionSpec> llmOptionSpecs() {
    return {{"params-billion"}, {"active-params-billion"}, {"model"}, {"weights"}, {"context"}, {"depth"}, {"kv-cache"},
            {"sequences"}, {"min-sequence-speed"}, {"ubatch"}, {"engine"}, {"split"}};
}

std::vector<OptionSpec> perfOptionSpecs(std::vector<OptionSpec> extra, GpuSetup setup) {
    std::vector<OptionSpec> specs = {{"metric"}, {"workload"}, {"batch"}};
    const std::vector<OptionSpec> llm = llmOptionSpecs();
    specs.insert(specs.end(), llm.begin(), llm.end());
    if (setup == GpuSetup::Several) {
        specs.insert(specs.end(), {{"gpus"}, {"pcie-gen"}, {"pcie-lanes"}, {"nvlink", false}});
    }
    specs.insert(specs.end(), extra.begin(), extra.end());
    return specs;
}

void readLlmOptions(const Args& args, perf::PerfQuery& q) {
    args.refuseTogether({"model"}, {"params-billion", "active-params-billion"});
    const calc::ModelShape* model = nullptr;
    if (const auto name = args.value("model")) {
        // A published model brings its size and, for a mixture of experts, its active parameters.
        model = calc::findModelShape(*name);
        if (model == nullptr) {
            throw UsageError("--model must be one of " + calc::modelShapeIds() + ", got '" + *name + "'");
        }
        q.llmParamsBillion = model->paramsBillion;
    }
    if (const auto p = args.number("params-billion")) {
        if (*p <= 0 || *p > 100000) { // the memory calculator's range
            throw UsageError("--params-billion must be more than 0 and at most 100,000");
        }
        q.llmParamsBillion = *p;
    }
    if (const auto a = args.number("active-params-billion")) {
        if (*a <= 0 || *a > q.llmParamsBillion) {
            throw UsageError("--active-params-billion (a mixture of experts' parameters per token) must be above 0 "
                             "and at most --params-billion (" + format::trimmed(q.llmParamsBillion, 2) + ")");
        }
        q.llmActiveParamsBillion = *a;
    }
    if (const auto w = args.value("weights")) {
        const auto parsed = perf::parsePrecision(*w);
        if (!parsed || *parsed == perf::Precision::Fp32) {
            throw UsageError("--weights must be fp16, bf16, int8, fp8, int4 or fp4, got '" + *w + "'");
        }
        q.llmWeights = *parsed;
    }
    q.llmContextTokens = args.integer("context", 1, perf::kMaxContextTokens).value_or(512);
    q.llmDepthTokens = args.integer("depth", 0, perf::kMaxContextTokens).value_or(0);
    q.llmKvCache = kvCacheOption(args).value_or(perf::KvCacheType::F16);
    readSequences(args, q.llmSequences, q.llmSequencesFillMemory);
    readMinSequenceSpeed(args, q);
    q.llmMicroBatchTokens =
        args.integer("ubatch", 1, perf::kMaxContextTokens).value_or(perf::kDefaultMicroBatchTokens);
    readEngine(args, q);
    if (model != nullptr) {
        // Its KV cache and a prompt's attention as it attends (its heads and head width, sliding
        // windows, latent attention), and its own 4-bit file (gpt-oss: MXFP4 experts, Q8_0 beside them).
        calc::applyModelShape(q, *model);
    }
}

PerfOptions perfOptions(const Args& args, GpuSetup setup, const perf::ModelConstants& constants) {
    PerfOptions o;
    if (const auto m = args.value("metric")) {
        o.metric = perf::parseMetric(*m);
        if (!o.metric) {
            throw UsageError("--metric must be int8-inference, fp16-inference, fp16-training, fp32-training, "
                             "llm-decode or llm-prefill, got '" + *m + "'");
        }
        o.query.metric = *o.metric;
    }
    const bool languageModel = args.value("workload") && isLanguageModelWorkload(*args.value("workload"));
    if (const auto w = args.value("workload"); w && !languageModel) {
        if (const auto parsed = perf::parseWorkloadClass(*w)) {
            o.query.workload = *parsed;
        } else if (const std::string name = perf::profileNameFor(*w, constants); !name.empty()) {
            o.query.workload = constants.profileFor(name)->workloadClass;
            o.query.workloadName = name;
        } else {
            std::vector<std::string> names;
            for (const auto& entry : constants.workloadProfiles) {
                names.push_back(entry.first);
            }
            const std::string networks =
                names.empty() ? std::string() : ", or a calibration workload (" + text::join(names, ", ") + ")";
            throw UsageError("--workload must be transformer, cnn, rnn, recsys, llm (a language model of "
                             "--params-billion or --model)" + networks + ", got '" + *w + "'");
        }
    }
    if (setup == GpuSetup::Several) {
        o.query.gpus = args.integer("gpus", 1, 8).value_or(1);
        o.query.interconnect.pcieGen = args.integer("pcie-gen", 1, 6).value_or(0);
        o.query.interconnect.pcieLanes = args.integer("pcie-lanes", 1, 16).value_or(0);
        o.query.interconnect.nvlinkBridge = args.has("nvlink");
    }
    if (const auto b = args.number("batch")) {
        if (*b <= 0 || *b > 64) {
            throw UsageError("--batch is the per-GPU batch relative to the typical one; give a value in (0, 64]");
        }
        o.query.batchMultiplier = *b;
    }
    readLlmOptions(args, o.query);
    if (languageModel) {
        // Its matmuls are those of the parameters that work on each token.
        o.query.workload = perf::WorkloadClass::Transformer;
        o.query.llmTrainingParamsBillion =
            o.query.llmActiveParamsBillion > 0 ? o.query.llmActiveParamsBillion : o.query.llmParamsBillion;
    }
    o.query.sparsity24 = args.has("sparsity"); // only commands declaring sparsityOption() accept it
    // An option the chosen metric does not use is refused rather than silently ignored.
    if (o.metric && perf::isLlm(*o.metric) && (args.has("batch") || args.has("workload") || args.has("sparsity"))) {
        throw UsageError("--batch, --workload and --sparsity describe network training and inference; " +
                         std::string(perf::toString(*o.metric)) +
                         " takes --params-billion (or --model), --weights, --context, --depth and --kv-cache");
    }
    if (o.metric == perf::Metric::LlmPrefill && (args.has("sequences") || args.has("min-sequence-speed"))) {
        throw UsageError(std::string(args.has("sequences") ? "--sequences" : "--min-sequence-speed") +
                         " is for token generation (--metric llm-decode): the sequences generating together; prompt "
                         "processing is predicted per prompt token whatever the prompts");
    }
    if (o.metric == perf::Metric::LlmDecode && args.has("ubatch")) {
        throw UsageError("--ubatch is for prompt processing (--metric llm-prefill): the prompt tokens each step "
                         "multiplies; token generation's step is one token per sequence (--sequences)");
    }
    const bool llmMetric = o.metric && perf::isLlm(*o.metric);
    if (languageModel && !llmMetric && !onlySizesTheModel(args)) {
        throw UsageError("--weights, --context, --depth and --kv-cache describe LLM inference (--metric llm-decode or "
                         "llm-prefill); --workload llm takes the model's size (--params-billion or --model)");
    }
    if (!languageModel && o.metric && !llmMetric && hasLlmOptions(args)) {
        throw UsageError(std::string(kLlmOptionNames) + " describe an LLM; they apply to --metric llm-decode and "
                         "llm-prefill, not " + std::string(perf::toString(*o.metric)) +
                         " (--workload llm takes a language model's size for any metric)");
    }
    return o;
}

perf::ModelConstants modelConstants(const Args& args) {
    if (const auto file = args.value("constants")) {
        return perf::ModelConstants::fromCalibrationText(files::readAll(*file), *file);
    }
    return perf::ModelConstants::builtin();
}

Calibration calibration(const Args& args) {
    if (const auto file = args.value("constants")) {
        const std::string text = files::readAll(*file);
        return {perf::ModelConstants::fromCalibrationText(text, *file), perf::accuracyFromCalibrationText(text, *file)};
    }
    return {perf::ModelConstants::builtin(), perf::shippedAccuracy()};
}

std::string describeLlm(const perf::PerfQuery& q) {
    std::string out = "(" + format::number(q.llmParamsBillion, 1) + "B parameters";
    if (q.llmActiveParamsBillion > 0) {
        out += ", " + format::number(q.llmActiveParamsBillion, 1) + "B active";
    }
    out += ", " + std::string(perf::toString(q.llmWeights)) + " weights, " + format::number(q.llmContextTokens, 0) +
           " tokens of context";
    if (q.llmDepthTokens > 0) {
        out += " after " + format::number(q.llmDepthTokens, 0) + " in the cache";
    }
    if (q.llmKvCache != perf::KvCacheType::F16) {
        out += std::string(" in a ") + perf::toString(q.llmKvCache) + " KV cache";
    }
    if (q.metric == perf::Metric::LlmDecode && q.llmSequencesFillMemory && q.llmMinSequenceSpeed) {
        out += ", as many sequences at once as fit and each get " + format::trimmed(*q.llmMinSequenceSpeed, 1) +
               " tokens/s";
    } else if (q.metric == perf::Metric::LlmDecode && q.llmSequencesFillMemory) {
        out += ", as many sequences at once as fit";
    } else if (q.metric == perf::Metric::LlmDecode && q.llmSequences > 1) {
        out += ", " + std::to_string(q.llmSequences) + " sequences at once";
    }
    if (q.metric == perf::Metric::LlmPrefill && q.llmMicroBatchTokens != perf::kDefaultMicroBatchTokens) {
        out += ", micro-batches of " + format::number(q.llmMicroBatchTokens, 0) + " tokens";
    }
    if (q.llmEngine == perf::LlmEngine::TensorRtLlm) {
        out += ", in TensorRT-LLM";
        if (q.llmSplit != perf::LlmSplit::Tensors) {
            out += std::string(" split by ") + perf::toString(q.llmSplit);
        }
    }
    return out + ")";
}

} // namespace advisor::cli
