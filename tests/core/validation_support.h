#pragma once
/// \file
/// Reading and evaluating the files of tests/fixtures/validation, shared by the validation tests.

#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "perf/model.h"

#include <map>
#include <string>
#include <vector>

namespace advisor::eval {

// A file of tests/fixtures/validation, relative to the A100 80GB SXM4 (Lambda's files) as in the docs.
inline std::vector<BenchmarkRow> validationRows(const std::string& file) {
    return readBenchmarkFile(std::string(ADVISOR_FIXTURES_DIR) + "/validation/" + file);
}

inline Evaluation evaluateValidation(const std::string& file, const std::string& reference = "A100 80GB SXM4") {
    const auto rows = validationRows(file);
    const perf::PerfModel model(Catalog::builtin());
    return evaluate(rows, Catalog::builtin(), model, reference);
}

// The model's figure for a row (one GPU or several, as the row says) over the measured one.
inline double predictedOverMeasured(const Catalog& catalog, const BenchmarkRow& r) {
    const perf::PerfModel model(catalog);
    return model.throughput(catalog.require(r.gpu), queryFor(r, std::nullopt, false)) / r.throughput;
}

// The shipped model with the KV cache read at the weights' rate (no decode-kernel work beyond its
// bytes, as before experiments round 55): what the cache term's checks compare against.
inline const perf::PerfModel& modelWithCacheAtWeightsRate() {
    static const perf::PerfModel m = [] {
        perf::ModelConstants c = perf::ModelConstants::builtin();
        c.decodeCacheReadShare = 1.0;
        return perf::PerfModel(Catalog::builtin(), c);
    }();
    return m;
}

// A file's rows by a key made of each row (its workload, or GPU and workload).
template <typename Key> std::map<std::string, BenchmarkRow> validationRowsBy(const std::string& file, Key key) {
    std::map<std::string, BenchmarkRow> rows;
    for (const auto& r : validationRows(file)) {
        rows[key(r)] = r;
    }
    return rows;
}

// The evaluated rows of one GPU (by the name the file gives it).
inline std::vector<const EvaluatedRow*> evaluatedRowsOf(const Evaluation& ev, const std::string& gpu) {
    std::vector<const EvaluatedRow*> out;
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.gpu == gpu) {
            out.push_back(&r);
        }
    }
    return out;
}

// One multi-GPU row of a GPU over its single-GPU row of the same network and precision.
struct Scaling {
    int gpus = 0;
    std::string run;       // "workload/precision"
    std::string precision; // "fp16" or "fp32"
    double measured = 0;   // n GPUs over one, as measured
    double predicted = 0;  // the same, as the model gives it
};

// The multi-GPU rows of one GPU (by the name the file gives it), each over its single-GPU row.
inline std::vector<Scaling> scalingOf(const Evaluation& ev, const std::string& gpu) {
    std::map<std::string, const EvaluatedRow*> single;
    const auto runOf = [](const EvaluatedRow& r) { return r.row.workload + "/" + perf::toString(r.row.precision); };
    for (const auto* r : evaluatedRowsOf(ev, gpu)) {
        if (r->row.numGpus == 1) {
            single[runOf(*r)] = r;
        }
    }
    std::vector<Scaling> out;
    for (const auto* r : evaluatedRowsOf(ev, gpu)) {
        if (r->row.numGpus > 1) {
            const auto* one = single.at(runOf(*r));
            out.push_back({r->row.numGpus, runOf(*r), perf::toString(r->row.precision),
                           r->measuredRelative / one->measuredRelative, r->predictedRelative / one->predictedRelative});
        }
    }
    return out;
}

} // namespace advisor::eval
