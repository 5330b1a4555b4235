// The power-limit calculator on measured power-limit sweeps it was not built from alone
// (resources/perf/power-limit-sweeps.csv: the seed's RTX 2080 Ti, Puget's RTX 3090s, LLM inference
// on RTX 3090s, an RTX PRO 6000 Blackwell and an RTX 5060 Ti, FP8 video generation on the RTX PRO
// 6000, and a 7B under llama.cpp on the RTX PRO 6000, round 62). The law's two constants below the
// voltage floor were chosen on the first 19 rows (docs/performance-model-experiments.md, round 31;
// the video sweep came after), and token generation's clocked share of its reads on the 27B's
// clocked rows (round 63), so this is a check of the figures the docs report, not a hold-out;
// two RTX 3090s' and one RTX 5090's llama.cpp sweeps (round 64) were found after both were fixed,
// and an RTX 4090's, an RTX 5090's long prompt and four clocked RTX 3090 points after (round 67).
#include "calc/power_limit.h"
#include "calc/power_sweeps.h"
#include "catalog/catalog.h"
#include "eval/stats.h"
#include "perf/model.h"

#include "support/input_problems.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace advisor::calc {
namespace {

struct SweepRow {
    std::string source;
    std::string gpu;
    double boardWatts = 0;
    double limitWatts = 0;
    double measured = 0;
    perf::Metric metric = perf::Metric::Fp16Training;
    bool mixtureOfExperts = false;
    double clockBoundShare = 0;
    double predicted = 0;
};

// Every built-in sweep point with the performance model's clock-bound share for its work and the
// calculator's prediction, on the card as measured (its board power: the 100% of the sweep).
std::vector<SweepRow> sweepRows() {
    const perf::PerfModel model(Catalog::builtin());
    std::vector<SweepRow> out;
    for (const auto& m : builtinPowerLimitSweeps()) {
        SweepRow r{m.source, m.gpu, m.boardWatts, m.limitWatts, m.measuredRelative, m.query.metric,
                   m.query.llmActiveParamsBillion > 0};
        Gpu g = Catalog::builtin().require(r.gpu);
        g.tdpW = r.boardWatts;
        r.clockBoundShare = clockBoundShare(model, g, m.query);
        r.predicted = calculatorFigure(model, Catalog::builtin(), m);
        out.push_back(r);
    }
    return out;
}

// The rows of one sweep.
std::vector<SweepRow> rowsFrom(const std::string& source) {
    std::vector<SweepRow> out;
    for (const auto& r : sweepRows()) {
        if (r.source == source) {
            out.push_back(r);
        }
    }
    return out;
}

// Absolute error in points of relative speed (0.60 measured, 0.68 predicted: 8 points).
double points(double predicted, double measured) {
    return std::fabs(predicted - measured) * 100.0;
}

// The RTX PRO 6000's llama.cpp sweep of a 7B model (experiments round 62), added after round 31's
// law was settled and kept apart in the figures below.
constexpr const char* kSmallModelSweep = "pro6000-llamacpp-2025";
// One RTX 3090 generating tokens of a dense 27B under llama.cpp, with its clock logged (experiments
// round 64), found after rounds 31 and 63 were settled: its deep limits are kept apart below.
constexpr const char* kSingle3090Sweep = "jeanfbrito-2026";
// An RTX 5090 (a partner card whose stock limit is 600 W) generating a dense 27B's tokens under
// llama.cpp, 600-400 W, found with it.
constexpr const char* kRtx5090Sweep = "cmoro-2026";
// A second RTX 3090 (water-cooled, its stock limit 370 W) generating Qwen3.6-27B's tokens under
// llama.cpp, 370-200 W, found with them.
constexpr const char* kSecond3090Sweep = "noonghunna-2026";
bool foundAfterRound63(const std::string& source) {
    return source == kSingle3090Sweep || source == kRtx5090Sweep || source == kSecond3090Sweep;
}
// Found after round 66, the calculator's figures for them written down first (round 67): an RTX 4090
// generating Qwen3.6-27B's tokens under llama.cpp, 450-230 W; an RTX 5090 (stock limit 600 W) taking
// a 50,000-token prompt of it under vLLM, 600-400 W; four clocked points of the second 3090's rig.
constexpr const char* kRtx4090Sweep = "laurimyllari-2026";
constexpr const char* kRtx5090PromptSweep = "apnar-2026";
constexpr const char* kClocked3090Points = "noonghunna-clocks-2026";
bool foundInRound67(const std::string& source) {
    return source == kRtx4090Sweep || source == kRtx5090PromptSweep || source == kClocked3090Points;
}

TEST(PowerLimitSweeps, TheCalculatorStaysWithinTheDocumentedError) {
    // docs/performance-model.md: 2.6 / 9.1 points (median / p90) over the 43 rows before round 64,
    // 22.7 at most (the 7B's prompt at 200 W, a third of the TDP); 13.6 at most over the first 29.
    // Before token generation's clock-bound share was its reads' (round 63): 4.6 / 22.1 / 37.5 over
    // the 43 and 4.0 / 12.8 / 28.9 over the first 29. With round 64's 16 rows (two single RTX 3090s'
    // and an RTX 5090's): 3.0 / 21.4, and 48.3 at most (the 3090s' own tests, below). With round
    // 67's 16 rows (an RTX 4090's, an RTX 5090's long prompt, four clocked 3090 points): 2.6 / 13.4
    // over 75; those 16 alone 1.4 / 6.7, 10.8 at most.
    const auto rows = sweepRows();
    ASSERT_EQ(rows.size(), 75u);
    std::vector<double> all, beforeRound67, held, errors, first;
    for (const auto& r : rows) {
        all.push_back(points(r.predicted, r.measured));
        if (foundInRound67(r.source)) {
            held.push_back(all.back());
            continue;
        }
        beforeRound67.push_back(all.back());
        if (foundAfterRound63(r.source)) {
            continue;
        }
        errors.push_back(all.back());
        if (r.source != kSmallModelSweep) {
            first.push_back(errors.back());
        }
    }
    ASSERT_EQ(beforeRound67.size(), 59u);
    ASSERT_EQ(errors.size(), 43u);
    ASSERT_EQ(first.size(), 29u);
    EXPECT_LT(eval::median(all), 3.0);
    EXPECT_LT(eval::percentile(all, 90), 14.0);
    EXPECT_LT(eval::median(beforeRound67), 3.5);
    EXPECT_LT(eval::percentile(beforeRound67, 90), 22.5);
    EXPECT_LT(eval::median(held), 2.0);
    EXPECT_LT(eval::percentile(held, 90), 7.5);
    EXPECT_LT(*std::max_element(held.begin(), held.end()), 11.0);
    EXPECT_LT(eval::median(first), 3.0);
    EXPECT_LT(eval::percentile(first, 90), 10.0);
    EXPECT_LT(*std::max_element(first.begin(), first.end()), 14.0);
    EXPECT_LT(eval::median(errors), 3.0);
    EXPECT_LT(eval::percentile(errors, 90), 10.0);
    EXPECT_LT(*std::max_element(errors.begin(), errors.end()), 23.0);
}

TEST(PowerLimitSweeps, ASmallModelsTokenGenerationLosesWhatItsReadsClockedWorkGives) {
    // LLaMA 2 7B Q4_0 on an RTX PRO 6000 (llama.cpp, September 2025): 48% of its token is the
    // model's fixed time. Slowed with the clock (round 62) that gave 16-38 points too little speed
    // from 350 W down (0.31 at 200 W, 0.68 measured); with only its reads' clocked work it is 1-4
    // points pessimistic at every limit. Its prompts are unchanged: within 6 points down to 300 W,
    // 23 at 200 W (where the source's runs spread by a fifth to a half), now the largest miss.
    int prompts = 0, tokens = 0;
    for (const auto& r : sweepRows()) {
        if (r.source != kSmallModelSweep) {
            continue;
        }
        if (r.metric == perf::Metric::LlmPrefill) {
            ++prompts;
            EXPECT_LT(points(r.predicted, r.measured), r.limitWatts >= 300 ? 6.0 : 23.0) << r.limitWatts << " W";
        } else {
            ++tokens;
            EXPECT_LT(r.predicted, r.measured) << r.limitWatts << " W";
            EXPECT_LT(points(r.predicted, r.measured), 4.5) << r.limitWatts << " W";
        }
    }
    EXPECT_EQ(prompts, 7);
    EXPECT_EQ(tokens, 7);
}

TEST(PowerLimitSweeps, DeepLimitsCostWhatTheSweepsMeasuredNotWhatTheCubeRootGives) {
    // The cube root alone, with token generation not clock-bound (the calculator before): the RTX
    // 3090's long prompts at 150 W 0.76 where 0.26 was measured, 50 points off.
    const auto rows = sweepRows();
    double worstNow = 0, worstCubeRoot = 0;
    for (const auto& r : rows) {
        if (r.source == kSmallModelSweep || foundAfterRound63(r.source)) {
            continue; // their own tests
        }
        const double share = r.metric == perf::Metric::LlmDecode ? 0.0 : r.clockBoundShare;
        const double cubeRoot = 1.0 / (share / std::cbrt(r.limitWatts / r.boardWatts) + 1.0 - share);
        worstCubeRoot = std::max(worstCubeRoot, points(cubeRoot, r.measured));
        worstNow = std::max(worstNow, points(r.predicted, r.measured));
    }
    EXPECT_GT(worstCubeRoot, 45.0);
    EXPECT_LT(worstNow, 0.65 * worstCubeRoot);
    for (const auto& r : rows) {
        if (r.source == "llmgarage-2026" && r.metric == perf::Metric::LlmPrefill && r.limitWatts == 200) {
            EXPECT_LT(r.predicted, 0.70); // measured 0.60; the cube root gave 0.84
            EXPECT_GT(r.predicted, 0.55);
        }
        if (r.source == "dettmers-2023") {
            EXPECT_NEAR(r.predicted, r.measured, 0.01); // the seed's -50 W, above the voltage floor
        }
    }
}

TEST(PowerLimitSweeps, TokenGenerationSlowsByItsReadsClockedWorkNotItsFixedTime) {
    // RTX PRO 6000 Blackwell under vLLM, one stream: a dense 27B in 4 bits ran 0.87 of its speed at
    // 300 W of 600 with its clock at 0.56; its reads are 81% of a token in the model, and the
    // share that follows the clock (kDecodeReadsClockBoundShare, fitted on this sweep's clocks) is
    // 19% of the token. The mixture of experts (3B active, 67% of its token fixed) lost 9% at 300 W:
    // its fixed time slowed with the clock gave 38% (29 points off), its reads' work gives 7%.
    int dense = 0, mixture = 0;
    for (const auto& r : sweepRows()) {
        if (r.source != "mmbt-2026") {
            continue;
        }
        if (r.mixtureOfExperts) {
            ++mixture;
            EXPECT_LT(r.clockBoundShare, 0.1);
            EXPECT_LT(points(r.predicted, r.measured), 3.0) << r.limitWatts << " W";
        } else {
            ++dense;
            EXPECT_NEAR(r.clockBoundShare, 0.19, 0.02);
            EXPECT_LT(points(r.predicted, r.measured), 3.0) << r.limitWatts << " W";
        }
    }
    EXPECT_EQ(dense, 4);
    EXPECT_EQ(mixture, 3);
}

TEST(PowerLimitSweeps, ASingleRtx3090GeneratingTokensBelowItsFloorIsTheLargestMiss) {
    // One RTX 3090 (350 W) generating a dense 27B's tokens under llama.cpp (April 2026), found after
    // rounds 31 and 63 were fixed. Down to 250 W the calculator is within 4.5 points (the 350 W run,
    // the 100%, was 3% slower than the 300 W one). At 200 W the card logged 480 of its 1,710 MHz,
    // 0.28 of its clock where the law gives 0.67 (its memory streaming keeps drawing), and it ran
    // 0.64 of its speed: the calculator is 26 points fast there and 48 at 150 W. The share of the
    // token that follows the clock holds: at the logged clock the reads' share gives 0.65, where
    // round 31's share, the fixed time per token, gave 0.80.
    const perf::PerfModel model(Catalog::builtin());
    int rows = 0;
    for (const auto& m : builtinPowerLimitSweeps()) {
        if (m.source != kSingle3090Sweep) {
            continue;
        }
        ++rows;
        const Gpu& g = Catalog::builtin().require(m.gpu); // at its own 350 W, the sweep's 100%
        const double share = clockBoundShare(model, g, m.query);
        const double predicted = calculatorFigure(model, Catalog::builtin(), m);
        if (m.limitWatts >= 250) {
            EXPECT_LT(points(predicted, m.measuredRelative), 4.5) << m.limitWatts << " W";
            continue;
        }
        EXPECT_GT(predicted - m.measuredRelative, m.limitWatts == 200 ? 0.25 : 0.45) << m.limitWatts << " W";
        if (m.limitWatts == 200) {
            const double loggedClock = 480.0 / 1710.0;
            const auto speedAt = [&](double s) { return 1.0 / (s / loggedClock + 1.0 - s); };
            EXPECT_LT(points(speedAt(share), m.measuredRelative), 2.0);
            const double fixedTimeShare = model.explain(g, m.query).overheadShare;
            EXPECT_GT(points(speedAt(fixedTimeShare), m.measuredRelative), 15.0);
        }
    }
    EXPECT_EQ(rows, 5);
}

TEST(PowerLimitSweeps, ASecondRtx3090LosesSpeedFromItsFirstCuts) {
    // A water-cooled RTX 3090 (stock limit 370 W, drawing 334 W there) generating Qwen3.6-27B's
    // tokens under llama.cpp (May 2026): 0.95 of its speed at 300 W, 0.76 at 250 W, 0.45 at 200 W,
    // where the calculator gives 0.985, 0.97 and 0.88 - 13 to 43 points fast from 270 W down, a
    // much earlier fall than the other single 3090's (0.99 at 250 W of 350). Both say a 3090's
    // clock falls further below its floor than the law's quarter of the TDP allows (round 66).
    const auto rows = rowsFrom(kSecond3090Sweep);
    ASSERT_EQ(rows.size(), 7u);
    for (const auto& r : rows) {
        if (r.limitWatts >= 300) {
            EXPECT_LT(points(r.predicted, r.measured), 4.0) << r.limitWatts << " W";
        } else {
            EXPECT_GT(r.predicted - r.measured, 0.12) << r.limitWatts << " W";
        }
        if (r.limitWatts == 200) {
            EXPECT_GT(r.predicted - r.measured, 0.40);
        }
    }
}

TEST(PowerLimitSweeps, AnRtx5090GeneratingTokensLosesWhatTheCalculatorSays) {
    // An ASUS TUF RTX 5090 (stock limit 600 W) generating a dense 27B's tokens under llama.cpp with
    // speculative decoding off (August 2026), found after round 63: unlimited it drew 537 W, and it
    // lost 0.4% at 500 W and 4.8% at 400 W, the floor of its range. The calculator: within 2.5
    // points at every limit, 0.974 at 400 W (its clock 0.87 there, 19% of the token clock-bound).
    const auto rows = rowsFrom(kRtx5090Sweep);
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& r : rows) {
        EXPECT_NEAR(r.clockBoundShare, 0.19, 0.02);
        EXPECT_LT(points(r.predicted, r.measured), 2.5) << r.limitWatts << " W";
    }
}

