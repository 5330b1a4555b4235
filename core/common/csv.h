#pragma once
/// \file
/// CSV reading (RFC 4180, via libcsv in strict mode) with the physical line of
/// every record, and CSV writing that is safe to open in a spreadsheet.

#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::csv {

struct Limits {
    size_t maxFieldBytes = 64 * 1024;       ///< longer fields are rejected, not truncated
    size_t maxFileBytes = 256 * 1024 * 1024; ///< guard against accidental huge inputs
};

struct Row {
    int line = 0; ///< physical line where the record starts (1-based)
    std::vector<std::string> fields;
};

struct Table {
    std::vector<std::string> header; ///< first record, trimmed
    int headerLine = 0;
    char delimiter = ','; ///< ';' or '\t' when the header line has those and no comma
    std::vector<Row> rows;
};

/// Parses text as CSV with a header row. Throws InputError naming the file, line and
/// column for: an unterminated quote, stray quotes, a field over the size limit,
/// a file over the size limit, or an empty file. A UTF-8 byte-order mark is skipped.
/// A header line without a comma but with semicolons (a spreadsheet saving CSV in a locale
/// whose decimal mark is the comma) or tabs makes that character the delimiter.
Table read(std::string_view text, const std::string& fileLabel, const Limits& limits = {});

/// A number cell as parseNumber reads it: in a ';'-separated file a single comma with no
/// point is the decimal mark ("1599,90" -> "1599.90"); anything else, and a cell that would
/// still not be a number ("1,5x"), is returned unchanged.
std::string numberCell(const Table& table, std::string_view cell);

/// The column index of each header name. Throws InputError naming the file, the header's line
/// and each of `required` the header lacks ("required column is missing").
std::map<std::string, size_t> columnsRequiring(const Table& table, const std::string& fileLabel,
                                               std::initializer_list<const char*> required);

/// The trimmed cell of `row` in the column named `name` (columnsRequiring's index); empty when the
/// file has no such column or the row is short of it.
std::string cellIn(const Row& row, const std::map<std::string, size_t>& columns, const char* name);

/// How a file is written: commas, or semicolons with decimal commas (what a spreadsheet in a
/// locale whose decimal mark is the comma opens as columns, and read() reads back).
enum class Style { Commas, SemicolonsDecimalCommas };

/// Appends one record (with CRLF-free "\n" ending). Fields are quoted only when needed.
void appendRow(std::string& out, const std::vector<std::string>& fields, Style style = Style::Commas);

/// A number written for `style`: "1599.9" stays, or becomes "1599,9".
std::string numberFor(Style style, std::string number);

/// Makes a text cell inert for spreadsheets: a cell a spreadsheet would evaluate as a
/// formula (leading '=', '+', '-', '@', tab or CR) gets a leading apostrophe.
/// unneutralize() reverses it exactly, so the app's own export/import round-trips.
std::string neutralizeFormula(std::string_view cell);
std::string unneutralizeFormula(std::string_view cell);

} // namespace advisor::csv
