#include "prices/settings.h"

#include "catalog/catalog.h"
#include "common/format.h"
#include "common/text.h"
#include "prices/currency.h"

#include <algorithm>

namespace advisor {

const char* toString(PriceRule r) {
    switch (r) {
    case PriceRule::Average:
        return "average";
    case PriceRule::NewestNew:
        return "newest-new";
    case PriceRule::NewestUsed:
        return "newest-used";
    case PriceRule::Cheapest:
        return "cheapest";
    }
    return "average";
}

std::optional<PriceRule> parsePriceRule(std::string_view s) {
    for (const auto r : {PriceRule::Average, PriceRule::NewestNew, PriceRule::NewestUsed, PriceRule::Cheapest}) {
        if (s == toString(r)) {
            return r;
        }
    }
    return std::nullopt;
}

const std::vector<std::string>& Settings::keys() {
    static const std::vector<std::string> k = {
        "electricity_usd_per_kwh", "utilization",    "years",  "desktop_base_cost_usd",
        "reference_gpu",           "currency",       "price_rule", "grid_kg_co2e_per_kwh",
        "cpu_watts"};
    return k;
}

std::map<std::string, std::string> Settings::toMap() const {
    return {{"electricity_usd_per_kwh", text::formatDoubleExact(electricityUsdPerKwh)},
            {"utilization", text::formatDoubleExact(utilization)},
            {"years", text::formatDoubleExact(years)},
            {"desktop_base_cost_usd", text::formatDoubleExact(desktopBaseCostUsd)},
            {"reference_gpu", referenceGpu},
            {"currency", currency},
            {"price_rule", toString(priceRule)},
            {"grid_kg_co2e_per_kwh", text::formatDoubleExact(gridKgCo2ePerKwh)},
            {"cpu_watts", text::formatDoubleExact(cpuWatts)}};
}

Settings Settings::fromMap(const std::map<std::string, std::string>& kv) {
    Settings s;
    const auto num = [&](const char* key, double& out) {
        const auto it = kv.find(key);
        if (it != kv.end()) {
            if (const auto v = text::parseNumber(it->second).value) {
                out = *v;
            }
        }
    };
    num("electricity_usd_per_kwh", s.electricityUsdPerKwh);
    num("utilization", s.utilization);
    num("years", s.years);
    num("desktop_base_cost_usd", s.desktopBaseCostUsd);
    num("grid_kg_co2e_per_kwh", s.gridKgCo2ePerKwh);
    num("cpu_watts", s.cpuWatts);
    if (const auto it = kv.find("reference_gpu"); it != kv.end()) {
        s.referenceGpu = it->second;
    }
    if (const auto it = kv.find("currency"); it != kv.end()) {
        s.currency = it->second;
    }
    if (const auto it = kv.find("price_rule"); it != kv.end()) {
        s.priceRule = parsePriceRule(it->second).value_or(PriceRule::Average);
    }
    return s;
}

Settings Settings::fromStored(const std::map<std::string, std::string>& kv, const Catalog& catalog,
                              std::vector<InputProblem>& problems) {
    Settings s;
    const auto& known = keys();
    for (const auto& [key, value] : kv) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            continue;
        }
        try {
            s.set(key, value, catalog);
        } catch (const InputError& e) {
            if (key != "reference_gpu" || catalog.resolve(value).status == ResolveStatus::Found) {
                problems.insert(problems.end(), e.problems().begin(), e.problems().end());
            }
        }
    }
    return s;
}

std::optional<std::string> electricityPriceProblem(double usdPerKwh) {
    using L = SettingLimits;
    if (usdPerKwh >= 0 && usdPerKwh <= L::kMaxElectricityUsdPerKwh) {
        return std::nullopt;
    }
    return "must be between 0 and " + format::trimmed(L::kMaxElectricityUsdPerKwh, 2) + " USD per kWh";
}

std::vector<InputProblem> Settings::validate(const Catalog& catalog) const {
    std::vector<InputProblem> out;
    const auto bad = [&](const char* key, const std::string& why) {
        out.push_back({{"settings", 0, "", key}, why});
    };
    using L = SettingLimits;
    if (const auto problem = electricityPriceProblem(electricityUsdPerKwh)) {
        bad("electricity_usd_per_kwh", *problem);
    }
    if (!(utilization >= 0 && utilization <= 1)) {
        bad("utilization", "must be a fraction between 0 and 1 (0.15 = 15%)");
    }
    if (!(years > 0 && years <= L::kMaxYears)) {
        bad("years", "must be more than 0 and at most " + format::trimmed(L::kMaxYears, 2));
    }
    if (!(desktopBaseCostUsd >= 0 && desktopBaseCostUsd <= L::kMaxDesktopBaseCostUsd)) {
        bad("desktop_base_cost_usd", "must be between 0 and " + format::trimmed(L::kMaxDesktopBaseCostUsd, 2));
    }
    if (!(gridKgCo2ePerKwh >= 0 && gridKgCo2ePerKwh <= L::kMaxGridKgCo2ePerKwh)) {
        bad("grid_kg_co2e_per_kwh", "must be between 0 and " + format::trimmed(L::kMaxGridKgCo2ePerKwh, 2) + " kg CO2e per kWh");
    }
    if (!(cpuWatts >= 0 && cpuWatts <= L::kMaxCpuWatts)) {
        bad("cpu_watts", "must be between 0 and " + format::trimmed(L::kMaxCpuWatts, 2) + " W");
    }
    if (catalog.findById(referenceGpu) == nullptr) {
        bad("reference_gpu", "'" + referenceGpu + "' is not a known GPU id");
    }
    if (!isKnownCurrency(currency)) {
        bad("currency", "unknown currency '" + currency + "'");
    }
    return out;
}

void Settings::set(const std::string& key, const std::string& value, const Catalog& catalog) {
    const auto& all = keys();
    if (std::find(all.begin(), all.end(), key) == all.end()) {
        const auto meant = text::closestMatch(key, all);
        throw InputError({"settings", 0, "", key}, "unknown setting" + (meant ? "; did you mean '" + *meant + "'?" : "") +
                                                       (meant ? " Known: " : "; known: ") + text::join(all, ", "));
    }
    Settings next = *this;
    if (key == "reference_gpu") {
        const Resolution r = catalog.resolve(value);
        if (r.status != ResolveStatus::Found) {
            throw InputError({"settings", 0, "", key}, r.message());
        }
        next.referenceGpu = r.gpu->id;
    } else if (key == "currency") {
        next.currency = value;
    } else if (key == "price_rule") {
        const auto r = parsePriceRule(value);
        if (!r) {
            throw InputError({"settings", 0, "", key},
                             "must be one of average, newest-new, newest-used, cheapest");
        }
        next.priceRule = *r;
    } else {
        // Utilization is a fraction that people write as a percentage too ("15%").
        const auto n = key == "utilization" ? text::parseFraction(value) : text::parseNumber(value);
        if (!n.value) {
            throw InputError({"settings", 0, "", key}, text::describeNumberError(n.error, value));
        }
        auto kv = next.toMap();
        kv[key] = text::formatDoubleExact(*n.value);
        next = fromMap(kv);
    }
    if (auto problems = next.validate(catalog); !problems.empty()) {
        throw InputError(std::move(problems));
    }
    *this = next;
}

} // namespace advisor