TEST(PowerLimitSweeps, AnRtx4090GeneratingTokensFollowsTheLawToHalfItsBoardPower) {
    // The same Qwen3.6-27B file under llama.cpp as the second RTX 3090's, on a GDDR6X card too
    // (experiments round 67; written first: about 0.91 at 250 W and 0.85 at 230 W). Measured 0.892
    // and 0.798: within 1.5 points from 250 W (0.56 of the TDP) up, 4-6 points fast below, where
    // the 3090s were 21-48 points fast at such shares - so GDDR6X alone does not make a card fall
    // below the law.
    const auto rows = rowsFrom(kRtx4090Sweep);
    ASSERT_EQ(rows.size(), 8u);
    for (const auto& r : rows) {
        EXPECT_NEAR(r.clockBoundShare, 0.20, 0.02);
        if (r.limitWatts >= 250) {
            EXPECT_LT(points(r.predicted, r.measured), 1.5) << r.limitWatts << " W";
        } else {
            EXPECT_GT(r.predicted - r.measured, 0.03) << r.limitWatts << " W";
            EXPECT_LT(points(r.predicted, r.measured), 6.5) << r.limitWatts << " W";
        }
    }
    // A 4090 owner sees them beside the calculator's curve.
    const auto& cat = Catalog::builtin();
    EXPECT_EQ(sweepsOn(cat, cat.require("RTX 4090"), perf::Metric::LlmDecode).size(), 8u);
}

