#pragma once
// The invariant every importer of user files (prices, cloud offers) is fuzzed for: any bytes
// either parse into rows or raise InputError; every row either validates or says why not; and
// the valid items, exported in the same format, read back to exactly the same observations.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "prices/cloud_offer.h"
#include "prices/cloud_offer_io.h"
#include "prices/price_io.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace advisor::fuzz {

inline const Date kFuzzToday{2026, 11, 22};

/// `validate(row, problems)` gives the stored item or nullopt; `same(a, b)` compares two items.
template <typename Parse, typename Validate, typename Export, typename Same>
int checkImportRoundTrip(const std::uint8_t* data, std::size_t size, Parse parse, Validate validate, Export exportAs,
                         Same same) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    decltype(parse(text, std::string())) rows;
    try {
        rows = parse(text, "fuzz-input");
    } catch (const InputError&) {
        return 0;
    }
    using Item = typename decltype(validate(rows.front(), std::declval<std::vector<InputProblem>&>()))::value_type;
    std::vector<Item> valid;
    for (const auto& r : rows) {
        std::vector<InputProblem> problems;
        if (auto item = validate(r, problems)) {
            valid.push_back(*item);
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
        const auto item = validate(again[i], problems);
        if (!item || !same(*item, valid[i])) {
            std::abort();
        }
    }
    return 0;
}

template <typename Parse, typename Export>
int checkPriceImport(const std::uint8_t* data, std::size_t size, Parse parse, Export exportAs) {
    return checkImportRoundTrip(
        data, size, parse,
        [](const LocatedPriceInput& r, std::vector<InputProblem>& problems) {
            return validatePrice(r.input, Catalog::builtin(), kFuzzToday, r.where, problems);
        },
        exportAs, [](const Price& a, const Price& b) { return a.sameObservation(b); });
}

template <typename Parse, typename Export>
int checkOfferImport(const std::uint8_t* data, std::size_t size, Parse parse, Export exportAs) {
    return checkImportRoundTrip(
        data, size, parse,
        [](const LocatedCloudOfferInput& r, std::vector<InputProblem>& problems) {
            return validateCloudOffer(r.input, Catalog::builtin(), kFuzzToday, r.where, problems);
        },
        exportAs, [](const CloudOffer& a, const CloudOffer& b) { return observationKey(a) == observationKey(b); });
}

} // namespace advisor::fuzz
