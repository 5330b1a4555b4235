#pragma once
/// \file
/// The command-line options that describe a performance query, shared by the commands
/// that run the model (perf, value, chart, recommend).

#include "cli/args.h"
#include "perf/accuracy.h"
#include "perf/model.h"

#include <optional>
#include <vector>

namespace advisor::cli {

struct PerfOptions {
    perf::PerfQuery query;
    std::optional<perf::Metric> metric; ///< --metric, when given
};

/// Whether the command predicts several GPUs (--gpus and the interconnect options) or one.
enum class GpuSetup { Several, One };

/// --sparsity, for the commands whose numbers 2:4 sparse weights change (perf, value, chart), and
/// the line of help that says what it assumes.
OptionSpec sparsityOption();
inline constexpr const char* kSparsityHelp =
    "--sparsity assumes 2:4 structured-sparse weights (up to 2x on the matmuls, Ampere and later).\n";

/// --system-ram, for the commands that predict LLM inference (perf, value, chart), and the help's
/// line for value and chart.
OptionSpec systemRamOption();
inline constexpr const char* kSystemRamHelp =
    "--system-ram (ddr5-5600, ddr4-3200x4 or GB/s) runs an LLM that does not fit a GPU as\n"
    "llama.cpp does, with the rest in system RAM (gpu-advisor perf --help says how).\n";

/// --system-ram into q.systemRamGbs when given. UsageError naming the option when it is bad, or
/// when the command predicts no LLM inference (`llmInference` false).
void readSystemRam(const Args& args, bool llmInference, perf::PerfQuery& q);

/// Whether any option that describes an LLM (--params-billion, --active-params-billion, --model,
/// --weights, --context, --depth, --kv-cache, --sequences, --ubatch, --engine) is given, and those options'
/// names for a message.
bool hasLlmOptions(const Args& args);
inline constexpr const char* kLlmOptionNames = "--params-billion, --active-params-billion, --model, --weights, "
                                               "--context, --depth, --kv-cache, --sequences, --min-sequence-speed, "
                                               "--ubatch and --engine";

/// For a command whose default metric is not an LLM one (power-limit, cloud-vs-desktop): LLM
/// options without --metric llm-decode or llm-prefill are refused (UsageError), not ignored.
void refuseLlmOptionsWithoutLlmMetric(const Args& args, const PerfOptions& options);

/// --kv-cache (f16, fp8, q8_0, q4_0), if given; UsageError naming the option otherwise.
std::optional<perf::KvCacheType> kvCacheOption(const Args& args);

/// --sequences into `sequences`, or `fillMemory` for "max" (as many as each card's memory holds);
/// unchanged when not given. UsageError naming the option when it is neither.
void readSequences(const Args& args, int& sequences, bool& fillMemory);

/// --min-sequence-speed into q: as many sequences as fit that each still generate that many tokens/s
/// (llmSequencesFillMemory with llmMinSequenceSpeed). UsageError naming the option when it is not a
/// positive number, or when --sequences gives a number of sequences as well.
void readMinSequenceSpeed(const Args& args, perf::PerfQuery& q);

/// --engine (llama.cpp, the default, or tensorrt-llm) into q.llmEngine when given, and --split
/// (tensors, layers or experts; the engine's only) into q.llmSplit. UsageError naming the option when it is
/// neither, or when a llama.cpp-only option (--ubatch, --system-ram, --gpu-layers,
/// --cpu-moe-layers) comes with tensorrt-llm. Given splitFastest, --split also takes "fastest",
/// which sets it instead of q.llmSplit (each setup split whichever way runs faster).
void readEngine(const Args& args, perf::PerfQuery& q, bool* splitFastest = nullptr);

/// The options readLlmOptions reads (kLlmOptionNames), for a command's option list.
std::vector<OptionSpec> llmOptionSpecs();

/// The LLM inference options into q: --model (a published model's size, attention and 4-bit
/// release) or --params-billion [--active-params-billion], --weights, --context (default 512),
/// --depth, --kv-cache, --sequences (default 1), --ubatch (default 512) and --engine (default llama.cpp).
/// Throws UsageError naming a bad option.
void readLlmOptions(const Args& args, perf::PerfQuery& q);

/// The LLM a query describes, in words: "(8.0B parameters, int4 weights, 512 tokens of context)"
/// (with the active parameters, the depth and the KV cache's type when given).
std::string describeLlm(const perf::PerfQuery& q);

/// The options perfOptions() reads, plus `extra`.
std::vector<OptionSpec> perfOptionSpecs(std::vector<OptionSpec> extra = {}, GpuSetup setup = GpuSetup::Several);

/// Reads --metric, --workload, --batch, --params-billion, --active-params-billion (a mixture of
/// experts), --model (a published model's size and attention: calc::findModelShape), --weights, --context,
/// --depth, --kv-cache (f16, fp8, q8_0, q4_0), --sparsity (for
/// the commands that declare it: sparsityOption()), and for several GPUs --gpus, --pcie-gen,
/// --pcie-lanes, --nvlink. --workload is a class, or a calibration workload of `constants`
/// (bert_large_squad, resnet50, ...) predicted with its fitted profile.
/// Throws UsageError naming a bad option.
PerfOptions perfOptions(const Args& args, GpuSetup setup = GpuSetup::Several,
                        const perf::ModelConstants& constants = perf::ModelConstants::builtin());

/// The model constants: --constants FILE (a calibration written by `calibrate --out`), else
/// the shipped calibration. Throws InputError naming the file and field when it is bad.
perf::ModelConstants modelConstants(const Args& args);

/// The same calibration with its leave-one-architecture-out accuracy (empty for a file
/// without the report), from one reading of the file.
struct Calibration {
    perf::ModelConstants constants;
    perf::ModelAccuracy accuracy;
};
Calibration calibration(const Args& args);

} // namespace advisor::cli
