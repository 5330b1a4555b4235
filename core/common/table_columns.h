#pragma once
/// \file
/// The columns of a user's table file (CSV header or JSON keys): which field each one is,
/// under the spellings a file may use ("date" for observed_date), so importers of prices and
/// of cloud offers read the same way and say the same things about unknown or doubled columns.

#include "common/csv.h"
#include "common/errors.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace advisor {

/// Canonical field -> the names a file may give it (lower case).
using ColumnSpellings = std::vector<std::pair<std::string, std::vector<std::string>>>;

/// The canonical field for a column name, or empty when unknown.
std::string canonicalColumn(const ColumnSpellings& spellings, const std::string& name);

/// A field's name as a file wrote it, where that differs from the canonical one; errors
/// name the column the user wrote. Shared by all rows of a file.
using SpelledColumns = std::shared_ptr<const std::map<std::string, std::string>>;

/// Renames the fields of problems [from, end) to the file's own spelling.
void respellFields(std::vector<InputProblem>& problems, size_t from, const SpelledColumns& spelled);

struct CsvColumns {
    std::vector<std::string> fieldOf;   ///< canonical field of each column ("" when unknown)
    std::map<std::string, size_t> find; ///< canonical field -> column index
    SpelledColumns spelled;
};

/// Maps a CSV header. Adds a problem for each unknown column (listing `expected`) and each
/// column given twice.
CsvColumns mapCsvColumns(const csv::Table& table, const std::string& fileLabel, const ColumnSpellings& spellings,
                         const std::string& expected, std::vector<InputProblem>& problems);

/// The rows holding data: lines of only whitespace are passed over; a row whose field
/// count differs from the header's is a problem (named by its line), not returned.
std::vector<const csv::Row*> dataRows(const csv::Table& table, const std::string& fileLabel,
                                      std::vector<InputProblem>& problems);

} // namespace advisor
