#pragma once

#include <string>

namespace advisor::app {

/// Starts the window on the given database and runs the event loop; returns the exit code.
int runGui(int argc, char** argv, const std::string& databasePath);

} // namespace advisor::app
