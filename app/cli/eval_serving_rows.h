#pragma once
// The pieces eval-serving's checks share: an error band over rows, and a full-load row as JSON,
// as a table's cells and the table they go in.

#include "cli/table.h"
#include "eval/full_load.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace advisor::cli {

/// Absolute errors (percent) and their median and p90.
struct Band {
    std::vector<double> errorsPct;
    /// rows, median_abs_error_pct and p90_abs_error_pct (null for no rows, rather than a perfect 0).
    nlohmann::json json() const;
    /// "12.3% median, 45.6% p90 (47 rows)", or "no rows".
    std::string text() const;
};

/// A full-load row's fields as the full-load checks give them.
nlohmann::json fullLoadRowJson(const eval::FullLoadRun& r, int atOnce, double predicted, double errorPct);
/// Its cells in fullLoadTable, but the last.
std::vector<std::string> fullLoadRowCells(const eval::FullLoadRun& r, int atOnce, double predicted, double errorPct);
/// The table the full-load checks print: each run, and last a column headed `last` (the run's error
/// held out, LEFT OUT, by default).
TextTable fullLoadTable(const std::string& last = "LEFT OUT");

} // namespace advisor::cli