TEST(PowerLimitSweeps, AnRtx5090sLongPromptLosesALittleMoreThanTheCalculatorSays) {
    // A 50,000-token prompt under vLLM (written first: about 0.95 at 500 W and 0.90 at 450 W;
    // measured 0.947 and 0.902): the calculator is fast at every limit, by more the lower it goes,
    // 7.6 points at 400 W. Fully clock-bound the cube root would give 0.874 there: the card lost
    // more than its clock's cube root, as the RTX PRO 6000's FP8 video generation did (the same
    // 600 W Blackwell board).
    auto rows = rowsFrom(kRtx5090PromptSweep);
    ASSERT_EQ(rows.size(), 4u);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.limitWatts > b.limitWatts; });
    double previousMiss = 0;
    for (const auto& r : rows) {
        const double miss = r.predicted - r.measured;
        EXPECT_GT(miss, previousMiss) << r.limitWatts << " W";
        EXPECT_LT(miss, 0.08) << r.limitWatts << " W";
        previousMiss = miss;
    }
    EXPECT_LT(rows.back().measured, std::cbrt(400.0 / 600.0));
}

TEST(PowerLimitSweeps, AnRtx3090sLoggedClocksFollowTheLawWhereItsTokensDoNot) {
    // Four points of the second 3090's rig with the SM clock logged at the limit and at the stock
    // 370 W (club-3090 docs/HARDWARE.md). The law's clock is within 7 points of each logged one;
    // the speeds then say how much of each kind of work followed the clock (1/speed - 1 = s x
    // (1/clock - 1)): a dense 27B's prompt 0.82 (the model 0.78), but its tokens 0.57 (the model
    // 0.21) and the mixture's tokens 0.42 (0.12). This card's token generation is more clock-bound
    // than the model's - it ran this model's tokens at 0.78 of the model's speed where the RTX
    // 4090 ran them at 1.01. That accounts for the misses at 290-300 W, not the deep ones: with
    // 0.57 and the law's clock the dense tokens at 250 W would still be 17 points fast, their clock
    // there (0.65 implied) far under the same card's prompt's logged 0.84 at the same limit.
    struct Logged {
        double limitWatts;
        bool prompt;
        bool mixture;
        double clockMHz, stockClockMHz;
    };
    const std::vector<Logged> logged = {{250, true, false, 1350, 1612.5},
                                        {290, false, false, 1380, 1560},
                                        {210, false, true, 1290, 1890},
                                        {250, true, true, 1380, 1695}};
    const auto rows = rowsFrom(kClocked3090Points);
    ASSERT_EQ(rows.size(), logged.size());
    double denseTokensShare = 0;
    for (const auto& l : logged) {
        const auto r = std::find_if(rows.begin(), rows.end(), [&](const SweepRow& x) {
            return x.limitWatts == l.limitWatts && (x.metric == perf::Metric::LlmPrefill) == l.prompt &&
                   x.mixtureOfExperts == l.mixture;
        });
        ASSERT_NE(r, rows.end()) << l.limitWatts << " W";
        const double clock = l.clockMHz / l.stockClockMHz;
        EXPECT_LT(points(clockRatio(l.limitWatts, r->boardWatts), clock), 7.0) << l.limitWatts << " W";
        const double followedTheClock = (1 / r->measured - 1) / (1 / clock - 1);
        if (l.prompt && !l.mixture) {
            EXPECT_NEAR(followedTheClock, r->clockBoundShare, 0.06);
        }
        if (!l.prompt) {
            EXPECT_GT(followedTheClock, r->clockBoundShare + 0.25) << l.limitWatts << " W";
            denseTokensShare = l.mixture ? denseTokensShare : followedTheClock;
        }
    }
    EXPECT_NEAR(denseTokensShare, 0.57, 0.01);
    const auto deep = rowsFrom(kSecond3090Sweep);
    const auto at250 = std::find_if(deep.begin(), deep.end(), [](const SweepRow& x) { return x.limitWatts == 250; });
    ASSERT_NE(at250, deep.end());
    EXPECT_GT(relativePerformance(250, 370, denseTokensShare) - at250->measured, 0.15);
    const perf::PerfModel model(Catalog::builtin());
    perf::PerfQuery dense27b;
    dense27b.metric = perf::Metric::LlmDecode;
    dense27b.llmParamsBillion = 27;
    dense27b.llmContextTokens = 400;
    // 34.46 tokens/s at 370 W; the model gives 44.3 at 350 W (board power changes no bandwidth).
    EXPECT_LT(34.46 / model.throughput(Catalog::builtin().require("RTX 3090"), dense27b), 0.8);
    // The RTX 4090's 51.96 tokens/s (laurimyllari-2026) against the model's 51.3.
    EXPECT_NEAR(51.96 / model.throughput(Catalog::builtin().require("RTX 4090"), dense27b), 1.0, 0.03);
}

