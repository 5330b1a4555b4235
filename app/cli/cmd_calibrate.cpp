// `gpu-advisor calibrate`: refit the model's constants and report its accuracy.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "common/date.h"
#include "common/file_io.h"
#include "common/text.h"
#include "eval/calibrate.h"

#include <ostream>

namespace advisor::cli {
namespace {

int run(Context& ctx, const Args& args) {
    std::vector<eval::BenchmarkRow> rows;
    std::vector<std::string> sources;
    for (const auto& f : args.positionals()) {
        auto more = eval::readBenchmarkFile(f);
        rows.insert(rows.end(), more.begin(), more.end());
        sources.push_back(files::baseName(f));
    }
    if (rows.empty()) {
        rows = eval::builtinBenchmarks();
        sources = {"resources/benchmarks/lambda-pytorch-train-2020-2021.csv",
                   "resources/benchmarks/llamacpp-llama3-8b-2024.csv"};
    }
    const perf::ModelConstants priors; // always from the seed priors, so a refit is reproducible
    auto fit = eval::fitModel(rows, ctx.catalog(), priors);
    fit.constants.provenance = "fitted by `gpu-advisor calibrate` on " + text::join(sources, ", ") + " (" +
                               std::to_string(fit.singleRows) + " single-GPU, " + std::to_string(fit.scalingRows) +
                               " scaling, " + std::to_string(fit.decodeRows) + " decode, " +
                               std::to_string(fit.prefillRows) + " prefill rows)";
    const auto report = eval::crossValidate(rows, ctx.catalog(), priors);
    const nlohmann::json doc = {{"constants", fit.constants.toJson()},
                                {"fit", {{"data", sources}, {"notes", fit.notes}, {"accuracy", report.toJson()}}}};
    if (const auto out = args.value("out")) {
        files::writeAtomically(*out, doc.dump(2) + "\n");
    }
    if (const auto md = args.value("report")) {
        files::writeAtomically(*md, report.toMarkdown());
    }
    if (ctx.json()) {
        ctx.printJson(doc);
    } else {
        ctx.out() << fit.constants.provenance << "\n";
        for (const auto& note : fit.notes) {
            ctx.out() << "note: " << note << "\n";
        }
        ctx.out() << "\n" << report.toMarkdown() << "\nseed checks: "
                  << report.seedChecks.dump(2) << '\n';
    }
    return 0;
}

} // namespace

Command calibrateCommand() {
    return {"calibrate", "refit the performance model and report its accuracy",
            "Usage: gpu-advisor calibrate [BENCHMARKS.csv ...] [--out calibration.json] [--report accuracy.md]\n\n"
            "Fits the model's constants (from the seed priors) to the benchmark files (default: the\n"
            "shipped resources/benchmarks), then reports in-sample and leave-one-architecture-out error.\n"
            "Each file is one benchmark: its rows are compared only with each other (other software,\n"
            "other batch sizes), so your own runs can be added to the shipped files.\n"
            "Rows listed in resources/benchmarks/known-issues.json (runs that did not measure what\n"
            "they are labelled as, with the evidence) are not fitted; the report also gives the\n"
            "error with them taken as labelled.\n"
            "The shipped resources/perf/calibration.json was written with --out.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return run(ctx, Args::parse(rest, {{"out"}, {"report"}}));
            }};
}

} // namespace advisor::cli
