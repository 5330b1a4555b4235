#include "cli/option_errors.h"

#include <algorithm>
#include <map>

namespace advisor::cli {
namespace {

// Fields whose option is not simply the field in kebab case.
const std::map<std::string, std::string>& optionAliases() {
    static const std::map<std::string, std::string> aliases = {
        {"amount", "price"},                    // prices add --price
        {"observed_date", "date"},              // prices add / cloud add --date
        {"on_demand_usd_per_hour", "hourly"},   // cloud add --hourly
        {"spot_usd_per_hour", "spot"},          // cloud add --spot
        {"gpu_count", "gpus"},                  // cloud add --gpus
        {"instance_or_sku", "instance"},        // cloud add --instance
        {"answer", "answers"},                  // flowchart --answers
        {"shard_gpus", "shard"},                // memory --shard
    };
    return aliases;
}

std::string optionFor(const std::string& field) {
    const auto alias = optionAliases().find(field);
    std::string name = alias != optionAliases().end() ? alias->second : field;
    std::replace(name.begin(), name.end(), '_', '-');
    return "--" + name;
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
        const std::string option = optionFor(p.where.field);
        if (wasTyped(option, typed)) {
            p.where = {option, 0, "", ""};
        }
    }
    return problems;
}

} // namespace advisor::cli
