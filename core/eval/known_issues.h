#pragma once
/// \file
/// Benchmark rows known not to measure what they are labelled as (resources/benchmarks/
/// known-issues.json), each with the evidence. `calibrate` does not fit them and reports the
/// model's error with and without them; `eval-model` lists them as skipped, with the reason.

#include "eval/benchmarks.h"
#include "perf/workload.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::eval {

/// Rows of one benchmark source, GPUs (as the file names them), workloads, precision and,
/// optionally, GPU counts.
struct KnownIssue {
    std::string source;
    std::vector<std::string> gpus;
    std::vector<std::string> workloads;
    perf::Precision precision = perf::Precision::Fp16;
    std::vector<int> gpuCounts;        ///< num_gpus covered; empty: every count
    std::string reason;                ///< what the rows really measured
    std::vector<std::string> evidence; ///< where that can be checked

    bool covers(const BenchmarkRow& row) const;
};

/// Parses a known-issues file; errors name the file, the entry's line and the field.
std::vector<KnownIssue> parseKnownIssues(std::string_view text, const std::string& fileLabel);

/// The shipped list (resources/benchmarks/known-issues.json, compiled in).
const std::vector<KnownIssue>& builtinKnownIssues();

/// The issue that covers a row, or nullptr.
const KnownIssue* knownIssueFor(const BenchmarkRow& row, const std::vector<KnownIssue>& issues = builtinKnownIssues());

} // namespace advisor::eval
