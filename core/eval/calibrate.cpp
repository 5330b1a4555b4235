// Fitting the model's constants to the benchmarks (rows prepared in calibration_data.cpp; the
// accuracy report is cross_validate.cpp).
#include "eval/calibrate.h"

#include "eval/calibration_data.h"
#include "eval/least_squares.h"
#include "perf/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace advisor::eval {
namespace {

using perf::Metric;
using perf::WorkloadClass;

constexpr std::array<WorkloadClass, 4> kClasses = {WorkloadClass::Transformer, WorkloadClass::Cnn,
                                                   WorkloadClass::Rnn, WorkloadClass::Recsys};

constexpr size_t kShareParams = 3; // compute, memory, vector relative to overhead (softmax)

// Shares from logits relative to the overhead share (a softmax, so they add up to 1).
perf::TimeShares sharesFromLogits(const double* x) {
    const double ec = std::exp(x[0]), em = std::exp(x[1]), ev = std::exp(x[2]);
    const double sum = ec + em + ev + 1.0;
    return {ec / sum, em / sum, ev / sum, 1.0 / sum};
}

// Only recurrent networks get a host time per step (perf::TimeShares::hostStep): they launch
// kernels per time step. Fitted for every class, the 2020-21 runs give BERT and TransformerXL
// 0.08-0.24 too, which puts the RTX 4090 (batch 28 against the A100 80GB's 112) 14-40% slow on
// them in Lambda's 2022-23 runs, where it was 1-22% slow without
// (docs/performance-model-experiments.md).
bool hasHostStep(WorkloadClass w) { return w == WorkloadClass::Rnn; }
constexpr size_t kHostStepParam = kShareParams * kClasses.size(); // after the share logits
constexpr double kMaxHostStep = 4.0;

void setShares(perf::ModelConstants& c, const std::vector<double>& x) {
    for (size_t k = 0; k < kClasses.size(); ++k) {
        c.shares[k] = sharesFromLogits(&x[kShareParams * k]);
        c.shares[k].hostStep = hasHostStep(kClasses[k]) ? x[kHostStepParam] : 0.0;
    }
}

// Residuals of log throughput, centred within each (workload, precision) group: only ratios
// between GPUs are compared, never absolute throughput.
void centredResiduals(const std::vector<const Obs*>& obs, const perf::ModelConstants& c, std::vector<double>& r) {
    std::map<std::string, std::pair<double, int>> mean;
    std::vector<double> raw(obs.size());
    for (size_t i = 0; i < obs.size(); ++i) {
        raw[i] = logPredict(*obs[i], c) - std::log(obs[i]->measured);
        auto& m = mean[obs[i]->group];
        m.first += raw[i];
        m.second += 1;
    }
    r.resize(obs.size());
    for (size_t i = 0; i < obs.size(); ++i) {
        const auto& m = mean[obs[i]->group];
        r[i] = raw[i] - m.first / m.second;
    }
}

struct SeedRatio {
    WorkloadClass workload;
    double ratio;
};
// Seed: debiased A100 vs V100 speed-ups (SE-ResNeXt101 1.43x, Mask R-CNN 1.47x, 12-layer transformer 1.70x).
const std::vector<SeedRatio> kSeedA100V100 = {
    {WorkloadClass::Transformer, 1.70}, {WorkloadClass::Cnn, 1.43}, {WorkloadClass::Cnn, 1.47}};

double a100OverV100(const Catalog& catalog, const perf::ModelConstants& c, WorkloadClass w, Metric m) {
    const Gpu* a = catalog.findById("a100-40gb-sxm4");
    const Gpu* v = catalog.findById("v100-sxm2-32gb");
    if (a == nullptr || v == nullptr) {
        return 0;
    }
    perf::PerfQuery q;
    q.metric = m;
    q.workload = w;
    return perf::modelThroughput(perf::deriveSpecs(*a, c, &catalog), *a, q, c) /
           perf::modelThroughput(perf::deriveSpecs(*v, c, &catalog), *v, q, c);
}

void fitSingle(const Data& d, const Catalog& catalog, perf::ModelConstants& c, const CalibrationOptions& opt) {
    std::vector<const Obs*> obs;
    for (const auto& o : d.single) {
        if (fitted(o, opt)) {
            obs.push_back(&o);
        }
    }
    const bool useSeed = opt.seedWeight > 0 && catalog.findById("a100-40gb-sxm4") &&
                         catalog.findById("v100-sxm2-32gb") &&
                         !(opt.holdOutArchitecture &&
                           (*opt.holdOutArchitecture == "Ampere" || *opt.holdOutArchitecture == "Volta"));
    LeastSquaresProblem p;
    p.parameters = kHostStepParam + 1;
    p.lower.assign(p.parameters, -8.0);
    p.upper.assign(p.parameters, 8.0);
    p.lower[kHostStepParam] = 0.0;
    p.upper[kHostStepParam] = kMaxHostStep;
    p.softL1Scale = 0.1;
    p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        perf::ModelConstants trial = c;
        setShares(trial, x);
        centredResiduals(obs, trial, r);
        if (useSeed) {
            for (const auto& s : kSeedA100V100) {
                const double e = std::log(a100OverV100(catalog, trial, s.workload, Metric::Fp16Training) / s.ratio);
                for (int k = 0; k < static_cast<int>(opt.seedWeight); ++k) {
                    r.push_back(e);
                }
            }
        }
    };
    const auto res = solveLeastSquares(p, std::vector<double>(p.parameters, 0.0));
    setShares(c, res.x);
}

