// The accuracy report: in-sample and leave-one-architecture-out errors of the fitted model,
// against the baselines and the in-sample floor (written by `gpu-advisor calibrate`).
#include "eval/calibrate.h"

#include "eval/calibration_data.h"
#include "eval/error_floor.h"
#include "eval/stats.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace advisor::eval {
namespace {

ErrorBlock block(const std::vector<double>& errors) {
    ErrorBlock b;
    std::vector<double> abs;
    for (const double e : errors) {
        abs.push_back(std::fabs(e) * 100.0);
    }
    b.rows = abs.size();
    b.medianAbsPct = median(abs);
    b.p90AbsPct = percentile(abs, 90);
    return b;
}

// Error of each evaluated row's ratios to the comparison rows of its group (geometric mean).
// `rowsOut` (optional) receives each error with the row it belongs to.
std::vector<double> pairwiseErrors(const std::vector<Obs>& obs, const std::vector<double>& logPred,
                                   const std::function<bool(const Obs&)>& evaluated,
                                   const std::function<bool(const Obs&)>& comparable,
                                   std::vector<RowError>* rowsOut = nullptr) {
    std::map<std::string, std::vector<size_t>> groups;
    for (size_t i = 0; i < obs.size(); ++i) {
        groups[obs[i].group].push_back(i);
    }
    std::vector<double> errors;
    for (const auto& [g, idx] : groups) {
        for (const size_t i : idx) {
            if (!evaluated(obs[i])) {
                continue;
            }
            double sum = 0;
            int n = 0;
            for (const size_t j : idx) {
                if (j != i && comparable(obs[j])) {
                    sum += (logPred[i] - logPred[j]) - (std::log(obs[i].measured) - std::log(obs[j].measured));
                    ++n;
                }
            }
            if (n > 0) {
                errors.push_back(std::exp(sum / n) - 1.0);
                if (rowsOut != nullptr) {
                    rowsOut->push_back({obs[i].gpu->name, obs[i].row->workload, perf::toString(obs[i].row->precision),
                                        obs[i].row->file, obs[i].row->line, errors.back() * 100.0});
                }
            }
        }
    }
    return errors;
}

// The best any model with one speed per GPU x class x precision could fit (with the batch term).
// Rows of known issues take no part (their entries stay 0: they are never compared).
std::vector<double> freeFactorFloor(const std::vector<Obs>& obs, const perf::ModelConstants& c) {
    std::vector<FloorPoint> points;
    std::vector<size_t> index;
    for (size_t i = 0; i < obs.size(); ++i) {
        const Obs& o = obs[i];
        if (o.issue != nullptr) {
            continue;
        }
        points.push_back({o.group,
                          o.gpu->id + "|" + perf::toString(o.query.workload) + "|" + perf::toString(o.row->precision),
                          std::log(o.measured), std::log(perf::batchScaling(o.query.batchMultiplier, c))});
        index.push_back(i);
    }
    const std::vector<double> fitted = fitFreeFactors(points);
    std::vector<double> out(obs.size(), 0.0);
    for (size_t k = 0; k < index.size(); ++k) {
        out[index[k]] = fitted[k];
    }
    return out;
}

std::vector<double> predictAll(const std::vector<Obs>& obs, const perf::ModelConstants& c) {
    std::vector<double> out;
    for (const auto& o : obs) {
        out.push_back(logPredict(o, c));
    }
    return out;
}

// The predictions for a workload the calibration has not seen: its class's shares, no profile
// (what the app's charts and `perf --workload CLASS` use).
std::vector<double> predictAllByClass(const std::vector<Obs>& obs, perf::ModelConstants c) {
    c.workloadProfiles.clear();
    return predictAll(obs, c);
}

std::vector<double> scalingErrors(const std::vector<Obs>& obs, const perf::ModelConstants& c,
                                  const std::function<bool(const Obs&)>& evaluated) {
    std::vector<double> errors;
    for (const auto& o : obs) {
        if (!evaluated(o)) {
            continue;
        }
        perf::PerfQuery one = o.query;
        one.gpus = 1;
        const double predicted = perf::modelThroughput(o.specs, *o.gpu, o.query, c) /
                                 (o.query.gpus * perf::modelThroughput(o.specs, *o.gpu, one, c));
        errors.push_back(predicted / o.measured - 1.0);
    }
    return errors;
}

std::vector<double> absoluteErrors(const std::vector<Obs>& obs, const perf::ModelConstants& c,
                                   const std::function<bool(const Obs&)>& evaluated) {
    std::vector<double> errors;
    for (const auto& o : obs) {
        if (evaluated(o)) {
            errors.push_back(std::exp(logPredict(o, c)) / o.measured - 1.0);
        }
    }
    return errors;
}

} // namespace

