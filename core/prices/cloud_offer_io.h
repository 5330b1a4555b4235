#pragma once
/// \file
/// Cloud offer files: CSV (the columns of resources/cloud/cloud_offers.csv) and JSON, read
/// for import and written for export; export then import round-trips exactly. Parsing never
/// touches the database (PriceDb::importCloudOffers applies rows all-or-nothing), and every
/// problem names the file, line and field.

#include "common/csv.h"
#include "prices/cloud_offer.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor {

namespace offerio {

/// CSV columns (header names, any order): provider, gpu and on_demand_usd_per_hour are
/// required; instance_or_sku, gpu_count, gpu_memory_gb, spot_usd_per_hour, region,
/// observed_date, source_url and note are optional. Unknown or doubled columns, short rows
/// and bad quoting throw one InputError listing every problem.
std::vector<LocatedCloudOfferInput> parseCsv(std::string_view text, const std::string& fileLabel);

/// {"format": "gpu-advisor-cloud-offers", "version": 1, "offers": [{...}, ...]} or a bare list;
/// numbers may be JSON numbers or text.
std::vector<LocatedCloudOfferInput> parseJson(std::string_view text, const std::string& fileLabel);

/// Reads and parses a file by its extension (.csv or .json).
std::vector<LocatedCloudOfferInput> parseFile(const std::string& path);

std::string toCsv(const std::vector<CloudOffer>& offers, csv::Style style = csv::Style::Commas);
std::string toJson(const std::vector<CloudOffer>& offers);

/// Writes offers to `path` (format by extension) atomically.
void exportFile(const std::string& path, const std::vector<CloudOffer>& offers, csv::Style style = csv::Style::Commas);

} // namespace offerio
} // namespace advisor
