// The accuracy report's JSON and Markdown forms (written by `gpu-advisor calibrate`).
#include "common/format.h"
#include "eval/calibrate.h"

#include <algorithm>
#include <sstream>

namespace advisor::eval {
namespace {

nlohmann::json blockJson(const ErrorBlock& b) {
    return {{"rows", b.rows}, {"median_abs_error_pct", b.medianAbsPct}, {"p90_abs_error_pct", b.p90AbsPct}};
}

std::string blockText(const ErrorBlock& b) {
    if (b.rows == 0) {
        return "| - | - | 0 |";
    }
    return "| " + format::number(b.medianAbsPct, 1) + "% | " + format::number(b.p90AbsPct, 1) + "% | " +
           std::to_string(b.rows) + " |";
}

} // namespace

nlohmann::json AccuracyReport::toJson() const {
    nlohmann::json arch = nlohmann::json::array();
    for (const auto& a : byArchitecture) {
        arch.push_back({{"architecture", a.architecture},
                        {"single_gpu", blockJson(a.single)},
                        {"multi_gpu_scaling", blockJson(a.scaling)},
                        {"llm_decode", blockJson(a.decode)},
                        {"llm_prefill", blockJson(a.prefill)}});
    }
    nlohmann::json worst = nlohmann::json::array();
    for (size_t i = 0; i < std::min<size_t>(kWorstRowsReported, singleLoaoRows.size()); ++i) {
        const auto& r = singleLoaoRows[i];
        worst.push_back({{"gpu", r.gpu}, {"workload", r.workload}, {"precision", r.precision}, {"file", r.file},
                         {"line", r.line}, {"error_pct", r.errorPct}});
    }
    nlohmann::json byFile = nlohmann::json::array();
    for (const auto& [file, b] : singleLoaoByFile) {
        byFile.push_back({{"file", file}, {"single_gpu", blockJson(b)}});
    }
    return {{"single_gpu",
             {{"in_sample", blockJson(singleInSample)},
              {"leave_one_architecture_out", blockJson(singleLoao)},
              {"leave_one_architecture_out_with_known_issue_rows", blockJson(singleLoaoWithKnownIssues)},
              {"in_sample_class_shares", blockJson(singleInSampleByClass)},
              {"leave_one_architecture_out_class_shares", blockJson(singleLoaoByClass)},
              {"baseline_bandwidth_ratio", blockJson(singleBandwidthBaseline)},
              {"in_sample_floor_free_speed_per_gpu_class_precision", blockJson(singleFreeFactorFloor)}}},
            {"repeat_measurements_spread", blockJson(repeatMeasurements)},
            {"multi_gpu_scaling",
             {{"in_sample", blockJson(scalingInSample)},
              {"leave_one_architecture_out", blockJson(scalingLoao)},
              {"leave_one_architecture_out_with_known_issue_rows", blockJson(scalingLoaoWithKnownIssues)},
              {"baseline_linear_scaling", blockJson(scalingLinearBaseline)}}},
            {"llm_decode", {{"in_sample", blockJson(decodeInSample)}, {"leave_one_architecture_out", blockJson(decodeLoao)}}},
            {"llm_prefill",
             {{"in_sample", blockJson(prefillInSample)}, {"leave_one_architecture_out", blockJson(prefillLoao)}}},
            {"by_held_out_architecture", arch},
            {"single_gpu_loao_worst_rows", worst},
            {"single_gpu_loao_by_file", byFile},
            {"seed_checks", seedChecks}};
}

std::string AccuracyReport::toMarkdown() const {
    std::ostringstream o;
    o << "| what | median abs error | p90 abs error | rows |\n|---|---|---|---|\n";
    o << "| single GPU, in-sample " << blockText(singleInSample) << "\n";
    o << "| single GPU, leave-one-architecture-out " << blockText(singleLoao) << "\n";
    o << "| single GPU, leave-one-architecture-out, with the rows of known issues taken as labelled "
         "(resources/benchmarks/known-issues.json) "
      << blockText(singleLoaoWithKnownIssues) << "\n";
    o << "| single GPU, in-sample, class shares only (a workload the calibration has not seen) "
      << blockText(singleInSampleByClass) << "\n";
    o << "| single GPU, leave-one-architecture-out, class shares only " << blockText(singleLoaoByClass) << "\n";
    o << "| single GPU, baseline 'speed ratio = bandwidth ratio' " << blockText(singleBandwidthBaseline) << "\n";
    o << "| single GPU, in-sample floor: a free speed per GPU x class x precision "
      << blockText(singleFreeFactorFloor) << "\n";
    o << "| measurement noise: spread between repeated runs of one configuration (rows: configurations) "
      << blockText(repeatMeasurements) << "\n";
    o << "| multi-GPU scaling, in-sample " << blockText(scalingInSample) << "\n";
    o << "| multi-GPU scaling, leave-one-architecture-out " << blockText(scalingLoao) << "\n";
    o << "| multi-GPU scaling, leave-one-architecture-out, with the rows of known issues taken as labelled "
      << blockText(scalingLoaoWithKnownIssues) << "\n";
    o << "| multi-GPU scaling, baseline 'perfectly linear' " << blockText(scalingLinearBaseline) << "\n";
    o << "| LLM token generation (tokens/s), in-sample " << blockText(decodeInSample) << "\n";
    o << "| LLM token generation (tokens/s), leave-one-architecture-out " << blockText(decodeLoao) << "\n";
    o << "| LLM prompt processing (tokens/s), in-sample " << blockText(prefillInSample) << "\n";
    o << "| LLM prompt processing (tokens/s), leave-one-architecture-out " << blockText(prefillLoao) << "\n";
    o << "\nLeave-one-architecture-out, by held-out architecture:\n\n"
         "| held out | single GPU median / p90 (rows) | scaling median / p90 (rows) | LLM decode median (rows) | "
         "LLM prefill median (rows) |\n|---|---|---|---|---|\n";
    const auto cell = [](const ErrorBlock& b, bool p90) {
        if (b.rows == 0) {
            return std::string("-");
        }
        return format::number(b.medianAbsPct, 1) + "%" + (p90 ? " / " + format::number(b.p90AbsPct, 1) + "%" : "") +
               " (" + std::to_string(b.rows) + ")";
    };
    for (const auto& a : byArchitecture) {
        o << "| " << a.architecture << " | " << cell(a.single, true) << " | " << cell(a.scaling, true) << " | "
          << cell(a.decode, false) << " | " << cell(a.prefill, false) << " |\n";
    }
    // With several files, each one's rows apart, and the worst rows say which file they are in.
    const bool severalFiles = singleLoaoByFile.size() > 1;
    if (severalFiles) {
        o << "\nSingle-GPU leave-one-architecture-out, by benchmark file:\n\n"
             "| file | median abs error | p90 abs error | rows |\n|---|---|---|---|\n";
        for (const auto& [file, b] : singleLoaoByFile) {
            o << "| " << file << " " << blockText(b) << "\n";
        }
    }
    o << "\nLargest single-GPU leave-one-architecture-out errors (predicted vs measured ratio to the "
         "fitted GPUs of the same workload and precision):\n\n| GPU | workload | precision | line | error |\n"
         "|---|---|---|---|---|\n";
    for (size_t i = 0; i < std::min<size_t>(kWorstRowsReported, singleLoaoRows.size()); ++i) {
        const auto& r = singleLoaoRows[i];
        o << "| " << r.gpu << " | " << r.workload << " | " << r.precision << " | "
          << (severalFiles ? r.file + ":" : std::string()) << r.line << " | " << (r.errorPct > 0 ? "+" : "")
          << format::number(r.errorPct, 1) << "% |\n";
    }
    return o.str();
}

} // namespace advisor::eval
