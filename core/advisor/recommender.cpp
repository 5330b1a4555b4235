#include "advisor/recommender.h"

#include "advisor/buyer_value.h"
#include "advisor/cheapest_offer.h"
#include "calc/cloud_vs_desktop.h"
#include "calc/psu.h"
#include "common/format.h"
#include "perf/llm_offload.h"
#include "perf/sequences_that_fit.h"
#include "value/gpu_price.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace advisor::advice {

std::vector<std::string> hardwareCaveats(const Gpu& g, const perf::EffectiveSpecs& s, int count,
                                         const RecommendInput& in) {
    std::vector<std::string> c;
    if (g.slotWidth && *g.slotWidth >= 3) {
        c.push_back(std::to_string(*g.slotWidth) + "-slot card: " +
                    (count >= 2 ? std::string("several of them need extenders, blower variants or water cooling (seed)")
                                : std::string("a second card later needs a board with 3-slot spacing or an extender")));
    }
    if (count > 1 && in.memoryGb > g.memoryGb * count) {
        // Partly in system RAM (LLM inference): each card holds whole layers, and what the second
        // card holds is read from its memory instead of from RAM, which is where its speed comes from.
        c.push_back("the cards hold " + format::gigabytes(g.memoryGb * count) + " of the " +
                    format::gigabytes(in.memoryGb) +
                    " between them (llama.cpp splits by layers out of the box) and "
                    "the rest stays in RAM: each added card keeps more of the model off the slow RAM");
    } else if (count > 1 && in.memoryGb > g.memoryGb) {
        // Training must shard (the seed's model parallelism); inference splits by layers out of the
        // box, and the model counts the extra cards as memory, not speed (as it predicts decoding).
        const std::string split = "the " + format::gigabytes(in.memoryGb) + " are split over " + std::to_string(count);
        if (g.isCompleteSystem()) {
            c.push_back(split + (in.task == Task::Inference
                                     ? " computers joined by a network (llama.cpp's RPC backend splits by layers): the "
                                       "extra computers count as memory, not speed"
                                     : " computers joined by a network (FSDP/ZeRO-3 or pipeline stages across "
                                       "machines): your code must support it, and the network costs speed"));
        } else {
            const bool servingEngine = in.llmEngine != perf::LlmEngine::LlamaCpp;
            const bool byLayers = in.llmSplit == perf::LlmSplit::Layers;
            const bool byExperts = in.llmSplit == perf::LlmSplit::Experts;
            c.push_back(split + (in.task == Task::Inference && servingEngine && byLayers
                                     ? " cards, each a run of whole layers (TensorRT-LLM's pipeline parallelism): "
                                       "each steps its own share of the requests, with no all-reduce over PCIe"
                                 : in.task == Task::Inference && servingEngine && byExperts && in.llmExperts <= 0
                                     ? " cards, but split by experts a dense model is a whole copy on each card, which "
                                       "one of these cards cannot hold: split it by tensors or layers"
                                 : in.task == Task::Inference && servingEngine && byExperts
                                     ? " cards, each its own share of the requests with every weight but the routed "
                                       "experts whole and a share of the experts (TensorRT-LLM's attention data "
                                       "parallel with expert parallelism): the shared weights take room on every "
                                       "card, and each mixture layer exchanges the tokens over their links"
                                 : in.task == Task::Inference && servingEngine
                                     ? " cards, each a share of every layer (TensorRT-LLM's tensor parallelism): their "
                                       "bandwidth adds up, less two all-reduces per layer over their links"
                                 : in.task == Task::Inference
                                     ? " cards (llama.cpp splits by layers out of the box): the extra cards count as "
                                       "memory, not speed"
                                     : " cards (FSDP/ZeRO-3 or pipeline stages): your code must support it, and PCIe "
                                       "traffic costs speed"));
        }
    }
    if (g.vendor != "NVIDIA") {
        const std::string stack = g.vendor == "AMD" ? "ROCm" : g.vendor == "Intel" ? "oneAPI/SYCL" : "its vendor's";
        c.push_back(g.vendor + " GPU: frameworks run (" + stack +
                    "), but fewer people can help when something breaks (seed: community); its speed here is "
                    "modelled from specs, with no training run of its vendor in the calibration data");
        if (in.domain == Domain::Llm && in.llmEngine == perf::LlmEngine::TensorRtLlm) {
            c.push_back("TensorRT-LLM runs on NVIDIA GPUs only: ranked at what a serving engine as efficient would "
                        "give here (vLLM's " + stack + " build, say)");
        }
    }
    if (g.tensorCoreGeneration == "none") {
        c.push_back("no tensor cores: the seed recommends against GPUs without them");
    }
    if (s.fp16AccumulateHalfRate && in.task != Task::Inference) {
        c.push_back("GeForce: mixed-precision training runs FP32 accumulate at half rate");
    }
    if (in.eightBit && !s.fp8 && in.task == Task::Inference) {
        c.push_back("no FP8: 8-bit inference runs at about the 16-bit speed (seed)");
    }
    if (in.llmWeights == perf::Precision::Fp4 && s.fourBitTflops <= 0 && in.llmEngine == perf::LlmEngine::TensorRtLlm &&
        in.task == Task::Inference) {
        c.push_back("no FP4 tensor cores: NVFP4 weights are ranked as multiplied at 16 bits, never measured "
                    "(TensorRT-LLM runs NVFP4 on Blackwell)");
    }
    if (g.segment == Segment::Datacenter && g.form == FormFactor::Pcie) {
        c.push_back("passively cooled data-center card: needs a server chassis with strong airflow");
    }
    if (g.isCompleteSystem()) {
        c.push_back("a complete computer: its price buys the whole machine, so no desktop is counted; its CPU "
                    "shares the memory");
    } else if (g.form != FormFactor::Pcie) {
        c.push_back(g.formLabel + " module: needs a server baseboard (HGX/OAM)");
    }
    if (g.connectors.hpwr16Pin > 0) {
        c.push_back("12VHPWR/12V-2x6 power plug: insert it fully until it clicks (seed)");
    }
    if (s.estimated) {
        c.push_back("some specifications are estimated: " + s.notes.front());
    }
    return c;
}

