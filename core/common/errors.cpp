#include "common/errors.h"

namespace advisor {
namespace {

std::string joinProblems(const std::vector<InputProblem>& problems) {
    std::string out;
    for (size_t i = 0; i < problems.size(); ++i) {
        if (i > 0) {
            out += '\n';
        }
        out += problems[i].describe();
    }
    return out;
}

} // namespace

std::string InputProblem::describe() const {
    std::string out;
    if (!where.file.empty()) {
        out += where.file;
        if (where.line > 0) {
            out += ':' + std::to_string(where.line);
        }
        out += ": ";
    } else if (where.line > 0) {
        out += "line " + std::to_string(where.line) + ": ";
    }
    if (!where.entry.empty()) {
        out += where.entry + ": ";
    }
    if (!where.field.empty()) {
        out += "field '" + where.field + "': ";
    }
    out += reason;
    return out;
}

InputError::InputError(InputProblem problem) : InputError(std::vector<InputProblem>{std::move(problem)}) {}

InputError::InputError(std::vector<InputProblem> problems)
    : std::runtime_error(joinProblems(problems)), problems_(std::move(problems)) {}

InputError::InputError(InputLocation where, std::string reason)
    : InputError(InputProblem{std::move(where), std::move(reason)}) {}

} // namespace advisor
