#pragma once
/// \file
/// Core validators name the fields of their inputs ("params_billion", "amount"); on the
/// command line the user typed options, so a problem is reported against the option it
/// came from ("--params-billion: must be ...", "--price: must be ...").

#include "common/errors.h"

#include <string>
#include <vector>

namespace advisor::cli {

/// `problems` with each field that came from an option the user typed (`typed`: the
/// command's arguments) reported as that option. Problems located in a file, or in a field
/// no typed option sets (a setting, a default), are left as they are. A positional ID
/// (`prices remove ID`) loses its location: "no price with id 7" says it all.
std::vector<InputProblem> inOptionTerms(std::vector<InputProblem> problems, const std::vector<std::string>& typed);

} // namespace advisor::cli
