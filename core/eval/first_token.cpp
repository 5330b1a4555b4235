#include "eval/first_token.h"

#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "eval/row_fields.h"
#include "eval/serving_fit.h"

namespace advisor::eval {
namespace {

constexpr const char* kRunsResource = "perf/tensorrt-llm-0.9-first-token.csv";

} // namespace

std::vector<FirstTokenRun> readFirstTokenRuns(std::string_view text, const std::string& fileLabel) {
    const csv::Table table = csv::read(text, fileLabel);
    const auto col = csv::columnsRequiring(table, fileLabel,
                                           {"gpu", "model", "params_billion", "active_params_billion", "experts",
                                            "experts_per_token", "layers", "hidden", "kv_values_per_token", "weights",
                                            "bits_per_weight", "kv_cache", "gpus", "input_tokens", "first_token_ms"});
    std::vector<InputProblem> problems;
    std::vector<FirstTokenRun> out;
    for (const auto& r : table.rows) {
        const RowFields fields(table, col, r, fileLabel, problems);
        FirstTokenRun run;
        readRunStart(fields, r.line, run);
        const int kvValuesPerToken = readServedModel(fields, run.query);
        run.inputTokens = fields.whole("input_tokens", true, 1, 1000000).value_or(1);
        run.query = servedPromptQuery(run.query, run.inputTokens);
        run.query.llmKvCacheValues = double(kvValuesPerToken) * run.inputTokens;
        run.firstTokenMs = fields.number("first_token_ms", true, 1e7).value_or(1);
        out.push_back(std::move(run));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<FirstTokenRun> builtinFirstTokenRuns() {
    return readFirstTokenRuns(*resources::find(kRunsResource), std::string("resources/") + kRunsResource);
}

double predictFirstTokenMs(const perf::PerfModel& model, const Gpu& g, const FirstTokenRun& run) {
    return 1000.0 * run.inputTokens / model.throughput(g, run.query);
}

} // namespace advisor::eval
