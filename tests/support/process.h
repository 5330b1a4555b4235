#pragma once
// Runs a program with arguments and captures its exit code, stdout and stderr - to the end
// (runProcess), or in the background so that a test can kill it at a chosen moment (Child).

#include <string>
#include <vector>

#include <sys/types.h>

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

/// A program running in the background. Its stdout and stderr go to files in `captureDir`
/// (never a pipe that could fill up while nobody reads). The destructor kills and reaps it.
class Child {
public:
    Child(const std::string& program, const std::vector<std::string>& args, const std::string& captureDir,
          const std::vector<std::string>& extraEnv = {});
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    /// Waits up to `ms` milliseconds; true when the program has exited.
    bool waitFor(int ms);
    /// Waits for the end, however long.
    ProcessResult wait();
    /// SIGKILL (if still running) and reap; the result says whether it had already exited.
    ProcessResult kill();

private:
    ProcessResult collect();

    pid_t pid_ = -1;
    bool reaped_ = false;
    int status_ = 0;
    std::string outPath_;
    std::string errPath_;
};

} // namespace advisor::testing
