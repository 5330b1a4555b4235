#pragma once
// Runs the built gpu-advisor binary against a private temporary database.

#include "support/process.h"
#include "support/temp_dir.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace advisor::testing {

class Cli {
public:
    std::string db() const { return dir_.file("prices.sqlite"); }
    std::string file(const std::string& name) const { return dir_.file(name); }

    /// gpu-advisor --db <temp> args...
    ProcessResult run(std::vector<std::string> args) const {
        args.insert(args.begin(), {"--db", db()});
        // Private settings and data directories: nothing of the user's is read or written.
        return runProcess(GPU_ADVISOR_BIN, args,
                          {"LC_ALL=C.UTF-8", "QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + dir_.file("config"),
                           "XDG_DATA_HOME=" + dir_.file("data")});
    }
    /// Runs with --json and parses stdout.
    nlohmann::json json(std::vector<std::string> args) const {
        args.insert(args.begin(), "--json");
        const auto r = run(args);
        if (r.exitCode != 0) {
            throw std::runtime_error("command failed: " + r.err);
        }
        return nlohmann::json::parse(r.out);
    }
    std::string write(const std::string& name, const std::string& content) const {
        std::ofstream f(file(name), std::ios::binary);
        f << content;
        return file(name);
    }
    std::string read(const std::string& name) const {
        std::ifstream f(file(name), std::ios::binary);
        return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    }

private:
    TempDir dir_;
};

} // namespace advisor::testing
