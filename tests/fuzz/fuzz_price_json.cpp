// Fuzz target: the price JSON importer (see import_round_trip.h for what must hold).
#include "import_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    return fuzz::checkPriceImport(
        data, size, [](std::string_view t, const std::string& label) { return priceio::parseJson(t, label); },
        [](const std::vector<Price>& p) { return priceio::toJson(p); });
}
