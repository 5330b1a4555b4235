#pragma once
/// \file
/// Which cloud offer to compare a desktop with: the one that does the work for the least money
/// per hour, of the newest observation of each offer, among those whose GPUs hold the memory.
/// One rule for the recommender's cloud verdict and `cloud-vs-desktop` without a price.

#include "catalog/catalog.h"
#include "common/date.h"
#include "perf/model.h"
#include "prices/cloud_offer.h"

#include <optional>
#include <vector>

namespace advisor::advice {

/// The chosen offer and how it was chosen.
struct CloudChoice {
    std::optional<CloudOffer> offer;
    OfferGpu gpu;           ///< how the offer's GPU name was read
    double speed = 0;       ///< the offer's throughput in the metric
    bool stale = false;     ///< no recent offer held the memory, so an old one was taken
    int staleLeftOut = 0;   ///< old offers passed over for a recent one
    Date newestObserved;    ///< of all current offers
};

/// Offers last seen over a year before the newest one count only when no recent one holds
/// `memoryGb` (over the instance's GPUs); `base` is the work (metric, workload), its GPU count
/// taken from each offer (up to 8).
CloudChoice cheapestCloudFor(const Catalog& catalog, const perf::PerfModel& model, const std::vector<CloudOffer>& offers,
                             const perf::PerfQuery& base, double memoryGb);

} // namespace advisor::advice