namespace {

// The serving engine's split of a setup of several cards: the one asked for, or whichever runs
// faster; none for one card or llama.cpp (which splits by layers and counts extra cards as memory).
std::optional<perf::LlmSplit> splitFor(const perf::PerfModel& model, const Gpu& g, const perf::PerfQuery& q,
                                       const RecommendInput& in) {
    if (q.gpus < 2 || !perf::isLlm(q.metric) || q.llmEngine != perf::LlmEngine::TensorRtLlm) {
        return std::nullopt;
    }
    if (!in.llmSplitFastest) {
        return in.llmSplit;
    }
    // A mixture of experts may also be split by its experts; a dense model so split would be a copy
    // on each card, which is not a split of it.
    std::optional<perf::LlmSplit> fastest;
    double best = 0;
    for (const auto split : {perf::LlmSplit::Tensors, perf::LlmSplit::Layers, perf::LlmSplit::Experts}) {
        if (split == perf::LlmSplit::Experts && q.llmExperts <= 0) {
            continue;
        }
        perf::PerfQuery asSplit = q;
        asSplit.llmSplit = split;
        const double speed = model.throughput(g, asSplit);
        if (!fastest || speed > best) {
            fastest = split;
            best = speed;
        }
    }
    return fastest;
}

std::vector<std::string> caveatsFor(const Gpu& g, const perf::EffectiveSpecs& s, const BuyerOffer& o, int count,
                                    const RecommendInput& in, const Date& newestPriceDate, perf::Metric rankedBy) {
    std::vector<std::string> c = hardwareCaveats(g, s, count, in);
    // What runs of this GPU said about the figure it is ranked by (catalog model_checks).
    if (auto check = perf::measuredCheckNote(g, rankedBy)) {
        c.push_back(std::move(*check));
    }
    if (o.condition == Condition::Used) {
        c.push_back("used price observed " + o.price.newestUsed->observed.toString() + ": check today's market");
    } else if (o.price.newestNew && isOverAYearBefore(o.price.newestNew->observed, newestPriceDate)) {
        c.push_back("newest price is from " + o.price.newestNew->observed.toString() + ": check today's market");
    }
    return c;
}

} // namespace

