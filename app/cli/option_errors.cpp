#include "cli/option_errors.h"

#include <algorithm>
#include <map>
#include <vector>

namespace advisor::cli {
namespace {

// Fields whose option is not simply the field in kebab case (or not only).
const std::map<std::string, std::vector<std::string>>& optionAliases() {
    static const std::map<std::string, std::vector<std::string>> aliases = {
        {"amount", {"price"}},                  // prices add --price
        {"observed_date", {"date"}},            // prices add / cloud add --date
        {"on_demand_usd_per_hour", {"hourly"}}, // cloud add --hourly
        {"spot_usd_per_hour", {"spot"}},        // cloud add --spot
        {"gpu_count", {"gpus"}},                // cloud add --gpus
        {"instance_or_sku", {"instance"}},      // cloud add --instance
        {"answer", {"answers"}},                // flowchart --answers
        {"shard_gpus", {"shard"}},              // memory --shard
        {"count", {"count", "gpus"}},           // calculators: --gpus is a synonym of --count
    };
    return aliases;
}

std::vector<std::string> optionsFor(const std::string& field) {
    const auto alias = optionAliases().find(field);
    std::vector<std::string> names = alias != optionAliases().end() ? alias->second : std::vector<std::string>{field};
    for (auto& name : names) {
        std::replace(name.begin(), name.end(), '_', '-');
        name = "--" + name;
    }
    return names;
}

bool wasTyped(const std::string& option, const std::vector<std::string>& typed) {
    return std::any_of(typed.begin(), typed.end(), [&](const std::string& a) {
        return a == option || a.rfind(option + "=", 0) == 0;
    });
}

} // namespace

std::vector<InputProblem> inOptionTerms(std::vector<InputProblem> problems, const std::vector<std::string>& typed) {
    for (auto& p : problems) {
        if (p.where.line > 0 || !p.where.entry.empty() || p.where.field.empty()) {
            continue;
        }
        if (p.where.field == "id" && !wasTyped("--id", typed)) {
            p.where = {}; // the ID of `prices remove ID` is positional, and the reason names it
            continue;
        }
        for (const auto& option : optionsFor(p.where.field)) {
            if (wasTyped(option, typed)) {
                p.where = {option, 0, "", ""};
                break;
            }
        }
    }
    return problems;
}

} // namespace advisor::cli