// Logit of a share relative to the overhead share (the inverse of sharesFromLogits).
double shareLogit(double share, double overhead) {
    return std::log(std::max(share, 1e-6) / std::max(overhead, 1e-6));
}

// A source's FP32 matmul share is told apart only by how GPUs of different FP32-to-tensor rates
// rank, so it needs rows of a few GPUs; a source cited per row (one log each) gets none, or each
// row would fit its own.
constexpr size_t kMinGpusForFp32Share = 3;

// The benchmark sources of a workload's mixed-precision rows: each ran its own software, whose
// FP32 matmuls the profile describes with a share of its own.
std::vector<std::string> fp16Sources(const std::vector<const Obs*>& obs) {
    std::map<std::string, std::set<std::string>> gpus;
    for (const Obs* o : obs) {
        if (o->query.metric == Metric::Fp16Training) {
            gpus[o->row->source].insert(o->gpu->id);
        }
    }
    std::vector<std::string> sources;
    for (const auto& [source, ofIt] : gpus) {
        if (ofIt.size() >= kMinGpusForFp32Share) {
            sources.push_back(source);
        }
    }
    return sources;
}

// Each calibration workload's own profile (shares, batch gain, the share of matmuls left in
// FP32 and, for recurrent networks, the host time per step), fitted on its rows and pulled
// towards its class's shares, the seed's batch gain and no FP32 matmuls, so a workload with few
// rows stays close to what its class says.
void fitWorkloadProfiles(const Data& d, perf::ModelConstants& c, const CalibrationOptions& opt) {
    std::map<std::string, std::vector<const Obs*>> byWorkload;
    for (const auto& o : d.single) {
        if (fitted(o, opt)) {
            byWorkload[o.row->workload].push_back(&o);
        }
    }
    c.workloadProfiles.clear();
    for (const auto& entry : byWorkload) {
        const std::string& name = entry.first; // named, not bound: clang 14 cannot capture a binding
        const auto& obs = entry.second;
        const perf::WorkloadClass cls = obs.front()->query.workload;
        const perf::TimeShares& prior = c.sharesFor(cls);
        // compute, memory and vector logits (relative to overhead), batch gain, one FP32 matmul
        // share per mixed-precision source, host time per step
        const std::vector<std::string> sources = fp16Sources(obs);
        constexpr size_t kFirstShare = 4; // after the three share logits and the batch gain
        const size_t hostParam = kFirstShare + sources.size();
        std::vector<double> x0 = {shareLogit(prior.compute, prior.overhead), shareLogit(prior.memory, prior.overhead),
                                  shareLogit(prior.vector, prior.overhead), c.batchGainPerDoubling};
        x0.resize(hostParam, 0.0);
        x0.push_back(prior.hostStep);
        const auto apply = [&](perf::ModelConstants& t, const std::vector<double>& x) {
            perf::TimeShares shares = sharesFromLogits(x.data());
            shares.hostStep = x[hostParam];
            std::map<std::string, double> fp32Shares;
            for (size_t k = 0; k < sources.size(); ++k) {
                fp32Shares[sources[k]] = x[kFirstShare + k];
            }
            const auto typical = d.typicalPerGpuBatch.find(name);
            t.workloadProfiles[name] = {cls, shares, x[3], fp32Shares,
                                        typical == d.typicalPerGpuBatch.end() ? std::map<std::string, double>{}
                                                                              : typical->second};
        };
        LeastSquaresProblem p;
        p.parameters = x0.size();
        p.lower = {-8.0, -8.0, -8.0, 0.0};
        p.upper = {8.0, 8.0, 8.0, 1.0};
        p.lower.resize(hostParam, 0.0);
        p.upper.resize(hostParam, 1.0);
        p.lower.push_back(0.0);
        p.upper.push_back(hasHostStep(cls) ? kMaxHostStep : 0.0);
        p.softL1Scale = 0.1;
        p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
            perf::ModelConstants trial = c;
            apply(trial, x);
            centredResiduals(obs, trial, r);
            for (size_t k = 0; k < 3; ++k) {
                r.push_back(opt.profilePriorWeight * (x[k] - x0[k]) / 4.0);
            }
            r.push_back(opt.profilePriorWeight * (x[3] - x0[3]) / 0.1);
            for (size_t k = kFirstShare; k < hostParam; ++k) {
                r.push_back(opt.fp32MatmulPriorWeight * x[k]);
            }
            r.push_back(opt.hostStepPriorWeight * (x[hostParam] - x0[hostParam]));
        };
        // The fit of a network's batch gain and FP32 matmul share has more than one minimum (for
        // bert_large_squad: a steep batch gain with no FP32 matmuls, or the seed's gain with some),
        // and which one a single start finds changed with 1e-7 changes of the class shares. Starting
        // also from large FP32 shares and from a steep batch gain, the lowest cost wins.
        std::vector<double> fp32Start = x0, steepStart = x0;
        std::fill(fp32Start.begin() + kFirstShare, fp32Start.begin() + static_cast<std::ptrdiff_t>(hostParam), 0.5);
        steepStart[3] = 0.3;
        // Without a source to give a share, the FP32 start is x0 itself: not solved twice.
        std::vector<std::vector<double>> starts = {x0, steepStart};
        if (!sources.empty()) {
            starts.insert(starts.begin() + 1, fp32Start);
        }
        apply(c, solveLeastSquaresFromStarts(p, starts).x);
    }
}

