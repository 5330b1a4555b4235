#pragma once
/// \file
/// Where the user's data lives (the platform data directory, via QStandardPaths).

#include <string>

namespace advisor::app {

/// ~/.local/share/gpu-advisor/prices.sqlite on Linux; created on first use by PriceDb.
std::string defaultDatabasePath();

} // namespace advisor::app
