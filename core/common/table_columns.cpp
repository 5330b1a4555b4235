#include "common/table_columns.h"

#include "common/text.h"

#include <algorithm>

namespace advisor {

std::string canonicalColumn(const ColumnSpellings& spellings, const std::string& name) {
    for (const auto& [canon, names] : spellings) {
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            return canon;
        }
    }
    return "";
}

void respellFields(std::vector<InputProblem>& problems, size_t from, const SpelledColumns& spelled) {
    if (!spelled) {
        return;
    }
    for (size_t k = from; k < problems.size(); ++k) {
        const auto it = spelled->find(problems[k].where.field);
        if (it != spelled->end()) {
            problems[k].where.field = it->second;
        }
    }
}

CsvColumns mapCsvColumns(const csv::Table& table, const std::string& fileLabel, const ColumnSpellings& spellings,
                         const std::string& expected, std::vector<InputProblem>& problems) {
    CsvColumns out;
    out.fieldOf.resize(table.header.size());
    auto spelled = std::make_shared<std::map<std::string, std::string>>();
    for (size_t i = 0; i < table.header.size(); ++i) {
        const std::string& h = table.header[i];
        const std::string canon = canonicalColumn(spellings, h);
        if (canon.empty()) {
            // Quote a readable header; a binary or huge one is named by its position.
            const bool printable = !h.empty() && h.size() <= 64 && !text::firstInvalidUtf8(h) &&
                                   !text::hasControlCharacters(h);
            problems.push_back({{fileLabel, table.headerLine, "", printable ? h : "column " + std::to_string(i + 1)},
                                "unknown column; expected columns: " + expected});
            continue;
        }
        if (out.find.count(canon) != 0) {
            problems.push_back({{fileLabel, table.headerLine, "", h}, "column given twice"});
            continue;
        }
        out.find[canon] = i;
        out.fieldOf[i] = canon;
        if (h != canon) {
            (*spelled)[canon] = h;
        }
    }
    out.spelled = std::move(spelled);
    return out;
}

std::vector<const csv::Row*> dataRows(const csv::Table& table, const std::string& fileLabel,
                                      std::vector<InputProblem>& problems) {
    std::vector<const csv::Row*> rows;
    rows.reserve(table.rows.size());
    for (const auto& row : table.rows) {
        if (row.fields.size() == 1 && text::trim(row.fields[0]).empty()) {
            continue; // a line with only whitespace
        }
        if (row.fields.size() != table.header.size()) {
            problems.push_back({{fileLabel, row.line, "", ""},
                                "has " + std::to_string(row.fields.size()) + " fields; the header has " +
                                    std::to_string(table.header.size())});
            continue;
        }
        rows.push_back(&row);
    }
    return rows;
}

} // namespace advisor
