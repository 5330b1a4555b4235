// Tests for core/advisor's live recommender: the shortlist, multi-card alternatives and the
// cloud (its cross-check with 2023-era prices is in advisor_crosscheck_test.cpp).
#include "advisor/recommender.h"
#include "advisor/buyer_value.h"
#include "value/gpu_price.h"
#include "catalog/catalog.h"
#include "prices/cloud_offer.h"
#include "support/price_fixtures.h"

#include <gtest/gtest.h>

namespace advisor::advice {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

using testing::observedPrice;
constexpr auto price = [](const char* gpu, double amount, Condition c, const char* date) {
    return observedPrice(gpu, amount, c, date);
};

/// A one-GPU RTX 4090 instance, the shape every cloud test here starts from.
CloudOffer rtx4090Offer(const char* provider, double usdPerHour, const char* observed) {
    CloudOffer o;
    o.provider = provider;
    o.instance = "1x";
    o.gpuName = "RTX 4090";
    o.gpuId = "rtx-4090";
    o.onDemandUsdPerHour = usdPerHour;
    o.observed = *Date::parse(observed);
    return o;
}

RecommendInput input(double memory, double budget) {
    RecommendInput in;
    in.memoryGb = memory;
    in.budgetUsd = budget;
    in.settings.referenceGpu = "rtx-4090";
    return in;
}

const std::vector<Price>& samplePrices() {
    static const std::vector<Price> p = {
        price("rtx-4090", 1600, Condition::New, "2025-01"), price("rtx-3090", 750, Condition::Used, "2025-01"),
        price("rtx-5090", 2700, Condition::New, "2026-06"), price("rtx-4070-ti", 750, Condition::New, "2025-01"),
        price("h100-sxm5", 30000, Condition::New, "2025-01"), price("rtx-a6000", 4000, Condition::New, "2025-01")};
    return p;
}

TEST(Recommender, FiltersByMemoryAndBudgetAndRanksByPerfPerDollar) {
    const perf::PerfModel model(cat());
    const auto rec = recommend(cat(), model, samplePrices(), {}, input(20, 2000));
    ASSERT_FALSE(rec.shortlist.empty());
    for (const auto& c : rec.shortlist) {
        EXPECT_GE(c.gpu->memoryGb, 20);
        EXPECT_LE(c.unitPriceUsd * c.count, 2000);
        EXPECT_FALSE(c.reasons.empty());
    }
    for (size_t i = 1; i < rec.shortlist.size(); ++i) {
        EXPECT_GE(rec.shortlist[i - 1].perfPerDollar, rec.shortlist[i].perfPerDollar);
    }
    // RTX 4070 Ti (12 GB) lacks memory, RTX 5090 and H100 are over budget.
    for (const auto& c : rec.shortlist) {
        EXPECT_NE(c.gpu->id, "rtx-4070-ti");
        EXPECT_NE(c.gpu->id, "rtx-5090");
    }
    EXPECT_EQ(rec.metric, perf::Metric::Fp16Training);
}

TEST(Recommender, PerfPerDollarIsOneForTheReferenceAtItsBuyerPrice) {
    const perf::PerfModel model(cat());
    const auto rec = recommend(cat(), model, samplePrices(), {}, input(20, 2000));
    const Candidate* rtx4090 = nullptr;
    const Candidate* rtx3090 = nullptr;
    for (const auto& c : rec.shortlist) {
        if (c.gpu->id == "rtx-4090") {
            rtx4090 = &c;
        } else if (c.gpu->id == "rtx-3090") {
            rtx3090 = &c;
        }
    }
    ASSERT_NE(rtx4090, nullptr);
    ASSERT_NE(rtx3090, nullptr);
    EXPECT_DOUBLE_EQ(rtx4090->perfPerDollar, 1.0);
    // perf/$ is throughput per dollar of ownership, relative to the reference's.
    EXPECT_NEAR(rtx3090->perfPerDollar,
                (rtx3090->throughput / rtx3090->tco.totalUsd) / (rtx4090->throughput / rtx4090->tco.totalUsd), 1e-12);
    EXPECT_EQ(rec.perDollarAnchor, "RTX 4090 at $1,600 new = 1");
    EXPECT_NE(rtx3090->reasons[1].find("(RTX 4090 at $1,600 new = 1)"), std::string::npos) << rtx3090->reasons[1];
}

TEST(Recommender, WithoutAReferencePriceTheBestValueGpuCountsAsOne) {
    // The user's reference GPU has no price: perf/$ used to be divided by nothing and printed as
    // "0.00 (H100 PCIe = 1)" for every GPU.
    const perf::PerfModel model(cat());
    auto in = input(20, 2000);
    in.settings.referenceGpu = "h100-pcie";
    const auto rec = recommend(cat(), model, samplePrices(), {}, in);
    ASSERT_GE(rec.shortlist.size(), 2u);
    EXPECT_DOUBLE_EQ(rec.shortlist.front().perfPerDollar, 1.0);
    for (const auto& c : rec.shortlist) {
        EXPECT_GT(c.perfPerDollar, 0.3);
        EXPECT_LE(c.perfPerDollar, 1.0);
    }
    EXPECT_EQ(rec.perDollarAnchor.rfind(rec.shortlist.front().gpu->name + " at $", 0), 0u) << rec.perDollarAnchor;
    bool noted = false;
    for (const auto& n : rec.notes) {
        noted = noted || n.find("H100 PCIe has no price") != std::string::npos;
    }
    EXPECT_TRUE(noted);
    // The anchor is the best value among all GPUs an individual considers, not only those in budget:
    // with a small budget the cheap picks are measured against the same GPU.
    auto small = in;
    small.budgetUsd = 800;
    const auto smallRec = recommend(cat(), model, samplePrices(), {}, small);
    EXPECT_EQ(smallRec.perDollarAnchor, rec.perDollarAnchor);
}

TEST(Recommender, GpusShownBesideTheShortlistGetTheShortlistsPerfPerDollar) {
    const perf::PerfModel model(cat());
    const auto in = input(20, 2000);
    const auto rec = recommend(cat(), model, samplePrices(), {}, in);
    const auto anchor = perDollarAnchor(cat(), model, pricesByGpu(samplePrices()), in);
    ASSERT_EQ(anchor.gpu, cat().findById("rtx-4090"));
    for (const auto& c : rec.shortlist) {
        const auto ppd = perfPerDollarOf(anchor, model, in, *c.gpu, c.unitPriceUsd, c.count);
        ASSERT_TRUE(ppd);
        EXPECT_DOUBLE_EQ(*ppd, c.perfPerDollar) << c.gpu->name;
    }
    EXPECT_FALSE(perfPerDollarOf(PerDollarAnchor{}, model, in, *cat().findById("rtx-3090"), 700));
}

TEST(Recommender, OffersMultiCardAlternativesForTheSameMoney) {
    const perf::PerfModel model(cat());
    auto in = input(24, 2700);
    in.maxGpus = 4;
    const auto rec = recommend(cat(), model, samplePrices(), {}, in);
    std::map<std::string, int> counts;
    for (const auto& a : rec.alternatives) {
        counts[a.gpu->id] = a.count;
        EXPECT_LE(a.count * a.unitPriceUsd, 2700);
    }
    EXPECT_EQ(counts["rtx-3090"], 3); // 3 x used RTX 3090 ...
    EXPECT_EQ(counts["rtx-4090"], 1); // ... vs 1 x RTX 4090 ...
    EXPECT_EQ(counts["rtx-5090"], 1); // ... vs 1 x RTX 5090
}

TEST(Recommender, IndividualsGetNoServerModulesOrganisationsDo) {
    const perf::PerfModel model(cat());
    auto in = input(80, 40000);
    for (const auto& c : recommend(cat(), model, samplePrices(), {}, in).shortlist) {
        EXPECT_EQ(c.gpu->form, FormFactor::Pcie);
    }
    in.organization = true;
    bool h100 = false;
    for (const auto& c : recommend(cat(), model, samplePrices(), {}, in).shortlist) {
        h100 |= c.gpu->id == "h100-sxm5";
    }
    EXPECT_TRUE(h100);
}

TEST(Recommender, ADgxSparkIsOfferedToIndividualsAsAWholeComputer) {
    // A complete computer is not a server module: an individual gets it, with no desktop around
    // it in its cost, no PSU, and a caveat that says so. 100 GB fits no 32 GB card alone.
    const perf::PerfModel model(cat());
    auto prices = samplePrices();
    prices.push_back(price("dgx-spark", 3999, Condition::New, "2025-11"));
    auto in = input(100, 5000);
    in.settings.desktopBaseCostUsd = 700;
    const auto rec = recommend(cat(), model, prices, {}, in);
    const Candidate* spark = nullptr;
    for (const auto& c : rec.shortlist) {
        spark = c.gpu->id == "dgx-spark" ? &c : spark;
    }
    ASSERT_NE(spark, nullptr);
    EXPECT_EQ(spark->count, 1);
    EXPECT_DOUBLE_EQ(spark->tco.desktopUsd, 0.0);
    EXPECT_DOUBLE_EQ(spark->tco.gpusUsd, 3999);
    const auto says = [](const std::vector<std::string>& lines, const std::string& what) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const std::string& l) { return l.find(what) != std::string::npos; });
    };
    EXPECT_TRUE(says(spark->caveats, "a complete computer")) << spark->caveats.front();
    EXPECT_FALSE(says(spark->caveats, "server baseboard"));
    EXPECT_TRUE(says(spark->reasons, "comes with its own power supply"));
    EXPECT_FALSE(says(spark->reasons, "PSU"));
}

