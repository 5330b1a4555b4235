#pragma once
/// \file
/// A dated, sourced cloud GPU offer: provider, instance, GPUs and hourly prices.

#include "common/date.h"
#include "common/errors.h"
#include "common/table_columns.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

class Catalog;
struct Gpu;

struct CloudOffer {
    std::int64_t id = 0;
    std::string provider;
    std::string instance;
    std::string gpuName;           ///< as the provider names it
    std::optional<std::string> gpuId; ///< catalog id when the name resolves unambiguously
    int gpuCount = 1;
    std::optional<double> gpuMemoryGb;
    double onDemandUsdPerHour = 0; ///< for the whole instance
    std::optional<double> spotUsdPerHour;
    std::string region;
    Date observed;
    std::string sourceUrl;
    std::string note;

    double onDemandPerGpuHour() const { return onDemandUsdPerHour / gpuCount; }
};

/// Text fields of one offer, as read from a file or typed.
struct CloudOfferInput {
    std::string provider, instance, gpu, gpuCount, gpuMemoryGb, onDemand, spot, region, date, sourceUrl, note;
};

/// One offer as a file states it, with where it stands for errors.
struct LocatedCloudOfferInput {
    InputLocation where;
    CloudOfferInput input;
    SpelledColumns columnNames = nullptr; ///< the file's own names for renamed fields
};

/// Validates an offer (one problem per bad field, located at `where`); nullopt when invalid.
std::optional<CloudOffer> validateCloudOffer(const CloudOfferInput& in, const Catalog& catalog, const Date& today,
                                             const InputLocation& where, std::vector<InputProblem>& problems);

/// Everything an offer states but its id, as one text: equal keys are the same observation
/// (an import skips a row whose key is stored already).
std::string observationKey(const CloudOffer& offer);

/// The newest observation of each offer (same provider, instance, GPU, GPU count and region): older
/// observations are history, not something one can rent today. Order as given.
std::vector<CloudOffer> currentOffers(const std::vector<CloudOffer>& offers);

/// The date of the newest observation (unset when there are no offers): what "today's market"
/// means for offers (`isOverAYearBefore`).
Date newestObservation(const std::vector<CloudOffer>& offers);

/// "the offer was last seen 2023-03-31, over a year before the newest offer (2026-10-10): check
/// today's price" for an offer that old (`isOverAYearBefore`), else empty.
std::string offerAgeNote(const CloudOffer& offer, const Date& newest);

/// The catalog GPU an offer runs, for comparing its speed with a desktop's.
struct OfferGpu {
    const Gpu* gpu = nullptr; ///< nullptr when the provider's name matches no catalog GPU
    std::string assumption;   ///< why `gpu` was chosen, or why none; empty when the offer is linked
};

/// The offer's linked GPU; else its name resolved in the catalog. An ambiguous name ("A100
/// 40GB": PCIe or SXM4) takes the SXM module for an instance of 8 or more GPUs (such
/// servers are HGX boards of SXM modules) and otherwise the first match, and says so.
OfferGpu offerGpu(const CloudOffer& offer, const Catalog& catalog);

} // namespace advisor
