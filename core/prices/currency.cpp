#include "prices/currency.h"

#include <algorithm>

namespace advisor {

const std::vector<std::string_view>& knownCurrencies() {
    static const std::vector<std::string_view> codes = {
        "USD", "EUR", "GBP", "JPY", "CNY", "CAD", "AUD", "CHF", "SEK", "NOK", "DKK", "PLN",
        "CZK", "HUF", "INR", "KRW", "SGD", "HKD", "TWD", "NZD", "BRL", "MXN", "ZAR", "ILS"};
    return codes;
}

bool isKnownCurrency(std::string_view code) {
    const auto& codes = knownCurrencies();
    return std::find(codes.begin(), codes.end(), code) != codes.end();
}

} // namespace advisor
