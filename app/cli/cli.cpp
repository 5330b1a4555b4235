#include "cli/cli.h"

#include "cli/args.h"
#include "cli/context.h"
#include "cli/option_errors.h"
#include "common/errors.h"
#include "common/text.h"
#include "paths.h"

#include <iostream>
#include <optional>

namespace advisor::cli {
namespace {

std::vector<Command> commands() {
    // clang-format off
    return {gpusCommand(), pricesCommand(), settingsCommand(), perfCommand(), evalModelCommand(),
            evalOffloadCommand(), evalServingCommand(), calibrateCommand(), valueCommand(), cloudCommand(),
            cloudVsDesktopCommand(), powerLimitCommand(), psuCommand(), buildCommand(), memoryCommand(),
            flowchartCommand(), recommendCommand(), chartCommand(), screenshotCommand(), dbCommand()};
    // clang-format on
}

struct GlobalOptions {
    bool json = false;
    bool help = false;
    bool version = false;
    std::optional<std::string> db;
    std::optional<std::string> catalog;
    std::vector<std::string> rest; ///< everything else, in order
};

GlobalOptions extractGlobals(int argc, char** argv) {
    GlobalOptions g;
    const auto valueOf = [&](int& i, const std::string& a, const std::string& name) -> std::string {
        if (a.size() > name.size() && a[name.size()] == '=') {
            return a.substr(name.size() + 1);
        }
        if (i + 1 >= argc) {
            throw UsageError("option '" + name + "' needs a value");
        }
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") {
            g.json = true;
        } else if (a == "--help" || a == "-h") {
            g.help = true;
        } else if (a == "--version") {
            g.version = true;
        } else if (a == "--db" || a.rfind("--db=", 0) == 0) {
            if (g.db) {
                throw UsageError("option '--db' is given twice");
            }
            g.db = valueOf(i, a, "--db");
        } else if (a == "--catalog" || a.rfind("--catalog=", 0) == 0) {
            g.catalog = valueOf(i, a, "--catalog");
        } else {
            g.rest.push_back(a);
        }
    }
    return g;
}

void printHelp(std::ostream& out, const std::vector<Command>& cmds) {
    out << "Usage: gpu-advisor [--db PATH] [--json] <command> [options]\n"
           "       gpu-advisor               (no command: open the window)\n\n"
           "Which GPU(s) to buy for deep learning - or whether to rent in the cloud - and why.\n\n"
           "Commands:\n";
    for (const auto& c : cmds) {
        out << "  " << c.name << std::string(c.name.size() < 18 ? 18 - c.name.size() : 1, ' ') << c.summary
            << '\n';
    }
    out << "\nGlobal options (before or after the command):\n"
           "  --db PATH         price database (default: " << app::defaultDatabasePath() << ")\n"
           "  --json            print one JSON document on stdout\n"
           "  --catalog FILE    use another GPU catalog file (advanced)\n"
           "  --help            show help (for a command: gpu-advisor <command> --help)\n"
           "  --version         show the version\n";
}

} // namespace

int run(int argc, char** argv, const GuiLauncher& gui) {
    const auto cmds = commands();
    try {
        GlobalOptions g = extractGlobals(argc, argv);
        if (g.version) {
            std::cout << "gpu-advisor " << ADVISOR_VERSION << '\n';
            return 0;
        }
        if (g.rest.empty()) {
            if (g.help) {
                printHelp(std::cout, cmds);
                return 0;
            }
            if (g.json) {
                throw UsageError("--json needs a command");
            }
            return gui(argc, argv, g.db.value_or(app::defaultDatabasePath()));
        }
        const std::string name = g.rest.front();
        const Command* cmd = nullptr;
        for (const auto& c : cmds) {
            if (c.name == name) {
                cmd = &c;
            }
        }
        if (cmd == nullptr) {
            std::vector<std::string> names;
            for (const auto& c : cmds) {
                names.push_back(c.name);
            }
            const auto meant = text::closestMatch(name, names);
            throw UsageError("unknown command '" + name + "'" +
                             (meant ? "; did you mean '" + *meant + "'? See" : "; see") + " 'gpu-advisor --help'");
        }
        if (g.help) {
            std::cout << cmd->usage;
            return 0;
        }
        Context ctx(std::cout, std::cerr, g.json, g.db.value_or(app::defaultDatabasePath()), g.catalog);
        const std::vector<std::string> args(g.rest.begin() + 1, g.rest.end());
        try {
            return cmd->run(ctx, args);
        } catch (const UsageError& e) {
            std::cerr << "gpu-advisor " << name << ": error: " << e.what() << "\n"
                      << "Try 'gpu-advisor " << name << " --help'.\n";
            return 2;
        } catch (const InputError& e) {
            for (const auto& p : inOptionTerms(e.problems(), args)) {
                std::cerr << "error: " << p.describe() << '\n';
            }
            return 1;
        }
    } catch (const UsageError& e) {
        std::cerr << "gpu-advisor: error: " << e.what() << '\n';
        return 2;
    } catch (const InputError& e) {
        for (const auto& p : e.problems()) {
            std::cerr << "error: " << p.describe() << '\n';
        }
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
}

} // namespace advisor::cli
