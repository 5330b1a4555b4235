#pragma once
/// \file
/// A dated, sourced price observation and the rules every price must satisfy.

#include "common/date.h"
#include "common/errors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

class Catalog;
class ResolutionCache;

enum class Condition { New, Used };

const char* toString(Condition c);
std::optional<Condition> parseCondition(std::string_view s);

/// What a user enters: the GPU by name or id, and the observation.
struct PriceInput {
    std::string gpu; ///< name, alias or id; resolved against the catalog
    std::string amountText; ///< as typed, validated to a finite number > 0
    std::string currency = "USD";
    std::string conditionText = "new";
    std::string source;
    std::string sourceUrl;
    std::string dateText; ///< "YYYY-MM-DD" or "YYYY-MM"; empty means today
    std::string note;
};

/// A validated price, as stored.
struct Price {
    std::int64_t id = 0; ///< 0 until stored
    std::string gpuId;
    std::string gpuName;
    double amount = 0;
    std::string currency = "USD";
    Condition condition = Condition::New;
    std::string source;
    std::string sourceUrl;
    Date observed;
    std::string note;

    /// Same observation (everything but the id).
    bool sameObservation(const Price& o) const;
};

/// The input that validates back to `p` (for editing one field of a stored price).
PriceInput toInput(const Price& p);

/// Field limits (bytes of UTF-8).
constexpr size_t kMaxSourceBytes = 500;
constexpr size_t kMaxUrlBytes = 2000;
constexpr size_t kMaxNoteBytes = 4000;
constexpr double kMaxAmount = 1e9;

/// Validates one input. On success returns the Price; otherwise appends one problem per
/// bad field to `problems` (located at `where`, with the field set) and returns nullopt.
std::optional<Price> validatePrice(const PriceInput& in, const Catalog& catalog, const Date& today,
                                   const InputLocation& where, std::vector<InputProblem>& problems);

/// Same, resolving GPU names through a cache (bulk imports repeat a few names).
std::optional<Price> validatePrice(const PriceInput& in, ResolutionCache& names, const Date& today,
                                   const InputLocation& where, std::vector<InputProblem>& problems);

} // namespace advisor
