// Fuzz target: the price JSON importer, with the same round-trip invariant as the CSV one.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "prices/price_io.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<LocatedPriceInput> rows;
    try {
        rows = priceio::parseJson(text, "fuzz.json");
    } catch (const InputError&) {
        return 0;
    }
    std::vector<Price> valid;
    for (const auto& r : rows) {
        std::vector<InputProblem> problems;
        if (auto p = validatePrice(r.input, Catalog::builtin(), Date{2026, 11, 22}, r.where, problems)) {
            valid.push_back(*p);
        }
    }
    const auto again = priceio::parseJson(priceio::toJson(valid), "export.json");
    if (again.size() != valid.size()) {
        std::abort();
    }
    for (std::size_t i = 0; i < valid.size(); ++i) {
        std::vector<InputProblem> problems;
        const auto p = validatePrice(again[i].input, Catalog::builtin(), Date{2026, 11, 22}, again[i].where, problems);
        if (!p || !p->sameObservation(valid[i])) {
            std::abort();
        }
    }
    return 0;
}
