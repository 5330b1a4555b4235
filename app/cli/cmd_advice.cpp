// `gpu-advisor flowchart` (the 2023 chart as data) and `gpu-advisor recommend` (the live recommender).
#include "advisor/flowchart.h"
#include "advisor/model_memory.h"
#include "advisor/recommender.h"
#include "calc/memory.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "common/format.h"
#include "common/text.h"
#include "value/gpu_price.h"

#include <map>
#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json nodeJson(const advice::Node& n, const Catalog& catalog, const advice::PriceLookup& prices) {
    nlohmann::json j = {{"id", n.id}, {"text", n.text}, {"why", n.why}};
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : n.gpus) {
        const Gpu* gpu = catalog.findById(g.gpuId);
        const auto price = prices ? prices(g.gpuId, g.condition) : std::nullopt;
        gpus.push_back({{"gpu", gpu->name},
                        {"gpu_id", g.gpuId},
                        {"condition", g.condition ? nlohmann::json(toString(*g.condition)) : nlohmann::json(nullptr)},
                        {"share", g.share},
                        {"memory_gb", gpu->memoryGb},
                        {"tdp_w", gpu->tdpW},
                        {"price_usd", price ? nlohmann::json(*price) : nlohmann::json(nullptr)}});
    }
    j["gpus"] = gpus;
    if (n.isLeaf()) {
        j["cloud"] = n.cloud.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.cloud);
        j["advice"] = n.advice.empty() ? nlohmann::json(nullptr) : nlohmann::json(n.advice);
    } else {
        nlohmann::json choices = nlohmann::json::array();
        for (const auto& [c, t] : n.answers) {
            choices.push_back(c);
        }
        j["choices"] = choices;
        j["budget_question"] = n.budgetQuestion;
    }
    return j;
}

int flowchart(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const auto chart = advice::Flowchart::dettmers2023(ctx.catalog());
    const auto budget = args.number("budget", 0, 1e9);
    advice::PriceLookup prices;
    if (budget || args.has("prices")) {
        prices = advice::priceLookupFrom(ctx.db().prices(), ctx.db().settings().priceRule);
    }
    advice::FlowchartSession session(chart, prices, budget);
    std::vector<std::string> answers;
    if (const auto a = args.value("answers")) {
        for (const auto& part : text::split(*a, ',')) {
            if (!text::trim(part).empty()) {
                answers.emplace_back(text::trim(part));
            }
        }
    }
    size_t next = 0;
    // Answers given win over the budget's (an override); the budget answers what is left.
    while (!session.finished()) {
        if (next < answers.size()) {
            session.answer(answers[next++]);
        } else if (session.suggestion()) {
            session.answerAutomatically();
        } else {
            break;
        }
    }
    if (next < answers.size()) {
        throw InputError({"--answers", 0, "", ""}, "the chart ended after " + std::to_string(next) +
                                                       " answers; '" + answers[next] + "' and later were not used");
    }
    const auto& node = session.current();
    if (ctx.json()) {
        nlohmann::json path = nlohmann::json::array();
        for (const auto& s : session.path()) {
            path.push_back({{"node", s.nodeId},
                            {"question", s.question},
                            {"answer", s.answer},
                            {"automatic", s.automatic},
                            {"reason", s.reason}});
        }
        ctx.printJson({{"chart", chart.title()},
                       {"source", chart.source()},
                       {"finished", session.finished()},
                       {node.isLeaf() ? "leaf" : "question", nodeJson(node, ctx.catalog(), prices)},
                       {"path", path}});
        return 0;
    }
    auto& o = ctx.out();
    for (const auto& s : session.path()) {
        o << "  " << s.question << " -> " << s.answer << (s.automatic ? " (" + s.reason + ")" : "") << '\n';
    }
    if (node.isLeaf()) {
        o << "Recommendation: " << node.text << '\n';
        if (!node.advice.empty()) {
            o << "  " << node.advice << '\n';
        }
        if (!node.why.empty()) {
            o << "  why: " << node.why << '\n';
        }
    } else {
        o << "Next question: " << node.text << " (";
        for (size_t i = 0; i < node.answers.size(); ++i) {
            o << (i ? " / " : "") << node.answers[i].first;
        }
        o << ")\n  why this question: " << node.why << "\n  answer with --answers "
          << (answers.empty() ? "" : text::join(answers, ",") + ",") << node.answers.front().first << '\n';
    }
    return 0;
}

