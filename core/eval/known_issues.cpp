#include "eval/known_issues.h"

#include "common/embedded_resources.h"
#include "common/json_fields.h"
#include "common/text.h"

#include <algorithm>

namespace advisor::eval {
namespace {

template <typename T>
bool contains(const std::vector<T>& list, const T& value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

} // namespace

bool KnownIssue::covers(const BenchmarkRow& row) const {
    return row.source == source && row.precision == precision && contains(gpus, row.gpu) &&
           contains(workloads, row.workload) &&
           (gpuCounts.empty() || contains(gpuCounts, row.numGpus));
}

std::vector<KnownIssue> parseKnownIssues(std::string_view text, const std::string& fileLabel) {
    const JsonRecords records = parseJsonRecords(text, fileLabel, "gpu-advisor-benchmark-known-issues", "issues");
    std::vector<KnownIssue> out;
    for (size_t i = 0; i < records.items.size(); ++i) {
        const JsonFields f = records.fieldsOf(i, fileLabel, "issue " + std::to_string(i + 1));
        KnownIssue issue;
        issue.source = f.requireString("source");
        issue.gpus = f.optionalStringArray("gpus");
        issue.workloads = f.optionalStringArray("workloads");
        const std::string precision = f.requireString("precision");
        const auto p = perf::parsePrecision(text::toLower(precision));
        if (!p) {
            f.fail("precision", "'" + precision + "' is not a precision (fp32, fp16, bf16, int8, fp8, int4)");
        }
        issue.precision = *p;
        if (const auto* counts = f.find("num_gpus")) {
            if (!counts->is_array() || counts->empty()) {
                f.fail("num_gpus", "must be a non-empty list of GPU counts");
            }
            for (size_t k = 0; k < counts->size(); ++k) {
                const auto& c = (*counts)[k];
                if (!c.is_number_integer() || c.get<long long>() < 1 || c.get<long long>() > 4096) {
                    f.fail("num_gpus[" + std::to_string(k) + "]", "must be a whole number of GPUs, 1 to 4096");
                }
                issue.gpuCounts.push_back(static_cast<int>(c.get<long long>()));
            }
        }
        issue.reason = f.requireString("reason");
        issue.evidence = f.optionalStringArray("evidence");
        if (issue.gpus.empty()) {
            f.fail("gpus", "names no GPU");
        }
        if (issue.workloads.empty()) {
            f.fail("workloads", "names no workload");
        }
        out.push_back(std::move(issue));
    }
    return out;
}

const std::vector<KnownIssue>& builtinKnownIssues() {
    static const std::vector<KnownIssue> issues = [] {
        const auto data = resources::find("benchmarks/known-issues.json");
        return data ? parseKnownIssues(*data, "resources/benchmarks/known-issues.json") : std::vector<KnownIssue>{};
    }();
    return issues;
}

const KnownIssue* knownIssueFor(const BenchmarkRow& row, const std::vector<KnownIssue>& issues) {
    for (const auto& issue : issues) {
        if (issue.covers(row)) {
            return &issue;
        }
    }
    return nullptr;
}

} // namespace advisor::eval
