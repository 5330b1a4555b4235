#pragma once
/// \file
/// The command-line contract (see DESIGN.md): `gpu-advisor [--db PATH] [--json] <command> ...`.
/// Global options may appear before or after the command. Errors go to stderr with a
/// non-zero exit code (1: rejected input or failure, 2: wrong usage).

#include <functional>
#include <string>
#include <vector>

namespace advisor::cli {

class Context;

struct Command {
    std::string name;
    std::string summary;
    std::string usage; ///< full help text for `gpu-advisor <name> --help`
    std::function<int(Context&, const std::vector<std::string>&)> run;
};

/// Starts the window when no command is given: (argc, argv, database path) -> exit code.
using GuiLauncher = std::function<int(int, char**, const std::string&)>;

int run(int argc, char** argv, const GuiLauncher& gui);

// Commands, one file each.
Command gpusCommand();
Command pricesCommand();
Command settingsCommand();
Command perfCommand();
Command evalModelCommand();
Command evalOffloadCommand();
Command evalServingCommand();
Command calibrateCommand();
Command valueCommand();
Command cloudCommand();
Command cloudVsDesktopCommand();
Command powerLimitCommand();
Command psuCommand();
Command buildCommand();
Command memoryCommand();
Command flowchartCommand();
Command recommendCommand();
Command chartCommand();
Command screenshotCommand();
Command dbCommand();

} // namespace advisor::cli