TEST(Recommender, CloudWhenNothingFitsOrBuyingNeverPaysOff) {
    const perf::PerfModel model(cat());
    const auto none = recommend(cat(), model, samplePrices(), {}, input(24, 300));
    EXPECT_TRUE(none.shortlist.empty());
    EXPECT_TRUE(none.cloud.recommended);
    CloudOffer cheap = rtx4090Offer("Test", 0.05, "2025-01");
    auto in = input(24, 2000);
    in.settings.utilization = 0.05;
    const auto rent = recommend(cat(), model, samplePrices(), {cheap}, in);
    EXPECT_TRUE(rent.cloud.recommended) << rent.cloud.reason;
    cheap.onDemandUsdPerHour = 5.0;
    in.settings.utilization = 0.6;
    const auto buy = recommend(cat(), model, samplePrices(), {cheap}, in);
    EXPECT_FALSE(buy.cloud.recommended) << buy.cloud.reason;
    ASSERT_TRUE(buy.cloud.breakEvenDays);
}

TEST(Recommender, OrganisationsBuyNewNonGeForceCards) {
    const perf::PerfModel model(cat());
    auto prices = samplePrices();
    prices.push_back(price("rtx-a6000", 2500, Condition::Used, "2025-02"));
    auto in = input(24, 10000);
    in.organization = true;
    const auto rec = recommend(cat(), model, prices, {}, in);
    ASSERT_FALSE(rec.shortlist.empty());
    for (const auto& c : rec.shortlist) {
        EXPECT_NE(c.gpu->segment, Segment::Consumer) << c.gpu->name;
        EXPECT_EQ(c.condition, Condition::New) << c.gpu->name;
    }
    EXPECT_EQ(rec.shortlist.front().gpu->id, "rtx-a6000");
    EXPECT_DOUBLE_EQ(rec.shortlist.front().unitPriceUsd, 4000); // not the used $2,500
    ASSERT_FALSE(rec.notes.empty());
    EXPECT_NE(rec.notes.front().find("GeForce"), std::string::npos) << rec.notes.front();
}

