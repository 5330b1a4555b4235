#include "advisor/buyer_value.h"

#include "common/format.h"
#include "value/gpu_price.h"

namespace advisor::advice {

PricesByGpu pricesByGpu(const std::vector<Price>& prices) {
    PricesByGpu byGpu;
    for (const auto& p : prices) {
        byGpu[p.gpuId].push_back(p);
    }
    return byGpu;
}

std::optional<BuyerOffer> buyerPrice(const std::vector<Price>& history, const RecommendInput& in) {
    const bool usedOk = in.usedOk && !in.organization;
    const auto newest = value::choosePrice(history, PriceRule::NewestNew);
    const auto used = usedOk ? value::choosePrice(history, PriceRule::NewestUsed) : std::nullopt;
    if (used && (!newest || used->usd < newest->usd)) {
        return BuyerOffer{Condition::Used, *used};
    }
    if (newest) {
        return BuyerOffer{Condition::New, *newest};
    }
    return std::nullopt;
}

Exclusion exclusionFor(const Gpu& g, const RecommendInput& in) {
    if (!in.organization && g.form != FormFactor::Pcie && !g.isCompleteSystem()) {
        return Exclusion::ServerModule;
    }
    if (in.organization && g.segment == Segment::Consumer) {
        return Exclusion::GeForceInAnOrganisation;
    }
    return Exclusion::None;
}

value::Tco ownershipCost(const Gpu& g, double unitPriceUsd, int count, const Settings& s) {
    value::TcoInput t;
    t.gpuPriceUsd = unitPriceUsd;
    t.gpuCount = count;
    t.gpuWatts = g.tdpW;
    t.desktopBaseCostUsd = value::desktopBaseCostFor(g, s);
    t.electricityUsdPerKwh = s.electricityUsdPerKwh;
    t.utilization = s.utilization;
    t.years = s.years;
    return value::totalCostOfOwnership(t);
}

std::string PerDollarAnchor::label() const {
    if (gpu == nullptr) {
        return "no GPU with a price";
    }
    return gpu->name + " at " + format::money(unitPriceUsd) + " " + toString(condition) + " = 1";
}

namespace {

// One GPU's throughput per dollar of ownership: what an anchor is chosen by.
double throughputPerUsd(const perf::PerfModel& model, const RecommendInput& in, const Gpu& g, double unitPriceUsd) {
    perf::PerfQuery q = queryFor(in);
    q.gpus = 1;
    const double tco = ownershipCost(g, unitPriceUsd, 1, in.settings).totalUsd;
    return tco > 0 ? model.throughput(g, q) / tco : 0.0;
}

} // namespace

PerDollarAnchor perDollarAnchor(const Catalog& catalog, const perf::PerfModel& model, const PricesByGpu& prices,
                                const RecommendInput& in) {
    const auto offerOf = [&](const Gpu& g) {
        const auto it = prices.find(g.id);
        return it == prices.end() ? std::nullopt : buyerPrice(it->second, in);
    };
    PerDollarAnchor anchor;
    const auto consider = [&](const Gpu& g, bool isReference) {
        const auto offer = offerOf(g);
        if (!offer) {
            return;
        }
        const double perUsd = throughputPerUsd(model, in, g, offer->price.usd);
        if (perUsd > anchor.throughputPerUsd) {
            anchor = {&g, perUsd, offer->price.usd, offer->condition, isReference};
        }
    };
    if (const Gpu* reference = catalog.findById(in.settings.referenceGpu)) {
        consider(*reference, true);
    }
    if (anchor.gpu == nullptr) {
        for (const auto& g : catalog.gpus()) {
            if (exclusionFor(g, in) == Exclusion::None) {
                consider(g, false);
            }
        }
    }
    return anchor;
}

std::optional<double> perfPerDollarFrom(const PerDollarAnchor& anchor, double throughput, double ownershipCostUsd) {
    if (anchor.gpu == nullptr || !(anchor.throughputPerUsd > 0) || !(ownershipCostUsd > 0)) {
        return std::nullopt;
    }
    return throughput / ownershipCostUsd / anchor.throughputPerUsd;
}

std::optional<double> perfPerDollarOf(const PerDollarAnchor& anchor, const perf::PerfModel& model,
                                      const RecommendInput& in, const Gpu& g, double unitPriceUsd, int count) {
    perf::PerfQuery q = queryFor(in);
    q.gpus = count;
    return perfPerDollarFrom(anchor, model.throughput(g, q),
                             ownershipCost(g, unitPriceUsd, count, in.settings).totalUsd);
}

} // namespace advisor::advice
