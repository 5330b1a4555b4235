// gpu-advisor: with no command it opens the window; otherwise it runs one command
// headless (see `gpu-advisor --help`).
#include "cli/cli.h"
#include "gui.h"

int main(int argc, char** argv) {
    return advisor::cli::run(argc, argv, advisor::app::runGui);
}