TEST(Recommender, RankingBySpeedPicksTheFastestWithinTheBudget) {
    const perf::PerfModel model(cat());
    auto in = input(20, 3000);
    const auto perDollar = recommend(cat(), model, samplePrices(), {}, in);
    in.rankBy = RankBy::Speed;
    const auto fastest = recommend(cat(), model, samplePrices(), {}, in);
    ASSERT_FALSE(fastest.shortlist.empty());
    EXPECT_EQ(fastest.shortlist.front().gpu->id, "rtx-5090");
    EXPECT_EQ(perDollar.shortlist.front().gpu->id, "rtx-4090"); // the 5090 costs 69% more for less than that in speed
    for (size_t i = 1; i < fastest.shortlist.size(); ++i) {
        EXPECT_GE(fastest.shortlist[i - 1].throughput, fastest.shortlist[i].throughput);
    }
}

TEST(Recommender, TrainingALanguageModelIsRankedWithItsOwnProfile) {
    // perf/llm_training.h: a language model's step has no fixed time, so the RTX 5090's tensor
    // rate and bandwidth (1.27x and 1.78x the RTX 4090's) count in full.
    const perf::PerfModel model(cat());
    auto in = input(20, 3000);
    in.task = Task::Train;
    in.domain = Domain::Transformers;
    const auto transformers = recommend(cat(), model, samplePrices(), {}, in);
    in.domain = Domain::Llm;
    const auto llm = recommend(cat(), model, samplePrices(), {}, in);
    const auto speedOf = [](const Recommendation& r, const char* id) {
        for (const auto& c : r.shortlist) {
            if (c.gpu->id == id && c.count == 1) {
                return c.relativePerformance;
            }
        }
        return 0.0;
    };
    EXPECT_GT(speedOf(llm, "rtx-5090"), speedOf(transformers, "rtx-5090"));
    EXPECT_GT(speedOf(llm, "rtx-5090"), 1.27);
    bool noted = false;
    for (const auto& n : llm.notes) {
        noted = noted || n.find("language model") != std::string::npos;
    }
    EXPECT_TRUE(noted);
}

