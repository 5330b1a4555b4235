#pragma once
/// \file
/// The settings that change results. Defaults are the seed's: 5 years of ownership,
/// 0.175 USD/kWh and 15% utilization ("Which GPU(s) to Get", 2023, perf-per-dollar chart).

#include "common/errors.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

class Catalog;

/// How the GPU price of a setup is chosen from the price history.
enum class PriceRule {
    Average,    ///< average of the newest new and newest used price (the seed's "average Amazon and eBay price")
    NewestNew,  ///< the newest price of a new card
    NewestUsed, ///< the newest price of a used card
    Cheapest,   ///< the cheaper of the newest new and newest used price
};

const char* toString(PriceRule r);
std::optional<PriceRule> parsePriceRule(std::string_view s);

/// The ranges Settings::validate accepts; every front end offers exactly these.
struct SettingLimits {
    static constexpr double kMaxElectricityUsdPerKwh = 10;
    static constexpr double kMaxYears = 30;
    static constexpr double kMaxDesktopBaseCostUsd = 1e7;
    static constexpr double kMaxGridKgCo2ePerKwh = 2;
    static constexpr double kMaxCpuWatts = 2000;
};

/// What is wrong with an electricity price (nullopt: nothing), in the settings' range; the
/// calculators that take a price of their own accept the same range.
std::optional<std::string> electricityPriceProblem(double usdPerKwh);

struct Settings {
    double electricityUsdPerKwh = 0.175; ///< seed: 0.175 USD/kWh
    double utilization = 0.15;           ///< seed: 15% GPU utilization
    double years = 5.0;                  ///< seed: 5 years cost of ownership
    /// The rest of a desktop without its GPU. The seed's cloud example prices a desktop
    /// with an RTX 3090 at $2,200 when the 3090 cost $1,499 -> about $700 for the barebone.
    double desktopBaseCostUsd = 700.0;
    std::string referenceGpu = "rtx-4090"; ///< id of the GPU charts are normalised to
    std::string currency = "USD";          ///< display currency
    PriceRule priceRule = PriceRule::Average;
    double gridKgCo2ePerKwh = 0.481; ///< world average 2023 (Ember); presets in resources/presets/grid_intensity.json
    double cpuWatts = 100.0;        ///< seed's cloud example: 100 W CPU

    /// Key/value form as stored in the database.
    std::map<std::string, std::string> toMap() const;
    /// Reads known keys over the defaults; unknown keys are ignored (newer versions).
    static Settings fromMap(const std::map<std::string, std::string>& kv);

    /// Stored key/values read as set() takes them, one by one over the defaults: a value set()
    /// refuses (a database another program wrote: utilization 7, 'abc') keeps its default and
    /// adds its problem to `problems`. Unknown keys (a newer version's) are passed over, and so is
    /// a reference GPU no longer in the catalog (a GPU of yours, removed): the default is used.
    static Settings fromStored(const std::map<std::string, std::string>& kv, const Catalog& catalog,
                               std::vector<InputProblem>& problems);

    /// One problem per invalid setting (field = key); empty when valid.
    std::vector<InputProblem> validate(const Catalog& catalog) const;

    /// Sets one setting from text (the command line and the settings page use this).
    /// Throws InputError naming the key when the key is unknown or the value invalid.
    void set(const std::string& key, const std::string& value, const Catalog& catalog);

    static const std::vector<std::string>& keys();
};

} // namespace advisor
