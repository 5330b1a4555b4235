// Tests for core/advisor: the flowchart engine, the shipped 2023 chart and the live recommender
// (their cross-check with 2023-era prices is in advisor_crosscheck_test.cpp).
#include "advisor/flowchart.h"
#include "advisor/recommender.h"
#include "advisor/buyer_value.h"
#include "advisor/chart_path_input.h"
#include "catalog/catalog.h"
#include "prices/price_io.h"
#include "value/gpu_price.h"
#include "calc/memory.h"
#include "prices/cloud_offer.h"

#include <gtest/gtest.h>

#include <map>

namespace advisor::advice {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

std::string chartError(const std::string& nodesJson, const std::string& start = "q") {
    try {
        Flowchart::fromJson(R"({"id": "t", "start": ")" + start + R"(", "nodes": )" + nodesJson + "}", "chart.json", cat());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(FlowchartLoading, ValidatesStructureAndGpus) {
    const std::string leaf = R"("l": {"type": "leaf", "text": "RTX 4090", "gpus": [{"id": "rtx-4090"}]})";
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "l", "no": "nowhere"}}, )" + leaf + "}"),
              "chart.json: node 'q': field 'answers.no': leads to a node that does not exist: 'nowhere'");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "q2", "no": "l"}},
                            "q2": {"type": "question", "text": "?", "answers": {"yes": "q", "no": "l"}}, )" + leaf + "}"),
              "chart.json: node 'q': field 'answers': is part of a cycle: a path never ends in a leaf");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "l", "no": "l"}},
                            "l": {"type": "leaf", "text": "x", "gpus": [{"id": "rtx-9090"}]}})"),
              "chart.json: node 'l': field 'gpus[0].id': 'rtx-9090' is not a GPU in the catalog");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "l", "no": "l"}},
                            "l": {"type": "leaf", "text": "nothing"}})"),
              "chart.json: node 'l': field 'gpus': a leaf must name GPUs, a cloud option or advice");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "kind": "budget", "text": "?", "answers": {"yes": "l", "no": "l"}}, )" + leaf + "}"),
              "chart.json: node 'q': field 'gpus': a budget question must name the GPUs whose price decides it");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "l", "no": "l"}}, )" + leaf +
                         R"(, "orphan": {"type": "leaf", "text": "x", "advice": "y"}})"),
              "chart.json: node 'orphan': cannot be reached from the start");
    EXPECT_EQ(chartError(R"({"q": {"type": "question", "text": "?", "answers": {"yes": "l"}}, )" + leaf + "}"),
              "chart.json: node 'q': field 'answers': a question needs at least two answers");
    EXPECT_EQ(chartError("{" + leaf + "}", "missing"), "chart.json: field 'start': names no node: 'missing'");
}

TEST(FlowchartLoading, MultipleChoiceQuestions) {
    const auto chart = Flowchart::fromJson(R"({"id": "t", "start": "q", "nodes": {
        "q": {"type": "question", "text": "What do you do?", "why": "w",
              "answers": {"vision": "a", "language": "b", "both": "b"}},
        "a": {"type": "leaf", "text": "RTX 4070 Ti", "gpus": [{"id": "rtx-4070-ti"}]},
        "b": {"type": "leaf", "text": "RTX 4090", "gpus": [{"id": "rtx-4090"}]}}})",
                                           "mc.json", cat());
    FlowchartSession s(chart);
    ASSERT_EQ(s.current().answers.size(), 3u);
    s.answer("Both");
    EXPECT_EQ(s.current().id, "b");
    s.restart();
    try {
        s.answer("yes");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "flowchart: field 'answer': 'yes' is not an answer to \"What do you do?\"; choose vision, language or both");
    }
}

TEST(Dettmers2023, ShipsTheWholeChart) {
    const auto chart = Flowchart::dettmers2023(cat());
    EXPECT_EQ(chart.start(), "organization");
    int leaves = 0, budgets = 0;
    for (const auto& [id, n] : chart.nodes()) {
        leaves += n.isLeaf() ? 1 : 0;
        budgets += n.budgetQuestion ? 1 : 0;
        EXPECT_FALSE(n.why.empty()) << id << " has no 'why'";
    }
    EXPECT_EQ(leaves, 15);
    EXPECT_EQ(budgets, 9);
}