nlohmann::json candidateJson(const advice::Candidate& c) {
    return {{"gpu", c.gpu->name},
            {"gpu_id", c.gpu->id},
            {"count", c.count},
            {"memory_gb", c.gpu->memoryGb},
            {"condition", toString(c.condition)},
            {"price_usd", c.unitPriceUsd},
            {"price_basis", c.priceBasis},
            {"total_price_usd", c.unitPriceUsd * c.count},
            {"tco_usd", c.tco.totalUsd},
            {"relative_performance", c.relativePerformance},
            {"throughput", c.throughput},
            {"perf_per_dollar", c.perfPerDollar},
            {"memory_headroom_gb", c.memoryHeadroomGb},
            {"partly_in_ram", c.partlyInRam},
            {"llm_split", c.llmSplit ? nlohmann::json(perf::toString(*c.llmSplit)) : nlohmann::json()},
            {"tdp_w", c.gpu->tdpW},
            {"reasons", c.reasons},
            {"caveats", c.caveats}};
}

int recommend(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    advice::RecommendInput in;
    in.settings = ctx.db().settings();
    in.budgetUsd = args.requiredNumber("budget");
    const std::string precision = args.value("precision").value_or("16bit");
    if (precision != "8bit" && precision != "16bit" && precision != "4bit" && precision != "fp4") {
        throw UsageError("--precision must be 8bit or 16bit (or 4bit or fp4 for --task inference --domain llm), got " +
                         text::quoteForMessage(precision));
    }
    in.eightBit = precision == "8bit";
    if (const auto t = args.value("task")) {
        const auto task = advice::parseTask(*t);
        if (!task) {
            throw UsageError("--task must be train, fine-tune or inference");
        }
        in.task = *task;
    }
    if (const auto d = args.value("domain")) {
        const auto domain = advice::parseDomain(*d);
        if (!domain) {
            throw UsageError("--domain must be transformers, cnn, llm or image-generation");
        }
        in.domain = *domain;
    }
    if (precision == "4bit" || precision == "fp4") {
        // 4-bit weights (llama.cpp Q4_K_M; or 4-bit floats, MXFP4 / NVFP4, on Blackwell's FP4
        // tensor cores) are an LLM-inference choice; training keeps 16 bits.
        if (in.task != advice::Task::Inference || in.domain != advice::Domain::Llm) {
            throw UsageError("--precision " + precision + " is for LLM inference: add --task inference --domain llm");
        }
        in.llmWeights = precision == "fp4" ? perf::Precision::Fp4 : perf::Precision::Int4;
    }
    if (const auto context = args.integer("context", 1, perf::kMaxContextTokens)) {
        // The context sizes an LLM's KV cache: in the memory it needs and in what each token reads.
        if (in.task != advice::Task::Inference || in.domain != advice::Domain::Llm || args.has("memory-gb")) {
            throw UsageError("--context sizes an LLM's KV cache: give it with --task inference --domain llm and "
                             "--params-billion or --model");
        }
        in.llmContextTokens = context;
    }
    if (args.has("sequences") || args.has("min-sequence-speed")) {
        // Requests served at once: each keeps its own KV cache, and they generate together.
        if (in.task != advice::Task::Inference || in.domain != advice::Domain::Llm || args.has("memory-gb")) {
            throw UsageError(std::string(args.has("sequences") ? "--sequences" : "--min-sequence-speed") +
                             " is the requests an LLM serves at once: give it with --task inference --domain llm "
                             "and --params-billion or --model");
        }
        perf::PerfQuery served;
        readSequences(args, served.llmSequences, served.llmSequencesFillMemory);
        readMinSequenceSpeed(args, served);
        in.llmSequences = served.llmSequences;
        in.llmSequencesFillMemory = served.llmSequencesFillMemory;
        in.llmMinSequenceSpeed = served.llmMinSequenceSpeed;
    }
    if (args.has("engine") || args.has("split")) {
        // The software serving the model: llama.cpp's kernels or a serving engine's, and how the
        // engine splits it over a setup's cards.
        if (in.task != advice::Task::Inference || in.domain != advice::Domain::Llm) {
            throw UsageError(std::string(args.has("engine") ? "--engine is the software serving an LLM"
                                                            : "--split is how a serving engine splits an LLM") +
                             ": give it with --task inference --domain llm");
        }
        perf::PerfQuery engine;
        readEngine(args, engine, &in.llmSplitFastest);
        in.llmEngine = engine.llmEngine;
        in.llmSplit = engine.llmSplit;
    }
    if (args.has("system-ram")) {
        // Cards too small for the model run it with the rest in RAM, as llama.cpp does.
        if (in.task != advice::Task::Inference || in.domain != advice::Domain::Llm) {
            throw UsageError("--system-ram lets a card too small for an LLM keep the rest in RAM: give it with "
                             "--task inference --domain llm");
        }
        perf::PerfQuery ram;
        readSystemRam(args, true, ram);
        in.systemRamGbs = ram.systemRamGbs;
    }
    args.refuseTogether({"memory-gb"}, {"params-billion", "model"});
    args.refuseTogether({"model"}, {"params-billion"});
    nlohmann::json memoryBasis = nullptr; // how --params-billion or --model became gigabytes
    std::string memoryBasisText;
    const calc::ModelShape* namedModel = nullptr;
    if (const auto name = args.value("model")) {
        namedModel = calc::findModelShape(*name);
        if (namedModel == nullptr) {
            throw UsageError("--model must be one of " + calc::modelShapeIds() + ", got '" + *name + "'");
        }
    }
    if (const auto m = args.number("memory-gb")) {
        in.memoryGb = *m;
    } else if (const auto p = args.number("params-billion"); p || namedModel != nullptr) {
        // The task decides the mode; a named model brings its size and shape.
        const calc::MemoryInput mem = advice::sizeMemoryForModel(in, p.value_or(0), namedModel);
        memoryBasis = {{"params_billion", mem.paramsBillion},
                       {"model", namedModel != nullptr ? nlohmann::json(namedModel->id) : nlohmann::json()},
                       {"mode", calc::toString(mem.mode)},
                       {"weights", perf::toString(mem.weights)}};
        if (mem.contextTokens) {
            memoryBasis["context_tokens"] = *mem.contextTokens; // only when given: the object stays as it was
        }
        if (args.has("sequences") || args.has("min-sequence-speed")) {
            memoryBasis["sequences"] = in.llmSequences;
            memoryBasis["sequences_fill_memory"] = in.llmSequencesFillMemory; // sized for one; each card holds more
            if (in.llmMinSequenceSpeed) {
                memoryBasis["min_sequence_speed"] = *in.llmMinSequenceSpeed;
            }
        }
        if (args.has("engine")) {
            memoryBasis["engine"] = perf::toString(in.llmEngine);
        }
        if (args.has("split")) {
            memoryBasis["split"] = in.llmSplitFastest ? "fastest" : perf::toString(in.llmSplit);
        }
        memoryBasisText = " (" + advice::describeMemoryBasis(mem) + "; 'gpu-advisor memory' itemises it)";
    } else {
        throw UsageError("missing --memory-gb N (or --params-billion P or --model ID to compute it)");
    }
    in.usedOk = !args.has("new-only");
    in.maxGpus = args.integer("gpus", 1, 16).value_or(1);
    in.organization = args.has("organization");
    if (const auto r = args.value("rank")) {
        const auto rank = advice::parseRankBy(*r);
        if (!rank) {
            throw UsageError("--rank must be perf-per-dollar or speed");
        }
        in.rankBy = *rank;
    }
    in.shortlistSize = args.integer("top", 1, 100).value_or(5);
    if (const auto y = args.number("years")) {
        in.settings.years = *y;
    }
    if (const auto u = args.fraction("utilization")) {
        in.settings.utilization = *u;
    }
    const perf::PerfModel model(ctx.db().catalog());
    const auto rec = advice::recommend(ctx.db().catalog(), model, ctx.db().prices(), ctx.db().cloudOffers(), in);
    if (ctx.json()) {
        nlohmann::json candidates = nlohmann::json::array();
        for (const auto& c : rec.shortlist) {
            candidates.push_back(candidateJson(c));
        }
        nlohmann::json alternatives = nlohmann::json::array();
        for (const auto& c : rec.alternatives) {
            alternatives.push_back(candidateJson(c));
        }
        ctx.printJson({{"metric", perf::toString(rec.metric)},
                       {"workload", perf::toString(rec.workload)},
                       {"memory_gb", in.memoryGb},
                       {"memory_basis", memoryBasis},
                       {"budget_usd", in.budgetUsd},
                       {"rank_by", toString(in.rankBy)},
                       {"perf_per_dollar_anchor", rec.perDollarAnchor},
                       {"candidates", candidates},
                       {"runner_up", rec.shortlist.size() > 1 ? candidateJson(rec.shortlist[1]) : nlohmann::json(nullptr)},
                       {"alternatives", alternatives},
                       {"cloud",
                        {{"recommended", rec.cloud.recommended},
                         {"offer", rec.cloud.offer},
                         {"break_even_days", rec.cloud.breakEvenDays ? nlohmann::json(*rec.cloud.breakEvenDays)
                                                                     : nlohmann::json(nullptr)},
                         {"reason", rec.cloud.reason}}},
                       {"notes", rec.notes}});
        return 0;
    }
    auto& o = ctx.out();
    // The engine the LLM's tokens/s are for, when not llama.cpp's (the default), and its split.
    const bool servingEngine = perf::isLlm(rec.metric) && in.llmEngine == perf::LlmEngine::TensorRtLlm;
    const std::string metric = std::string(perf::toString(rec.metric)) + (servingEngine ? " in TensorRT-LLM" : "") +
                               (!servingEngine       ? ""
                                : in.llmSplitFastest ? " (several cards split whichever way is faster)"
                                : in.llmSplit != perf::LlmSplit::Tensors
                                    ? std::string(" (several cards split by ") + perf::toString(in.llmSplit) + ")"
                                    : std::string());
    o << "Needs " << format::gigabytes(in.memoryGb) << memoryBasisText << ", budget " << format::money(in.budgetUsd)
      << ", ranked by "
      << (in.rankBy == advice::RankBy::Speed ? "speed in " + metric
                                             : metric + " per dollar (" + rec.perDollarAnchor + ")")
      << '\n';
    int rank = 0;
    for (const auto& c : rec.shortlist) {
        o << ++rank << ". " << (c.count > 1 ? std::to_string(c.count) + " x " : "") << c.gpu->name
          << (c.partlyInRam ? " + system RAM" : "") << " (" << toString(c.condition) << ", "
          << format::money(c.unitPriceUsd) << ")\n";
        for (const auto& r : c.reasons) {
            o << "     + " << r << '\n';
        }
        for (const auto& cv : c.caveats) {
            o << "     ! " << cv << '\n';
        }
    }
    if (rec.shortlist.empty()) {
        o << "No GPU fits this memory and budget.\n";
    }
    if (!rec.alternatives.empty()) {
        o << "For the same money:\n";
        for (const auto& a : rec.alternatives) {
            o << "  - " << a.reasons.front() << '\n';
        }
    }
    const char* cloudVerdict = rec.cloud.recommended     ? "recommended"
                               : rec.cloud.offer.empty() ? "not compared"
                                                         : "not needed";
    o << "Cloud: " << cloudVerdict << " - " << rec.cloud.reason
      << (rec.cloud.offer.empty() ? "" : " [" + rec.cloud.offer + "]") << '\n';
    for (const auto& n : rec.notes) {
        o << "note: " << n << '\n';
    }
    return 0;
}

} // namespace