TEST(PowerLimitSweeps, TheCalculatorsFigureForAMeasuredPointIsItsOwnWorkAtTheSweepsBoardPower) {
    const perf::PerfModel model(Catalog::builtin());
    const auto& cat = Catalog::builtin();
    // The seed's RTX 2080 Ti at 200 of 250 W: BERT-large inference, nearly all clock-bound, so the
    // cube root of the power, 0.928.
    const auto seed = sweepsOn(cat, cat.require("RTX 2080 Ti"), perf::Metric::Fp16Inference);
    ASSERT_EQ(seed.size(), 1u);
    EXPECT_NEAR(calculatorFigure(model, cat, *seed.front()), std::cbrt(200.0 / 250.0), 0.002);
    // A partner RTX 5090 whose 100% is 600 W, not the catalog's 575: at 400 W the law's clock is
    // the floor's, (2/3)^(1/3) = 0.874, not that of 400 / 575.
    for (const auto& m : builtinPowerLimitSweeps()) {
        if (m.source == kRtx5090Sweep && m.limitWatts == 400) {
            Gpu g = cat.require("RTX 5090");
            g.tdpW = 600;
            const double share = clockBoundShare(model, g, m.query);
            EXPECT_NEAR(calculatorFigure(model, cat, m), 1.0 / (share / std::cbrt(2.0 / 3.0) + 1.0 - share), 1e-9);
        }
    }
}

