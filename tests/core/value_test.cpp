// Tests for core/value (price rules, total cost of ownership, perf per dollar) and
// core/calc cloud vs desktop: the seed's worked examples and the edges.
#include "calc/cloud_vs_desktop.h"
#include "calc/presets.h"
#include "catalog/catalog.h"
#include "value/gpu_price.h"
#include "value/tco.h"
#include "value/value_table.h"
#include "support/price_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace advisor {
namespace {

constexpr auto price = [](const char* gpu, double amount, Condition c, const char* date,
                          const char* currency = "USD") { return testing::observedPrice(gpu, amount, c, date, currency); };

TEST(PriceRules, AverageNewestNewNewestUsedCheapest) {
    const std::vector<Price> h = {price("x", 1500, Condition::New, "2023-01"), price("x", 1600, Condition::New, "2025-08-01"),
                                  price("x", 700, Condition::Used, "2023-10"), price("x", 900, Condition::Used, "2022-07"),
                                  price("x", 100, Condition::Used, "2026-01", "EUR")};
    EXPECT_DOUBLE_EQ(value::choosePrice(h, PriceRule::Average)->usd, (1600 + 700) / 2.0);
    EXPECT_DOUBLE_EQ(value::choosePrice(h, PriceRule::NewestNew)->usd, 1600);
    EXPECT_DOUBLE_EQ(value::choosePrice(h, PriceRule::NewestUsed)->usd, 700); // the EUR row is ignored
    EXPECT_DOUBLE_EQ(value::choosePrice(h, PriceRule::Cheapest)->usd, 700);
    EXPECT_EQ(value::choosePrice(h, PriceRule::Average)->basis,
              "average of new $1,600 (2025-08-01) and used $700 (2023-10)");
    EXPECT_NEAR(*value::usedToNewRatio(h), 700.0 / 1600.0, 1e-12);
    const std::vector<Price> onlyNew = {price("x", 1000, Condition::New, "2024-01")};
    EXPECT_DOUBLE_EQ(value::choosePrice(onlyNew, PriceRule::Average)->usd, 1000);
    EXPECT_FALSE(value::choosePrice(onlyNew, PriceRule::NewestUsed));
    EXPECT_FALSE(value::usedToNewRatio(onlyNew));
    EXPECT_FALSE(value::choosePrice({}, PriceRule::Average));
}

TEST(PriceRules, ADesktopIsItsBaseCostPlusItsGpusAtTheRulesPrice) {
    const std::vector<Price> all = {price("x", 1600, Condition::New, "2025-08-01"), price("y", 9000, Condition::New, "2025-08-01"),
                                    price("x", 1200, Condition::Used, "2025-09-01")};
    const auto xs = value::pricesOf(all, "x");
    ASSERT_EQ(xs.size(), 2u);
    Gpu gpuX;
    gpuX.id = "x";
    Settings s;
    s.desktopBaseCostUsd = 700;
    s.priceRule = PriceRule::NewestNew;
    const auto d = value::priceDesktop(gpuX, xs, s, 2);
    ASSERT_TRUE(d);
    EXPECT_DOUBLE_EQ(d->usd, 700 + 2 * 1600);
    EXPECT_EQ(d->basis(), "desktop $700 + 2 x $1,600 (newest new $1,600 (2025-08-01))");
    s.priceRule = PriceRule::Average;
    EXPECT_DOUBLE_EQ(value::priceDesktop(gpuX, xs, s, 1)->usd, 700 + (1600 + 1200) / 2.0);
    EXPECT_FALSE(value::priceDesktop(gpuX, value::pricesOf(all, "z"), s, 1)); // no price: the caller asks for one
    // A complete computer (DGX Spark) is its own desktop: no base cost, no CPU watts beside it.
    gpuX.form = FormFactor::System;
    const auto whole = value::priceDesktop(gpuX, xs, s, 2);
    EXPECT_DOUBLE_EQ(whole->usd, 2 * (1600 + 1200) / 2.0);
    EXPECT_EQ(whole->basis(), "2 x $1,400 (average of new $1,600 (2025-08-01) and used $1,200 (2025-09-01))");
    EXPECT_DOUBLE_EQ(value::desktopBaseCostFor(gpuX, s), 0.0);
    EXPECT_DOUBLE_EQ(value::cpuWattsFor(gpuX, 100), 0.0);
    EXPECT_DOUBLE_EQ(value::cpuWattsFor(Gpu{}, 100), 100);
}

TEST(Tco, Rtx4090CostsAboutOneHundredDollarsAYearAtTheSeedDefaults) {
    value::TcoInput in;
    in.gpuPriceUsd = 1600;
    in.gpuWatts = 450;
    in.desktopBaseCostUsd = 700;
    const auto t = value::totalCostOfOwnership(in);
    EXPECT_NEAR(t.kwhPerYear, 591.3, 0.05);                 // 450 W x 15% x 8760 h
    EXPECT_NEAR(t.electricityPerYearUsd, 103.48, 0.01);     // seed: "about $100 per year"
    EXPECT_NEAR(t.electricityUsd, 5 * 103.48, 0.05);
    EXPECT_NEAR(t.totalUsd, 700 + 1600 + 517.39, 0.05);
}

TEST(Tco, CountsDesktopsResaleAndEdges) {
    value::TcoInput in;
    in.gpuPriceUsd = 1000;
    in.gpuCount = 10;
    in.gpusPerDesktop = 8;
    in.gpuWatts = 300;
    in.desktopBaseCostUsd = 2000;
    in.resaleFraction = 0.4;
    auto t = value::totalCostOfOwnership(in);
    EXPECT_EQ(t.desktops, 2);
    EXPECT_DOUBLE_EQ(t.desktopUsd, 4000);
    EXPECT_DOUBLE_EQ(t.resaleUsd, 4000);
    in.utilization = 0; // never used: no electricity
    EXPECT_DOUBLE_EQ(value::totalCostOfOwnership(in).electricityUsd, 0);
    in.utilization = 0.15;
    in.electricityUsdPerKwh = 0; // free electricity
    EXPECT_DOUBLE_EQ(value::totalCostOfOwnership(in).electricityUsd, 0);
    in.resaleFraction = 1.2; // resale above the purchase price
    EXPECT_THROW(value::totalCostOfOwnership(in), InputError);
    in.resaleFraction = 0.5;
    in.utilization = 1.5;
    EXPECT_THROW(value::totalCostOfOwnership(in), InputError);
}

TEST(ValueTable, UnpricedGpusAreUnpricedNotFree) {
    const Catalog& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    value::ValueOptions o;
    o.settings.referenceGpu = "rtx-4090";
    const std::vector<Price> prices = {price("rtx-4090", 1600, Condition::New, "2024-01"),
                                       price("rtx-3090", 700, Condition::Used, "2023-10")};
    const auto t = value::computeValueTable(cat, model, prices, o);
    EXPECT_TRUE(t.normalisedToReference);
    ASSERT_EQ(t.rows.size(), cat.size());
    const auto row = [&](const std::string& id) -> const value::ValueRow* {
        for (const auto& r : t.rows) {
            if (r.gpu->id == id) {
                return &r;
            }
        }
        return nullptr;
    };
    const auto* r4090 = row("rtx-4090");
    const auto* r3090 = row("rtx-3090");
    const auto* h100 = row("h100-sxm5");
    ASSERT_TRUE(r4090 && r3090 && h100);
    EXPECT_DOUBLE_EQ(*r4090->perfPerDollar, 1.0);
    EXPECT_DOUBLE_EQ(r4090->relativePerformance, 1.0);
    EXPECT_FALSE(h100->price);
    EXPECT_FALSE(h100->perfPerDollar);
    EXPECT_GT(h100->relativePerformance, 1.0); // still has a performance
    // perf/$ = (relative perf / TCO) / (1 / TCO of the reference)
    EXPECT_NEAR(*r3090->perfPerDollar, (r3090->relativePerformance / r3090->tco->totalUsd) * r4090->tco->totalUsd, 1e-9);
    // Priced rows come first, best first; unpriced last.
    EXPECT_TRUE(t.rows.front().perfPerDollar.has_value());
    // The same GPU at another price, on the same scale: its own price gives its own value, a
    // cheaper one more, and an unpriced GPU can be valued at a price the user has in mind.
    EXPECT_NEAR(*value::perfPerDollarAt(t, *r3090->gpu, 700, o), *r3090->perfPerDollar, 1e-12);
    EXPECT_GT(*value::perfPerDollarAt(t, *r3090->gpu, 500, o), *r3090->perfPerDollar);
    EXPECT_NEAR(*value::perfPerDollarAt(t, *h100->gpu, 30000, o),
                h100->relativePerformance / value::totalCostOfOwnership(value::tcoInputFor(*h100->gpu, 30000, o, {})).totalUsd *
                    r4090->tco->totalUsd,
                1e-12);
    EXPECT_FALSE(t.rows.back().perfPerDollar.has_value());
}

TEST(ValueTable, UnpricedReferenceNormalisesToTheBestGpu) {
    const Catalog& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    value::ValueOptions o;
    o.settings.referenceGpu = "h100-sxm5";
    const auto t = value::computeValueTable(cat, model, {price("rtx-4090", 1600, Condition::New, "2024-01")}, o);
    EXPECT_FALSE(t.normalisedToReference);
    EXPECT_DOUBLE_EQ(*t.rows.front().perfPerDollar, 1.0);
    EXPECT_NE(t.note.find("H100 SXM5 has no price"), std::string::npos);
}

TEST(ValueTable, AnLlmIsValuedOnTheGpusThatHoldItAndTheBestOfThoseIsOne) {
    // A 20B model in 4 bits (12.1 GB of weights) with its KV cache: the 12 GB RTX 4070 Ti is cheap
    // and fast for its price but cannot hold it, so it is not the GPU the others are scaled to.
    const Catalog& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    value::ValueOptions o;
    o.metric = perf::Metric::LlmDecode;
    o.llm.llmParamsBillion = 20;
    o.settings.referenceGpu = "h100-sxm5"; // unpriced: scaled to the best GPU instead
    const auto t = value::computeValueTable(cat, model,
                                            {price("rtx-4090", 1600, Condition::New, "2024-01"),
                                             price("rtx-4070-ti", 400, Condition::Used, "2024-01")},
                                            o);
    double best = 0;
    for (const auto& r : t.rows) {
        EXPECT_EQ(r.holdsModel, r.gpu->memoryGb >= 13) << r.gpu->name;
        if (r.holdsModel && r.perfPerDollar) {
            best = std::max(best, *r.perfPerDollar);
        }
        if (r.gpu->id == "rtx-4070-ti") {
            EXPECT_GT(*r.perfPerDollar, 1.0); // what it would be worth if the model fitted
        }
    }
    EXPECT_DOUBLE_EQ(best, 1.0);
}

calc::CloudVsDesktopInput seedExample() {
    // Seed: $2,200 desktop (RTX 3090 350 W + CPU 100 W), $0.12/kWh, 15%, AWS $2.14/h.
    calc::CloudVsDesktopInput in;
    in.desktopCostUsd = 2200;
    in.gpuWatts = 350;
    in.cpuWatts = 100;
    in.utilization = 0.15;
    in.kwhPriceUsd = 0.12;
    in.cloudHourlyUsd = 2.14;
    return in;
}

TEST(CloudVsDesktop, TheSeedsExample) {
    const auto r = calc::compareCloudAndDesktop(seedExample());
    EXPECT_NEAR(r.desktopKwhPerYear, 591.3, 0.05);            // seed: 591 kWh per year
    EXPECT_NEAR(r.desktopElectricityPerYearUsd, 70.96, 0.01); // seed: an additional $71
    ASSERT_TRUE(r.breakEvenDays);
    // 2200 / (2.14 x 0.15 x 24 - 70.96/365) = 292.96. The seed's "about 300 days ($2,311 vs
    // $2,270)" compares the two totals at day 300 instead of solving for the crossing.
    EXPECT_NEAR(*r.breakEvenDays, 292.96, 0.01);
    EXPECT_NEAR(r.cloudPerDayUsd * 300, 2311.2, 0.01);
    EXPECT_NEAR(2200 + r.desktopElectricityPerDayUsd * 300, 2258.3, 0.1);
    // At the end of the 5 years of use: $2,200 + 5 x $70.96 against 5 x 365 x $7.70.
    EXPECT_NEAR(r.overYears.day, 5 * 365.0, 1e-9);
    EXPECT_NEAR(r.overYears.desktopUsd, 2200 + 5 * 70.956, 0.01);
    EXPECT_NEAR(r.overYears.cloudUsd, 5 * 365 * 2.14 * 0.15 * 24, 0.01);
    // The curves cross at the break-even.
    for (size_t i = 1; i < r.curve.size(); ++i) {
        const auto& a = r.curve[i - 1];
        const auto& b = r.curve[i];
        if (a.cloudUsd < a.desktopUsd && b.cloudUsd >= b.desktopUsd) {
            EXPECT_LE(a.day, *r.breakEvenDays);
            EXPECT_GE(b.day, *r.breakEvenDays);
        }
    }
}

TEST(CloudVsDesktop, Edges) {
    auto in = seedExample();
    in.utilization = 0; // never used: the cloud costs nothing either
    EXPECT_FALSE(calc::compareCloudAndDesktop(in).breakEvenDays);
    EXPECT_NE(calc::compareCloudAndDesktop(in).neverReason.find("at 0% utilization the desktop does no work"),
              std::string::npos); // not "the cloud costs less": both cost $0 a day
    EXPECT_TRUE(calc::compareCloudAndDesktop(seedExample()).neverReason.empty());
    in = seedExample();
    in.kwhPriceUsd = 0; // free electricity
    EXPECT_NEAR(*calc::compareCloudAndDesktop(in).breakEvenDays, 2200 / (2.14 * 0.15 * 24), 1e-9);
    in = seedExample();
    in.cloudHourlyUsd = 0.01; // cheaper than the desktop's electricity
    EXPECT_FALSE(calc::compareCloudAndDesktop(in).breakEvenDays);
    // 0.01 x 0.15 x 24 = $0.036 a day against 591.3 kWh x $0.12 / 365 = $0.19 a day.
    EXPECT_EQ(calc::compareCloudAndDesktop(in).neverReason,
              "the cloud costs $0.036 a day for the same work, no more than the desktop's electricity ($0.194 a day)");
    // The curve runs on to past day 61,000 (a late break-even), the totals stay at 5 years.
    in.cloudHourlyUsd = 0.01 * 5.4;
    const auto late = calc::compareCloudAndDesktop(in);
    ASSERT_TRUE(late.breakEvenDays);
    EXPECT_GT(late.curve.back().day, 10 * 365.0);
    EXPECT_NEAR(late.overYears.cloudUsd, 5 * 365 * 0.054 * 0.15 * 24, 0.01);
    in.cloudHourlyUsd = 0;
    EXPECT_EQ(calc::compareCloudAndDesktop(in).neverReason, "the cloud costs nothing for the same work");
    in = seedExample();
    in.resaleFraction = 0.5; // selling the desktop later halves its net cost
    EXPECT_NEAR(*calc::compareCloudAndDesktop(in).breakEvenDays, 292.96 / 2, 0.01);
    in.resaleFraction = 1.1;
    EXPECT_THROW(calc::compareCloudAndDesktop(in), InputError);
    in = seedExample();
    in.workRatio = 2.0; // the desktop does twice the work per hour: the cloud needs twice the hours
    EXPECT_NEAR(*calc::compareCloudAndDesktop(in).breakEvenDays, 2200 / (2 * 2.14 * 0.15 * 24 - 70.956 / 365), 0.05);
    in.utilization = -0.1;
    EXPECT_THROW(calc::compareCloudAndDesktop(in), InputError);
    // A desktop cost far past what the price database can add up to is a typo, not a break-even to print.
    in = seedExample();
    in.desktopCostUsd = 1e308;
    try {
        calc::compareCloudAndDesktop(in);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cloud vs desktop: field 'desktop_cost': must be an amount from 0 to 1,000,000,000,000 USD");
    }
    in.desktopCostUsd = 16 * 1e9; // 16 GPUs at the price database's highest price
    EXPECT_TRUE(calc::compareCloudAndDesktop(in).breakEvenDays);
    in.desktopCostUsd = 1e12;
    EXPECT_TRUE(calc::compareCloudAndDesktop(in).breakEvenDays);
    // The other inputs in the ranges the settings, the PSU calculator and the cloud offers take.
    const auto errorFor = [](const calc::CloudVsDesktopInput& bad) {
        try {
            calc::compareCloudAndDesktop(bad);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    in = seedExample();
    in.gpuWatts = 1e9;
    EXPECT_EQ(errorFor(in),
              "cloud vs desktop: field 'gpu_watts': must be between 0 and 100,000 W (all the desktop's GPUs together)");
    in = seedExample();
    in.cpuWatts = -1;
    EXPECT_EQ(errorFor(in), "cloud vs desktop: field 'cpu_watts': must be between 0 and 20,000 W");
    in = seedExample();
    in.kwhPriceUsd = 1e12;
    EXPECT_EQ(errorFor(in), "cloud vs desktop: field 'kwh_price': must be between 0 and 10 USD per kWh");
    in = seedExample();
    in.cloudHourlyUsd = 1e12;
    EXPECT_EQ(errorFor(in), "cloud vs desktop: field 'cloud_hourly': must be between 0 and 100,000 USD per hour");
    in = seedExample();
    in.gpuWatts = 64 * 1400.0; // the most GPUs a desktop may count, of the largest modules (MI355X)
    in.kwhPriceUsd = 10;
    in.cloudHourlyUsd = 100000;
    EXPECT_EQ(errorFor(in), "accepted");
}

TEST(Presets, UtilizationAndGridIntensityHaveSources) {
    const auto phd = calc::findPreset(calc::utilizationPresets(), "phd-cluster");
    ASSERT_TRUE(phd);
    EXPECT_DOUBLE_EQ(phd->value, 0.35);
    EXPECT_DOUBLE_EQ(calc::findPreset(calc::utilizationPresets(), "company-cluster")->value, 0.60);
    for (const auto& p : calc::gridIntensityPresets()) {
        EXPECT_FALSE(p.source.empty()) << p.id;
        EXPECT_LT(p.value, 1.0) << p.id;
    }
    // Carbon: the seed example's 591 kWh at the 2023 world average (481 g/kWh).
    auto in = seedExample();
    in.gridKgCo2PerKwh = calc::findPreset(calc::gridIntensityPresets(), "world")->value;
    EXPECT_NEAR(calc::compareCloudAndDesktop(in).desktopKgCo2PerYear, 591.3 * 0.481, 0.1);
}

} // namespace
} // namespace advisor
