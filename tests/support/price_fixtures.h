#pragma once
/// \file
/// A dated price observation for tests, written in one line (the catalog id doubles as the
/// name the user typed).

#include "prices/price.h"

namespace advisor::testing {

inline Price observedPrice(const char* gpu, double amount, Condition c, const char* date = "2025-01",
                           const char* currency = "USD") {
    Price p;
    p.gpuId = gpu;
    p.gpuName = gpu;
    p.amount = amount;
    p.condition = c;
    p.currency = currency;
    p.observed = *Date::parse(date);
    return p;
}

} // namespace advisor::testing