TEST(Recommender, SplittingMemoryOverCardsIsShownAsACaveat) {
    const perf::PerfModel model(cat());
    auto in = input(24, 1600);
    in.maxGpus = 2;
    const auto rec = recommend(cat(), model, samplePrices(), {}, in);
    bool split = false;
    for (const auto& c : rec.shortlist) {
        if (c.gpu->id == "rtx-4070-ti") { // 2 x 12 GB for 24 GB
            split = true;
            EXPECT_EQ(c.count, 2);
            EXPECT_NEAR(c.memoryHeadroomGb, 0, 1e-9);
            EXPECT_NE(c.caveats.front().find("split over 2 cards (FSDP/ZeRO-3"), std::string::npos) << c.caveats.front();
        }
    }
    EXPECT_TRUE(split);
    // Inference splits by layers without sharding code; "FSDP/ZeRO-3" is for training.
    in.task = Task::Inference;
    in.domain = Domain::Llm;
    const auto serving = recommend(cat(), model, samplePrices(), {}, in);
    split = false;
    for (const auto& c : serving.shortlist) {
        if (c.gpu->id == "rtx-4070-ti") {
            split = true;
            EXPECT_EQ(c.caveats.front(), "the 24 GB are split over 2 cards (llama.cpp splits by layers out of the box): "
                                         "the extra cards count as memory, not speed");
        }
    }
    EXPECT_TRUE(split);
}

TEST(Recommender, AnAmdCardSaysItsSpeedHasNoMeasuredRunOfItsVendorBehindIt) {
    // The RX 7900 XTX's fp16 matmuls run on its WMMA units (catalog), which puts it beside a used
    // RTX 3090 in speed; the calibration data has no AMD training run, and the seed warns about
    // the community behind ROCm: both are said.
    const perf::PerfModel model(cat());
    auto prices = samplePrices();
    prices.push_back(price("rx-7900-xtx", 820, Condition::Used, "2025-01"));
    const auto rec = recommend(cat(), model, prices, {}, input(24, 1600));
    const Candidate* xtx = nullptr;
    const Candidate* rtx3090 = nullptr;
    for (const auto& c : rec.shortlist) {
        xtx = c.gpu->id == "rx-7900-xtx" ? &c : xtx;
        rtx3090 = c.gpu->id == "rtx-3090" ? &c : rtx3090;
    }
    ASSERT_NE(xtx, nullptr);
    ASSERT_NE(rtx3090, nullptr);
    EXPECT_NEAR(xtx->relativePerformance / rtx3090->relativePerformance, 1.0, 0.1);
    EXPECT_EQ(xtx->caveats.front(), "AMD GPU: frameworks run (ROCm), but fewer people can help when something "
                                    "breaks (seed: community); its speed here is modelled from specs, with no training "
                                    "run of its vendor in the calibration data");
}

