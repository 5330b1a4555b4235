#pragma once
/// \file
/// One row of a file of measured runs (eval-offload's, eval-serving's), read field by field: a
/// bad field adds a problem naming the file, line and field, and reads as nothing, so that every
/// bad field of a file is reported at once before anything is used.

#include "catalog/catalog.h"
#include "common/csv.h"
#include "common/errors.h"
#include "perf/model.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor::eval {

class RowFields {
public:
    RowFields(const csv::Table& table, const std::map<std::string, size_t>& columns, const csv::Row& row,
              const std::string& fileLabel, std::vector<InputProblem>& problems)
        : table_(table), columns_(columns), row_(row), fileLabel_(fileLabel), problems_(problems) {}

    /// The trimmed cell of the column named `name` (empty when absent).
    std::string cell(const char* name) const;
    /// Records a problem with `field` of this row.
    void bad(const char* field, const std::string& why) const;
    /// A number above 0 and at most `max`; nullopt when empty and not required, or (with a problem)
    /// when it is not one.
    std::optional<double> number(const char* field, bool required, double max) const;
    /// A whole number from `min` to `max`, likewise.
    std::optional<int> whole(const char* field, bool required, int min, int max) const;

private:
    const csv::Table& table_;
    const std::map<std::string, size_t>& columns_;
    const csv::Row& row_;
    const std::string& fileLabel_;
    std::vector<InputProblem>& problems_;
};

/// What every measured run names: its line, GPU (required), model and source; and its query as one
/// of LLM token generation.
template <typename Run> void readRunIdentity(const RowFields& fields, int line, Run& run) {
    run.line = line;
    run.gpu = fields.cell("gpu");
    run.model = fields.cell("model");
    run.source = fields.cell("source");
    if (run.gpu.empty()) {
        fields.bad("gpu", "must name a GPU");
    }
    run.query.metric = perf::Metric::LlmDecode;
}

/// readRunIdentity, then the parameters and active parameters (a mixture of experts'; empty: dense).
template <typename Run> void readRunStart(const RowFields& fields, int line, Run& run) {
    readRunIdentity(fields, line, run);
    perf::PerfQuery& q = run.query;
    q.llmParamsBillion = fields.number("params_billion", true, 100000).value_or(1);
    q.llmActiveParamsBillion = fields.number("active_params_billion", false, q.llmParamsBillion).value_or(0);
}

/// The columns `weights` (fp16, bf16, fp8, int8, int4 or fp4) and `kv_cache` (f16, fp8, q8_0 or q4_0)
/// into q; a bad one adds a problem.
void readWeightsAndCache(const RowFields& fields, perf::PerfQuery& q);

/// Resolves every run's GPU in the catalog before anything is predicted: a file naming one the
/// catalog does not know, or one it cannot tell apart from another, is refused with each such
/// row's file, line and field.
template <typename Run>
void requireRunGpus(const Catalog& catalog, const std::vector<Run>& runs, const std::string& fileLabel) {
    std::vector<InputProblem> problems;
    for (const auto& r : runs) {
        const Resolution found = catalog.resolve(r.gpu);
        if (found.status != ResolveStatus::Found) {
            problems.push_back({{fileLabel, r.line, "", "gpu"}, found.message()});
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
}

} // namespace advisor::eval
