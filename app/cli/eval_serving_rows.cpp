#include "cli/eval_serving_rows.h"

#include "common/format.h"
#include "eval/stats.h"

namespace advisor::cli {

nlohmann::json Band::json() const {
    if (errorsPct.empty()) { // a file without such rows: no error, rather than a perfect one
        return {{"rows", 0}, {"median_abs_error_pct", nullptr}, {"p90_abs_error_pct", nullptr}};
    }
    return {{"rows", errorsPct.size()},
            {"median_abs_error_pct", eval::median(errorsPct)},
            {"p90_abs_error_pct", eval::percentile(errorsPct, 90)}};
}

std::string Band::text() const {
    if (errorsPct.empty()) {
        return "no rows";
    }
    return format::number(eval::median(errorsPct), 1) + "% median, " +
           format::number(eval::percentile(errorsPct, 90), 1) + "% p90 (" + std::to_string(errorsPct.size()) + " rows)";
}

nlohmann::json fullLoadRowJson(const eval::FullLoadRun& r, int atOnce, double predicted, double errorPct) {
    return {{"line", r.line},
            {"gpu", r.gpu},
            {"model", r.model},
            {"gpus", r.query.gpus},
            {"input_tokens", r.inputTokens},
            {"output_tokens", r.outputTokens},
            {"sequences", atOnce},
            {"measured_tokens_per_s", r.outputTokensPerSecond},
            {"predicted_tokens_per_s", predicted},
            {"error_pct", errorPct},
            {"weights", perf::toString(r.query.llmWeights)},
            {"split", perf::toString(r.query.llmSplit)},
            {"mixture_of_experts", r.mixtureOfExperts()}};
}

std::vector<std::string> fullLoadRowCells(const eval::FullLoadRun& r, int atOnce, double predicted, double errorPct) {
    return {r.gpu,
            r.model,
            std::to_string(r.query.gpus) + (r.query.gpus > 1 && r.query.llmSplit != perf::LlmSplit::Tensors
                                                ? std::string(" by ") + perf::toString(r.query.llmSplit)
                                                : std::string()),
            perf::toString(r.query.llmWeights),
            std::to_string(r.inputTokens) + "/" + std::to_string(r.outputTokens),
            format::number(atOnce, 0),
            format::number(r.outputTokensPerSecond, 0),
            format::number(predicted, 0),
            format::number(errorPct, 1) + "%"};
}

TextTable fullLoadTable(const std::string& last) {
    TextTable t({"GPU", "MODEL", "GPUS", "WEIGHTS", "IN/OUT", "AT ONCE", "MEASURED", "PREDICTED", "ERROR", last});
    for (const size_t c : {2u, 5u, 6u, 7u, 8u, 9u}) {
        t.setRightAligned(c);
    }
    return t;
}

} // namespace advisor::cli
