#pragma once
/// \file
/// Errors about user-supplied input. Every message names where the problem is
/// (file, line, entry, field) so that a person can find and fix it.

#include <stdexcept>
#include <string>
#include <vector>

namespace advisor {

/// Where in an input something went wrong. Empty parts are left out of messages.
struct InputLocation {
    std::string file;  ///< file name or label ("prices.csv", "--price")
    int line = 0;      ///< 1-based line, 0 when unknown / not line-oriented
    std::string entry; ///< record label, e.g. "entry 12 ('RTX 4090')"
    std::string field; ///< field or column name, e.g. "amount"
};

/// One problem found in an input: a location and a human-readable reason.
struct InputProblem {
    InputLocation where;
    std::string reason;

    /// "file:line: entry: field 'x': reason"
    std::string describe() const;
};

/// Thrown when input is rejected. Carries one or more problems; what() lists them all.
class InputError : public std::runtime_error {
public:
    explicit InputError(InputProblem problem);
    explicit InputError(std::vector<InputProblem> problems);
    InputError(InputLocation where, std::string reason);

    const std::vector<InputProblem>& problems() const { return problems_; }

private:
    std::vector<InputProblem> problems_;
};

/// Thrown for failures that are not the user's input: I/O, database, internal state.
class AdvisorError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace advisor
