// `gpu-advisor eval-model`: the model against a benchmark file.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "cli/table.h"
#include "common/format.h"
#include "common/text.h"
#include "eval/evaluate.h"
#include "perf/llm_training.h"

#include <map>
#include <ostream>
#include <set>

namespace advisor::cli {
namespace {

nlohmann::json summaryJson(const eval::ErrorSummary& s) {
    return {{"rows", s.rows},
            {"median_abs_error_pct", s.medianAbsErrorPct},
            {"p90_abs_error_pct", s.p90AbsErrorPct},
            {"spearman", s.spearman}};
}

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const auto rows = eval::readBenchmarkFile(args.required("benchmarks"));
    const perf::PerfModel model(ctx.catalog(), modelConstants(args));
    const auto ev = eval::evaluate(rows, ctx.catalog(), model, args.value("reference"));
    if (ctx.json()) {
        nlohmann::json list = nlohmann::json::array();
        nlohmann::json skipped = nlohmann::json::array();
        for (const auto& r : ev.rows) {
            if (!r.evaluated) {
                skipped.push_back({{"line", r.row.line}, {"gpu", r.row.gpu}, {"reason", r.skipReason}});
                continue;
            }
            list.push_back(
                {{"gpu", r.row.gpu},
                 {"gpu_id", r.gpuId},
                 {"num_gpus", r.row.numGpus},
                 {"workload", r.row.workload},
                 {"workload_class", r.row.workloadClass},
                 {"metric", perf::toString(r.row.metric())},
                 {"precision", perf::toString(r.row.precision)},
                 {"measured_relative", r.measuredRelative},
                 {"predicted_relative", r.predictedRelative},
                 {"error_pct", r.errorPct},
                 {"bandwidth_relative", r.bandwidthRelative},
                 {"reference", r.referenceGpu},
                 {"reference_num_gpus", r.referenceNumGpus},
                 {"workload_profile", r.workloadProfile},
                 {"profile", r.profile.empty() ? nlohmann::json() : nlohmann::json(r.profile)},
                 {"language_model_params_billion",
                  r.languageModelParamsBillion > 0 ? nlohmann::json(r.languageModelParamsBillion) : nlohmann::json()},
                 {"batch_from_multi_gpu_runs", r.batchFromMultiGpuRuns},
                 {"explanation", r.explanation}});
        }
        nlohmann::json summary = summaryJson(ev.all);
        summary["single_gpu"] = summaryJson(ev.singleGpu);
        summary["single_gpu_baseline_bandwidth_ratio"] = summaryJson(ev.singleGpuBandwidthBaseline);
        summary["multi_gpu"] = summaryJson(ev.multiGpu);
        const auto summaries = [](const std::vector<std::pair<std::string, eval::ErrorSummary>>& groups) {
            nlohmann::json out = nlohmann::json::object();
            for (const auto& [key, s] : groups) {
                out[key] = summaryJson(s);
            }
            return out;
        };
        summary["single_gpu_by_architecture"] = summaries(ev.singleGpuByArchitecture);
        summary["single_gpu_by_class"] = summaries(ev.singleGpuByClass);
        summary["multi_gpu_by_class"] = summaries(ev.multiGpuByClass);
        nlohmann::json others = nlohmann::json::array();
        for (const auto& o : ev.otherReferences) {
            others.push_back({{"workload", o.workload},
                              {"precision", perf::toString(o.precision)},
                              {"reference", o.gpu},
                              {"reference_num_gpus", o.numGpus},
                              {"rows", o.rows}});
        }
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& r : ev.referencesAmongRuns) {
            runs.push_back(
                {{"workload", r.workload},
                 {"precision", perf::toString(r.precision)},
                 {"reference", r.gpu},
                 {"reference_num_gpus", r.numGpus},
                 {"line", r.line},
                 {"per_gpu_batch", r.perGpuBatch ? nlohmann::json(*r.perGpuBatch) : nlohmann::json()},
                 {"runs", r.runs},
                 {"other_per_gpu_batches", r.otherPerGpuBatches},
                 {"typical_per_gpu_batch",
                  r.profileTypicalPerGpuBatch ? nlohmann::json(*r.profileTypicalPerGpuBatch) : nlohmann::json()}});
        }
        nlohmann::json unresolvedDetail = nlohmann::json::array();
        for (size_t i = 0; i < ev.unresolved.size(); ++i) {
            unresolvedDetail.push_back({{"gpu", ev.unresolved[i]}, {"reason", ev.unresolvedReasons[i]}});
        }
        ctx.printJson({{"reference", ev.referenceGpu},
                       {"other_references", others},
                       {"reference_runs", runs},
                       {"rows", list},
                       {"summary", summary},
                       {"unresolved", ev.unresolved},
                       {"unresolved_detail", unresolvedDetail},
                       {"llm_size_assumed_8b", ev.llmSizeAssumed},
                       {"skipped", skipped}});
        return 0;
    }
    TextTable t({"GPU", "N", "WORKLOAD", "CLASS", "PRECISION", "MEASURED", "PREDICTED", "ERROR"});
    for (const size_t c : {1u, 5u, 6u, 7u}) {
        t.setRightAligned(c);
    }
    for (const auto& r : ev.rows) {
        if (r.evaluated) {
            t.addRow({r.row.gpu, std::to_string(r.row.numGpus), r.row.workload, r.row.workloadClass,
                      perf::toString(r.row.precision), format::number(r.measuredRelative, 3),
                      format::number(r.predictedRelative, 3), format::number(r.errorPct, 1) + "%"});
        }
    }
    t.print(ctx.out());
    const auto line = [&](const char* what, const eval::ErrorSummary& s) {
        ctx.out() << what << ": " << s.rows << (s.rows == 1 ? " row" : " rows");
        if (s.rows > 0) {
            // A rank correlation of one or two points says nothing (0 or +-1 by construction).
            ctx.out() << ", median |error| " << format::number(s.medianAbsErrorPct, 1) << "%, p90 "
                      << format::number(s.p90AbsErrorPct, 1) << "%, Spearman "
                      << (s.rows >= 3 ? format::number(s.spearman, 3) : std::string("- (fewer than 3 rows)"));
        }
        ctx.out() << '\n';
    };
    ctx.out() << "\nrelative to " << ev.referenceGpu << '\n';
    if (!ev.otherReferences.empty()) {
        std::vector<std::string> others;
        for (const auto& o : ev.otherReferences) {
            const std::string setup = o.numGpus == 1 ? o.gpu : std::to_string(o.numGpus) + "x " + o.gpu;
            others.push_back(o.workload + " " + perf::toString(o.precision) + ": " + setup + " (" +
                             std::to_string(o.rows) + " rows)");
        }
        ctx.out() << "where " << ev.referenceGpu << " has no single-GPU row, relative to: " << text::join(others, ", ")
                  << '\n';
    }
    for (const auto& r : ev.referencesAmongRuns) {
        const std::string setup = r.numGpus == 1 ? r.gpu : std::to_string(r.numGpus) + "x " + r.gpu;
        ctx.out() << r.workload << " " << perf::toString(r.precision) << ": " << setup << " has " << r.runs
                  << " runs; line " << r.line << " is the reference";
        if (r.perGpuBatch && !r.otherPerGpuBatches.empty()) {
            std::vector<std::string> others;
            for (const double b : r.otherPerGpuBatches) {
                others.push_back(format::number(b, 0));
            }
            if (r.profileTypicalPerGpuBatch) {
                ctx.out() << " (" << format::number(*r.perGpuBatch, 0)
                          << " per GPU; the others: " << text::join(others, ", ")
                          << "); each run is predicted at its batch relative to "
                          << format::number(*r.profileTypicalPerGpuBatch, 0) << " per GPU, the batch " << r.workload
                          << "'s profile was fitted at";
            } else {
                ctx.out() << ", and its batch (" << format::number(*r.perGpuBatch, 0)
                          << " per GPU) is taken as the typical one (the others: " << text::join(others, ", ")
                          << " per GPU)";
            }
        }
        ctx.out() << '\n';
    }
    line("all rows", ev.all);
    line("single GPU", ev.singleGpu);
    line("single GPU, baseline 'speed ratio = bandwidth ratio'", ev.singleGpuBandwidthBaseline);
    line("multi GPU", ev.multiGpu);
    for (const auto& [architecture, s] : ev.singleGpuByArchitecture) {
        line(("  single GPU, " + architecture).c_str(), s);
    }
    // By class only where the file mixes them (token generation and prompt processing, say).
    std::set<std::string> classes;
    for (const auto* groups : {&ev.singleGpuByClass, &ev.multiGpuByClass}) {
        for (const auto& group : *groups) {
            classes.insert(group.first);
        }
    }
    if (classes.size() > 1) {
        for (const auto& [cls, s] : ev.singleGpuByClass) {
            line(("  single GPU, " + cls).c_str(), s);
        }
        for (const auto& [cls, s] : ev.multiGpuByClass) {
            line(("  multi GPU, " + cls).c_str(), s);
        }
    }
    std::map<std::string, int> skipped;
    std::set<std::string> profiled, batchFilled, languageModels;
    size_t profiledRows = 0, evaluatedRows = 0, batchFilledRows = 0, languageModelRows = 0;
    for (const auto& r : ev.rows) {
        if (!r.evaluated) {
            ++skipped[r.skipReason];
            continue;
        }
        ++evaluatedRows;
        if (r.workloadProfile) {
            profiled.insert(r.profile == r.row.workload ? r.profile : r.row.workload + " (as " + r.profile + ")");
            ++profiledRows;
        }
        if (r.languageModelParamsBillion > 0) {
            languageModels.insert(r.row.workload);
            ++languageModelRows;
        }
        if (r.batchFromMultiGpuRuns) {
            batchFilled.insert(r.row.gpu);
            ++batchFilledRows;
        }
    }
    if (!batchFilled.empty()) {
        ctx.out() << "batch size taken from the same GPU's multi-GPU runs (" << batchFilledRows
                  << (batchFilledRows == 1 ? " single-GPU row" : " single-GPU rows")
                  << " without one): " << text::join({batchFilled.begin(), batchFilled.end()}, ", ") << '\n';
    }
    if (!profiled.empty()) {
        ctx.out() << "predicted with their network's fitted profile (" << profiledRows << " of " << evaluatedRows
                  << " evaluated rows): " << text::join({profiled.begin(), profiled.end()}, ", ")
                  << "; other rows with their class's shares\n";
    }
    if (!languageModels.empty()) {
        ctx.out() << "predicted as language models, their name giving a size of "
                  << format::trimmed(perf::kLanguageModelMinParamsBillion, 1) << "B or more (" << languageModelRows
                  << " of " << evaluatedRows << " evaluated rows): " << text::join({languageModels.begin(),
                                                                                     languageModels.end()}, ", ")
                  << '\n';
    }
    if (!ev.llmSizeAssumed.empty()) {
        ctx.out() << "LLM workloads whose name gives no size (\"8b\", \"70b\"), predicted as 8B models: "
                  << text::join(ev.llmSizeAssumed, ", ") << '\n';
    }
    if (!skipped.empty()) {
        const char* separator = "rows skipped: ";
        for (const auto& [reason, count] : skipped) {
            ctx.out() << separator << count << " (" << reason << ')';
            separator = ", ";
        }
        ctx.out() << '\n';
    }
    if (!ev.unresolved.empty()) {
        ctx.out() << "GPU names not resolved (rows skipped): ";
        for (size_t i = 0; i < ev.unresolved.size(); ++i) {
            ctx.out() << (i ? ", " : "") << ev.unresolved[i];
        }
        ctx.out() << '\n';
        for (const auto& why : ev.unresolvedReasons) {
            ctx.out() << "  " << why << '\n';
        }
    }
    return 0;
}

} // namespace

