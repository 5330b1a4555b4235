#pragma once
/// \file
/// Price files: CSV and JSON import/export. Export then import round-trips exactly.
/// Parsing never touches the database; PriceDb::importPrices applies the rows
/// all-or-nothing. Every problem names the file, line and field.

#include "common/csv.h"
#include "prices/price.h"
#include "prices/price_db.h"

#include <string>
#include <string_view>
#include <vector>

namespace advisor::priceio {

/// CSV columns (header names, any order, case-insensitive):
///   gpu (or gpu_id), amount (or price / price_usd), observed_date (or date),
///   currency, condition, source, source_url, note.
/// Throws InputError listing every structural problem (bad header, short rows, quoting).
std::vector<LocatedPriceInput> parseCsv(std::string_view text, const std::string& fileLabel);

/// {"format": "gpu-advisor-prices", "version": 1, "prices": [{...}, ...]} or a bare list.
std::vector<LocatedPriceInput> parseJson(std::string_view text, const std::string& fileLabel);

/// Reads and parses a file by its extension.
std::vector<LocatedPriceInput> parseFile(const std::string& path);

std::string toCsv(const std::vector<Price>& prices, csv::Style style = csv::Style::Commas);
std::string toJson(const std::vector<Price>& prices);

/// Writes prices to `path` (format by extension; a CSV in `style`) atomically.
void exportFile(const std::string& path, const std::vector<Price>& prices, csv::Style style = csv::Style::Commas);

} // namespace advisor::priceio
