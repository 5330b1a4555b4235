#pragma once
/// \file
/// `--semicolons` of the export commands: a CSV a spreadsheet in a locale whose decimal mark is
/// the comma opens as columns (semicolons between fields, decimal commas in numbers); import
/// reads it back.

#include "cli/args.h"
#include "common/csv.h"
#include "common/file_io.h"

#include <string>

namespace advisor::cli {

inline csv::Style csvStyleOption(const Args& args, const std::string& file) {
    if (!args.has("semicolons")) {
        return csv::Style::Commas;
    }
    if (files::tableFormatForPath(file) != files::TableFormat::Csv) {
        throw UsageError("--semicolons writes a .csv file, not " + file);
    }
    return csv::Style::SemicolonsDecimalCommas;
}

} // namespace advisor::cli
