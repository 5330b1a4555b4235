#include "prices/cloud_offer_io.h"

#include "common/csv.h"
#include "common/file_io.h"
#include "common/json_fields.h"
#include "common/text.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>

namespace advisor::offerio {
namespace {

using nlohmann::json;

// The canonical names are the columns of resources/cloud/cloud_offers.csv and the fields
// validateCloudOffer names in its errors.
const ColumnSpellings& columnNames() {
    static const ColumnSpellings names = {
        {"provider", {"provider"}},
        {"instance_or_sku", {"instance_or_sku", "instance", "sku"}},
        {"gpu", {"gpu", "gpu_name"}},
        {"gpu_count", {"gpu_count", "gpus"}},
        {"gpu_memory_gb", {"gpu_memory_gb", "memory_gb"}},
        {"on_demand_usd_per_hour", {"on_demand_usd_per_hour", "usd_per_hour", "hourly"}},
        {"spot_usd_per_hour", {"spot_usd_per_hour", "spot"}},
        {"region", {"region"}},
        {"observed_date", {"observed_date", "date"}},
        {"source_url", {"source_url", "url"}},
        {"note", {"note", "notes"}},
    };
    return names;
}

const char* const kExpected = "provider, instance_or_sku, gpu, gpu_count, gpu_memory_gb, on_demand_usd_per_hour, "
                              "spot_usd_per_hour, region, observed_date, source_url, note";

std::string* fieldIn(CloudOfferInput& in, const std::string& canon) {
    static const std::map<std::string, std::string CloudOfferInput::*> fields = {
        {"provider", &CloudOfferInput::provider},   {"instance_or_sku", &CloudOfferInput::instance},
        {"gpu", &CloudOfferInput::gpu},             {"gpu_count", &CloudOfferInput::gpuCount},
        {"gpu_memory_gb", &CloudOfferInput::gpuMemoryGb}, {"on_demand_usd_per_hour", &CloudOfferInput::onDemand},
        {"spot_usd_per_hour", &CloudOfferInput::spot}, {"region", &CloudOfferInput::region},
        {"observed_date", &CloudOfferInput::date},  {"source_url", &CloudOfferInput::sourceUrl},
        {"note", &CloudOfferInput::note},
    };
    const auto it = fields.find(canon);
    return it == fields.end() ? nullptr : &(in.*(it->second));
}

bool isNumberField(const std::string& canon) {
    return canon == "gpu_count" || canon == "gpu_memory_gb" || canon == "on_demand_usd_per_hour" ||
           canon == "spot_usd_per_hour";
}

const char* const kRequired[] = {"provider", "gpu", "on_demand_usd_per_hour"};

json numberOrNull(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

} // namespace

std::vector<LocatedCloudOfferInput> parseCsv(std::string_view textIn, const std::string& fileLabel) {
    const csv::Table table = csv::read(textIn, fileLabel);
    std::vector<InputProblem> problems;
    const CsvColumns columns = mapCsvColumns(table, fileLabel, columnNames(), kExpected, problems);
    for (const char* required : kRequired) {
        if (columns.find.count(required) == 0) {
            problems.push_back({{fileLabel, table.headerLine, "", required}, "required column is missing"});
        }
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    std::vector<LocatedCloudOfferInput> out;
    for (const csv::Row* row : dataRows(table, fileLabel, problems)) {
        LocatedCloudOfferInput located{{fileLabel, row->line, "", ""}, {}, columns.spelled};
        for (size_t i = 0; i < columns.fieldOf.size(); ++i) {
            const std::string& canon = columns.fieldOf[i];
            if (std::string* field = fieldIn(located.input, canon)) {
                const std::string cell = csv::unneutralizeFormula(row->fields[i]);
                *field = isNumberField(canon) ? csv::numberCell(table, cell) : cell;
            }
        }
        out.push_back(std::move(located));
    }
    if (!problems.empty()) {
        throw InputError(std::move(problems));
    }
    return out;
}

std::vector<LocatedCloudOfferInput> parseJson(std::string_view textIn, const std::string& fileLabel) {
    const JsonRecords records = parseJsonRecords(textIn, fileLabel, "gpu-advisor-cloud-offers", "offers");
    std::vector<InputProblem> problems;
    std::vector<LocatedCloudOfferInput> out;
    for (size_t i = 0; i < records.items.size(); ++i) {
        const int line = records.lineOf(i);
        const std::string entry = "offers[" + std::to_string(i) + "]";
        const json& item = records.items[i];
        if (!item.is_object()) {
            problems.push_back({{fileLabel, line, entry, ""}, "must be an object"});
            continue;
        }
        LocatedCloudOfferInput located{{fileLabel, line, entry, ""}, {}, nullptr};
        std::map<std::string, std::string> spelled;
        std::set<std::string> present; // canonical fields the item gives
        bool ok = true;
        for (const auto& [key, value] : item.items()) {
            const std::string canon = canonicalColumn(columnNames(), text::toLower(key));
            std::string* field = fieldIn(located.input, canon);
            if (field == nullptr) {
                problems.push_back({{fileLabel, line, entry, key}, std::string("unknown field; expected: ") + kExpected});
                ok = false;
            } else if (value.is_string()) {
                *field = value.get<std::string>();
            } else if (value.is_number() && isNumberField(canon)) {
                *field = text::formatDoubleExact(value.get<double>());
            } else if (!value.is_null()) {
                problems.push_back({{fileLabel, line, entry, key},
                                    std::string(isNumberField(canon) ? "must be a number" : "must be text") +
                                        ", got " + value.type_name()});
                ok = false;
            }
            if (field != nullptr) {
                present.insert(canon);
                if (key != canon) {
                    spelled[canon] = key;
                }
            }
        }
        for (const char* required : kRequired) {
            if (ok && present.count(required) == 0) {
                problems.push_back({{fileLabel, line, entry, required}, "is missing"});
                ok = false;
            }
        }
        if (!spelled.empty()) {
            located.columnNames = std::make_shared<const std::map<std::string, std::string>>(std::move(spelled));
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

std::vector<LocatedCloudOfferInput> parseFile(const std::string& path) {
    const files::TableFormat f = files::tableFormatForPath(path);
    const std::string data = files::readAll(path);
    return f == files::TableFormat::Csv ? parseCsv(data, path) : parseJson(data, path);
}

std::string toCsv(const std::vector<CloudOffer>& offers, csv::Style style) {
    std::string out;
    out.reserve(offers.size() * 200);
    std::vector<std::string> header;
    for (const auto& [canon, spellings] : columnNames()) {
        header.push_back(canon);
    }
    csv::appendRow(out, header, style);
    const auto number = [style](const std::optional<double>& v) {
        return v ? csv::numberFor(style, text::formatDoubleExact(*v)) : std::string();
    };
    for (const auto& o : offers) {
        csv::appendRow(out,
                       {csv::neutralizeFormula(o.provider), csv::neutralizeFormula(o.instance),
                        csv::neutralizeFormula(o.gpuName), std::to_string(o.gpuCount), number(o.gpuMemoryGb),
                        number(o.onDemandUsdPerHour), number(o.spotUsdPerHour), csv::neutralizeFormula(o.region),
                        o.observed.toString(), csv::neutralizeFormula(o.sourceUrl), csv::neutralizeFormula(o.note)},
                       style);
    }
    return out;
}

std::string toJson(const std::vector<CloudOffer>& offers) {
    json list = json::array();
    for (const auto& o : offers) {
        list.push_back({{"provider", o.provider},
                        {"instance_or_sku", o.instance},
                        {"gpu", o.gpuName},
                        {"gpu_count", o.gpuCount},
                        {"gpu_memory_gb", numberOrNull(o.gpuMemoryGb)},
                        {"on_demand_usd_per_hour", o.onDemandUsdPerHour},
                        {"spot_usd_per_hour", numberOrNull(o.spotUsdPerHour)},
                        {"region", o.region},
                        {"observed_date", o.observed.toString()},
                        {"source_url", o.sourceUrl},
                        {"note", o.note}});
    }
    const json doc = {{"format", "gpu-advisor-cloud-offers"}, {"version", 1}, {"offers", list}};
    return doc.dump(2) + "\n";
}

void exportFile(const std::string& path, const std::vector<CloudOffer>& offers, csv::Style style) {
    const files::TableFormat f = files::tableFormatForPath(path);
    files::writeAtomically(path, f == files::TableFormat::Csv ? toCsv(offers, style) : toJson(offers));
}

} // namespace advisor::offerio