Command evalModelCommand() {
    return {"eval-model", "compare the performance model with measured benchmarks",
            "Usage: gpu-advisor eval-model --benchmarks FILE.csv [--reference GPU] [--constants FILE.json]\n\n"
            "FILE.csv: gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
            "Each row's relative throughput (to the reference GPU's single-GPU row for the same\n"
            "workload and precision) is compared with the model's, and with the rule of thumb\n"
            "'speed ratio = bandwidth ratio' on the single-GPU rows. The reference defaults to the\n"
            "GPU with the most single-GPU rows. A workload and precision the reference did not run\n"
            "alone (a 70B model on a 24 GB card) is taken relative to the GPU that did with the most\n"
            "single-GPU rows, one that no GPU ran alone relative to the setup with the fewest GPUs\n"
            "(2x RTX 3090), and listed. Unknown or ambiguous GPU names are listed with the\n"
            "reason, not fatal.\n"
            "Rows of transformer, cnn, rnn and recsys are training in fp32, fp16 or bf16 and 8-bit\n"
            "inference in int8, fp8 or int4; with -inference (cnn-inference), inference: 16-bit in\n"
            "fp16 or bf16, 8-bit in int8, fp8 or int4. llm-decode and llm-prefill rows give the\n"
            "weights' precision, and the workload name the model's size (\"llama-2-70b-q4_0\"; a\n"
            "mixture of experts such as \"mixtral-8x7b\" by its held and active parameters; 8B if\n"
            "none).\n"
            "A gemm row is a large dense matrix multiply's TFLOPS in its precision (fp16: FP32\n"
            "accumulate, as torch.matmul): it checks the compute roof alone, at the clock dense\n"
            "matmuls sustain; `calibrate` never fits such rows.\n"
            "A workload that is a network of the calibration data (resnet50, or another name for it\n"
            "in resources/perf/workload_names.json: \"ResNet-50 v1.5\") is predicted with that\n"
            "network's fitted profile, others with their class's shares; a transformer whose name\n"
            "gives a language model's size of 0.5B or more (\"mpt-7b\", \"LLAMA3_8B\") with the\n"
            "language-model profile (docs/performance-model.md, language models).\n"
            "Rows listed in resources/benchmarks/known-issues.json (runs that did not measure what\n"
            "they are labelled as) are skipped, with the reason, and so are rows of batch size 0\n"
            "(no run fitted in memory). A single-GPU row without a batch size takes the per-GPU\n"
            "batch of the same GPU's multi-GPU rows.\n"
            "--constants evaluates a calibration written by `gpu-advisor calibrate --out` instead of\n"
            "the shipped one.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return run(ctx, Args::parse(rest, {{"benchmarks"}, {"reference"}, {"constants"}}));
            }};
}

} // namespace advisor::cli