const Node& walk(FlowchartSession& s, const std::vector<std::string>& answers) {
    for (const auto& a : answers) {
        s.answer(a);
    }
    return s.current();
}

TEST(Dettmers2023, PathsLeadToTheSeedsRecommendations) {
    const auto chart = Flowchart::dettmers2023(cat());
    struct Case {
        std::vector<std::string> answers;
        const char* leaf;
    };
    for (const auto& c : std::vector<Case>{
             {{"yes", "yes", "yes"}, "leaf_azure"},
             {{"yes", "yes", "no", "yes"}, "leaf_aws"},
             {{"yes", "yes", "no", "no"}, "leaf_something_else"},
             {{"yes", "no", "yes"}, "leaf_h100_sxm"},
             {{"yes", "no", "no"}, "leaf_org_mix"},
             {{"no", "yes", "yes", "yes"}, "leaf_4090"},
             {{"no", "yes", "yes", "no", "yes"}, "leaf_3090"},
             {{"no", "yes", "yes", "no", "no"}, "leaf_sorry"},
             {{"no", "yes", "no", "yes"}, "leaf_4080"},
             {{"no", "yes", "no", "no", "yes"}, "leaf_4070ti"},
             {{"no", "yes", "no", "no", "no", "yes"}, "leaf_2080ti"},
             {{"no", "yes", "no", "no", "no", "no", "yes"}, "leaf_3060"},
             {{"no", "yes", "no", "no", "no", "no", "no", "yes"}, "leaf_cloud"},
             {{"no", "yes", "no", "no", "no", "no", "no", "no"}, "leaf_read_post"},
             {{"no", "no", "yes", "yes"}, "leaf_4090"},
             {{"no", "no", "yes", "no", "yes"}, "leaf_3090"},
             {{"no", "no", "yes", "no", "no", "yes"}, "leaf_cloud"},
             {{"no", "no", "no", "yes"}, "leaf_4070ti_4080"},
             {{"no", "no", "no", "no", "yes"}, "leaf_2080ti"},
             {{"no", "no", "no", "no", "no", "no", "no"}, "leaf_read_post"},
         }) {
        FlowchartSession s(chart);
        EXPECT_EQ(walk(s, c.answers).id, c.leaf);
        EXPECT_TRUE(s.finished());
        EXPECT_EQ(s.path().size(), c.answers.size());
    }
}

TEST(FlowchartSession, AnswerBackRestartAndErrors) {
    const auto chart = Flowchart::dettmers2023(cat());
    FlowchartSession s(chart);
    EXPECT_EQ(s.current().text, "Are you an organization?");
    EXPECT_FALSE(s.back());
    s.answer("No");
    s.answer(" yes ");
    EXPECT_EQ(s.current().id, "train_transformers");
    ASSERT_TRUE(s.back());
    EXPECT_EQ(s.current().id, "train_models");
    try {
        s.answer("maybe");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "flowchart: field 'answer': 'maybe' is not an answer to \"Do you plan to train models?\"; choose yes or no");
    }
    s.restart();
    EXPECT_TRUE(s.path().empty());
    EXPECT_EQ(s.current().id, "organization");
}

TEST(FlowchartSession, BudgetQuestionsAreAnsweredFromPricesAndCanBeOverridden) {
    const auto chart = Flowchart::dettmers2023(cat());
    const PriceLookup prices = [](const std::string& id, std::optional<Condition> c) -> std::optional<double> {
        if (id == "rtx-4090") {
            return 1599.0;
        }
        if (id == "rtx-3090" && c == Condition::Used) {
            return 800.0;
        }
        return std::nullopt;
    };
    FlowchartSession s(chart, prices, 1000.0);
    walk(s, {"no", "yes", "yes"});
    ASSERT_TRUE(s.suggestion());
    EXPECT_EQ(s.suggestion()->answer, "no");
    EXPECT_EQ(s.suggestion()->reason, "RTX 4090 new $1,599 > budget $1,000");
    s.answerAutomatically();
    EXPECT_EQ(s.current().id, "leaf_3090");
    ASSERT_EQ(s.path().size(), 5u);
    EXPECT_TRUE(s.path()[3].automatic);
    EXPECT_EQ(s.path()[4].reason, "RTX 3090 used $800 <= budget $1,000");
    // Back undoes the automatic answers together with the user's last answer.
    ASSERT_TRUE(s.back());
    EXPECT_EQ(s.current().id, "train_transformers");
    // Override: answer the budget question yourself.
    s.answer("yes");
    s.answer("yes");
    EXPECT_EQ(s.current().id, "leaf_4090");
    EXPECT_FALSE(s.path().back().automatic);
    // Or rewind to an automatic answer and give another.
    s.restart();
    walk(s, {"no", "yes", "yes"});
    s.answerAutomatically();
    ASSERT_TRUE(s.rewindTo(4)); // "RTX 3090 within budget?" answered yes automatically
    EXPECT_EQ(s.current().id, "budget_3090_train");
    EXPECT_EQ(s.path().size(), 4u);
    s.answer("no");
    EXPECT_EQ(s.current().id, "leaf_sorry");
    EXPECT_FALSE(s.rewindTo(9));
    // No price, no automatic answer.
    FlowchartSession none(chart, prices, 1000.0);
    walk(none, {"no", "yes", "no"});
    EXPECT_FALSE(none.suggestion());
}

