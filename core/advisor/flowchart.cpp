#include "advisor/flowchart.h"

#include "common/embedded_resources.h"
#include "common/format.h"
#include "common/json_fields.h"
#include "value/gpu_price.h"
#include "common/text.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>

#include <algorithm>
#include <functional>
#include <set>

namespace advisor::advice {

std::optional<std::string> Node::next(std::string_view choice) const {
    for (const auto& [c, target] : answers) {
        if (c == choice) {
            return target;
        }
    }
    return std::nullopt;
}

Flowchart Flowchart::fromJson(std::string_view textIn, const std::string& fileLabel, const Catalog& catalog) {
    const nlohmann::json doc = parseJsonDocument(textIn, fileLabel);
    // Answers are offered in the file's order; the plain parser sorts object keys.
    const auto ordered = parseJsonDocument<nlohmann::ordered_json>(textIn, fileLabel);
    const JsonFields top(doc, {fileLabel, 0, "", ""});
    Flowchart chart;
    chart.id_ = top.requireString("id");
    chart.title_ = top.optionalString("title").value_or(chart.id_);
    chart.source_ = top.optionalString("source").value_or("");
    chart.start_ = top.requireString("start");
    const auto* nodes = top.find("nodes");
    if (nodes == nullptr || !nodes->is_object() || nodes->empty()) {
        top.fail("nodes", "must be an object of nodes");
    }
    for (const auto& [id, j] : nodes->items()) {
        const JsonFields f(j, {fileLabel, 0, "node '" + id + "'", ""});
        Node n;
        n.id = id;
        const std::string type = f.requireString("type");
        if (type != "question" && type != "leaf") {
            f.fail("type", "must be 'question' or 'leaf', got '" + type + "'");
        }
        n.type = type == "leaf" ? Node::Type::Leaf : Node::Type::Question;
        n.text = f.requireString("text");
        n.why = f.optionalString("why").value_or("");
        n.budgetQuestion = f.optionalString("kind").value_or("") == "budget";
        if (const auto* gpus = f.find("gpus")) {
            if (!gpus->is_array()) {
                f.fail("gpus", "must be a list");
            }
            for (size_t i = 0; i < gpus->size(); ++i) {
                const std::string field = "gpus[" + std::to_string(i) + "]";
                const JsonFields g((*gpus)[i], {fileLabel, 0, "node '" + id + "'", field});
                GpuChoice c;
                c.gpuId = g.requireString("id");
                const Gpu* gpu = catalog.findById(c.gpuId);
                if (gpu == nullptr) {
                    f.fail(field + ".id", "'" + c.gpuId + "' is not a GPU in the catalog");
                }
                c.gpuName = gpu->name;
                if (const auto cond = g.optionalString("condition")) {
                    c.condition = parseCondition(*cond);
                    if (!c.condition) {
                        f.fail(field + ".condition", "must be 'new' or 'used'");
                    }
                }
                c.share = g.optionalPositive("share").value_or(1.0);
                n.gpus.push_back(c);
            }
        }
        if (n.type == Node::Type::Question) {
            const auto* answers = f.find("answers");
            if (answers == nullptr || !answers->is_object() || answers->size() < 2) {
                f.fail("answers", "a question needs at least two answers");
            }
            for (const auto& [choice, target] : ordered.at("nodes").at(id).at("answers").items()) {
                if (!target.is_string()) {
                    f.fail("answers." + choice, "must name the next node");
                }
                if (choice.empty() || choice != text::toLower(text::trim(choice))) {
                    f.fail("answers." + choice, "must be lower case without surrounding spaces (answers are "
                                                "matched ignoring case)");
                }
                n.answers.emplace_back(choice, target.get<std::string>());
            }
            if (n.budgetQuestion && n.gpus.empty()) {
                f.fail("gpus", "a budget question must name the GPUs whose price decides it");
            }
            if (n.budgetQuestion && (!n.next("yes") || !n.next("no"))) {
                f.fail("answers", "a budget question must have 'yes' and 'no' answers");
            }
        } else {
            n.cloud = f.optionalString("cloud").value_or("");
            n.advice = f.optionalString("advice").value_or("");
            if (n.gpus.empty() && n.cloud.empty() && n.advice.empty()) {
                f.fail("gpus", "a leaf must name GPUs, a cloud option or advice");
            }
        }
        chart.nodes_.emplace(id, std::move(n));
    }
    if (chart.nodes_.count(chart.start_) == 0) {
        top.fail("start", "names no node: '" + chart.start_ + "'");
    }
    // Every answer leads somewhere; every path ends in a leaf (no cycles).
    for (const auto& [id, n] : chart.nodes_) {
        for (const auto& [choice, target] : n.answers) {
            if (chart.nodes_.count(target) == 0) {
                throw InputError({fileLabel, 0, "node '" + id + "'", "answers." + choice},
                                 "leads to a node that does not exist: '" + target + "'");
            }
        }
    }
    std::set<std::string> done, onPath;
    std::function<void(const std::string&)> visit = [&](const std::string& id) {
        if (done.count(id) != 0) {
            return;
        }
        if (!onPath.insert(id).second) {
            throw InputError({fileLabel, 0, "node '" + id + "'", "answers"}, "is part of a cycle: a path never ends in a leaf");
        }
        for (const auto& [choice, target] : chart.nodes_.at(id).answers) {
            visit(target);
        }
        onPath.erase(id);
        done.insert(id);
    };
    visit(chart.start_);
    for (const auto& [id, n] : chart.nodes_) {
        if (done.count(id) == 0) {
            throw InputError({fileLabel, 0, "node '" + id + "'", ""}, "cannot be reached from the start");
        }
    }
    return chart;
}

Flowchart Flowchart::dettmers2023(const Catalog& catalog) {
    const auto data = resources::find("flowcharts/dettmers-2023.json");
    if (!data) {
        throw AdvisorError("the 2023 flowchart was not built into this program");
    }
    return fromJson(*data, "resources/flowcharts/dettmers-2023.json", catalog);
}

const Node& Flowchart::node(const std::string& id) const {
    return nodes_.at(id);
}

FlowchartSession::FlowchartSession(const Flowchart& chart, PriceLookup prices, std::optional<double> budgetUsd)
    : chart_(chart), prices_(std::move(prices)), budget_(budgetUsd), current_(chart.start()) {}

const Node& FlowchartSession::current() const {
    return chart_.node(current_);
}

namespace {

// "yes or no", "vision, language or both"
std::string choiceList(const std::vector<std::string>& choices) {
    std::string out;
    for (size_t i = 0; i < choices.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    return out;
}

} // namespace

void FlowchartSession::answer(const std::string& choice) {
    const Node& n = current();
    if (n.isLeaf()) {
        throw InputError({"flowchart", 0, "", "answer"}, "the chart has ended ('" + n.text + "'); go back or restart");
    }
    const auto next = n.next(text::toLower(text::trim(choice)));
    if (!next) {
        std::vector<std::string> choices;
        for (const auto& [c, t] : n.answers) {
            choices.push_back(c);
        }
        throw InputError({"flowchart", 0, "", "answer"}, "'" + choice + "' is not an answer to \"" + n.text +
                                                             "\"; choose " + choiceList(choices));
    }
    path_.push_back({n.id, n.text, text::toLower(text::trim(choice)), false, ""});
    current_ = *next;
}

std::optional<Step> FlowchartSession::suggestion() const {
    const Node& n = current();
    if (!n.budgetQuestion || !budget_ || !prices_) {
        return std::nullopt;
    }
    // Within budget when the cheapest listed GPU (in its condition) costs no more than the budget.
    std::optional<double> cheapest;
    std::string which;
    for (const auto& g : n.gpus) {
        if (const auto p = prices_(g.gpuId, g.condition)) {
            if (!cheapest || *p < *cheapest) {
                cheapest = *p;
                which = g.gpuName + (g.condition ? std::string(" ") + toString(*g.condition) : "");
            }
        }
    }
    if (!cheapest) {
        return std::nullopt;
    }
    const bool yes = *cheapest <= *budget_;
    return Step{n.id, n.text, yes ? "yes" : "no", true,
                which + " " + format::money(*cheapest) + (yes ? " <= " : " > ") + "budget " + format::money(*budget_)};
}

bool FlowchartSession::answerSuggestion() {
    const auto s = finished() ? std::nullopt : suggestion();
    if (!s) {
        return false;
    }
    current_ = *current().next(s->answer);
    path_.push_back(*s);
    return true;
}

void FlowchartSession::answerAutomatically() {
    while (answerSuggestion()) {
    }
}

bool FlowchartSession::back() {
    if (path_.empty()) {
        return false;
    }
    // Undo automatic steps together with the user's answer before them.
    while (!path_.empty() && path_.back().automatic) {
        current_ = path_.back().nodeId;
        path_.pop_back();
    }
    if (!path_.empty()) {
        current_ = path_.back().nodeId;
        path_.pop_back();
    }
    return true;
}

PriceLookup priceLookupFrom(const std::vector<Price>& prices, PriceRule fallback) {
    auto byGpu = std::make_shared<std::map<std::string, std::vector<Price>>>();
    for (const auto& p : prices) {
        (*byGpu)[p.gpuId].push_back(p);
    }
    return [byGpu, fallback](const std::string& id, std::optional<Condition> c) -> std::optional<double> {
        const auto it = byGpu->find(id);
        if (it == byGpu->end()) {
            return std::nullopt;
        }
        const PriceRule rule = !c ? fallback : (*c == Condition::New ? PriceRule::NewestNew : PriceRule::NewestUsed);
        const auto chosen = value::choosePrice(it->second, rule);
        return chosen ? std::optional<double>(chosen->usd) : std::nullopt;
    };
}

bool FlowchartSession::rewindTo(size_t step) {
    if (step >= path_.size()) {
        return false;
    }
    current_ = path_[step].nodeId;
    path_.resize(step);
    return true;
}

void FlowchartSession::restart() {
    path_.clear();
    current_ = chart_.start();
}

} // namespace advisor::advice