TEST(Recommender, RentsFromTheNewestObservationOfEachCloudOffer) {
    CloudOffer old = rtx4090Offer("Test", 0.01, "2022-01"); // a price from long ago that no longer exists
    CloudOffer now = rtx4090Offer("Test", 5.0, "2025-01");
    const auto current = currentOffers({old, now});
    ASSERT_EQ(current.size(), 1u);
    EXPECT_DOUBLE_EQ(current.front().onDemandUsdPerHour, 5.0);
    // Another region is another offer, however old (the Cloud offers page dimmed a us-east-2
    // row as "a newer one of this offer is listed" for a newer us-east-1 one).
    CloudOffer elsewhere = old;
    elsewhere.region = "us-east-2";
    now.region = "US-East-1";
    old.region = "us-east-1";
    const auto regions = currentOffers({old, elsewhere, now});
    ASSERT_EQ(regions.size(), 2u);
    EXPECT_EQ(regions[0].region, "us-east-2");
    EXPECT_EQ(regions[1].region, "US-East-1");
    const perf::PerfModel model(cat());
    auto in = input(24, 2000);
    in.settings.utilization = 0.6;
    const auto rec = recommend(cat(), model, samplePrices(), {old, now}, in);
    EXPECT_FALSE(rec.cloud.recommended) << rec.cloud.reason;
    EXPECT_NE(rec.cloud.offer.find("$5/h"), std::string::npos) << rec.cloud.offer;
}

TEST(Recommender, SaysWhyThereIsNoCloudComparison) {
    // "Cloud: not needed - " with nothing after it was printed when no offer held the memory.
    const perf::PerfModel model(cat());
    const auto none = recommend(cat(), model, samplePrices(), {}, input(24, 2000));
    ASSERT_FALSE(none.shortlist.empty());
    EXPECT_FALSE(none.cloud.recommended);
    EXPECT_EQ(none.cloud.reason, "no cloud offers in your database to compare with");
    const auto small = recommend(cat(), model, samplePrices(), {rtx4090Offer("Small", 0.5, "2026-10-10")},
                                 input(40, 20000)); // the offer's 24 GB card cannot hold 40 GB
    ASSERT_FALSE(small.shortlist.empty());
    EXPECT_TRUE(small.cloud.offer.empty());
    EXPECT_EQ(small.cloud.reason, "no cloud offer in your database holds 40 GB: no break-even to compare");
}

TEST(Recommender, PassesOverCloudOffersLastSeenOverAYearBeforeTheNewest) {
    // A marketplace price from 2023 is not what one can rent in 2026: the cheaper old offer
    // would turn "buy" into "rent".
    CloudOffer old = rtx4090Offer("Old", 0.05, "2023-03-31");
    CloudOffer recent = rtx4090Offer("Recent", 5.0, "2026-10-10");
    const perf::PerfModel model(cat());
    auto in = input(20, 2000);
    in.settings.utilization = 0.6;
    const auto rec = recommend(cat(), model, samplePrices(), {old, recent}, in);
    EXPECT_EQ(rec.cloud.offer, "Recent 1x (RTX 4090 x1, $5/h, 2026-10-10)");
    EXPECT_FALSE(rec.cloud.recommended) << rec.cloud.reason;
    ASSERT_FALSE(rec.notes.empty());
    EXPECT_EQ(rec.notes.back(), "cloud: 1 offer last seen over a year before the newest (2026-10-10) not considered");

    // 364 days before the newest still counts.
    old.observed = *Date::parse("2025-10-11");
    const auto withinAYear = recommend(cat(), model, samplePrices(), {old, recent}, in);
    EXPECT_EQ(withinAYear.cloud.offer.rfind("Old 1x", 0), 0u) << withinAYear.cloud.offer;
    EXPECT_TRUE(withinAYear.cloud.recommended);

    // When only an old offer holds the memory, it is taken and said to be old.
    old.observed = *Date::parse("2023-03-31");
    recent.gpuName = "RTX 4080";
    recent.gpuId = "rtx-4080"; // 16 GB: too little for 20 GB
    const auto onlyOld = recommend(cat(), model, samplePrices(), {old, recent}, in);
    EXPECT_EQ(onlyOld.cloud.offer, "Old 1x (RTX 4090 x1, $0.05/h, 2023-03-31); no offer seen within a year of the "
                                   "newest (2026-10-10) holds the memory: check today's price");
    for (const auto& n : onlyOld.notes) {
        EXPECT_EQ(n.find("cloud:"), std::string::npos) << n;
    }
}

