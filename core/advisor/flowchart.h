#pragma once
/// \file
/// Data-driven decision trees (resources/flowcharts/). Questions have named answers (yes/no
/// or more), leaves name catalog GPUs, a cloud option or advice. "Within your budget?"
/// questions list the GPUs (and new/used) whose price decides them.

#include "catalog/catalog.h"
#include "prices/price.h"
#include "prices/settings.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor::advice {

struct GpuChoice {
    std::string gpuId;
    std::string gpuName;                ///< the catalog's name, for messages
    std::optional<Condition> condition; ///< new/used when the chart says so
    double share = 1.0;                 ///< part of a mixed purchase (e.g. 0.8 / 0.2)
};

struct Node {
    enum class Type { Question, Leaf };
    std::string id;
    Type type = Type::Question;
    std::string text;
    std::string why;
    // questions
    bool budgetQuestion = false;
    std::vector<GpuChoice> gpus; ///< budget questions: the GPUs priced; leaves: the recommendation
    std::vector<std::pair<std::string, std::string>> answers; ///< choice -> next node; yes, no, then others
    // leaves
    std::string cloud;  ///< provider(s) when the leaf recommends renting
    std::string advice; ///< text when the leaf names no GPU

    bool isLeaf() const { return type == Type::Leaf; }
    std::optional<std::string> next(std::string_view choice) const;
};

class Flowchart {
public:
    /// Parses and validates: the start exists, every answer leads to an existing node, every path
    /// ends in a leaf (no cycles), every GPU named exists in the catalog, leaves have text, budget
    /// questions name GPUs. Throws InputError naming the file, node and field.
    static Flowchart fromJson(std::string_view text, const std::string& fileLabel, const Catalog& catalog);
    /// The shipped chart (resources/flowcharts/dettmers-2023.json).
    static Flowchart dettmers2023(const Catalog& catalog);

    const std::string& id() const { return id_; }
    const std::string& title() const { return title_; }
    const std::string& source() const { return source_; }
    const std::string& start() const { return start_; }
    const Node& node(const std::string& id) const;
    const std::map<std::string, Node>& nodes() const { return nodes_; }

private:
    std::string id_, title_, source_, start_;
    std::map<std::string, Node> nodes_;
};

/// The price of a GPU in a condition (USD), if known: how budget questions are answered.
using PriceLookup = std::function<std::optional<double>(const std::string& gpuId, std::optional<Condition>)>;

/// A lookup over a price history: the newest price of the condition asked for, or by
/// `fallback` when the chart does not say new or used.
PriceLookup priceLookupFrom(const std::vector<Price>& prices, PriceRule fallback);

struct Step {
    std::string nodeId;
    std::string question;
    std::string answer;
    bool automatic = false; ///< answered from the budget and prices
    std::string reason;     ///< why the automatic answer ("RTX 4090 new $1,599 <= budget $2,000")
};

/// A walk through a chart: answer, back, restart, the path taken. With a budget, budget
/// questions whose GPUs have prices are answered automatically; the user can override.
class FlowchartSession {
public:
    FlowchartSession(const Flowchart& chart, PriceLookup prices = {}, std::optional<double> budgetUsd = std::nullopt);

    const Node& current() const;
    bool finished() const { return current().isLeaf(); }
    const std::vector<Step>& path() const { return path_; }

    /// Answers the current question; throws InputError listing the valid choices.
    void answer(const std::string& choice);
    /// The automatic answer for the current question, if it is a budget question with known prices.
    std::optional<Step> suggestion() const;
    /// Applies the current question's suggestion, if there is one.
    bool answerSuggestion();
    /// Applies suggestions until a question needs the user (or a leaf is reached).
    void answerAutomatically();
    /// Steps back over the last answer (automatic answers are undone with it); false at the start.
    bool back();
    /// Goes back to the question of path step `step` (0-based), dropping it and later answers -
    /// how the user overrides an automatic budget answer. False when there is no such step.
    bool rewindTo(size_t step);
    void restart();
    void setBudget(std::optional<double> budgetUsd) { budget_ = budgetUsd; }
    std::optional<double> budget() const { return budget_; }

private:
    const Flowchart& chart_;
    PriceLookup prices_;
    std::optional<double> budget_;
    std::string current_;
    std::vector<Step> path_;
};

} // namespace advisor::advice
