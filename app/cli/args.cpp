#include "cli/args.h"

#include "common/format.h"
#include "common/text.h"

#include <algorithm>

namespace advisor::cli {

Args Args::parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
    Args out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 3 || a.substr(0, 2) != "--") {
            out.positionals_.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const auto spec = std::find_if(specs.begin(), specs.end(),
                                       [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) {
            std::vector<std::string> known;
            for (const auto& s : specs) {
                known.push_back("--" + s.name);
            }
            const auto meant = text::closestMatch("--" + name, known);
            throw UsageError("unknown option '--" + name + "'" + (meant ? "; did you mean '" + *meant + "'?" : "") +
                             (known.empty() ? "" : (meant ? " This" : "; this") + std::string(" command accepts ") +
                                                       text::join(known, ", ")));
        }
        if (out.values_.count(name) != 0 || out.flags_.count(name) != 0) {
            throw UsageError("option '--" + name + "' is given twice");
        }
        if (!spec->takesValue) {
            if (inlineValue) {
                throw UsageError("option '--" + name + "' takes no value");
            }
            out.flags_.insert(name);
            continue;
        }
        if (inlineValue) {
            out.values_[name] = *inlineValue;
        } else if (i + 1 < args.size()) {
            out.values_[name] = args[++i];
        } else {
            throw UsageError("option '--" + name + "' needs a value");
        }
    }
    return out;
}

bool Args::has(const std::string& name) const {
    return flags_.count(name) != 0 || values_.count(name) != 0;
}

std::optional<std::string> Args::value(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::string Args::required(const std::string& name) const {
    const auto v = value(name);
    if (!v) {
        throw UsageError("missing required option '--" + name + "'");
    }
    return *v;
}

std::optional<double> Args::parsed(const std::string& name, text::ParsedNumber (*reader)(std::string_view)) const {
    const auto v = value(name);
    if (!v) {
        return std::nullopt;
    }
    const auto n = reader(*v);
    if (!n.value) {
        throw UsageError("option '--" + name + "': " + text::describeNumberError(n.error, *v));
    }
    return n.value;
}

std::optional<double> Args::number(const std::string& name) const {
    return parsed(name, text::parseNumber);
}

std::optional<double> Args::fraction(const std::string& name) const {
    return parsed(name, text::parseFraction);
}

double Args::requiredNumber(const std::string& name) const {
    const auto v = number(name);
    if (!v) {
        throw UsageError("missing required option '--" + name + "'");
    }
    return *v;
}

std::optional<double> Args::number(const std::string& name, double min, double max) const {
    const auto n = number(name);
    if (n && !(*n >= min && *n <= max)) {
        throw UsageError("option '--" + name + "' must be a number from " + format::number(min, 0) + " to " +
                         format::number(max, 0) + ", got " + text::quoteForMessage(*value(name)));
    }
    return n;
}

std::optional<int> Args::integer(const std::string& name, int min, int max) const {
    const auto v = value(name);
    if (!v) {
        return std::nullopt;
    }
    const auto n = text::parseInteger(*v);
    if (!n || *n < min || *n > max) {
        throw UsageError("option '--" + name + "' must be a whole number from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", got " + text::quoteForMessage(*v));
    }
    return static_cast<int>(*n);
}

std::optional<int> gpuCount(const Args& args, int max) {
    const auto count = args.integer("count", 1, max);
    const auto gpus = args.integer("gpus", 1, max);
    if (count && gpus && *count != *gpus) {
        throw UsageError("--count and --gpus both give the number of GPUs; give one (got " + std::to_string(*count) +
                         " and " + std::to_string(*gpus) + ")");
    }
    return count ? count : gpus;
}

void Args::refuseTogether(const std::vector<std::string>& group, const std::vector<std::string>& others) const {
    const auto given = [this](const std::vector<std::string>& names) {
        std::vector<std::string> out;
        for (const auto& n : names) {
            if (has(n)) {
                out.push_back("--" + n);
            }
        }
        return out;
    };
    const auto a = given(group);
    const auto b = given(others);
    if (a.empty() || b.empty()) {
        return;
    }
    std::string list;
    for (size_t i = 0; i < b.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == b.size() ? " or " : ", ") + b[i];
    }
    throw UsageError(a.front() + " cannot be combined with " + list);
}

void Args::expectPositionals(size_t count, const std::string& what) const {
    if (positionals_.size() < count) {
        throw UsageError("missing " + what);
    }
    if (positionals_.size() > count) {
        throw UsageError("unexpected argument '" + positionals_[count] + "'");
    }
}

std::vector<std::int64_t> Args::ids(const std::string& what) const {
    if (positionals_.empty()) {
        throw UsageError("missing " + what);
    }
    std::vector<std::int64_t> out;
    for (const auto& p : positionals_) {
        const auto id = text::parseInteger(p);
        if (!id || *id <= 0) {
            throw UsageError("an id must be a positive whole number, got '" + p + "'");
        }
        if (std::find(out.begin(), out.end(), *id) != out.end()) {
            throw UsageError("id " + p + " is given twice");
        }
        out.push_back(*id);
    }
    return out;
}

} // namespace advisor::cli