TEST(Recommender, RentsAnAmbiguouslyNamedOfferAndSaysHowItReadTheName) {
    // "A100 40GB" is a PCIe card or an SXM4 module: such offers were skipped, though an
    // 8-GPU server of them is an HGX board of SXM4 modules.
    CloudOffer hgx;
    hgx.provider = "Test";
    hgx.instance = "8x";
    hgx.gpuName = "A100 40GB";
    hgx.gpuCount = 8;
    hgx.onDemandUsdPerHour = 20.0;
    hgx.observed = *Date::parse("2025-01");
    const OfferGpu read = offerGpu(hgx, cat());
    ASSERT_NE(read.gpu, nullptr);
    EXPECT_EQ(read.gpu->id, "a100-40gb-sxm4");
    EXPECT_EQ(read.assumption, "'A100 40GB' can be A100 40GB PCIe or A100 40GB SXM4; assumed A100 40GB SXM4 (8-GPU "
                               "servers use SXM modules)");
    CloudOffer single = hgx;
    single.gpuCount = 1;
    EXPECT_EQ(offerGpu(single, cat()).gpu->id, "a100-40gb-pcie"); // the first match, said so
    CloudOffer unknown = hgx;
    unknown.gpuName = "Gaudi 3";
    EXPECT_EQ(offerGpu(unknown, cat()).gpu, nullptr);
    EXPECT_EQ(offerGpu(unknown, cat()).assumption, "'Gaudi 3' is not in the catalog");

    const perf::PerfModel model(cat());
    const auto rec = recommend(cat(), model, samplePrices(), {hgx}, input(24, 2000));
    EXPECT_NE(rec.cloud.offer.find("Test 8x (A100 40GB x8"), std::string::npos) << rec.cloud.offer;
    EXPECT_NE(rec.cloud.offer.find("assumed A100 40GB SXM4"), std::string::npos) << rec.cloud.offer;
}

TEST(Recommender, RejectsBadInput) {
    const perf::PerfModel model(cat());
    EXPECT_THROW(recommend(cat(), model, {}, {}, input(0, 1000)), InputError);
    EXPECT_THROW(recommend(cat(), model, {}, {}, input(24, -1)), InputError);
    // A budget past any desktop the calculators take is a typo, refused with the range.
    try {
        recommend(cat(), model, {}, {}, input(24, 1e15));
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "recommend: field 'budget': must be an amount from 0 to 1,000,000,000,000 USD");
    }
    EXPECT_NO_THROW(recommend(cat(), model, {}, {}, input(24, 1e12)));
    // Too much memory is refused with the range, not with "must be more than 0".
    try {
        recommend(cat(), model, {}, {}, input(1e6, 1000));
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "recommend: field 'memory_gb': must be more than 0 and less than 100,000 GB");
    }
    auto in = input(24, 1000);
    in.settings.utilization = 1.5;
    try {
        recommend(cat(), model, {}, {}, in);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "recommend: field 'utilization': must be more than 0 and at most 1");
    }
    in = input(24, 1000);
    in.maxGpus = 17;
    EXPECT_THROW(recommend(cat(), model, {}, {}, in), InputError);
}

} // namespace
} // namespace advisor::advice
