#pragma once
// The invariant both cloud offer importers are fuzzed for: any bytes either parse into rows or
// raise InputError; every row either validates or says why not; and the valid offers, exported
// in the same format, read back to exactly the same observations.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "prices/cloud_offer.h"
#include "prices/cloud_offer_io.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace advisor::fuzz {

template <typename Parse, typename Export>
int checkOfferImport(const std::uint8_t* data, std::size_t size, Parse parse, Export exportAs) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Date today{2026, 11, 22};
    std::vector<LocatedCloudOfferInput> rows;
    try {
        rows = parse(text, "fuzz-input");
    } catch (const InputError&) {
        return 0;
    }
    std::vector<CloudOffer> valid;
    for (const auto& r : rows) {
        std::vector<InputProblem> problems;
        if (auto o = validateCloudOffer(r.input, Catalog::builtin(), today, r.where, problems)) {
            valid.push_back(*o);
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
        const auto o = validateCloudOffer(again[i].input, Catalog::builtin(), today, again[i].where, problems);
        if (!o || observationKey(*o) != observationKey(valid[i])) {
            std::abort();
        }
    }
    return 0;
}

} // namespace advisor::fuzz
