#pragma once
/// \file
/// A price CSV of any size for the speed benchmarks: six GPUs, new and used, dates spread
/// over 2018-2025, a source, a URL and a note on every row (as a large real import has).

#include <string>

namespace advisor::testing {

std::string bulkPriceCsv(int rows);

} // namespace advisor::testing
