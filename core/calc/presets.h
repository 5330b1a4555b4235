#pragma once
/// \file
/// Named presets with their sources: utilization (the seed's cloud-vs-desktop section) and
/// grid carbon intensity (Ember 2023). Shipped in resources/presets/.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::calc {

struct Preset {
    std::string id;
    std::string label;
    double value = 0;
    std::string source;
};

const std::vector<Preset>& utilizationPresets();
const std::vector<Preset>& gridIntensityPresets(); ///< kg CO2e per kWh
const std::vector<Preset>& memoryTaskPresets();    ///< minimum GPU memory (GB) per task, from the seeds

std::optional<Preset> findPreset(const std::vector<Preset>& presets, std::string_view id);

} // namespace advisor::calc