TEST(PowerLimitSweeps, AMeasuredPointTheCalculatorMissesNearTheLimitIsNamed) {
    const perf::PerfModel model(Catalog::builtin());
    const auto& cat = Catalog::builtin();
    const Gpu& rtx3090 = cat.require("RTX 3090");
    const auto tokens = sweepsOn(cat, rtx3090, perf::Metric::LlmDecode);
    // At 200 W the single 3090's 0.644 against the calculator's 0.909 (the six-card split's 0.941
    // at the same limit is within 3 points): named, and called optimistic.
    const auto deep = notableMissNear(model, cat, tokens, 200);
    ASSERT_TRUE(deep.has_value());
    EXPECT_EQ(deep->point->source, kSingle3090Sweep);
    EXPECT_EQ(deep->point->limitWatts, 200);
    EXPECT_NEAR(deep->calculator, 0.909, 0.002);
    EXPECT_EQ(describeMiss(*deep, rtx3090),
              "at 200 W this card measured 64.4% of full speed (llm-decode, 27.0B int4 at 2,000 tokens; "
              "jeanfbrito-2026) where the calculator gives 90.9%: read the figure above as optimistic");
    // Near is within a tenth of the 350 W board power: 235 W names the 200 W point, 136 W the 150 W
    // one (48 points off), and 250 W neither (its own point is 1.5 points off, 200 W is 50 W away).
    EXPECT_EQ(notableMissNear(model, cat, tokens, 235)->point->limitWatts, 200);
    EXPECT_EQ(notableMissNear(model, cat, tokens, 136)->point->limitWatts, 150);
    EXPECT_FALSE(notableMissNear(model, cat, tokens, 250).has_value());
    // Near 300 W every point is within 10 points: nothing to name.
    EXPECT_FALSE(notableMissNear(model, cat, tokens, 300).has_value());
    // The seed's own point, 0.1 points off: nothing.
    const Gpu& rtx2080ti = cat.require("RTX 2080 Ti");
    EXPECT_FALSE(notableMissNear(model, cat, sweepsOn(cat, rtx2080ti, perf::Metric::Fp16Inference), 200).has_value());
    // A pessimistic miss says so: the RTX PRO 6000's 7B prompt at 200 W (0.548 measured, 0.321).
    const Gpu& pro6000 = cat.require("RTX PRO 6000 Blackwell");
    const auto prompt = notableMissNear(model, cat, sweepsOn(cat, pro6000, perf::Metric::LlmPrefill), 200);
    ASSERT_TRUE(prompt.has_value());
    EXPECT_NE(describeMiss(*prompt, pro6000).find("as pessimistic"), std::string::npos);
}

