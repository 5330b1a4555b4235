#pragma once
/// \file
/// A dated price observation for tests, written in one line (the catalog id doubles as the
/// name the user typed), and a database that starts empty.

#include "prices/cloud_offer.h"
#include "prices/price.h"
#include "prices/price_db.h"

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

/// An 8 x A100 80GB instance at $21.96 an hour (AWS p4de, January 2026), as typed.
inline CloudOfferInput hgxA100Offer() {
    CloudOfferInput in;
    in.provider = "Test";
    in.gpu = "A100 80GB SXM";
    in.gpuCount = "8";
    in.onDemand = "21.96";
    in.date = "2026-01-21";
    return in;
}

/// A database opened on `today` without the shipped prices and offers.
inline PriceDb::Options unseeded(const Date& today) {
    PriceDb::Options o;
    o.seedDefaults = false;
    o.today = today;
    return o;
}

} // namespace advisor::testing
