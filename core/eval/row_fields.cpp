#include "eval/row_fields.h"

#include "common/text.h"

namespace advisor::eval {

std::string RowFields::cell(const char* name) const {
    return csv::cellIn(row_, columns_, name);
}

void RowFields::bad(const char* field, const std::string& why) const {
    problems_.push_back({{fileLabel_, row_.line, "", field}, why});
}

std::optional<double> RowFields::number(const char* field, bool required, double max) const {
    const std::string s = cell(field);
    if (s.empty() && !required) {
        return std::nullopt;
    }
    const auto v = text::parseNumber(csv::numberCell(table_, s)).value;
    if (!v || *v <= 0 || *v > max) {
        bad(field, "must be a number above 0 and at most " + text::formatDoubleExact(max) + ", got " +
                       text::quoteForMessage(s));
        return std::nullopt;
    }
    return v;
}

std::optional<int> RowFields::whole(const char* field, bool required, int min, int max) const {
    const std::string s = cell(field);
    if (s.empty() && !required) {
        return std::nullopt;
    }
    const auto v = text::parseInteger(s);
    if (!v || *v < min || *v > max) {
        bad(field, "must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                       text::quoteForMessage(s));
        return std::nullopt;
    }
    return static_cast<int>(*v);
}

void readWeightsAndCache(const RowFields& fields, perf::PerfQuery& q) {
    const auto weights = perf::parsePrecision(fields.cell("weights"));
    if (!weights || *weights == perf::Precision::Fp32) {
        fields.bad("weights",
                   "must be fp16, bf16, fp8, int8, int4 or fp4, got " + text::quoteForMessage(fields.cell("weights")));
    } else {
        q.llmWeights = *weights;
    }
    const auto kv = perf::parseKvCacheType(fields.cell("kv_cache"));
    if (!kv) {
        fields.bad("kv_cache", "must be f16, fp8, q8_0 or q4_0, got " + text::quoteForMessage(fields.cell("kv_cache")));
    } else {
        q.llmKvCache = *kv;
    }
}

} // namespace advisor::eval
