#include "prices/price.h"

#include "catalog/catalog.h"
#include "common/text.h"
#include "prices/currency.h"

namespace advisor {

const char* toString(Condition c) {
    return c == Condition::New ? "new" : "used";
}

std::optional<Condition> parseCondition(std::string_view s) {
    const std::string v = text::toLower(text::trim(s));
    if (v == "new") {
        return Condition::New;
    }
    if (v == "used") {
        return Condition::Used;
    }
    return std::nullopt;
}

bool Price::sameObservation(const Price& o) const {
    return gpuId == o.gpuId && amount == o.amount && currency == o.currency &&
           condition == o.condition && source == o.source && sourceUrl == o.sourceUrl &&
           observed == o.observed && note == o.note;
}

namespace {

// Text fields must be valid UTF-8, free of control characters (binary junk) and short enough.
bool checkText(const std::string& value, const char* field, size_t maxBytes, bool allowNewlines,
               const InputLocation& where, std::vector<InputProblem>& problems) {
    InputLocation at = where;
    at.field = field;
    if (const auto bad = text::firstInvalidUtf8(value)) {
        problems.push_back({at, "is not valid UTF-8 (bad byte at offset " + std::to_string(*bad) + ")"});
        return false;
    }
    if (text::hasControlCharacters(value) ||
        (!allowNewlines && value.find_first_of("\r\n") != std::string::npos)) {
        problems.push_back({at, "contains control characters"});
        return false;
    }
    if (value.size() > maxBytes) {
        problems.push_back({at, "is " + std::to_string(value.size()) + " bytes long; the limit is " +
                                    std::to_string(maxBytes)});
        return false;
    }
    return true;
}

} // namespace

std::optional<Price> validatePrice(const PriceInput& in, const Catalog& catalog, const Date& today,
                                   const InputLocation& where, std::vector<InputProblem>& problems) {
    ResolutionCache names(catalog);
    return validatePrice(in, names, today, where, problems);
}

std::optional<Price> validatePrice(const PriceInput& in, ResolutionCache& names, const Date& today,
                                   const InputLocation& where, std::vector<InputProblem>& problems) {
    const size_t before = problems.size();
    const auto at = [&](const char* field) {
        InputLocation l = where;
        l.field = field;
        return l;
    };
    Price p;

    if (checkText(in.gpu, "gpu", 200, false, where, problems)) {
        if (text::trim(in.gpu).empty()) {
            problems.push_back({at("gpu"), "is empty; name the GPU"});
        } else {
            const Resolution& r = names.resolve(in.gpu);
            if (r.status == ResolveStatus::Found) {
                p.gpuId = r.gpu->id;
                p.gpuName = r.gpu->name;
            } else {
                problems.push_back({at("gpu"), r.message()});
            }
        }
    }

    if (checkText(in.amountText, "amount", 100, false, where, problems)) {
        const auto n = text::parseNumber(in.amountText);
        if (!n.value) {
            problems.push_back({at("amount"), text::describeNumberError(n.error, in.amountText)});
        } else if (*n.value <= 0) {
            problems.push_back({at("amount"), "must be greater than zero, got " +
                                                  text::quoteForMessage(text::trim(in.amountText))});
        } else if (*n.value > kMaxAmount) {
            problems.push_back({at("amount"), "is implausibly large (over 1,000,000,000): " +
                                                  text::quoteForMessage(text::trim(in.amountText))});
        } else {
            p.amount = *n.value;
        }
    }

    const std::string currency = std::string(text::trim(in.currency));
    if (checkText(currency, "currency", 10, false, where, problems)) {
        std::string upper;
        for (const char c : currency) {
            upper += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
        }
        if (upper.empty()) {
            upper = "USD";
        }
        if (!isKnownCurrency(upper)) {
            problems.push_back({at("currency"), "unknown currency " + text::quoteForMessage(currency) +
                                                    "; use an ISO 4217 code such as USD or EUR"});
        } else {
            p.currency = upper;
        }
    }

    if (checkText(in.conditionText, "condition", 20, false, where, problems)) {
        const std::string_view c = text::trim(in.conditionText);
        if (const auto cond = c.empty() ? std::optional<Condition>(Condition::New) : parseCondition(c)) {
            p.condition = *cond;
        } else {
            problems.push_back({at("condition"), "must be 'new' or 'used', got " + text::quoteForMessage(c)});
        }
    }

    if (checkText(in.dateText, "observed_date", 40, false, where, problems)) {
        const std::string_view d = text::trim(in.dateText);
        if (d.empty()) {
            p.observed = today;
        } else if (const auto parsed = Date::parse(d)) {
            if (isInFuture(*parsed, today)) {
                problems.push_back({at("observed_date"), "is in the future (" + std::string(d) +
                                                             "; today is " + today.toString() + ")"});
            } else {
                p.observed = *parsed;
            }
        } else {
            problems.push_back({at("observed_date"), "is not a date: " + text::quoteForMessage(d) +
                                                         "; use YYYY-MM-DD or YYYY-MM"});
        }
    }

    if (checkText(in.source, "source", kMaxSourceBytes, false, where, problems)) {
        p.source = std::string(text::trim(in.source));
    }
    if (checkText(in.sourceUrl, "source_url", kMaxUrlBytes, false, where, problems)) {
        p.sourceUrl = std::string(text::trim(in.sourceUrl));
    }
    if (checkText(in.note, "note", kMaxNoteBytes, true, where, problems)) {
        p.note = in.note;
    }

    if (problems.size() != before) {
        return std::nullopt;
    }
    return p;
}

PriceInput toInput(const Price& p) {
    PriceInput in;
    in.gpu = p.gpuId;
    in.amountText = text::formatDoubleExact(p.amount);
    in.currency = p.currency;
    in.conditionText = toString(p.condition);
    in.source = p.source;
    in.sourceUrl = p.sourceUrl;
    in.dateText = p.observed.toString();
    in.note = p.note;
    return in;
}

} // namespace advisor
