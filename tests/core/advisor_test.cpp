// Tests for core/advisor's flowchart: the engine, the shipped 2023 chart and answering its budget
// questions from prices (the live recommender is tested in recommender_test.cpp).
#include "advisor/flowchart.h"
#include "catalog/catalog.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace advisor::advice
