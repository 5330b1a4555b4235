#pragma once
// The invariant both price importers are fuzzed for: any bytes either parse into rows or raise
// InputError; every row either validates or says why not; and the valid prices, exported in
// the same format, read back to exactly the same observations.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "prices/price_io.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace advisor::fuzz {

template <typename Parse, typename Export>
int checkPriceImport(const std::uint8_t* data, std::size_t size, Parse parse, Export exportAs) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Date today{2026, 11, 22};
    std::vector<LocatedPriceInput> rows;
    try {
        rows = parse(text, "fuzz-input");
    } catch (const InputError&) {
        return 0;
    }
    std::vector<Price> valid;
    for (const auto& r : rows) {
        std::vector<InputProblem> problems;
        if (auto p = validatePrice(r.input, Catalog::builtin(), today, r.where, problems)) {
            valid.push_back(*p);
        } else if (problems.empty()) {
            std::abort(); // a refusal must say why
        }
    }
    const auto again = parse(exportAs(valid), "export");
    if (again.size() != valid.size()) {
        std::abort();
    }
    for (std::size_t i = 0; i < valid.size(); ++i) {
        std::vector<InputProblem> problems;
        const auto p = validatePrice(again[i].input, Catalog::builtin(), today, again[i].where, problems);
        if (!p || !p->sameObservation(valid[i])) {
            std::abort();
        }
    }
    return 0;
}

} // namespace advisor::fuzz
