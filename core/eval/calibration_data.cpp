// Benchmark rows prepared for fitting and for the accuracy report: GPUs resolved, specs
// derived, per-GPU batch multipliers, scaling ratios, and the rows of known issues marked.
#include "eval/calibration_data.h"

#include "common/text.h"
#include "eval/evaluate.h"

#include <cmath>
#include <map>
#include <set>

namespace advisor::eval {
namespace {

// Rows are compared only with rows of the same workload, precision and benchmark file: each
// file is one benchmark, run with its own software and batch sizes (Lambda's 2022-23 re-run
// changed the same card's TransformerXL speed by up to 1.96x), so a GPU of one says nothing about
// another's. The file, not the source column: some files cite a log per row (MLPerf).
std::string groupOf(const BenchmarkRow& r) {
    return r.workload + "|" + perf::toString(r.precision) + "|" + perf::toString(r.metric()) + "|" + r.file;
}

// One note per known issue: how many rows it keeps out of the fit, and why.
void notePassedOverRows(Data& d) {
    std::map<const KnownIssue*, size_t> count;
    for (const auto* v : {&d.single, &d.scaling, &d.decode, &d.prefill}) {
        for (const auto& o : *v) {
            if (o.issue != nullptr) {
                ++count[o.issue];
            }
        }
    }
    for (const auto& [issue, n] : count) {
        std::vector<std::string> counts;
        for (const int c : issue->gpuCounts) {
            counts.push_back(std::to_string(c));
        }
        d.notes.push_back(std::to_string(n) + " rows not used for fitting (" + issue->source + ", " +
                          text::join(issue->workloads, "/") + " " + perf::toString(issue->precision) + " on " +
                          (counts.empty() ? "" : text::join(counts, "/") + "x ") + text::join(issue->gpus, ", ") +
                          "): " + issue->reason + " (resources/benchmarks/known-issues.json)");
    }
}

} // namespace

Data prepare(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::ModelConstants& priors) {
    Data d;
    ResolutionCache names(catalog);
    std::vector<const Gpu*> gpu(rows.size(), nullptr);
    std::vector<bool> link(rows.size(), false);
    std::set<std::string> unresolved;
    std::vector<const KnownIssue*> issue(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        issue[i] = knownIssueFor(rows[i]);
        const Resolution& r = names.resolve(rows[i].gpu);
        if (r.status == ResolveStatus::Found) {
            gpu[i] = r.gpu;
            link[i] = r.nvlinkRequested;
        } else {
            unresolved.insert(rows[i].gpu);
        }
    }
    for (const auto& u : unresolved) {
        d.notes.push_back("not in the catalog, rows skipped: " + u);
    }
    // Typical batch per (workload, precision): geometric mean of single-GPU batches; missing
    // single-GPU batches are taken from the same GPU's multi-GPU runs (perGpuBatches).
    const auto batch = perGpuBatches(rows, gpu);
    std::map<std::string, std::pair<double, int>> logSum;
    for (size_t i = 0; i < rows.size(); ++i) {
        // Rows of known issues do not set the typical batch either.
        if (batch[i] && rows[i].numGpus == 1 && !rows[i].isLlm() && issue[i] == nullptr) {
            auto& s = logSum[groupOf(rows[i])];
            s.first += std::log(*batch[i]);
            s.second += 1;
        }
    }
    // The same batches by workload and metric, the profile's typical batch: with one benchmark file
    // per workload it is the group's; with more, the geometric mean over all of them.
    std::map<std::string, std::map<std::string, std::pair<double, int>>> logSumByWorkload;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (batch[i] && rows[i].numGpus == 1 && !rows[i].isLlm() && issue[i] == nullptr &&
            perf::isTraining(rows[i].metric())) {
            auto& s = logSumByWorkload[rows[i].workload][perf::toString(rows[i].metric())];
            s.first += std::log(*batch[i]);
            s.second += 1;
        }
    }
    for (const auto& [workload, byMetric] : logSumByWorkload) {
        for (const auto& [metric, s] : byMetric) {
            d.typicalPerGpuBatch[workload][metric] = std::exp(s.first / s.second);
        }
    }
    std::map<std::string, size_t> singleRow; // gpu|group -> index of its single-GPU row
    size_t gemmRows = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (gpu[i] == nullptr || !rows[i].measured()) {
            continue;
        }
        if (rows[i].isGemm()) {
            ++gemmRows;
            continue;
        }
        Obs o;
        o.row = &rows[i];
        o.gpu = gpu[i];
        o.specs = perf::deriveSpecs(*gpu[i], priors, &catalog);
        o.group = groupOf(rows[i]);
        o.measured = rows[i].throughput;
        o.issue = issue[i];
        const auto ls = logSum.find(o.group);
        const double bref = ls == logSum.end() ? 0.0 : std::exp(ls->second.first / ls->second.second);
        o.query = queryFor(rows[i], std::nullopt, link[i]);
        if (batch[i] && bref > 0) {
            o.query.batchMultiplier = batch[i].value_or(bref) / bref;
        }
        if (rows[i].workloadClass == "llm-decode") {
            d.decode.push_back(o);
        } else if (rows[i].workloadClass == "llm-prefill") {
            d.prefill.push_back(o);
        } else if (rows[i].numGpus == 1 && !link[i]) {
            if (rows[i].zeroBatch) {
                d.notes.push_back(rows[i].file + ":" + std::to_string(rows[i].line) +
                                  ": batch size 0 (no valid run), not used for fitting");
                continue;
            }
            singleRow[gpu[i]->id + "|" + o.group] = d.single.size();
            d.single.push_back(o);
        }
    }
    if (gemmRows > 0) {
        d.notes.push_back(std::to_string(gemmRows) + " GEMM rows (workload class gemm) check the compute roof "
                          "on its own and are not fitted");
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        if (gpu[i] == nullptr || rows[i].numGpus == 1 || rows[i].isLlm() || rows[i].isGemm()) {
            continue;
        }
        const auto it = singleRow.find(gpu[i]->id + "|" + groupOf(rows[i]));
        if (it == singleRow.end()) {
            continue;
        }
        Obs o = d.single[it->second];
        o.row = &rows[i];
        // A scaling ratio is as good as both its rows.
        if (issue[i] != nullptr) {
            o.issue = issue[i];
        }
        o.query.gpus = rows[i].numGpus;
        o.query.interconnect.nvlinkBridge = link[i];
        // The per-GPU batch relative to the single-GPU run of the same GPU.
        const auto bs = rows[i].perGpuBatch();
        const auto b1 = d.single[it->second].row->perGpuBatch();
        if (bs && b1) {
            o.query.batchMultiplier = d.single[it->second].query.batchMultiplier * *bs / *b1;
        }
        o.measured = rows[i].throughput / (rows[i].numGpus * d.single[it->second].row->throughput);
        d.scaling.push_back(o);
    }
    notePassedOverRows(d);
    return d;
}

bool heldOut(const Obs& o, const CalibrationOptions& opt) {
    return opt.holdOutArchitecture && o.gpu->architecture == *opt.holdOutArchitecture;
}

bool fitted(const Obs& o, const CalibrationOptions& opt) {
    return o.issue == nullptr && !heldOut(o, opt);
}

double logPredict(const Obs& o, const perf::ModelConstants& c) {
    return std::log(perf::modelThroughput(o.specs, *o.gpu, o.query, c));
}

} // namespace advisor::eval
