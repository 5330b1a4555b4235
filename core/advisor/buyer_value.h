#pragma once
/// \file
/// What a buyer pays for a GPU and what "performance per dollar 1" means on the shortlist, shared
/// by the live recommender and the GPUs shown beside it (the 2023 chart's picks), so that one
/// GPU at one price has one perf/$ figure on every view.

#include "advisor/recommender.h"
#include "value/gpu_price.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor::advice {

using PricesByGpu = std::map<std::string, std::vector<Price>>;

PricesByGpu pricesByGpu(const std::vector<Price>& prices);

struct BuyerOffer {
    Condition condition = Condition::New;
    value::ChosenPrice price;
};

/// The price a buyer pays: newest new, or the cheaper of newest new and newest used. Organisations
/// buy new only (warranty, invoices).
std::optional<BuyerOffer> buyerPrice(const std::vector<Price>& history, const RecommendInput& in);

/// Why a buyer like `in` does not consider a GPU at all. Individuals buy PCIe cards (server
/// modules need an HGX/OAM baseboard); organisations leave out GeForce cards (NVIDIA's GeForce
/// driver licence does not allow data-center deployment).
enum class Exclusion { None, ServerModule, GeForceInAnOrganisation };
Exclusion exclusionFor(const Gpu& g, const RecommendInput& in);

/// Five-year (settings.years) cost of `count` x `g` at `unitPriceUsd`, with the user's settings.
value::Tco ownershipCost(const Gpu& g, double unitPriceUsd, int count, const Settings& s);

/// The GPU whose performance per dollar counts as 1: the reference GPU at its buyer price, or,
/// when the reference has no price, the best-value single GPU the buyer considers.
struct PerDollarAnchor {
    const Gpu* gpu = nullptr;       ///< nullptr: no GPU the buyer considers has a price
    double throughputPerUsd = 0;    ///< its throughput (the metric's units) / its ownership cost
    double unitPriceUsd = 0;
    Condition condition = Condition::New;
    bool isReference = false;
    std::string label() const;      ///< "RTX 4090 at $1,704 used = 1"
};

PerDollarAnchor perDollarAnchor(const Catalog& catalog, const perf::PerfModel& model, const PricesByGpu& prices,
                                const RecommendInput& in);

/// Performance per dollar of a setup whose modelled throughput and ownership cost are known,
/// on the anchor's scale; nullopt without an anchor or a cost.
std::optional<double> perfPerDollarFrom(const PerDollarAnchor& anchor, double throughput, double ownershipCostUsd);

/// Performance per dollar of `count` x `g` bought at `unitPriceUsd` for the work `in` describes,
/// on the anchor's scale; nullopt without an anchor.
std::optional<double> perfPerDollarOf(const PerDollarAnchor& anchor, const perf::PerfModel& model,
                                      const RecommendInput& in, const Gpu& g, double unitPriceUsd, int count = 1);

} // namespace advisor::advice
