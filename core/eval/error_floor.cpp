#include "eval/error_floor.h"

#include "eval/least_squares.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace advisor::eval {

std::vector<double> fitFreeFactors(const std::vector<FloorPoint>& points) {
    std::map<std::string, size_t> cells;
    std::map<std::string, std::vector<size_t>> groups;
    std::vector<size_t> cellOf(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        cellOf[i] = cells.emplace(points[i].cell, cells.size()).first->second;
        groups[points[i].group].push_back(i);
    }
    const auto predict = [&](const std::vector<double>& x, size_t i) {
        return x[cellOf[i]] + points[i].logFixed;
    };
    LeastSquaresProblem p;
    p.parameters = cells.size();
    p.softL1Scale = 0.1; // as the model's own single-GPU fit
    p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        r.assign(points.size(), 0.0);
        for (const auto& [name, idx] : groups) {
            double mean = 0;
            for (const size_t i : idx) {
                r[i] = predict(x, i) - points[i].logMeasured;
                mean += r[i] / static_cast<double>(idx.size());
            }
            for (const size_t i : idx) {
                r[i] -= mean;
            }
        }
    };
    const auto x = solveLeastSquares(p, std::vector<double>(p.parameters, 0.0)).x;
    std::vector<double> out(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        out[i] = predict(x, i);
    }
    return out;
}

std::vector<double> repeatMeasurementSpreads(const std::vector<BenchmarkRow>& rows) {
    // Repeats within one file (one measurement campaign); the same setup in another file ran
    // other software, which is not measurement noise.
    using Key = std::tuple<std::string, std::string, int, std::string, perf::Precision, double>;
    std::map<Key, std::vector<double>> runs;
    for (const auto& r : rows) {
        if (r.measured()) {
            runs[{r.file, r.gpu, r.numGpus, r.workload, r.precision, r.batchSize.value_or(0.0)}].push_back(
                r.throughput);
        }
    }
    std::vector<double> spreads;
    for (const auto& [key, t] : runs) {
        if (t.size() > 1) {
            const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
            spreads.push_back(*hi / *lo - 1.0);
        }
    }
    return spreads;
}

} // namespace advisor::eval