AccuracyReport crossValidate(const std::vector<BenchmarkRow>& rows, const Catalog& catalog,
                             const perf::ModelConstants& priors, const CalibrationOptions& options) {
    const Data d = prepare(rows, catalog, priors);
    AccuracyReport rep;
    // Rows of known issues are not what they are labelled as: never fitted, never compared
    // with, and evaluated only for the one figure that shows what they would cost.
    const auto all = [](const Obs& o) { return o.issue == nullptr; };

    const FitOutcome full = fitPrepared(d, catalog, priors, options);
    rep.singleInSample = block(pairwiseErrors(d.single, predictAll(d.single, full.constants), all, all));
    rep.singleInSampleByClass = block(pairwiseErrors(d.single, predictAllByClass(d.single, full.constants), all, all));
    std::vector<double> bandwidth;
    for (const auto& o : d.single) {
        bandwidth.push_back(std::log(o.gpu->memoryBandwidthGbs));
    }
    rep.singleBandwidthBaseline = block(pairwiseErrors(d.single, bandwidth, all, all));
    rep.singleFreeFactorFloor = block(pairwiseErrors(d.single, freeFactorFloor(d.single, priors), all, all));
    rep.repeatMeasurements = block(repeatMeasurementSpreads(rows));
    rep.scalingInSample = block(scalingErrors(d.scaling, full.constants, all));
    std::vector<double> linear;
    for (const auto& o : d.scaling) {
        if (all(o)) {
            linear.push_back(1.0 / o.measured - 1.0);
        }
    }
    rep.scalingLinearBaseline = block(linear);
    rep.decodeInSample = block(absoluteErrors(d.decode, full.constants, all));
    rep.prefillInSample = block(absoluteErrors(d.prefill, full.constants, all));

    std::set<std::string> archs;
    for (const auto* v : {&d.single, &d.scaling, &d.decode, &d.prefill}) {
        for (const auto& o : *v) {
            archs.insert(o.gpu->architecture);
        }
    }
    std::vector<double> single, singleWithIssues, singleByClass, scaling, scalingWithIssues, decode, prefill;
    for (const auto& arch : archs) {
        CalibrationOptions opt = options;
        opt.holdOutArchitecture = arch;
        const FitOutcome fit = fitPrepared(d, catalog, priors, opt);
        const auto isHeldAsLabelled = [&](const Obs& o) { return o.gpu->architecture == arch; };
        const auto isHeld = [&](const Obs& o) { return all(o) && isHeldAsLabelled(o); };
        const auto isTrain = [&](const Obs& o) { return all(o) && o.gpu->architecture != arch; };
        ArchitectureErrors ae;
        ae.architecture = arch;
        const auto predicted = predictAll(d.single, fit.constants);
        const auto s = pairwiseErrors(d.single, predicted, isHeld, isTrain, &rep.singleLoaoRows);
        const auto withIssues = pairwiseErrors(d.single, predicted, isHeldAsLabelled, isTrain);
        singleWithIssues.insert(singleWithIssues.end(), withIssues.begin(), withIssues.end());
        const auto byClass = pairwiseErrors(d.single, predictAllByClass(d.single, fit.constants), isHeld, isTrain);
        const auto m = scalingErrors(d.scaling, fit.constants, isHeld);
        const auto mWithIssues = scalingErrors(d.scaling, fit.constants, isHeldAsLabelled);
        scalingWithIssues.insert(scalingWithIssues.end(), mWithIssues.begin(), mWithIssues.end());
        const auto dd = absoluteErrors(d.decode, fit.constants, isHeld);
        const auto pp = absoluteErrors(d.prefill, fit.constants, isHeld);
        ae.single = block(s);
        ae.scaling = block(m);
        ae.decode = block(dd);
        ae.prefill = block(pp);
        single.insert(single.end(), s.begin(), s.end());
        singleByClass.insert(singleByClass.end(), byClass.begin(), byClass.end());
        scaling.insert(scaling.end(), m.begin(), m.end());
        decode.insert(decode.end(), dd.begin(), dd.end());
        prefill.insert(prefill.end(), pp.begin(), pp.end());
        rep.byArchitecture.push_back(ae);
    }
    rep.singleLoao = block(single);
    rep.singleLoaoWithKnownIssues = block(singleWithIssues);
    rep.singleLoaoByClass = block(singleByClass);
    std::map<std::string, std::vector<double>> byFile;
    for (const auto& r : rep.singleLoaoRows) {
        byFile[r.file].push_back(r.errorPct / 100.0);
    }
    for (const auto& o : d.single) { // the files in the order they were given
        const auto it = byFile.find(o.row->file);
        if (it != byFile.end()) {
            rep.singleLoaoByFile.emplace_back(it->first, block(it->second));
            byFile.erase(it);
        }
    }
    std::sort(rep.singleLoaoRows.begin(), rep.singleLoaoRows.end(),
              [](const RowError& a, const RowError& b) { return std::fabs(a.errorPct) > std::fabs(b.errorPct); });
    rep.scalingLoao = block(scaling);
    rep.scalingLoaoWithKnownIssues = block(scalingWithIssues);
    rep.decodeLoao = block(decode);
    rep.prefillLoao = block(prefill);
    rep.seedChecks = seedChecks(catalog, full.constants);
    return rep;
}

} // namespace advisor::eval
