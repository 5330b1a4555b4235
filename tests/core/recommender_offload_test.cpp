// The live recommender with system RAM given for LLM inference: cards too small for the model
// are ranked at their speed with the rest in RAM (perf/llm_offload.h), alone or as many as the
// user runs and the budget buys, said as such.
#include "advisor/model_memory.h"
#include "advisor/recommender.h"
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "catalog/catalog.h"
#include "perf/llm_offload.h"
#include "support/price_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace advisor::advice {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

const std::vector<Price>& prices() {
    using testing::observedPrice;
    static const std::vector<Price> p = {observedPrice("rtx-4090", 1600, Condition::New, "2025-01"),
                                         observedPrice("rtx-3090", 750, Condition::Used, "2025-01"),
                                         observedPrice("rtx-pro-6000-blackwell", 8500, Condition::New, "2026-04"),
                                         observedPrice("rtx-4060-ti-16gb", 430, Condition::New, "2025-01")};
    return p;
}

// gpt-oss-120b at 4 bits for one request: 64.6 GB to hold, sized as the recommend command sizes it.
RecommendInput gptOss120b(double budget) {
    RecommendInput in;
    in.task = Task::Inference;
    in.domain = Domain::Llm;
    in.llmWeights = perf::Precision::Int4;
    in.budgetUsd = budget;
    in.settings.referenceGpu = "rtx-4090";
    sizeMemoryForModel(in, 0, calc::findModelShape("gpt-oss-120b"));
    return in;
}

TEST(RecommenderOffload, WithoutRamNoCardUnderTheBudgetHoldsTheModelAndANoteSaysWhatWould) {
    const perf::PerfModel model(cat());
    const auto rec = recommend(cat(), model, prices(), {}, gptOss120b(2000));
    EXPECT_TRUE(rec.shortlist.empty());
    bool said = false;
    for (const auto& n : rec.notes) {
        said |= n.find("given your system RAM, cards too small for it are ranked") != std::string::npos;
    }
    EXPECT_TRUE(said);
    // A shortlist that holds the model needs no such note.
    RecommendInput rich = gptOss120b(10000);
    for (const auto& n : recommend(cat(), model, prices(), {}, rich).notes) {
        EXPECT_EQ(n.find("given your system RAM"), std::string::npos) << n;
    }
}

TEST(RecommenderOffload, WithRamTheSmallCardsAreRankedAloneAtTheirOffloadedSpeed) {
    const perf::PerfModel model(cat());
    RecommendInput in = gptOss120b(2000);
    in.systemRamGbs = 89.6;
    const auto rec = recommend(cat(), model, prices(), {}, in);
    ASSERT_EQ(rec.shortlist.size(), 3u); // the RTX 4060 Ti 16GB, the RTX 3090 and the RTX 4090
    for (const auto& c : rec.shortlist) {
        EXPECT_TRUE(c.partlyInRam) << c.gpu->name;
        EXPECT_EQ(c.count, 1);
        EXPECT_EQ(c.memoryHeadroomGb, 0.0);
        // The speed perf gives the same card with the same RAM (within 0.5%: without --context the
        // recommender reads a size-law KV cache of 512 tokens, perf the model's own).
        perf::PerfQuery q;
        q.metric = perf::Metric::LlmDecode;
        q.llmWeights = perf::Precision::Int4;
        calc::applyModelShape(q, *calc::findModelShape("gpt-oss-120b"));
        q.systemRamGbs = 89.6;
        EXPECT_NEAR(c.throughput, model.throughput(*c.gpu, q), 0.005 * c.throughput) << c.gpu->name;
        ASSERT_FALSE(c.reasons.empty());
        EXPECT_NE(c.reasons.front().find("stay in system RAM: the routed experts of"), std::string::npos)
            << c.reasons.front();
    }
    // A mixture of experts with its experts in RAM runs at about the RAM's pace whatever the card:
    // the cheapest card gives the most per dollar.
    EXPECT_EQ(rec.shortlist.front().gpu->id, "rtx-4060-ti-16gb");
    bool said = false;
    for (const auto& n : rec.notes) {
        said |= n.find("considered with the rest in system RAM of 89.6 GB/s, as llama.cpp runs it, at that speed "
                       "(one card each") != std::string::npos;
    }
    EXPECT_TRUE(said);
    // More cards of the same kind are no alternative here: each would have to hold the model.
    for (const auto& a : rec.alternatives) {
        EXPECT_FALSE(a.partlyInRam) << a.gpu->name;
    }
}