TEST(PowerLimitSweeps, ABadSweepFileNamesTheLineAndFieldOfEveryBadCell) {
    const std::string header = "source,gpu,board_watts,limit_watts,metric,workload,params_billion,"
                               "active_params_billion,weights,context,measured_relative,note\n";
    const std::string good = "x,RTX 3090,350,200,llm-prefill,,8,,int4,512,0.6,n\n";
    EXPECT_EQ(readPowerLimitSweeps(header + good, "sweeps.csv").size(), 1u);
    const auto problems = testing::problemsOf([&] {
        readPowerLimitSweeps(header + good + "x,RTX 3090,350,400,llm-dcode,,8,,int3,512,-1,n\n", "sweeps.csv");
    });
    EXPECT_EQ(problems, (std::vector<std::string>{
                            "sweeps.csv:3: field 'limit_watts': is above the board power of 350 W",
                            "sweeps.csv:3: field 'measured_relative': must be a positive number, got '-1'",
                            "sweeps.csv:3: field 'metric': is not a metric: 'llm-dcode'",
                        }));
    // An LLM row's own fields: its weights and a context that fits a count of tokens.
    EXPECT_EQ(testing::problemsOf([&] {
                  readPowerLimitSweeps(header + "x,RTX 3090,350,200,llm-decode,,8,,int3,1e12,0.9,n\n", "sweeps.csv");
              }),
              (std::vector<std::string>{
                  "sweeps.csv:2: field 'weights': must be fp16, int8, int4 or fp4, got 'int3'",
                  "sweeps.csv:2: field 'context': must be a whole number of tokens from 1 to 10,000,000, got '1e12'",
              }));
}

