#include "eval/evaluate.h"

#include "calc/model_query.h"
#include "common/errors.h"
#include "common/format.h"
#include "eval/known_issues.h"
#include "eval/stats.h"
#include "perf/llm_training.h"
#include "perf/terms.h"
#include "perf/workload_names.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace advisor::eval {
namespace {

struct GemmPrediction {
    double tflops = 0;
    std::string explanation;
};

// A measured GEMM meets the compute roof alone: no memory, overhead or batch terms.
GemmPrediction gemmPrediction(const perf::PerfModel& model, const Gpu& gpu, perf::Metric m) {
    const perf::EffectiveSpecs s = model.specs(gpu);
    const perf::Metric runs = perf::metricRunOn(s, m, model.constants());
    GemmPrediction p;
    p.tflops = perf::denseMatmulTflops(s, runs);
    p.explanation = "dense matmul roof " + format::number(p.tflops, 1) + " TFLOPS (the " + perf::toString(runs) +
                    " rate" + (runs == perf::Metric::Fp16Training ? ": 16-bit inputs, FP32 accumulate)" : ")");
    if (s.denseMatmulClock < 1.0) {
        p.explanation += "; " + s.denseMatmulClockDetail;
    }
    return p;
}

} // namespace

perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> referenceBatchPerGpu, bool nvlink) {
    return queryFor(row, row.perGpuBatch(), referenceBatchPerGpu, nvlink);
}