Command flowchartCommand() {
    return {"flowchart", "walk Tim Dettmers' 2023 recommendation chart",
            "Usage: gpu-advisor flowchart [--answers yes,no,...] [--budget USD]\n\n"
            "Prints the next question (with why it is asked) or the recommendation and the path taken.\n"
            "With --budget, 'within your budget?' questions are answered from your price database\n"
            "(newest new or used price of the GPUs named) once --answers run out; an answer you give\n"
            "always wins over the budget's.\n"
            "--prices shows the database's price of each GPU named without answering for you.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return flowchart(ctx, Args::parse(rest, {{"answers"}, {"budget"}, {"prices", false}}));
            }};
}

Command recommendCommand() {
    return {"recommend", "a ranked shortlist of GPUs for your work, memory and budget",
            "Usage: gpu-advisor recommend (--memory-gb N | --params-billion P | --model ID) --budget USD\n"
            "                             [--precision 8bit|16bit|4bit|fp4] [--task train|fine-tune|inference]\n"
            "                             [--domain transformers|cnn|llm|image-generation] [--new-only]\n"
            "                             [--gpus N] [--organization] [--rank perf-per-dollar|speed]\n"
            "                             [--top N] [--years N] [--utilization F|P%] [--context TOKENS]\n"
            "                             [--sequences N|max] [--min-sequence-speed T] [--system-ram RAM]\n"
            "                             [--engine llama.cpp|tensorrt-llm\n"
            "                              [--split tensors|layers|experts|fastest]]\n\n"
            "Ranks the GPUs that hold the memory (on up to --gpus cards) and fit the budget by performance\n"
            "per dollar (total cost of ownership, your settings), with reasons and caveats; lists what the\n"
            "same money buys in several cards; and recommends the cloud when buying would not pay off\n"
            "within --years. --organization leaves out GeForce cards (NVIDIA's driver licence does not\n"
            "allow them in data centers) and used prices, and allows server modules (SXM/OAM).\n"
            "--rank speed picks the fastest setup within the budget instead (money is no object).\n"
            "--precision 4bit (LLM inference only) sizes and ranks for 4-bit weights (llama.cpp Q4_K_M;\n"
            "with --engine tensorrt-llm, INT4 AWQ); --precision fp4 for 4-bit floats (MXFP4; NVFP4 in the\n"
            "engine), which Blackwell's tensor cores multiply at their FP4 rate.\n"
            "--params-billion sizes the memory with 'gpu-advisor memory': inference, fine-tune as QLoRA\n"
            "(4-bit weights), train as full training; the first line says which. --model does the same\n"
            "with a published model's size and shape ('gpu-advisor memory --help' lists them).\n"
            "--context (LLM inference) is the tokens each reply reads: it sizes the KV cache in the memory\n"
            "needed and in the tokens/s ranked (default: 4,096 for the memory, 512 for the speed).\n"
            "--sequences (LLM inference) is the requests served at once: each keeps its own KV cache in\n"
            "the memory needed, and the tokens/s ranked is theirs together (default 1); --sequences max\n"
            "serves as many as each card holds beside the weights in 90% of its memory (vLLM's default),\n"
            "the memory needed being one's, so cards rank by what they serve at full load;\n"
            "--min-sequence-speed T serves, of those, as many as each still get T tokens/s, so cards rank\n"
            "by what they serve at the reading speed you promise each request.\n"
            "--system-ram (LLM inference: ddr5-5600, ddr4-3200x4 or GB/s) also ranks the cards too small\n"
            "for the model, up to --gpus of a card where the budget buys them, at llama.cpp's speed with\n"
            "the rest in that RAM (gpu-advisor perf --help says how); they are marked '+ system RAM'.\n"
            "--engine (LLM inference) ranks by the tokens/s of llama.cpp (default) or of a serving engine,\n"
            "TensorRT-LLM (gpu-advisor perf --help says how). --split says how the engine splits a model\n"
            "over a setup's cards: by tensors (default; NVLink, or two cards), by layers (PCIe cards at\n"
            "full load), by experts (a mixture of experts: each card its own requests and a share of the\n"
            "experts), or whichever runs each setup fastest (fastest; each candidate's caveat says which).\n"
            "The cloud is the offer that does the work for least per hour among those seen within a year\n"
            "of the newest offer; an older one only when no recent one holds the memory, and it says so.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                std::vector<OptionSpec> specs = {{"memory-gb"},    {"params-billion"},
                                                 {"model"},        {"budget"},
                                                 {"precision"},    {"task"},
                                                 {"domain"},       {"new-only", false},
                                                 {"gpus"},         {"organization", false},
                                                 {"rank"},         {"top"},
                                                 {"years"},        {"utilization"},
                                                 {"context"},      {"sequences"},
                                                 {"engine"},       {"split"},
                                                 systemRamOption()};
                specs.push_back({"min-sequence-speed"});
                return recommend(ctx, Args::parse(rest, specs));
            }};
}

} // namespace advisor::cli