void fitScaling(const Data& d, const Catalog& catalog, perf::ModelConstants& c, const CalibrationOptions& opt) {
    std::vector<const Obs*> obs;
    for (const auto& o : d.scaling) {
        if (fitted(o, opt)) {
            obs.push_back(&o);
        }
    }
    if (!obs.empty()) {
        LeastSquaresProblem p;
        // All-reduce cost per class, the synchronisation latency and the straggler share.
        p.parameters = kClasses.size() + 2;
        p.lower.assign(p.parameters, -15.0);
        p.upper.assign(p.parameters, 2.0);
        p.softL1Scale = 0.05;
        const auto apply = [](perf::ModelConstants& t, const std::vector<double>& x) {
            for (size_t k = 0; k < kClasses.size(); ++k) {
                t.allReduceCost[k] = std::exp(x[k]);
            }
            t.syncLatency = std::exp(x[kClasses.size()]);
            t.stragglerFraction = std::exp(x[kClasses.size() + 1]);
            t.cubeMeshOverhead.fill(0.0);
        };
        // The scaling constants belong to the classes: fitted with the class's single-GPU speed,
        // as the app predicts a multi-GPU setup.
        perf::ModelConstants byClass = c;
        byClass.workloadProfiles.clear();
        p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
            perf::ModelConstants t = byClass;
            apply(t, x);
            r.resize(obs.size());
            for (size_t i = 0; i < obs.size(); ++i) {
                perf::PerfQuery one = obs[i]->query;
                const int n = one.gpus;
                one.gpus = 1;
                const double single = perf::modelThroughput(obs[i]->specs, *obs[i]->gpu, one, t);
                const double predicted = perf::modelThroughput(obs[i]->specs, *obs[i]->gpu, obs[i]->query, t) /
                                         (n * single);
                r[i] = std::log(predicted) - std::log(obs[i]->measured);
            }
        };
        const auto res = solveLeastSquares(p, std::vector<double>(p.parameters, -5.0));
        apply(c, res.x);
    }
    // Seed: 8x A100 has 5% (CNN) / 7% (transformer) lower overhead than 8x V100 (NVLink 2
    // cube-mesh). Solve the cube-mesh overhead so the model reproduces that exactly.
    const Gpu* a = catalog.findById("a100-40gb-sxm4");
    const Gpu* v = catalog.findById("v100-sxm2-32gb");
    if (a == nullptr || v == nullptr) {
        return;
    }
    const auto efficiency = [&](const Gpu& g, WorkloadClass w) {
        perf::PerfQuery q;
        q.workload = w;
        q.gpus = 8;
        const auto s = perf::deriveSpecs(g, c, &catalog);
        perf::Prediction out;
        perf::modelThroughput(s, g, q, c, &out);
        return out.efficiency;
    };
    for (size_t k = 0; k < kClasses.size(); ++k) {
        const double delta = kClasses[k] == WorkloadClass::Transformer ? 0.07 : 0.05;
        const double overheadA = 1.0 - efficiency(*a, kClasses[k]);
        c.cubeMeshOverhead[k] = 0.0;
        const double xV = 1.0 / efficiency(*v, kClasses[k]) - 1.0;
        c.cubeMeshOverhead[k] = std::max(0.0, 1.0 / (1.0 - overheadA - delta) - 1.0 - xV);
    }
}