Recommendation recommend(const Catalog& catalog, const perf::PerfModel& model, const std::vector<Price>& prices,
                         const std::vector<CloudOffer>& offers, const RecommendInput& in) {
    if (!(in.memoryGb > 0 && in.memoryGb < 100000)) {
        throw InputError({"recommend", 0, "", "memory_gb"}, "must be more than 0 and less than 100,000 GB");
    }
    if (!(in.budgetUsd >= 0 && in.budgetUsd <= calc::kMaxDesktopCostUsd)) {
        throw InputError({"recommend", 0, "", "budget"}, "must be an amount from 0 to 1,000,000,000,000 USD");
    }
    if (in.maxGpus < 1 || in.maxGpus > 16) {
        throw InputError({"recommend", 0, "", "gpus"}, "must be between 1 and 16");
    }
    if (!(in.settings.utilization > 0 && in.settings.utilization <= 1)) {
        throw InputError({"recommend", 0, "", "utilization"}, "must be more than 0 and at most 1");
    }
    if (!(in.settings.years > 0 && in.settings.years <= 50)) {
        throw InputError({"recommend", 0, "", "years"}, "must be more than 0 and at most 50");
    }
    if (in.shortlistSize < 1) {
        throw InputError({"recommend", 0, "", "shortlist"}, "must be at least 1");
    }
    if (in.llmSequences < 1 || in.llmSequences > perf::kMaxLlmSequences) {
        throw InputError({"recommend", 0, "", "sequences"},
                         "must be from 1 to " + std::to_string(perf::kMaxLlmSequences) + " requests at once");
    }
    Recommendation rec;
    perf::PerfQuery base = queryFor(in);
    rec.metric = base.metric;
    rec.workload = base.workload;
    if (in.eightBit && in.task != Task::Inference) {
        rec.notes.push_back("8-bit training is not modelled (neither in the seed): ranked by 16-bit training");
    }
    if (base.llmTrainingParamsBillion > 0) {
        rec.notes.push_back("speed of training a language model: its matmuls and memory traffic, without the fixed "
                            "time per step of the 2020-21 benchmark networks (performance model, language models)");
    }

    const PricesByGpu byGpu = pricesByGpu(prices);
    Date newestPriceDate{};
    for (const auto& p : prices) {
        newestPriceDate = std::max(newestPriceDate, p.observed);
    }
    const Gpu* reference = catalog.findById(in.settings.referenceGpu);
    if (reference == nullptr) {
        reference = &catalog.gpus().front();
    }
    perf::PerfQuery one = base;
    one.gpus = 1;
    const double refThroughput = model.throughput(*reference, one);
    const PerDollarAnchor anchor = perDollarAnchor(catalog, model, byGpu, in);
    rec.perDollarAnchor = anchor.label();
    if (anchor.gpu != nullptr && !anchor.isReference) {
        rec.notes.push_back(reference->name + " has no price: performance per dollar is relative to the best-value GPU, " +
                            anchor.label());
    }

    int unpriced = 0, tooSmall = 0, overBudget = 0, modules = 0, geforce = 0;
    std::vector<Candidate> all;
    for (const auto& g : catalog.gpus()) {
        const Exclusion excluded = exclusionFor(g, in);
        if (excluded != Exclusion::None) {
            ++(excluded == Exclusion::GeForceInAnOrganisation ? geforce : modules);
            continue;
        }
        const auto history = byGpu.find(g.id);
        const auto offer = history == byGpu.end() ? std::nullopt : buyerPrice(history->second, in);
        if (!offer) {
            ++unpriced;
            continue;
        }
        // Enough memory on one card, or split over up to maxGpus cards (sharding / layer split);
        // or, with system RAM given for LLM inference, as many of the cards as the user runs and
        // the budget buys (llama.cpp fills each with whole layers) and the rest in RAM.
        int count = static_cast<int>(std::ceil(in.memoryGb / g.memoryGb - 1e-9));
        // A complete computer's unified memory is all the RAM it has: nothing beside it to offload into.
        const bool partlyInRam =
            count > in.maxGpus && base.systemRamGbs && base.metric == perf::Metric::LlmDecode && !g.isCompleteSystem();
        if (partlyInRam) {
            const int affordable = static_cast<int>(std::floor(in.budgetUsd / offer->price.usd + 1e-9));
            count = std::clamp(affordable, 1, in.maxGpus);
        } else if (count > in.maxGpus) {
            ++tooSmall;
            continue;
        }
        if (offer->price.usd * count > in.budgetUsd + 1e-6) {
            ++overBudget;
            continue;
        }
        Candidate c;
        c.gpu = &g;
        c.count = count;
        c.condition = offer->condition;
        c.unitPriceUsd = offer->price.usd;
        c.priceBasis = offer->price.basis;
        perf::PerfQuery q = base;
        q.gpus = count;
        c.llmSplit = splitFor(model, g, q, in);
        q.llmSplit = c.llmSplit.value_or(q.llmSplit);
        // The sequences as many as fit (at a speed) are found once, for the figure and the reasons.
        const perf::PerfQuery run = base.metric == perf::Metric::LlmDecode ? model.withSequencesSettled(g, q) : q;
        c.throughput = model.throughput(g, run);
        c.relativePerformance = c.throughput / refThroughput;
        c.tco = ownershipCost(g, c.unitPriceUsd, count, in.settings);
        c.perfPerDollar = perfPerDollarFrom(anchor, c.throughput, c.tco.totalUsd).value_or(0.0);
        c.partlyInRam = partlyInRam;
        c.memoryHeadroomGb = partlyInRam ? 0.0 : g.memoryGb - in.memoryGb / count;
        const auto specs = model.specs(g);
        if (partlyInRam) {
            c.reasons.push_back(format::gigabytes(g.memoryGb) + (count > 1 ? " x " + std::to_string(count) : "") +
                                " of the " + format::gigabytes(in.memoryGb) + " you need; " +
                                perf::offloadPlacement(perf::planOffload(g, q)) + ": have that much RAM free");
        } else {
            c.reasons.push_back(format::gigabytes(g.memoryGb) + (count > 1 ? " x " + std::to_string(count) : "") +
                                " for the " + format::gigabytes(in.memoryGb) + " you need (" +
                                format::gigabytes(std::max(0.0, c.memoryHeadroomGb)) + " to spare per GPU)");
        }
        c.reasons.push_back("performance per dollar " + format::number(c.perfPerDollar, 2) + " (" +
                            anchor.label() + "): " + format::money(c.unitPriceUsd) + " " + toString(c.condition) + ", " +
                            format::trimmed(in.settings.years, 2) + "-year cost " + format::money(c.tco.totalUsd) +
                            " incl. " + format::money(c.tco.electricityUsd) + " electricity");
        const int together = base.metric == perf::Metric::LlmDecode ? std::max(1, run.llmSequences) : 1;
        const std::string howMany =
            in.llmMinSequenceSpeed
                ? " (as many as fit and each get " + format::trimmed(*in.llmMinSequenceSpeed, 1) + " tokens/s)"
            : in.llmSequencesFillMemory ? " (as many as fit)"
                                        : "";
        c.reasons.push_back(std::string(perf::isLlm(base.metric)
                                            ? "speed " + format::number(c.throughput, 0) + " tokens/s"
                                            : "speed " + format::ratio(c.relativePerformance) + " " + reference->name) +
                            " (" + perf::toString(base.metric) +
                            (together > 1 ? ", " + std::to_string(together) + " requests together" + howMany + ": " +
                                                format::number(c.throughput / together, 0) + " each"
                                          : std::string()) +
                            ")");
        if (g.isCompleteSystem()) {
            c.reasons.push_back(format::number(g.tdpW * count, 0) + " W" + (count > 1 ? " in all" : "") + ": " +
                                g.name + " comes with its own power supply");
        } else {
            calc::PsuInput psu;
            psu.gpuWatts = g.tdpW;
            psu.gpuCount = count;
            psu.cpuWatts = in.settings.cpuWatts;
            const auto p = calc::sizePsu(psu);
            c.reasons.push_back(
                format::number(g.tdpW * count, 0) + " W of GPUs: a " +
                (p.recommendedPsuWatts > 0 ? format::number(p.recommendedPsuWatts, 0) + " W" : "server") + " PSU");
        }
        RecommendInput asSplit = in; // the caveats name the split this setup is ranked at
        asSplit.llmSplit = q.llmSplit;
        c.caveats = caveatsFor(g, specs, *offer, count, asSplit, newestPriceDate, base.metric);
        all.push_back(std::move(c));
    }
    std::stable_sort(all.begin(), all.end(), [&](const Candidate& a, const Candidate& b) {
        return in.rankBy == RankBy::Speed ? a.throughput > b.throughput : a.perfPerDollar > b.perfPerDollar;
    });
    for (size_t i = 0; i < all.size() && static_cast<int>(i) < in.shortlistSize; ++i) {
        rec.shortlist.push_back(all[i]);
    }
    if (base.systemRamGbs && base.metric == perf::Metric::LlmDecode) {
        rec.notes.push_back("cards too small for the model were considered with the rest in system RAM of " +
                            format::trimmed(*base.systemRamGbs, 1) + " GB/s, as llama.cpp runs it, at that speed " +
                            (in.maxGpus > 1 ? "(up to " + std::to_string(in.maxGpus) +
                                                  " of a card where the budget buys them; marked in RAM)"
                                            : std::string("(one card each; marked in RAM)")));
    } else if (base.metric == perf::Metric::LlmDecode && rec.shortlist.empty() && tooSmall > 0) {
        // Nothing holds it: say what would still run it, and at what cost in speed.
        rec.notes.push_back("no card within the budget holds the model; given your system RAM, cards too small for "
                            "it are ranked with the rest there, as llama.cpp runs it, many times slower");
    }
    if (unpriced + tooSmall + overBudget + modules + geforce > 0) {
        rec.notes.push_back(
            "not considered: " + std::to_string(tooSmall) + " with too little memory, " + std::to_string(overBudget) +
            " over the budget, " + std::to_string(unpriced) + " without a" + (in.organization ? " new" : "") +
            " price" + (modules > 0 ? ", " + std::to_string(modules) + " server modules (individual buyer)" : "") +
            (geforce > 0 ? ", " + std::to_string(geforce) +
                               " GeForce cards (organisation: NVIDIA's GeForce driver licence does not allow "
                               "data-center deployment)"
                         : ""));
    }
    if (in.organization && in.usedOk) {
        rec.notes.push_back("organisation: new prices only (warranty, invoices)");
    }

    // Multi-card alternatives for the same money: the fastest setup of each GPU within the budget.
    const int maxCards = std::max(in.maxGpus, 4);
    for (const auto& c : all) {
        if (c.gpu->memoryGb < in.memoryGb) {
            continue; // data parallel: every card holds the model
        }
        const int n = std::min(maxCards, static_cast<int>(std::floor(in.budgetUsd / c.unitPriceUsd + 1e-9)));
        if (n < 1) {
            continue;
        }
        Candidate alt = c;
        alt.count = n;
        perf::PerfQuery q = base;
        q.gpus = n;
        alt.llmSplit = splitFor(model, *c.gpu, q, in);
        q.llmSplit = alt.llmSplit.value_or(q.llmSplit);
        alt.throughput = model.throughput(*c.gpu, q);
        alt.relativePerformance = alt.throughput / refThroughput;
        alt.reasons = {std::to_string(n) + " x " + c.gpu->name + " (" + toString(c.condition) + ") for " +
                       format::money(n * c.unitPriceUsd) + ": " + format::ratio(alt.relativePerformance) + " " +
                       reference->name + (n > 1 && perf::isTraining(base.metric) ? " with data-parallel overhead" : "")};
        rec.alternatives.push_back(std::move(alt));
    }
    std::stable_sort(rec.alternatives.begin(), rec.alternatives.end(),
                     [](const Candidate& a, const Candidate& b) { return a.throughput > b.throughput; });
    if (rec.alternatives.size() > 4) {
        rec.alternatives.resize(4);
    }

    // The cloud, priced for the same work as the best desktop choice.
    if (!rec.shortlist.empty()) {
        const Candidate& best = rec.shortlist.front();
        const auto cloud = cheapestCloudFor(catalog, model, offers, base, in.memoryGb);
        if (cloud.staleLeftOut > 0) {
            rec.notes.push_back("cloud: " + std::to_string(cloud.staleLeftOut) + " offer" +
                                (cloud.staleLeftOut == 1 ? "" : "s") + " last seen over a year before the newest (" +
                                cloud.newestObserved.toString() + ") not considered");
        }
        if (cloud.offer) {
            const CloudOffer* chosen = &*cloud.offer;
            calc::CloudVsDesktopInput cv;
            cv.desktopCostUsd = value::desktopBaseCostFor(*best.gpu, in.settings) + best.unitPriceUsd * best.count;
            cv.gpuWatts = best.gpu->tdpW * best.count;
            cv.cpuWatts = value::cpuWattsFor(*best.gpu, in.settings.cpuWatts);
            cv.utilization = in.settings.utilization;
            cv.kwhPriceUsd = in.settings.electricityUsdPerKwh;
            cv.years = in.settings.years;
            cv.cloudHourlyUsd = chosen->onDemandUsdPerHour;
            cv.workRatio = best.throughput / cloud.speed;
            const auto r = calc::compareCloudAndDesktop(cv);
            rec.cloud.offer = chosen->provider + " " + chosen->instance + " (" + chosen->gpuName + " x" +
                              std::to_string(chosen->gpuCount) + ", " + format::money(chosen->onDemandUsdPerHour) +
                              "/h, " + chosen->observed.toString() + ")";
            if (!cloud.gpu.assumption.empty()) {
                rec.cloud.offer += "; " + cloud.gpu.assumption;
            }
            if (cloud.stale) {
                rec.cloud.offer += "; no offer seen within a year of the newest (" + cloud.newestObserved.toString() +
                                   ") holds the memory: check today's price";
            }
            rec.cloud.breakEvenDays = r.breakEvenDays;
            const double horizon = in.settings.years * 365.0;
            rec.cloud.recommended = !r.breakEvenDays || *r.breakEvenDays > horizon;
            rec.cloud.reason =
                r.breakEvenDays
                    ? "buying " + best.gpu->name + " breaks even after " + format::number(*r.breakEvenDays, 0) +
                          " days at " + format::percent(in.settings.utilization, 0) + " utilization, against " +
                          format::number(horizon, 0) + " days of use" +
                          (rec.cloud.recommended ? ": rent" : ": buy (seed: longer than a year favours a desktop)")
                    : "the cloud costs less per day than the desktop's electricity: rent";
        } else {
            // Said, not left blank: the buyer sees why no break-even is given.
            rec.cloud.reason = offers.empty() ? "no cloud offers in your database to compare with"
                                              : "no cloud offer in your database holds " +
                                                    format::gigabytes(in.memoryGb) + ": no break-even to compare";
        }
    } else {
        rec.cloud.recommended = true;
        rec.cloud.reason = "no GPU fits the memory and the budget: rent in the cloud (vast.ai, Lambda) and prototype "
                           "small locally (seed)";
    }
    return rec;
}

} // namespace advisor::advice
