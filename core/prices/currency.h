#pragma once
/// \file
/// Currencies a price may be recorded in (ISO 4217 codes).

#include <string_view>
#include <vector>

namespace advisor {

/// True for the ISO 4217 codes the app accepts (USD, EUR, GBP, ...).
bool isKnownCurrency(std::string_view code);

/// The accepted codes, USD first.
const std::vector<std::string_view>& knownCurrencies();

} // namespace advisor
