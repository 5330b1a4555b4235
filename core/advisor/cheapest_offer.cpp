#include "advisor/cheapest_offer.h"

#include <algorithm>

namespace advisor::advice {

CloudChoice cheapestCloudFor(const Catalog& catalog, const perf::PerfModel& model, const std::vector<CloudOffer>& offers,
                             const perf::PerfQuery& base, double memoryGb) {
    CloudChoice best;
    const auto current = currentOffers(offers);
    best.newestObserved = newestObservation(current);
    // An offer last seen over a year before the newest one has most likely changed or gone:
    // old offers count only when no recent one holds the memory.
    const auto isStale = [&](const CloudOffer& o) { return isOverAYearBefore(o.observed, best.newestObserved); };
    double bestCostPerWork = 0;
    for (const bool staleToo : {false, true}) {
        if (best.offer) {
            break;
        }
        best.staleLeftOut = 0;
        for (const auto& o : current) {
            if (!staleToo && isStale(o)) {
                ++best.staleLeftOut;
                continue;
            }
            // Offers named ambiguously ("A100 40GB") count too, read as offerGpu reads them.
            OfferGpu read = offerGpu(o, catalog);
            const Gpu* g = read.gpu;
            if (g == nullptr || g->memoryGb < memoryGb / o.gpuCount) {
                continue;
            }
            perf::PerfQuery q = base;
            q.gpus = std::min(o.gpuCount, 8);
            const double speed = model.throughput(*g, q);
            const double costPerWork = o.onDemandUsdPerHour / speed;
            if (!best.offer || costPerWork < bestCostPerWork) {
                best.offer = o;
                best.gpu = std::move(read);
                best.speed = speed;
                best.stale = isStale(o);
                bestCostPerWork = costPerWork;
            }
        }
    }
    if (best.stale) {
        best.staleLeftOut = 0;
    }
    return best;
}

} // namespace advisor::advice
