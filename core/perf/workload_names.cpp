#include "perf/workload_names.h"

#include "common/embedded_resources.h"
#include "common/json_fields.h"

#include <map>

namespace advisor::perf {

std::string workloadNameKey(std::string_view name) {
    std::string key;
    for (const char c : name) {
        if (c >= 'A' && c <= 'Z') {
            key += static_cast<char>(c - 'A' + 'a');
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            key += c;
        }
    }
    return key;
}

std::vector<WorkloadAliases> parseWorkloadAliases(std::string_view text, const std::string& fileLabel) {
    const JsonRecords records = parseJsonRecords(text, fileLabel, "gpu-advisor-workload-names", "networks");
    std::vector<WorkloadAliases> out;
    std::map<std::string, std::string> networkOfKey; // every name's key -> its profile
    for (size_t i = 0; i < records.items.size(); ++i) {
        const JsonFields f = records.fieldsOf(i, fileLabel, "network " + std::to_string(i + 1));
        WorkloadAliases entry;
        entry.profile = f.requireString("profile");
        entry.aliases = f.optionalStringArray("aliases");
        entry.why = f.requireString("why");
        if (entry.aliases.empty()) {
            f.fail("aliases", "names no other name for " + entry.profile);
        }
        std::vector<std::string> names = entry.aliases;
        names.push_back(entry.profile);
        for (const auto& name : names) {
            const std::string key = workloadNameKey(name);
            if (key.empty()) {
                f.fail("aliases", "'" + name + "' has no letter or digit");
            }
            const auto [it, added] = networkOfKey.emplace(key, entry.profile);
            if (!added && it->second != entry.profile) {
                f.fail("aliases", "'" + name + "' would name both " + it->second + " and " + entry.profile);
            }
        }
        out.push_back(std::move(entry));
    }
    return out;
}

const std::vector<WorkloadAliases>& builtinWorkloadAliases() {
    static const std::vector<WorkloadAliases> aliases = [] {
        const auto data = resources::find("perf/workload_names.json");
        return data ? parseWorkloadAliases(*data, "resources/perf/workload_names.json")
                    : std::vector<WorkloadAliases>{};
    }();
    return aliases;
}

std::string profileNameFor(const std::string& workloadName, const ModelConstants& constants,
                           const std::vector<WorkloadAliases>& aliases) {
    if (workloadName.empty() || constants.workloadProfiles.empty()) {
        return {};
    }
    if (constants.profileFor(workloadName) != nullptr) {
        return workloadName;
    }
    const std::string key = workloadNameKey(workloadName);
    for (const auto& entry : constants.workloadProfiles) {
        if (workloadNameKey(entry.first) == key) {
            return entry.first;
        }
    }
    for (const auto& entry : aliases) {
        if (constants.profileFor(entry.profile) == nullptr) {
            continue; // constants fitted without this network
        }
        for (const auto& alias : entry.aliases) {
            if (workloadNameKey(alias) == key) {
                return entry.profile;
            }
        }
    }
    return {};
}

} // namespace advisor::perf
