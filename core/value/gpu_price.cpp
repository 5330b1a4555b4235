#include "value/gpu_price.h"

#include "common/format.h"

#include <algorithm>
#include <iterator>

namespace advisor::value {
namespace {

std::optional<Price> newest(const std::vector<Price>& prices, Condition c) {
    std::optional<Price> best;
    for (const auto& p : prices) {
        if (p.condition != c || p.currency != "USD") {
            continue;
        }
        // Newest observation; on the same date the lower id (entered first) is kept.
        if (!best || p.observed > best->observed) {
            best = p;
        }
    }
    return best;
}

std::string describe(const char* what, const Price& p) {
    return std::string(what) + " " + format::money(p.amount) + " (" + p.observed.toString() + ")";
}

} // namespace

std::optional<ChosenPrice> choosePrice(const std::vector<Price>& prices, PriceRule rule) {
    ChosenPrice c;
    c.newestNew = newest(prices, Condition::New);
    c.newestUsed = newest(prices, Condition::Used);
    const auto& n = c.newestNew;
    const auto& u = c.newestUsed;
    switch (rule) {
    case PriceRule::Average:
        // The seed averages Amazon (new) and eBay (used) prices.
        if (n && u) {
            c.usd = (n->amount + u->amount) / 2.0;
            c.basis = "average of " + describe("new", *n) + " and " + describe("used", *u);
        } else if (n || u) {
            const Price& only = n ? *n : *u;
            c.usd = only.amount;
            c.basis = describe(n ? "new" : "used", only) + " (no " + (n ? "used" : "new") + " price to average with)";
        } else {
            return std::nullopt;
        }
        break;
    case PriceRule::NewestNew:
        if (!n) {
            return std::nullopt;
        }
        c.usd = n->amount;
        c.basis = describe("newest new", *n);
        break;
    case PriceRule::NewestUsed:
        if (!u) {
            return std::nullopt;
        }
        c.usd = u->amount;
        c.basis = describe("newest used", *u);
        break;
    case PriceRule::Cheapest:
        if (n && u) {
            const bool usedCheaper = u->amount < n->amount;
            c.usd = usedCheaper ? u->amount : n->amount;
            c.basis = "cheapest: " + describe(usedCheaper ? "used" : "new", usedCheaper ? *u : *n);
        } else if (n || u) {
            const Price& only = n ? *n : *u;
            c.usd = only.amount;
            c.basis = "cheapest: " + describe(n ? "new" : "used", only);
        } else {
            return std::nullopt;
        }
        break;
    }
    return c;
}

std::vector<Price> pricesOf(const std::vector<Price>& all, const std::string& gpuId) {
    std::vector<Price> out;
    std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const Price& p) { return p.gpuId == gpuId; });
    return out;
}

double desktopBaseCostFor(const Gpu& gpu, const Settings& settings) {
    return gpu.isCompleteSystem() ? 0.0 : settings.desktopBaseCostUsd;
}

double cpuWattsFor(const Gpu& gpu, double cpuWatts) {
    return gpu.isCompleteSystem() ? 0.0 : cpuWatts;
}

std::string PricedDesktop::basis() const {
    const std::string gpus = std::to_string(gpuCount) + " x " + format::money(gpu.usd) + " (" + gpu.basis + ")";
    return baseUsd > 0 ? "desktop " + format::money(baseUsd) + " + " + gpus : gpus;
}

std::optional<PricedDesktop> priceDesktop(const Gpu& gpu, const std::vector<Price>& pricesOfGpu,
                                          const Settings& settings, int gpuCount) {
    auto chosen = choosePrice(pricesOfGpu, settings.priceRule);
    if (!chosen) {
        return std::nullopt;
    }
    PricedDesktop d;
    d.baseUsd = desktopBaseCostFor(gpu, settings);
    d.gpuCount = gpuCount;
    d.gpu = std::move(*chosen);
    d.usd = d.baseUsd + d.gpu.usd * gpuCount;
    return d;
}

std::optional<double> usedToNewRatio(const std::vector<Price>& prices) {
    const auto n = newest(prices, Condition::New);
    const auto u = newest(prices, Condition::Used);
    if (!n || !u || n->amount <= 0) {
        return std::nullopt;
    }
    return std::min(1.0, u->amount / n->amount);
}

} // namespace advisor::value