// ----- the live recommender ------------------------------------------------------------------

Price price(const char* gpu, double amount, Condition c, const char* date) {
    Price p;
    p.gpuId = gpu;
    p.gpuName = gpu;
    p.amount = amount;
    p.condition = c;
    p.observed = *Date::parse(date);
    return p;
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

TEST(Recommender, CloudWhenNothingFitsOrBuyingNeverPaysOff) {
    const perf::PerfModel model(cat());
    const auto none = recommend(cat(), model, samplePrices(), {}, input(24, 300));
    EXPECT_TRUE(none.shortlist.empty());
    EXPECT_TRUE(none.cloud.recommended);
    CloudOffer cheap;
    cheap.provider = "Test";
    cheap.gpuName = "RTX 4090";
    cheap.gpuId = "rtx-4090";
    cheap.onDemandUsdPerHour = 0.05;
    cheap.observed = *Date::parse("2025-01");
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
            EXPECT_NE(c.caveats.front().find("split over 2 cards"), std::string::npos) << c.caveats.front();
        }
    }
    EXPECT_TRUE(split);
}

TEST(Recommender, RentsFromTheNewestObservationOfEachCloudOffer) {
    CloudOffer old;
    old.provider = "Test";
    old.instance = "1x";
    old.gpuName = "RTX 4090";
    old.gpuId = "rtx-4090";
    old.onDemandUsdPerHour = 0.01; // a price from long ago that no longer exists
    old.observed = *Date::parse("2022-01");
    CloudOffer now = old;
    now.onDemandUsdPerHour = 5.0;
    now.observed = *Date::parse("2025-01");
    const auto current = currentOffers({old, now});
    ASSERT_EQ(current.size(), 1u);
    EXPECT_DOUBLE_EQ(current.front().onDemandUsdPerHour, 5.0);
    const perf::PerfModel model(cat());
    auto in = input(24, 2000);
    in.settings.utilization = 0.6;
    const auto rec = recommend(cat(), model, samplePrices(), {old, now}, in);
    EXPECT_FALSE(rec.cloud.recommended) << rec.cloud.reason;
    EXPECT_NE(rec.cloud.offer.find("$5/h"), std::string::npos) << rec.cloud.offer;
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
    unknown.gpuName = "A10G";
    EXPECT_EQ(offerGpu(unknown, cat()).gpu, nullptr);
    EXPECT_EQ(offerGpu(unknown, cat()).assumption, "'A10G' is not in the catalog");

    const perf::PerfModel model(cat());
    const auto rec = recommend(cat(), model, samplePrices(), {hgx}, input(24, 2000));
    EXPECT_NE(rec.cloud.offer.find("Test 8x (A100 40GB x8"), std::string::npos) << rec.cloud.offer;
    EXPECT_NE(rec.cloud.offer.find("assumed A100 40GB SXM4"), std::string::npos) << rec.cloud.offer;
}

TEST(Recommender, RejectsBadInput) {
    const perf::PerfModel model(cat());
    EXPECT_THROW(recommend(cat(), model, {}, {}, input(0, 1000)), InputError);
    EXPECT_THROW(recommend(cat(), model, {}, {}, input(24, -1)), InputError);
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
