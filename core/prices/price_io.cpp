#include "prices/price_io.h"

#include "common/csv.h"
#include "common/file_io.h"
#include "common/json_fields.h"
#include "common/table_columns.h"
#include "common/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace advisor::priceio {
namespace {

using nlohmann::json;

const ColumnSpellings& columnNames() {
    static const ColumnSpellings names = {
        {"gpu", {"gpu", "gpu_name", "name"}},
        {"gpu_id", {"gpu_id"}},
        {"amount", {"amount", "price", "price_usd"}},
        {"currency", {"currency"}},
        {"condition", {"condition"}},
        {"observed_date", {"observed_date", "date"}},
        {"source", {"source"}},
        {"source_url", {"source_url", "url"}},
        {"note", {"note", "notes"}},
    };
    return names;
}

std::string expectedColumns() {
    return "gpu, amount, observed_date, currency, condition, source, source_url, note";
}

void assign(PriceInput& in, const std::string& field, const std::string& value) {
    if (field == "gpu") {
        if (in.gpu.empty()) {
            in.gpu = value;
        }
    } else if (field == "gpu_id") {
        if (!text::trim(value).empty()) {
            in.gpu = value; // an id is exact; it wins over the display name
        }
    } else if (field == "amount") {
        in.amountText = value;
    } else if (field == "currency") {
        in.currency = value;
    } else if (field == "condition") {
        in.conditionText = value;
    } else if (field == "observed_date") {
        in.dateText = value;
    } else if (field == "source") {
        in.source = value;
    } else if (field == "source_url") {
        in.sourceUrl = value;
    } else if (field == "note") {
        in.note = value;
    }
}

} // namespace

std::vector<LocatedPriceInput> parseCsv(std::string_view textIn, const std::string& fileLabel) {
    const csv::Table table = csv::read(textIn, fileLabel);
    std::vector<InputProblem> problems;
    const CsvColumns columns = mapCsvColumns(table, fileLabel, columnNames(), expectedColumns(), problems);
    const auto& seen = columns.find;
    const bool hasGpu = seen.count("gpu") != 0 || seen.count("gpu_id") != 0;
    if (!hasGpu) {
        problems.push_back({{fileLabel, table.headerLine, "", "gpu"}, "required column is missing"});
    }
    if (seen.count("amount") == 0) {
        problems.push_back({{fileLabel, table.headerLine, "", "amount"}, "required column is missing"});
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    // A "price_usd" column states the currency.
    const bool usdColumn = table.header[seen.at("amount")] == "price_usd";

    std::vector<LocatedPriceInput> out;
    out.reserve(table.rows.size());
    for (const csv::Row* row : dataRows(table, fileLabel, problems)) {
        LocatedPriceInput located{{fileLabel, row->line, "", ""}, {}, columns.spelled};
        if (usdColumn) {
            located.input.currency = "USD";
        }
        for (size_t i = 0; i < columns.fieldOf.size(); ++i) {
            const std::string& field = columns.fieldOf[i];
            const std::string cell = csv::unneutralizeFormula(row->fields[i]);
            assign(located.input, field, field == "amount" ? csv::numberCell(table, cell) : cell);
        }
        out.push_back(std::move(located));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<LocatedPriceInput> parseJson(std::string_view textIn, const std::string& fileLabel) {
    const JsonRecords records = parseJsonRecords(textIn, fileLabel, "gpu-advisor-prices", "prices");
    const json* list = &records.items;
    const std::vector<int>& lines = records.lines;

    std::vector<InputProblem> problems;
    std::vector<LocatedPriceInput> out;
    out.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        const int line = i < lines.size() ? lines[i] : 0;
        const std::string entry = "prices[" + std::to_string(i) + "]";
        const json& item = (*list)[i];
        if (!item.is_object()) {
            problems.push_back({{fileLabel, line, entry, ""}, "must be an object"});
            continue;
        }
        LocatedPriceInput located{{fileLabel, line, entry, ""}, {}, nullptr};
        std::map<std::string, std::string> spelled; // keys written other than the canonical name
        bool ok = true;
        for (const auto& [k, v] : item.items()) {
            const std::string canon = canonicalColumn(columnNames(), text::toLower(k));
            if (canon.empty()) {
                problems.push_back({{fileLabel, line, entry, k}, "unknown field; expected: " + expectedColumns()});
                ok = false;
                continue;
            }
            std::string value;
            if (v.is_string()) {
                value = v.get<std::string>();
            } else if (v.is_number() && canon == "amount") {
                value = text::formatDoubleExact(v.get<double>());
            } else if (v.is_null()) {
                value = "";
            } else {
                problems.push_back({{fileLabel, line, entry, k},
                                    std::string(canon == "amount" ? "must be a number" : "must be text") +
                                        ", got " + v.type_name()});
                ok = false;
                continue;
            }
            if (k == "price_usd") {
                located.input.currency = "USD";
            }
            if (k != canon) {
                spelled[canon] = k;
            }
            assign(located.input, canon, value);
        }
        if (!spelled.empty()) {
            located.columnNames = std::make_shared<const std::map<std::string, std::string>>(std::move(spelled));
        }
        if (located.input.gpu.empty() && ok) {
            problems.push_back({{fileLabel, line, entry, "gpu"}, "is missing"});
            ok = false;
        }
        if (located.input.amountText.empty() && ok && !item.contains("amount") && !item.contains("price") &&
            !item.contains("price_usd")) {
            problems.push_back({{fileLabel, line, entry, "amount"}, "is missing"});
            ok = false;
        }
        if (ok) {
            out.push_back(std::move(located));
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<LocatedPriceInput> parseFile(const std::string& path) {
    const files::TableFormat f = files::tableFormatForPath(path);
    const std::string data = files::readAll(path);
    return f == files::TableFormat::Csv ? parseCsv(data, path) : parseJson(data, path);
}

std::string toCsv(const std::vector<Price>& prices, csv::Style style) {
    std::string out;
    out.reserve(prices.size() * 200);
    csv::appendRow(
        out, {"gpu", "gpu_id", "condition", "amount", "currency", "observed_date", "source", "source_url", "note"},
        style);
    for (const auto& p : prices) {
        csv::appendRow(out,
                       {csv::neutralizeFormula(p.gpuName), csv::neutralizeFormula(p.gpuId), toString(p.condition),
                        csv::numberFor(style, text::formatDoubleExact(p.amount)), p.currency, p.observed.toString(),
                        csv::neutralizeFormula(p.source), csv::neutralizeFormula(p.sourceUrl),
                        csv::neutralizeFormula(p.note)},
                       style);
    }
    return out;
}

std::string toJson(const std::vector<Price>& prices) {
    json list = json::array();
    for (const auto& p : prices) {
        list.push_back({{"gpu", p.gpuName},
                        {"gpu_id", p.gpuId},
                        {"condition", toString(p.condition)},
                        {"amount", p.amount},
                        {"currency", p.currency},
                        {"observed_date", p.observed.toString()},
                        {"source", p.source},
                        {"source_url", p.sourceUrl},
                        {"note", p.note}});
    }
    const json doc = {{"format", "gpu-advisor-prices"}, {"version", 1}, {"prices", list}};
    return doc.dump(2) + "\n";
}

void exportFile(const std::string& path, const std::vector<Price>& prices, csv::Style style) {
    const files::TableFormat f = files::tableFormatForPath(path);
    files::writeAtomically(path, f == files::TableFormat::Csv ? toCsv(prices, style) : toJson(prices));
}

} // namespace advisor::priceio