TEST(PowerLimitSweeps, ACardShowsItsOwnSweepsOfTheSameKindOfWork) {
    const auto& cat = Catalog::builtin();
    const auto prefill = sweepsOn(cat, cat.require("RTX 3090"), perf::Metric::LlmPrefill);
    ASSERT_EQ(prefill.size(), 4u); // llmgarage's long prompts at 300, 250, 200 and 150 W
    EXPECT_EQ(describeSweepWork(*prefill.front()), "llm-prefill, 229.0B (10.0B active) int4 at 198,000 tokens");
    EXPECT_EQ(sweepsOn(cat, cat.require("RTX 3090"), perf::Metric::Fp16Training).size(), 1u);     // Puget's
    EXPECT_EQ(sweepsOn(cat, cat.require("RTX 2080 Ti"), perf::Metric::Int8Inference).size(), 1u); // the seed's
    EXPECT_TRUE(sweepsOn(cat, cat.require("RTX 4080"), perf::Metric::LlmDecode).empty());
    // A card whose board power differs from the sweep's (a user's edited catalog) shows none.
    Gpu raised = cat.require("RTX 3090");
    raised.tdpW = 390;
    EXPECT_TRUE(sweepsOn(cat, raised, perf::Metric::LlmPrefill).empty());
}

TEST(PowerLimitSweeps, ACardSoldBelowItsChipsVoltageFloorIsFlagged) {
    // The sweeps are of cards at their own chip's top: a capped RTX PRO 6000 Blackwell was below its
    // floor at 300 W (video generation fell linearly from 330 W), and the 300 W Max-Q is that silicon.
    // Flagged: board power per SM under 2/3 of the chip's best-fed card's; not flagged at the top.
    const auto& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    const auto maxQ = lowPowerPart(model, cat.require("RTX PRO 6000 Max-Q"));
    ASSERT_TRUE(maxQ.has_value());
    EXPECT_NEAR(maxQ->powerPerSmRatio, (300.0 / 188) / (575.0 / 170), 1e-9);
    EXPECT_EQ(maxQ->chipTop, "RTX 5090");
    const std::string text = describeLowPowerPart(cat.require("RTX PRO 6000 Max-Q"), *maxQ);
    EXPECT_NE(text.find("47% of the RTX 5090's board power per SM on the same GB202"), std::string::npos) << text;
    const auto l4 = lowPowerPart(model, cat.require("L4"));
    ASSERT_TRUE(l4.has_value());
    EXPECT_NEAR(l4->powerPerSmRatio, (72.0 / 58) / (285.0 / 60), 1e-9);
    // The DGX Spark's GB10 against the RTX 5070 whose SMs it shares on another chip.
    const auto spark = lowPowerPart(model, cat.require("DGX Spark"));
    ASSERT_TRUE(spark.has_value());
    const std::string sparkText = describeLowPowerPart(cat.require("DGX Spark"), *spark);
    EXPECT_NE(sparkText.find("56% of the RTX 5070's board power per SM on the same SMs (GB205)"), std::string::npos)
        << sparkText;
    // At or near the top of their chips: the sweeps' own cards, and a 300 W card with few SMs.
    for (const char* top : {"RTX PRO 6000 Blackwell", "RTX 3090", "RTX 2080 Ti", "RTX 4090", "RTX 5060 Ti 16GB",
                            "RTX PRO 5000 48GB", "RTX A6000"}) {
        EXPECT_FALSE(lowPowerPart(model, cat.require(top)).has_value()) << top;
    }
}

} // namespace
} // namespace advisor::calc