perf::PerfQuery queryFor(const BenchmarkRow& row, std::optional<double> rowBatchPerGpu,
                         std::optional<double> referenceBatchPerGpu, bool nvlink) {
    perf::PerfQuery q;
    q.metric = row.metric();
    q.workload = row.networkClass().value_or(perf::WorkloadClass::Transformer);
    q.gpus = row.numGpus;
    q.interconnect.nvlinkBridge = nvlink;
    q.workloadName = row.workload;
    q.benchmarkSource = row.source;
    if (rowBatchPerGpu && referenceBatchPerGpu && *referenceBatchPerGpu > 0) {
        q.batchMultiplier = *rowBatchPerGpu / *referenceBatchPerGpu;
    }
    if (!row.isLlm() && !row.isGemm() && q.workload == perf::WorkloadClass::Transformer) {
        // A transformer whose name gives a language model's size ("mpt-7b", "Llama 3.1 405B") is
        // predicted from that size, not from the 2020-21 networks' shares.
        const calc::ModelShape* moe = mixtureOfExpertsIn(row.workload);
        const double size = moe != nullptr ? moe->activeParamsBillion : llmParamsBillion(row.workload).value_or(0.0);
        q.llmTrainingParamsBillion = size >= perf::kLanguageModelMinParamsBillion ? size : 0.0;
    }
    if (row.isLlm()) {
        q.batchMultiplier = 1.0;
        q.llmWeights = row.precision;
        // llama-bench's test: pp512 reads a 512-token prompt; tg128 generates 128 tokens, each
        // reading the cache as it grows, 64 on average; either after the depth already cached.
        const LlmTest test = llmTestIn(row.workload);
        const bool prompt = q.metric == perf::Metric::LlmPrefill;
        q.llmContextTokens = prompt ? test.promptTokens.value_or(512)
                                    : std::max(1, test.generatedTokens.value_or(1024) / 2);
        q.llmDepthTokens = test.depthTokens;
        if (prompt) {
            // A prompt row's batch: the tokens each step multiplies (llama-bench's n_ubatch); none given,
            // llama.cpp's default.
            q.llmMicroBatchTokens = row.batchSize ? static_cast<int>(std::clamp(*row.batchSize, 1.0,
                                                                               double(perf::kMaxContextTokens)))
                                                  : perf::kDefaultMicroBatchTokens;
        }
        if (!prompt && row.batchSize) {
            // A token-generation row's batch: the sequences generated together (llama-batched-bench's B).
            q.llmSequences = static_cast<int>(std::min(*row.batchSize, double(perf::kMaxLlmSequences)));
        }
        if (const calc::ModelShape* model = modelShapeIn(row.workload)) {
            calc::applyModelShape(q, *model);
        } else {
            q.llmParamsBillion = llmParamsBillion(row.workload).value_or(8.0);
        }
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

ErrorSummary summarize(const std::vector<const EvaluatedRow*>& rows, bool bandwidthBaseline) {
    ErrorSummary s;
    std::vector<double> abs, measured, predicted;
    for (const auto* r : rows) {
        abs.push_back(std::fabs(bandwidthBaseline ? r->bandwidthErrorPct : r->errorPct));
        measured.push_back(r->measuredRelative);
        predicted.push_back(bandwidthBaseline ? r->bandwidthRelative : r->predictedRelative);
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
    std::map<std::string, const Resolution*> unresolved;
    std::vector<const Gpu*> gpuOf(rows.size(), nullptr);
    std::vector<bool> nvlinkOf(rows.size(), false);
    std::map<std::string, int> singleCounts, setupCounts;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Resolution& r = names.resolve(rows[i].gpu);
        if (r.status == ResolveStatus::Found) {
            gpuOf[i] = r.gpu;
            nvlinkOf[i] = r.nvlinkRequested;
            if (rows[i].numGpus == 1 && !r.nvlinkRequested && rows[i].measured()) {
                ++singleCounts[r.gpu->id];
            }
            if (rows[i].measured()) {
                ++setupCounts[r.gpu->id];
            }
        } else {
            unresolved.emplace(rows[i].gpu, &r);
        }
    }
    for (const auto& [name, resolution] : unresolved) {
        ev.unresolved.push_back(name);
        ev.unresolvedReasons.push_back(resolution->message());
    }
    const auto batch = perGpuBatches(rows, gpuOf);

    const Gpu* ref = nullptr;
    if (reference) {
        ref = &catalog.require(*reference, "--reference");
    } else {
        // A file of multi-GPU setups only (70B models on 24 GB cards) takes the GPU with the most rows.
        int best = 0;
        for (const auto& [id, count] : singleCounts.empty() ? setupCounts : singleCounts) {
            if (count > best) {
                best = count;
                ref = catalog.findById(id);
            }
        }
    }
    if (ref == nullptr) {
        throw InputError({"", 0, "", "reference"}, "no GPU in the file has a measured row to normalise to");
    }
    ev.referenceGpu = ref->name;

    // Each (workload, precision, metric) group's reference row (a network's training and inference
    // rows are two groups): the reference GPU's single-GPU row, else
    // (a group the reference did not run, such as a 70B model on 24 GB cards) the single-GPU row of
    // the group's GPU with the most single-GPU rows in the file, so such groups are not lost; a
    // group that no GPU ran alone (70B on 2-4 cards) takes the setup with the fewest GPUs, ranked
    // alike.
    using Group = std::tuple<std::string, int, int>;
    const auto groupOf = [&](size_t i) {
        return Group(rows[i].workload, static_cast<int>(rows[i].precision), static_cast<int>(rows[i].metric()));
    };
    const auto singleRowsOf = [&](const Gpu* g) {
        const auto it = singleCounts.find(g->id);
        return it == singleCounts.end() ? 0 : it->second;
    };
    const auto ranksBefore = [&](const Gpu* a, const Gpu* b) {
        if (a == ref || b == ref) {
            return a == ref && b != ref;
        }
        const int ca = singleRowsOf(a), cb = singleRowsOf(b);
        return ca != cb ? ca > cb : a->id < b->id;
    };
    std::map<Group, size_t> refRow;
    std::map<Group, size_t> rowsInGroup;
    std::map<Group, std::set<std::string>> setups; // the GPU x count setups that ran each group
    for (size_t i = 0; i < rows.size(); ++i) {
        ++rowsInGroup[groupOf(i)];
        if (gpuOf[i] == nullptr || !rows[i].measured() || rows[i].zeroBatch || knownIssueFor(rows[i]) != nullptr) {
            continue;
        }
        const std::string setup = gpuOf[i]->id + "|" + std::to_string(rows[i].numGpus) + (nvlinkOf[i] ? "|nvlink" : "");
        setups[groupOf(i)].insert(setup);
        const auto [it, inserted] = refRow.emplace(groupOf(i), i);
        const auto gpusOf = [&](size_t k) { return std::pair(rows[k].numGpus, nvlinkOf[k] ? 1 : 0); };
        if (!inserted && (gpusOf(i) != gpusOf(it->second) ? gpusOf(i) < gpusOf(it->second)
                                                          : ranksBefore(gpuOf[i], gpuOf[it->second]))) {
            it->second = i;
        }
    }
    // Groups whose reference setup ran more than once: say which run is the reference.
    std::map<Group, ReferenceAmongRuns> amongRuns;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto it = refRow.find(groupOf(i));
        if (it == refRow.end() || gpuOf[i] != gpuOf[it->second] || rows[i].numGpus != rows[it->second].numGpus ||
            nvlinkOf[i] != nvlinkOf[it->second] || !rows[i].measured() || rows[i].zeroBatch ||
            knownIssueFor(rows[i]) != nullptr) {
            continue;
        }
        auto& a = amongRuns[it->first];
        ++a.runs;
        if (i != it->second && batch[i] && batch[i] != batch[it->second] &&
            std::find(a.otherPerGpuBatches.begin(), a.otherPerGpuBatches.end(), *batch[i]) ==
                a.otherPerGpuBatches.end()) {
            a.otherPerGpuBatches.push_back(*batch[i]);
        }
    }
    for (auto& [group, a] : amongRuns) {
        if (a.runs < 2) {
            continue;
        }
        const size_t index = refRow.at(group);
        a.workload = std::get<0>(group);
        a.precision = static_cast<perf::Precision>(std::get<1>(group));
        a.gpu = gpuOf[index]->name;
        a.numGpus = rows[index].numGpus;
        a.line = rows[index].line;
        a.perGpuBatch = batch[index];
        if (!rows[index].isLlm()) {
            a.profileTypicalPerGpuBatch = model.constants().typicalPerGpuBatch(
                perf::profileNameFor(rows[index].workload, model.constants()), rows[index].metric());
        }
        std::sort(a.otherPerGpuBatches.begin(), a.otherPerGpuBatches.end());
        ev.referencesAmongRuns.push_back(std::move(a));
    }
    for (const auto& [group, index] : refRow) {
        if ((gpuOf[index] != ref || rows[index].numGpus != 1) && setups[group].size() > 1) {
            ev.otherReferences.push_back({std::get<0>(group), static_cast<perf::Precision>(std::get<1>(group)),
                                          gpuOf[index]->name, rowsInGroup[group], rows[index].numGpus});
        }
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        EvaluatedRow e;
        e.row = rows[i];
        if (gpuOf[i] == nullptr) {
            e.skipReason = names.resolve(rows[i].gpu).status == ResolveStatus::Ambiguous ? "ambiguous GPU name"
                                                                                      : "unknown GPU";
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
        // Lambda's batch tables give 0 where no run fitted in memory; `calibrate` does not fit such rows either.
        if (rows[i].zeroBatch) {
            e.skipReason = "batch size 0 (no valid run)";
            ev.rows.push_back(std::move(e));
            continue;
        }
        const auto it = refRow.find(groupOf(i));
        const Gpu& groupRef = *gpuOf[it->second];
        if ((&groupRef != ref || rows[it->second].numGpus != 1) && setups[groupOf(i)].size() < 2) {
            e.skipReason = "only one GPU setup ran this workload and precision";
            ev.rows.push_back(std::move(e));
            continue;
        }
        const BenchmarkRow& rr = rows[it->second];
        const auto refBatch = batch[it->second];
        // A network the file spells its own way ("ResNet-50 v1.5") keeps its fitted profile.
        e.profile = perf::profileNameFor(rows[i].workload, model.constants());
        e.referenceGpu = groupRef.name;
        e.batchFromMultiGpuRuns = batch[i] && !rows[i].perGpuBatch();
        e.measuredRelative = rows[i].throughput / rr.throughput;
        // The reference row, or a repeat of it with the same figure: 1 by definition.
        e.referenceNumGpus = rr.numGpus;
        e.isReferenceRow = it->second == i || (gpuOf[i] == &groupRef && rows[i].numGpus == rr.numGpus &&
                                               nvlinkOf[i] == nvlinkOf[it->second] && e.measuredRelative == 1.0);
        if (rows[i].isGemm()) {
            const GemmPrediction own = gemmPrediction(model, *gpuOf[i], rows[i].metric());
            e.predictedRelative = own.tflops / gemmPrediction(model, groupRef, rr.metric()).tflops;
            e.explanation = own.explanation;
        } else {
            perf::PerfQuery q = queryFor(rows[i], batch[i], refBatch, nvlinkOf[i]);
            perf::PerfQuery rq = queryFor(rr, refBatch, refBatch, nvlinkOf[it->second]);
            q.workloadName = rq.workloadName = e.profile;
            // A calibration network's rows are taken at their batch relative to the one its profile
            // was fitted at, not to the reference row's: a file run at a small batch gets the
            // communication and host time per sample of a small batch.
            const auto typical = model.constants().typicalPerGpuBatch(e.profile, q.metric);
            if (typical && batch[i] && refBatch && !rows[i].isLlm()) {
                q.batchMultiplier = *batch[i] / *typical;
                rq.batchMultiplier = *refBatch / *typical;
            }
            e.languageModelParamsBillion = q.llmTrainingParamsBillion;
            const perf::Prediction predicted = model.explain(*gpuOf[i], q);
            e.predictedRelative = predicted.throughput / model.throughput(groupRef, rq);
            e.explanation = perf::explanationSummary(predicted, 3);
        }
        e.errorPct = (e.predictedRelative / e.measuredRelative - 1.0) * 100.0;
        e.bandwidthRelative = gpuOf[i]->memoryBandwidthGbs / groupRef.memoryBandwidthGbs;
        e.bandwidthErrorPct = (e.bandwidthRelative / e.measuredRelative - 1.0) * 100.0;
        e.workloadProfile = !e.profile.empty();
        const bool sized = llmParamsBillion(rows[i].workload) || mixtureOfExpertsIn(rows[i].workload) != nullptr;
        if (rows[i].isLlm() && !sized &&
            std::find(ev.llmSizeAssumed.begin(), ev.llmSizeAssumed.end(), rows[i].workload) == ev.llmSizeAssumed.end()) {
            ev.llmSizeAssumed.push_back(rows[i].workload);
        }
        e.evaluated = true;
        ev.rows.push_back(std::move(e));
    }
    std::vector<const EvaluatedRow*> all, single, multi;
    using RowsBy = std::map<std::string, std::vector<const EvaluatedRow*>>;
    RowsBy singleByArchitecture, singleByClass, multiByClass;
    for (size_t i = 0; i < ev.rows.size(); ++i) {
        const EvaluatedRow& r = ev.rows[i];
        if (!r.evaluated || r.isReferenceRow) {
            continue; // the reference itself is 1 by definition
        }
        all.push_back(&r);
        (r.row.numGpus == 1 ? single : multi).push_back(&r);
        (r.row.numGpus == 1 ? singleByClass : multiByClass)[r.row.workloadClass].push_back(&r);
        if (r.row.numGpus == 1) {
            singleByArchitecture[gpuOf[i]->architecture].push_back(&r);
        }
    }
    ev.all = summarize(all);
    ev.singleGpu = summarize(single);
    ev.singleGpuBandwidthBaseline = summarize(single, true);
    ev.multiGpu = summarize(multi);
    const auto summarizeEach = [](const RowsBy& groups) {
        std::vector<std::pair<std::string, ErrorSummary>> out;
        for (const auto& [key, rowsOfIt] : groups) {
            out.emplace_back(key, summarize(rowsOfIt));
        }
        return out;
    };
    ev.singleGpuByArchitecture = summarizeEach(singleByArchitecture);
    ev.singleGpuByClass = summarizeEach(singleByClass);
    ev.multiGpuByClass = summarizeEach(multiByClass);
    return ev;
}

} // namespace advisor::eval
