// Token generation for a server that promises each request a speed (`--min-sequence-speed`): of
// the sequences that fit, the most that each still generate that many tokens/s, checked against the
// model's own figures for that many sequences and one more.
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "perf/sequences_at_speed.h"
#include "perf/sequences_that_fit.h"
#include "perf_test_support.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace advisor::perf {
namespace {

PerfQuery servedAt(const char* model, Precision weights, int context, double speed, LlmEngine engine, int gpus = 1) {
    PerfQuery q;
    q.metric = Metric::LlmDecode;
    q.llmWeights = weights;
    q.llmContextTokens = context;
    q.llmEngine = engine;
    q.gpus = gpus;
    calc::applyModelShape(q, *calc::findModelShape(model));
    q.llmSequencesFillMemory = true;
    q.llmMinSequenceSpeed = speed;
    return q;
}

// Each of `sequences`' tokens/s, asked for as that many sequences.
double speedOfEach(const Gpu& g, PerfQuery q, int sequences) {
    q.llmSequencesFillMemory = false;
    q.llmMinSequenceSpeed.reset();
    q.llmSequences = sequences;
    return model().throughput(g, q) / sequences;
}

struct Case {
    const char* gpu;
    const char* model;
    Precision weights;
    int context;
    LlmEngine engine;
    int gpus;
};

TEST(SequencesAtSpeed, TheMostThatEachKeepTheSpeedAndNotOneMore) {
    const Case cases[] = {
        {"RTX 4090", "llama-3.1-8b", Precision::Int4, 512, LlmEngine::LlamaCpp, 1},
        {"RTX 3090", "qwen2.5-7b", Precision::Int8, 4096, LlmEngine::LlamaCpp, 1},
        {"L40S", "llama-3.1-8b", Precision::Int8, 2048, LlmEngine::TensorRtLlm, 1},
        {"H100 SXM5", "llama-3.1-70b", Precision::Int8, 2048, LlmEngine::TensorRtLlm, 2},
    };
    int limitedBySpeed = 0;
    for (const Case& c : cases) {
        const Gpu& g = cat().require(c.gpu);
        for (const double speed : {8.0, 20.0, 35.0, 60.0}) {
            const PerfQuery q = servedAt(c.model, c.weights, c.context, speed, c.engine, c.gpus);
            const std::string what = std::string(c.gpu) + " at " + std::to_string(speed) + " tokens/s";
            const int fit = llmSequencesThatFit(g, q);
            ASSERT_GT(fit, 1) << what;
            const int n = model().sequencesRun(g, q);
            ASSERT_GE(n, 1) << what;
            ASSERT_LE(n, fit) << what;
            // The figure is the model's for that many sequences, asked for by number.
            EXPECT_DOUBLE_EQ(model().throughput(g, q), speedOfEach(g, q, n) * n) << what;
            if (speedOfEach(g, q, 1) < speed) {
                EXPECT_EQ(n, 1) << what;
                continue;
            }
            EXPECT_GE(speedOfEach(g, q, n), speed) << what;
            if (n < fit) {
                ++limitedBySpeed;
                EXPECT_LT(speedOfEach(g, q, n + 1), speed) << what;
            }
        }
    }
    EXPECT_GE(limitedBySpeed, 6); // most cases stop short of the memory
}

// The bisection's premise: each sequence's speed never rises as sequences join, on any catalog card,
// in llama.cpp, in the engine split by tensors, and split by layers (micro-batches that divide the
// sequences unevenly: 6 over 4 cards run as 2, 2, 1, 1, each step as long as a step of 2).
TEST(SequencesAtSpeed, EachSequencesSpeedNeverRisesAsSequencesJoin) {
    const PerfQuery queries[] = {
        servedAt("llama-3.1-8b", Precision::Int4, 2048, 1.0, LlmEngine::LlamaCpp),
        servedAt("llama-3.1-70b", Precision::Int8, 2048, 1.0, LlmEngine::TensorRtLlm, 2),
        [] {
            PerfQuery q = servedAt("llama-3.1-70b", Precision::Fp4, 2000, 1.0, LlmEngine::TensorRtLlm, 4);
            q.llmSplit = LlmSplit::Layers;
            return q;
        }(),
    };
    int checked = 0;
    for (const PerfQuery& q : queries) {
        for (const Gpu& g : cat().gpus()) {
            const int fit = std::min(llmSequencesThatFit(g, q), 160);
            double previous = fit > 0 ? speedOfEach(g, q, 1) : 0.0;
            for (int n = 2; n <= fit; ++n) {
                const double now = speedOfEach(g, q, n);
                ASSERT_LE(now, previous * (1 + 1e-9)) << g.name << ", " << n << " sequences";
                previous = now;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 10000);
}

TEST(SequencesAtSpeed, AllThatFitWhenEachKeepsItAndOneWhenNotEvenOneDoes) {
    const Gpu& g = cat().require("RTX 4090");
    PerfQuery q = servedAt("llama-3.1-8b", Precision::Int4, 512, 1.0, LlmEngine::LlamaCpp);
    const int fit = llmSequencesThatFit(g, q);
    EXPECT_EQ(model().sequencesRun(g, q), fit);
    PerfQuery all = q;
    all.llmMinSequenceSpeed.reset();
    EXPECT_DOUBLE_EQ(model().throughput(g, q), model().throughput(g, all));
    const Prediction p = model().explain(g, q);
    EXPECT_EQ(p.llmSequences, fit);
    bool saidAll = false;
    for (const auto& n : p.notes) {
        saidAll = saidAll || n.find("all " + std::to_string(fit) + " that fit keep it") != std::string::npos;
    }
    EXPECT_TRUE(saidAll);
    // One sequence alone reads 4.85 GB a token at under 1,008 GB/s: under 210 tokens/s.
    q.llmMinSequenceSpeed = 500.0;
    EXPECT_EQ(model().sequencesRun(g, q), 1);
    bool saidNone = false;
    for (const auto& n : model().explain(g, q).notes) {
        saidNone = saidNone || n.find("not even one alone gets it") != std::string::npos;
    }
    EXPECT_TRUE(saidNone);
}

TEST(SequencesAtSpeed, TheExplanationSaysWhatOneMoreWouldGet) {
    const Gpu& g = cat().require("RTX 4090");
    const PerfQuery q = servedAt("llama-3.1-8b", Precision::Int4, 512, 30.0, LlmEngine::LlamaCpp);
    const int n = model().sequencesRun(g, q);
    const int fit = llmSequencesThatFit(g, q);
    ASSERT_LT(n, fit);
    const Prediction p = model().explain(g, q);
    EXPECT_EQ(p.llmSequences, n);
    EXPECT_NE(factorNamed(p, std::to_string(n) + " sequences at once"), nullptr);
    const std::string expected = std::to_string(n) + " at once keep it";
    const std::string oneMore = "with " + std::to_string(n + 1) + ", ";
    bool said = false;
    for (const auto& note : p.notes) {
        if (note.find(expected) != std::string::npos &&
            note.find("of the " + std::to_string(fit) + " that would fit") != std::string::npos) {
            const auto at = note.find(oneMore);
            ASSERT_NE(at, std::string::npos) << note;
            // What one more would get reads as below the speed, however close (19.997, not 20.0).
            EXPECT_LT(std::stod(note.substr(at + oneMore.size())), 30.0) << note;
            said = true;
        }
    }
    EXPECT_TRUE(said) << expected;
    // The same on a setup whose next sequence falls short by less than 0.05 tokens/s.
    const Gpu& pro = cat().require("RTX PRO 6000 Blackwell Server Edition");
    PerfQuery close = servedAt("llama-3.1-70b", Precision::Fp4, 2000, 20.0, LlmEngine::TensorRtLlm, 4);
    const int m = model().sequencesRun(pro, close);
    ASSERT_GT(speedOfEach(pro, close, m + 1), 19.95);
    bool closeSaid = false;
    for (const auto& note : model().explain(pro, close).notes) {
        if (const auto at = note.find("with " + std::to_string(m + 1) + ", "); at != std::string::npos) {
            const double shown = std::stod(note.substr(at + std::to_string(m + 1).size() + 7));
            EXPECT_LT(shown, 20.0) << note;
            closeSaid = true;
        }
    }
    EXPECT_TRUE(closeSaid);
    // A faster promise serves fewer.
    PerfQuery faster = q;
    faster.llmMinSequenceSpeed = 60.0;
    EXPECT_LT(model().sequencesRun(g, faster), n);
}

} // namespace
} // namespace advisor::perf
