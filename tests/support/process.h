#pragma once
// Runs a program with arguments and captures its exit code, stdout and stderr.

#include <string>
#include <vector>

namespace advisor::testing {

struct ProcessResult {
    int exitCode = -1; ///< exit status, or 128 + signal when killed
    std::string out;
    std::string err;
};

/// Runs `program args...` with an empty stdin and extra environment entries: "K=V" sets,
/// a bare "K" removes the variable.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnv = {});

} // namespace advisor::testing