void fitLlm(const std::vector<Obs>& all, perf::ModelConstants& c, const CalibrationOptions& opt, bool decode,
            size_t variant) {
    std::vector<const Obs*> obs;
    for (const auto& o : all) {
        const bool quantized = o.query.llmWeights != perf::Precision::Fp16 && o.query.llmWeights != perf::Precision::Bf16;
        if (fitted(o, opt) && (decode || quantized == (variant == 1))) {
            obs.push_back(&o);
        }
    }
    if (obs.empty()) {
        return;
    }
    const auto apply = [&](perf::ModelConstants& t, const std::vector<double>& x) {
        if (decode) {
            t.decodeBandwidthEfficiency = x[0];
            t.decodeOverheadMs = x[1];
            t.decodeBytesPerSmClock = x[2];
        } else {
            t.prefillComputeEfficiency[variant] = x[0];
            t.prefillOverheadUsPerBillionParams[variant] = x[1];
        }
    };
    LeastSquaresProblem p;
    // Decode also fits the bytes in flight per SM (decodeBandwidthGbs), between 1 and 64 bytes
    // per SM per clock.
    p.parameters = decode ? 3 : 2;
    p.lower = decode ? std::vector<double>{0.3, 0.0, 1.0} : std::vector<double>{0.05, 0.0};
    p.upper = decode ? std::vector<double>{0.95, 20.0, 64.0} : std::vector<double>{1.0, 250.0};
    p.residuals = [&](const std::vector<double>& x, std::vector<double>& r) {
        perf::ModelConstants t = c;
        apply(t, x);
        r.resize(obs.size());
        for (size_t i = 0; i < obs.size(); ++i) {
            r[i] = logPredict(*obs[i], t) - std::log(obs[i]->measured);
        }
    };
    if (!decode) {
        apply(c, solveLeastSquares(p, {0.5, 4.0}).x);
        return;
    }
    // The cap makes the cost kinked (min of two bandwidths): start above and below the cards'
    // balance point and keep the lowest cost. No cap starts first and wins a tie, so a fit
    // whose cards never reach the cap (a fold without Ampere's few SMs per GB/s) leaves it off.
    apply(c, solveLeastSquaresFromStarts(p, {{0.8, 1.0, 64.0}, {0.8, 1.0, 8.0}, {0.8, 1.0, 4.0}}).x);
}

double rtx4090OverH100EightBit(const Catalog& catalog, const perf::ModelConstants& c) {
    const Gpu* a = catalog.findById("rtx-4090");
    const Gpu* h = catalog.findById("h100-sxm5");
    if (a == nullptr || h == nullptr) {
        return 0;
    }
    perf::PerfQuery q;
    q.metric = Metric::Int8Inference;
    return perf::modelThroughput(perf::deriveSpecs(*a, c, &catalog), *a, q, c) /
           perf::modelThroughput(perf::deriveSpecs(*h, c, &catalog), *h, q, c);
}