TEST(RecommenderOffload, WithSeveralCardsAllowedAsManyAsTheBudgetBuysShareTheModelWithRam) {
    // Two RTX 3090s (48 GB) still do not hold gpt-oss-120b's 64.6 GB: with --gpus 2 both are bought
    // ($1,500 of $2,000) and fewer experts stay in RAM than with one; the RTX 4090 ($1,600) is one.
    const perf::PerfModel model(cat());
    RecommendInput in = gptOss120b(2000);
    in.systemRamGbs = 89.6;
    in.maxGpus = 2;
    const auto two = recommend(cat(), model, prices(), {}, in);
    in.maxGpus = 1;
    const auto one = recommend(cat(), model, prices(), {}, in);
    const auto find = [](const Recommendation& r, const std::string& id) -> const Candidate* {
        for (const auto& c : r.shortlist) {
            if (c.gpu->id == id) {
                return &c;
            }
        }
        return nullptr;
    };
    const Candidate* pair = find(two, "rtx-3090");
    const Candidate* single = find(one, "rtx-3090");
    ASSERT_NE(pair, nullptr);
    ASSERT_NE(single, nullptr);
    EXPECT_TRUE(pair->partlyInRam);
    EXPECT_EQ(pair->count, 2);
    EXPECT_EQ(single->count, 1);
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmDecode;
    q.llmWeights = perf::Precision::Int4;
    calc::applyModelShape(q, *calc::findModelShape("gpt-oss-120b"));
    q.systemRamGbs = 89.6;
    q.gpus = 2;
    EXPECT_NEAR(pair->throughput, model.throughput(cat().require("RTX 3090"), q), 0.005 * pair->throughput);
    EXPECT_GT(pair->throughput, 1.5 * single->throughput); // 11 of 36 layers' experts in RAM, not 24
    EXPECT_NE(pair->reasons.front().find("24 GB x 2 of the 64.6 GB you need"), std::string::npos)
        << pair->reasons.front();
    bool saysWhyTwo = false;
    for (const auto& cv : pair->caveats) {
        EXPECT_EQ(cv.find("count as memory, not speed"), std::string::npos) << cv; // here they give speed
        saysWhyTwo |= cv.find("the cards hold 48 GB of the 64.6 GB between them") != std::string::npos;
    }
    EXPECT_TRUE(saysWhyTwo);
    const Candidate* rtx4090 = find(two, "rtx-4090");
    ASSERT_NE(rtx4090, nullptr);
    EXPECT_EQ(rtx4090->count, 1); // a second would pass the budget
    bool said = false;
    for (const auto& n : two.notes) {
        said |= n.find("(up to 2 of a card where the budget buys them") != std::string::npos;
    }
    EXPECT_TRUE(said);
}

TEST(RecommenderOffload, ACardThatHoldsTheModelKeepsItAllOnTheCard) {
    const perf::PerfModel model(cat());
    RecommendInput in = gptOss120b(10000);
    in.systemRamGbs = 89.6;
    const auto rec = recommend(cat(), model, prices(), {}, in);
    bool sawPro = false;
    for (const auto& c : rec.shortlist) {
        const bool measured = std::any_of(c.caveats.begin(), c.caveats.end(), [](const std::string& s) {
            return s.rfind("measured on this GPU (never fitted): MMBT's May 2026 run", 0) == 0;
        });
        if (c.gpu->id == "rtx-pro-6000-blackwell") {
            sawPro = true;
            EXPECT_FALSE(c.partlyInRam);
            EXPECT_GT(c.memoryHeadroomGb, 20.0); // 96 GB for 64.6
            // What a run of it said about token generation (catalog model_checks).
            EXPECT_TRUE(measured);
        } else {
            EXPECT_FALSE(measured) << c.gpu->id;
        }
    }
    EXPECT_TRUE(sawPro);
    // The card that holds it all is far faster than any card reading experts from RAM.
    in.rankBy = RankBy::Speed;
    EXPECT_EQ(recommend(cat(), model, prices(), {}, in).shortlist.front().gpu->id, "rtx-pro-6000-blackwell");
}

} // namespace
} // namespace advisor::advice
