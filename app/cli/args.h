#pragma once
/// \file
/// Command-line argument parsing for subcommands: "--name value", "--name=value",
/// flags and positionals, with usage errors that say what was expected.

#include "common/text.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::cli {

/// A mistake in how the command was called (exit code 2).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name; ///< without dashes
    bool takesValue = true;
};

class Args {
public:
    /// Parses `args` against the allowed options; throws UsageError on unknown options,
    /// missing values or repeated options.
    static Args parse(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

    const std::vector<std::string>& positionals() const { return positionals_; }
    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    /// The option's value; UsageError naming the option when absent.
    std::string required(const std::string& name) const;
    /// Numeric option; UsageError naming the option when not a finite number.
    std::optional<double> number(const std::string& name) const;
    /// A fraction option, as a number or a percentage ("0.15" or "15%").
    std::optional<double> fraction(const std::string& name) const;
    /// Numeric option within [min, max]; UsageError naming the option and the range otherwise.
    std::optional<double> number(const std::string& name, double min, double max) const;
    double requiredNumber(const std::string& name) const;
    std::optional<int> integer(const std::string& name, int min, int max) const;

    /// UsageError when the options of `group` that were given and the options of `others`
    /// that were given are both non-empty: "--task cannot be combined with --params-billion".
    void refuseTogether(const std::vector<std::string>& group, const std::vector<std::string>& others) const;

    /// Exactly `count` positionals, else UsageError with `what` ("a price id").
    void expectPositionals(size_t count, const std::string& what) const;

    /// The positionals as ids: at least one (else "missing `what`"), each a positive whole
    /// number, none given twice; UsageError naming the bad one otherwise.
    std::vector<std::int64_t> ids(const std::string& what) const;

private:
    /// An option's value read by `reader`; UsageError naming the option when it fails.
    std::optional<double> parsed(const std::string& name, text::ParsedNumber (*reader)(std::string_view)) const;

    std::vector<std::string> positionals_;
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

/// The number of GPUs of a calculator: --count N, or --gpus N, the name `perf`, `value` and
/// `recommend` use for it. UsageError when both are given and differ.
std::optional<int> gpuCount(const Args& args, int max);

} // namespace advisor::cli
