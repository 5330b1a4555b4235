#include "calc/power_sweeps.h"

#include "calc/power_limit.h"

#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/errors.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/workload.h"

#include <cmath>

namespace advisor::calc {
namespace {

constexpr const char* kSweepsResource = "perf/power-limit-sweeps.csv";

bool sameKind(perf::Metric a, perf::Metric b) {
    const bool llmA = perf::isLlm(a), llmB = perf::isLlm(b);
    return llmA || llmB ? a == b : true;
}

} // namespace

std::vector<MeasuredPowerLimit> readPowerLimitSweeps(std::string_view textIn, const std::string& fileLabel) {
    const csv::Table table = csv::read(textIn, fileLabel);
    const auto col = csv::columnsRequiring(
        table, fileLabel, {"source", "gpu", "board_watts", "limit_watts", "metric", "measured_relative"});
    std::vector<InputProblem> problems;
    std::vector<MeasuredPowerLimit> out;
    for (const auto& r : table.rows) {
        const auto cell = [&](const char* name) { return csv::cellIn(r, col, name); };
        const auto bad = [&](const char* field, const std::string& why) {
            problems.push_back({{fileLabel, r.line, "", field}, why});
        };
        // A positive number, or nullopt (and a problem) when the cell is not one.
        const auto positive = [&](const char* field, bool required) -> std::optional<double> {
            const std::string s = cell(field);
            if (s.empty() && !required) {
                return std::nullopt;
            }
            const auto v = text::parseNumber(s).value;
            if (!v || *v <= 0) {
                bad(field, "must be a positive number, got " + text::quoteForMessage(s));
                return std::nullopt;
            }
            return v;
        };
        MeasuredPowerLimit m;
        m.line = r.line;
        m.source = cell("source");
        m.gpu = cell("gpu");
        m.note = cell("note");
        if (m.gpu.empty()) {
            bad("gpu", "must name a GPU");
        }
        m.boardWatts = positive("board_watts", true).value_or(0);
        m.limitWatts = positive("limit_watts", true).value_or(0);
        if (m.limitWatts > m.boardWatts && m.boardWatts > 0) {
            bad("limit_watts", "is above the board power of " + format::number(m.boardWatts, 0) + " W");
        }
        m.measuredRelative = positive("measured_relative", true).value_or(0);
        if (const auto metric = perf::parseMetric(cell("metric"))) {
            m.query.metric = *metric;
        } else {
            bad("metric", "is not a metric: " + text::quoteForMessage(cell("metric")));
        }
        const std::string workload = cell("workload");
        if (const auto workloadClass = perf::parseWorkloadClass(workload)) {
            m.query.workload = *workloadClass;
        } else if (!workload.empty()) {
            m.query.workloadName = workload; // a network of the calibration data
        }
        if (perf::isLlm(m.query.metric)) {
            m.query.llmParamsBillion = positive("params_billion", true).value_or(m.query.llmParamsBillion);
            m.query.llmActiveParamsBillion = positive("active_params_billion", false).value_or(0);
            if (const auto weights = perf::parsePrecision(cell("weights"))) {
                m.query.llmWeights = *weights;
            } else {
                bad("weights", "must be fp16, int8, int4 or fp4, got " + text::quoteForMessage(cell("weights")));
            }
            const auto context = text::parseInteger(cell("context"));
            if (!context || *context < 1 || *context > perf::kMaxContextTokens) {
                bad("context", "must be a whole number of tokens from 1 to 10,000,000, got " +
                                   text::quoteForMessage(cell("context")));
            } else {
                m.query.llmContextTokens = static_cast<int>(*context);
            }
        }
        out.push_back(std::move(m));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

const std::vector<MeasuredPowerLimit>& builtinPowerLimitSweeps() {
    static const std::vector<MeasuredPowerLimit> sweeps =
        readPowerLimitSweeps(resources::require(kSweepsResource), std::string("resources/") + kSweepsResource);
    return sweeps;
}

std::vector<const MeasuredPowerLimit*> sweepsOn(const Catalog& catalog, const Gpu& g, perf::Metric metric) {
    std::vector<const MeasuredPowerLimit*> out;
    for (const auto& m : builtinPowerLimitSweeps()) {
        const Resolution measured = catalog.resolve(m.gpu);
        if (measured.gpu != nullptr && measured.gpu->id == g.id &&
            std::fabs(m.boardWatts - g.tdpW) <= kSameBoardShare * g.tdpW && sameKind(m.query.metric, metric)) {
            out.push_back(&m);
        }
    }
    return out;
}

std::string sweepSource(const MeasuredPowerLimit& m, const Gpu& g) {
    return m.boardWatts == g.tdpW ? m.source
                                  : m.source + ", a " + format::number(m.boardWatts, 0) + " W board's own 100%";
}

std::string describeSweepWork(const MeasuredPowerLimit& m) {
    const perf::PerfQuery& q = m.query;
    std::string out = perf::toString(q.metric);
    if (perf::isLlm(q.metric)) {
        out += ", " + format::number(q.llmParamsBillion, 1) + "B";
        if (q.llmActiveParamsBillion > 0) {
            out += " (" + format::number(q.llmActiveParamsBillion, 1) + "B active)";
        }
        out += std::string(" ") + perf::toString(q.llmWeights) + " at " + format::number(q.llmContextTokens, 0) +
               " tokens";
    } else {
        out += ", " + (q.workloadName.empty() ? std::string(perf::toString(q.workload)) : q.workloadName);
    }
    return out;
}

double calculatorFigure(const perf::PerfModel& model, const Catalog& catalog, const MeasuredPowerLimit& m) {
    Gpu g = catalog.require(m.gpu);
    g.tdpW = m.boardWatts; // the sweep's 100%
    PowerLimitInput in;
    in.limitWatts = m.limitWatts;
    in.clockBoundShare = clockBoundShare(model, g, m.query);
    return powerLimit(g, in).relativePerformance;
}

std::optional<MeasuredMiss> notableMissNear(const perf::PerfModel& model, const Catalog& catalog,
                                            const std::vector<const MeasuredPowerLimit*>& measured, double limitWatts) {
    std::optional<MeasuredMiss> worst;
    double worstPoints = kNotableMissPoints;
    for (const auto* m : measured) {
        if (std::fabs(m->limitWatts - limitWatts) > kNearLimitShare * m->boardWatts) {
            continue;
        }
        const double calculator = calculatorFigure(model, catalog, *m);
        const double missPoints = std::fabs(calculator - m->measuredRelative) * 100.0;
        if (missPoints > worstPoints) {
            worstPoints = missPoints;
            worst = MeasuredMiss{m, calculator};
        }
    }
    return worst;
}

std::string describeMiss(const MeasuredMiss& miss, const Gpu& g) {
    const MeasuredPowerLimit& m = *miss.point;
    return "at " + format::number(m.limitWatts, 0) + " W this card measured " + format::percent(m.measuredRelative, 1) +
           " of full speed (" + describeSweepWork(m) + "; " + sweepSource(m, g) + ") where the calculator gives " +
           format::percent(miss.calculator, 1) + ": read the figure above as " +
           (miss.calculator > m.measuredRelative ? "optimistic" : "pessimistic");
}

} // namespace advisor::calc
