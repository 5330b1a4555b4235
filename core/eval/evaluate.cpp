#include "eval/evaluate.h"

#include "common/errors.h"
#include "eval/known_issues.h"
#include "eval/stats.h"

#include <cmath>
#include <map>
#include <set>

namespace advisor::eval {

perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> referenceBatchPerGpu, bool nvlink) {
    return queryFor(row, row.perGpuBatch(), referenceBatchPerGpu, nvlink);
}

perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> rowBatchPerGpu,
                         std::optional<double> referenceBatchPerGpu, bool nvlink) {
    perf::PerfQuery q;
    q.metric = row.metric();
    q.workload = perf::parseWorkloadClass(row.workloadClass).value_or(perf::WorkloadClass::Transformer);
    q.gpus = row.numGpus;
    q.interconnect.nvlinkBridge = nvlink;
    q.workloadName = row.workload;
    q.benchmarkSource = row.source;
    if (rowBatchPerGpu && referenceBatchPerGpu && *referenceBatchPerGpu > 0) {
        q.batchMultiplier = *rowBatchPerGpu / *referenceBatchPerGpu;
    }
    if (row.isLlm()) {
        q.batchMultiplier = 1.0;
        q.llmWeights = row.precision;
        q.llmParamsBillion = llmParamsBillion(row.workload).value_or(8.0);
        q.llmContextTokens = 512;
    }
    return q;
}

std::vector<std::optional<double>> perGpuBatches(const std::vector<BenchmarkRow>& rows,
                                                 const std::vector<const Gpu*>& gpus) {
    const auto key = [&](size_t i) {
        return gpus[i]->id + "|" + rows[i].workload + "|" + perf::toString(rows[i].precision) + "|" + rows[i].source;
    };
    std::map<std::string, std::vector<double>> multi;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (gpus[i] != nullptr && rows[i].numGpus > 1 && rows[i].perGpuBatch()) {
            multi[key(i)].push_back(*rows[i].perGpuBatch());
        }
    }
    std::vector<std::optional<double>> batch(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        batch[i] = rows[i].perGpuBatch();
        // A batch of 0 says the run did not fit: nothing to fill in.
        if (!batch[i] && !rows[i].zeroBatch && rows[i].numGpus == 1 && gpus[i] != nullptr) {
            const auto it = multi.find(key(i));
            if (it != multi.end()) {
                batch[i] = median(it->second);
            }
        }
    }
    return batch;
}

ErrorSummary summarize(const std::vector<const EvaluatedRow*>& rows) {
    ErrorSummary s;
    std::vector<double> abs, measured, predicted;
    for (const auto* r : rows) {
        abs.push_back(std::fabs(r->errorPct));
        measured.push_back(r->measuredRelative);
        predicted.push_back(r->predictedRelative);
    }
    s.rows = rows.size();
    s.medianAbsErrorPct = median(abs);
    s.p90AbsErrorPct = percentile(abs, 90);
    s.spearman = spearman(measured, predicted);
    return s;
}

Evaluation evaluate(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::PerfModel& model,
                    const std::optional<std::string>& reference) {
    Evaluation ev;
    ResolutionCache names(catalog);
    std::set<std::string> unresolved;
    std::vector<const Gpu*> gpuOf(rows.size(), nullptr);
    std::vector<bool> nvlinkOf(rows.size(), false);
    std::map<std::string, int> singleCounts;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Resolution& r = names.resolve(rows[i].gpu);
        if (r.status == ResolveStatus::Found) {
            gpuOf[i] = r.gpu;
            nvlinkOf[i] = r.nvlinkRequested;
            if (rows[i].numGpus == 1 && !r.nvlinkRequested && rows[i].measured()) {
                ++singleCounts[r.gpu->id];
            }
        } else {
            unresolved.insert(rows[i].gpu);
        }
    }
    ev.unresolved.assign(unresolved.begin(), unresolved.end());
    const auto batch = perGpuBatches(rows, gpuOf);

    const Gpu* ref = nullptr;
    if (reference) {
        ref = &catalog.require(*reference, "--reference");
    } else {
        int best = 0;
        for (const auto& [id, count] : singleCounts) {
            if (count > best) {
                best = count;
                ref = catalog.findById(id);
            }
        }
    }
    if (ref == nullptr) {
        throw InputError({"", 0, "", "reference"}, "no GPU in the file has single-GPU rows to normalise to");
    }
    ev.referenceGpu = ref->name;

    // The reference's single-GPU row for each (workload, precision).
    std::map<std::pair<std::string, int>, size_t> refRow;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (gpuOf[i] == ref && rows[i].numGpus == 1 && !nvlinkOf[i] && rows[i].measured() &&
            knownIssueFor(rows[i]) == nullptr) {
            refRow.emplace(std::make_pair(rows[i].workload, static_cast<int>(rows[i].precision)), i);
        }
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        EvaluatedRow e;
        e.row = rows[i];
        if (gpuOf[i] == nullptr) {
            e.skipReason = "unknown GPU";
            ev.rows.push_back(std::move(e));
            continue;
        }
        e.gpuId = gpuOf[i]->id;
        if (!rows[i].measured()) {
            e.skipReason = "not run (throughput 0)";
            ev.rows.push_back(std::move(e));
            continue;
        }
        if (const KnownIssue* issue = knownIssueFor(rows[i])) {
            e.skipReason = "known issue: " + issue->reason + " (resources/benchmarks/known-issues.json)";
            ev.rows.push_back(std::move(e));
            continue;
        }
        const auto it = refRow.find({rows[i].workload, static_cast<int>(rows[i].precision)});
        if (it == refRow.end()) {
            e.skipReason = "the reference GPU has no single-GPU row for this workload and precision";
            ev.rows.push_back(std::move(e));
            continue;
        }
        const BenchmarkRow& rr = rows[it->second];
        const auto refBatch = batch[it->second];
        const perf::PerfQuery q = queryFor(rows[i], batch[i], refBatch, nvlinkOf[i]);
        const perf::PerfQuery rq = queryFor(rr, refBatch, refBatch, false);
        e.batchFromMultiGpuRuns = batch[i] && !rows[i].perGpuBatch();
        e.measuredRelative = rows[i].throughput / rr.throughput;
        e.predictedRelative = model.throughput(*gpuOf[i], q) / model.throughput(*ref, rq);
        e.errorPct = (e.predictedRelative / e.measuredRelative - 1.0) * 100.0;
        e.workloadProfile = model.constants().profileFor(q.workloadName) != nullptr;
        e.evaluated = true;
        ev.rows.push_back(std::move(e));
    }
    std::vector<const EvaluatedRow*> all, single, multi;
    for (const auto& r : ev.rows) {
        if (!r.evaluated || (r.gpuId == ref->id && r.row.numGpus == 1 && r.measuredRelative == 1.0)) {
            continue; // the reference itself is 1 by definition
        }
        all.push_back(&r);
        (r.row.numGpus == 1 ? single : multi).push_back(&r);
    }
    ev.all = summarize(all);
    ev.singleGpu = summarize(single);
    ev.multiGpu = summarize(multi);
    return ev;
}

} // namespace advisor::eval
