#include "calc/presets.h"

#include "common/embedded_resources.h"
#include "common/json_fields.h"

#include <nlohmann/json.hpp>

namespace advisor::calc {
namespace {

std::vector<Preset> load(const char* path) {
    const auto doc = nlohmann::json::parse(resources::require(path));
    std::vector<Preset> out;
    const auto& list = doc.at("presets");
    for (size_t i = 0; i < list.size(); ++i) {
        const JsonFields f(list[i], {std::string("resources/") + path, 0, "preset " + std::to_string(i + 1), ""});
        out.push_back({f.requireString("id"), f.requireString("label"), f.requirePositive("value"),
                       f.requireString("source")});
    }
    return out;
}

} // namespace

const std::vector<Preset>& utilizationPresets() {
    static const std::vector<Preset> p = load("presets/utilization.json");
    return p;
}

const std::vector<Preset>& gridIntensityPresets() {
    static const std::vector<Preset> p = load("presets/grid_intensity.json");
    return p;
}

const std::vector<Preset>& memoryTaskPresets() {
    static const std::vector<Preset> p = load("presets/memory_tasks.json");
    return p;
}

std::optional<Preset> findPreset(const std::vector<Preset>& presets, std::string_view id) {
    for (const auto& p : presets) {
        if (p.id == id) {
            return p;
        }
    }
    return std::nullopt;
}

} // namespace advisor::calc