// No inference benchmarks exist in the calibration data. The seed's raw-performance chart
// gives "RTX 4090 ~0.33x H100 SXM for 8-bit inference"; solve the inference overhead factor
// (share of GPU-independent time left in inference) to reproduce it.
void solveInferenceOverhead(const Catalog& catalog, perf::ModelConstants& c) {
    if (rtx4090OverH100EightBit(catalog, c) == 0) {
        return;
    }
    double lo = 0.0, hi = 1.0; // the ratio grows with the overhead factor
    for (int i = 0; i < 60; ++i) {
        c.inferenceOverheadFactor = 0.5 * (lo + hi);
        (rtx4090OverH100EightBit(catalog, c) > 0.33 ? hi : lo) = c.inferenceOverheadFactor;
    }
}

} // namespace

FitOutcome fitPrepared(const Data& d, const Catalog& catalog, const perf::ModelConstants& priors,
                       const CalibrationOptions& opt) {
    FitOutcome out;
    out.constants = priors;
    fitSingle(d, catalog, out.constants, opt);
    solveInferenceOverhead(catalog, out.constants);
    if (opt.profilePriorWeight > 0) {
        fitWorkloadProfiles(d, out.constants, opt);
    }
    fitScaling(d, catalog, out.constants, opt);
    fitLlm(d.decode, out.constants, opt, true, 0);
    fitLlm(d.prefill, out.constants, opt, false, 0);
    fitLlm(d.prefill, out.constants, opt, false, 1);
    const auto count = [&](const std::vector<Obs>& v) {
        size_t n = 0;
        for (const auto& o : v) {
            n += fitted(o, opt) ? 1 : 0;
        }
        return n;
    };
    out.singleRows = count(d.single);
    out.scalingRows = count(d.scaling);
    out.decodeRows = count(d.decode);
    out.prefillRows = count(d.prefill);
    out.notes = d.notes;
    return out;
}

FitOutcome fitModel(const std::vector<BenchmarkRow>& rows, const Catalog& catalog, const perf::ModelConstants& priors,
                    const CalibrationOptions& options) {
    return fitPrepared(prepare(rows, catalog, priors), catalog, priors, options);
}

nlohmann::json seedChecks(const Catalog& catalog, const perf::ModelConstants& c) {
    nlohmann::json j = nlohmann::json::object();
    const Gpu* a = catalog.findById("a100-40gb-sxm4");
    const Gpu* v = catalog.findById("v100-sxm2-32gb");
    if (a != nullptr && v != nullptr) {
        j["a100_v100_bandwidth_ratio"] = {{"seed", 1.73}, {"model", a->memoryBandwidthGbs / v->memoryBandwidthGbs}};
        j["a100_v100_transformer"] = {{"seed", 1.70},
                                      {"model", a100OverV100(catalog, c, WorkloadClass::Transformer, Metric::Fp16Training)}};
        j["a100_v100_cnn"] = {{"seed", "1.43-1.47"},
                              {"model", a100OverV100(catalog, c, WorkloadClass::Cnn, Metric::Fp16Training)}};
        const auto overhead = [&](const Gpu& g, WorkloadClass w) {
            perf::PerfQuery q;
            q.workload = w;
            q.gpus = 8;
            perf::Prediction out;
            perf::modelThroughput(perf::deriveSpecs(g, c, &catalog), g, q, c, &out);
            return 1.0 - out.efficiency;
        };
        j["overhead_8x_v100_minus_8x_a100_cnn"] = {{"seed", 0.05},
                                                   {"model", overhead(*v, WorkloadClass::Cnn) - overhead(*a, WorkloadClass::Cnn)}};
        j["overhead_8x_v100_minus_8x_a100_transformer"] = {
            {"seed", 0.07}, {"model", overhead(*v, WorkloadClass::Transformer) - overhead(*a, WorkloadClass::Transformer)}};
    }
    const Gpu* g4090 = catalog.findById("rtx-4090");
    const Gpu* h100 = catalog.findById("h100-sxm5");
    if (g4090 != nullptr && h100 != nullptr) {
        j["rtx4090_h100sxm_8bit_inference"] = {{"seed", 0.33}, {"model", rtx4090OverH100EightBit(catalog, c)}};
    }
    return j;
}


} // namespace advisor::eval
