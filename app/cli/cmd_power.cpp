// `gpu-advisor power-limit` and `gpu-advisor psu`: power, PSU and wall circuit.
#include "calc/power_limit.h"
#include "calc/power_sweeps.h"
#include "calc/psu.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "common/format.h"
#include "perf/llm_throughput.h"
#include "perf/model.h"

#include <ostream>

namespace advisor::cli {
namespace {

int powerLimit(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const Gpu& g = ctx.catalog().require(args.required("gpu"), "--gpu");
    const Settings s = ctx.settings();
    calc::PowerLimitInput in;
    in.limitWatts = args.requiredNumber("limit-watts");
    in.count = gpuCount(args, 64).value_or(1);
    in.utilization = args.fraction("utilization").value_or(s.utilization);
    in.kwhPriceUsd = args.number("kwh-price").value_or(s.electricityUsdPerKwh);
    // The clock-bound share of the chosen workload, from the performance model's time shares.
    const PerfOptions perf = perfOptions(args, GpuSetup::One); // the clock-bound share of one GPU
    refuseLlmOptionsWithoutLlmMetric(args, perf);
    perf::PerfQuery q = perf.query;
    q.metric = perf.metric.value_or(perf::Metric::Fp16Training);
    q.gpus = 1;
    const perf::PerfModel model(ctx.catalog());
    in.clockBoundShare = calc::clockBoundShare(model, g, q);
    const auto r = calc::powerLimit(g, in);
    // The card's own measured sweeps of this kind of work, beside the prediction.
    const auto measured = calc::sweepsOn(ctx.catalog(), g, q.metric);
    const auto lowPower = calc::lowPowerPart(model, g);
    const auto miss = calc::notableMissNear(model, ctx.catalog(), measured, in.limitWatts);
    if (ctx.json()) {
        nlohmann::json lowPowerJson = nullptr;
        if (lowPower) {
            lowPowerJson = {{"power_per_sm_ratio", lowPower->powerPerSmRatio},
                            {"chip_top", lowPower->chipTop},
                            {"note", calc::describeLowPowerPart(g, *lowPower)}};
        }
        nlohmann::json sweeps = nlohmann::json::array();
        for (const auto* m : measured) {
            sweeps.push_back({{"source", m->source},
                              {"board_watts", m->boardWatts},
                              {"limit_watts", m->limitWatts},
                              {"work", calc::describeSweepWork(*m)},
                              {"relative_performance", m->measuredRelative},
                              {"calculator_relative_performance", calc::calculatorFigure(model, ctx.catalog(), *m)},
                              {"note", m->note}});
        }
        nlohmann::json curve = nlohmann::json::array();
        for (const auto& c : calc::powerCurve(g, in.clockBoundShare)) {
            curve.push_back({{"watts", c.watts}, {"relative_performance", c.relativePerformance}});
        }
        ctx.printJson({{"gpu", g.name},
                       {"tdp_watts", g.tdpW},
                       {"limit_watts", in.limitWatts},
                       {"count", in.count},
                       {"valid_range_watts", {r.range.minimumWatts, r.range.maximumWatts}},
                       {"metric", perf::toString(q.metric)},
                       {"workload", perf::toString(q.workload)},
                       {"clock_bound_share", in.clockBoundShare},
                       {"clock_ratio", r.clockRatio},
                       {"below_voltage_floor", r.belowVoltageFloor},
                       {"relative_performance", r.relativePerformance},
                       {"slowdown_pct", r.slowdownPct},
                       {"worst_case_relative_performance", r.worstCaseRelativePerformance},
                       {"saved_watts", r.savedWatts},
                       {"saved_kwh_per_year", r.savedKwhPerYear},
                       {"saved_usd_per_year", r.savedUsdPerYear},
                       {"perf_per_watt_gain", r.perfPerWattGain},
                       {"curve", curve},
                       {"measured", sweeps},
                       {"sold_below_chip_voltage_floor", lowPowerJson},
                       {"measured_miss_near_limit", miss ? nlohmann::json{{"limit_watts", miss->point->limitWatts},
                                                                          {"source", miss->point->source},
                                                                          {"relative_performance",
                                                                           miss->point->measuredRelative},
                                                                          {"calculator_relative_performance",
                                                                           miss->calculator},
                                                                          {"note", calc::describeMiss(*miss, g)}}
                                                        : nlohmann::json(nullptr)}});
        return 0;
    }
    auto& o = ctx.out();
    o << g.name << " x" << in.count << " limited to " << format::number(in.limitWatts, 0) << " W (TDP "
      << format::number(g.tdpW, 0) << " W):\n";
    o << "  clock ~" << format::percent(r.clockRatio, 1)
      << (r.belowVoltageFloor ? " (below 2/3 of the TDP the voltage is at its floor: the clock falls linearly)\n"
                              : " (power ~ clock^3)\n");
    o << "  " << perf::toString(q.metric) << " "
      << (perf::isLlm(q.metric) ? describeLlm(q) : std::string(perf::toString(q.workload))) << ": "
      << format::percent(r.relativePerformance, 1) << " of full speed (" << format::number(r.slowdownPct, 1)
      << "% slower; " << format::percent(in.clockBoundShare, 0) << " of its time is clock-bound)\n";
    o << "  worst case (fully clock-bound, like the seed's BERT-large inference): "
      << format::number((1 - r.worstCaseRelativePerformance) * 100, 1) << "% slower\n";
    o << "  saves " << format::number(r.savedWatts, 0) << " W, " << format::number(r.savedKwhPerYear, 0)
      << " kWh and " << format::money(r.savedUsdPerYear) << " a year at " << format::percent(in.utilization, 0)
      << " utilization; performance per watt x" << format::number(r.perfPerWattGain, 2) << '\n';
    if (lowPower) {
        o << "  caution: " << calc::describeLowPowerPart(g, *lowPower) << '\n';
    }
    if (miss) {
        o << "  caution: " << calc::describeMiss(*miss, g) << '\n';
    }
    if (!measured.empty()) {
        o << "  measured on this card (the sweeps the calculator is checked on), and the calculator for that work:\n";
        for (const auto* m : measured) {
            o << "    " << format::number(m->limitWatts, 0) << " W: " << format::percent(m->measuredRelative, 1)
              << " of full speed (" << calc::describeSweepWork(*m) << "; " << calc::sweepSource(*m, g)
              << "); calculator " << format::percent(calc::calculatorFigure(model, ctx.catalog(), *m), 1) << '\n';
        }
    }
    return 0;
}

int psu(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    calc::PsuInput in;
    const Gpu* g = nullptr;
    if (const auto name = args.value("gpu")) {
        g = &ctx.catalog().require(*name, "--gpu");
        in.gpu = g;
        in.gpuWatts = g->tdpW;
    }
    if (const auto w = args.number("gpu-watts")) {
        if (g != nullptr) {
            throw UsageError("give --gpu or --gpu-watts, not both");
        }
        in.gpuWatts = *w;
    } else if (g == nullptr) {
        throw UsageError("missing --gpu NAME or --gpu-watts W");
    }
    if (const auto limit = args.number("limit-watts")) {
        if (g != nullptr) {
            if (const auto problem = calc::powerLimitProblem(*g, *limit)) {
                throw InputError({"--limit-watts", 0, "", ""}, *problem);
            }
        }
        in.gpuWatts = *limit;
    }
    in.gpuCount = gpuCount(args, 64).value_or(1);
    in.cpuWatts = args.number("cpu-watts").value_or(ctx.settings().cpuWatts);
    in.otherWatts = args.number("other-watts").value_or(100);
    in.bufferPct = args.number("buffer-pct").value_or(10);
    in.psuEfficiency = args.number("psu-efficiency").value_or(0.9);
    const auto r = calc::sizePsu(in);
    const auto psuWatts = args.number("psu-watts", 1, 100000); // a PSU of 0 W or less is a typo, not "too small"
    const auto verdict = psuWatts ? std::optional(calc::judgePsu(in, r, *psuWatts)) : std::nullopt;
    const bool psuOk = !verdict || verdict->sufficient;
    if (ctx.json()) {
        nlohmann::json circuits = nlohmann::json::array();
        for (const auto& c : r.circuits) {
            circuits.push_back({{"name", c.name},
                                {"continuous_watts", c.continuousWatts},
                                {"wall_draw_watts", c.wallDrawWatts},
                                {"fits", c.fits}});
        }
        nlohmann::json j = {{"gpu_watts", in.gpuWatts},
                            {"count", in.gpuCount},
                            {"cpu_watts", in.cpuWatts},
                            {"other_watts", in.otherWatts},
                            {"buffer_pct", in.bufferPct},
                            {"required_watts", r.requiredWatts},
                            {"with_buffer_watts", r.withBufferWatts},
                            {"recommended_psu_watts", r.recommendedPsuWatts > 0 ? nlohmann::json(r.recommendedPsuWatts)
                                                                                : nlohmann::json(nullptr)},
                            {"connectors",
                             {{"pcie_8pin", r.connectors.pcie8Pin},
                              {"12vhpwr", r.connectors.hpwr16Pin},
                              {"eps_8pin", r.connectors.eps8Pin},
                              {"notes", r.connectors.notes}}},
                            {"circuits", circuits},
                            {"notes", r.notes}};
        if (psuWatts) {
            j["psu_watts"] = *psuWatts;
            j["psu_sufficient"] = psuOk;
            j["psu_fit_limit_watts"] = verdict->fix ? nlohmann::json(verdict->fix->limitWatts) : nlohmann::json(nullptr);
        }
        ctx.printJson(j);
        return 0;
    }
    auto& o = ctx.out();
    o << in.gpuCount << " x " << format::number(in.gpuWatts, 0) << " W + CPU " << format::number(in.cpuWatts, 0)
      << " W + other " << format::number(in.otherWatts, 0) << " W = " << format::number(r.requiredWatts, 0) << " W; +"
      << format::number(in.bufferPct, 0) << "% = " << format::number(r.withBufferWatts, 0) << " W\n";
    if (r.recommendedPsuWatts > 0) {
        o << "Recommended PSU: " << format::number(r.recommendedPsuWatts, 0) << " W\n";
    }
    if (psuWatts) {
        o << "Your " << format::number(*psuWatts, 0) << " W PSU: " << verdict->text << '\n';
    }
    if (g != nullptr) {
        const auto cables = calc::describeCables(r.connectors);
        o << "Cables: " << (cables.empty() ? "none (powered through the PCIe slot)" : cables) << '\n';
        for (const auto& n : r.connectors.notes) {
            o << "  " << n << '\n';
        }
    }
    for (const auto& c : r.circuits) {
        o << c.name << ": " << (c.fits ? "fits" : "does NOT fit") << " (" << format::number(c.wallDrawWatts, 0)
          << " W from the wall, " << format::number(c.continuousWatts, 0) << " W continuous)\n";
    }
    for (const auto& n : r.notes) {
        o << "note: " << n << '\n';
    }
    return psuOk ? 0 : 1;
}

} // namespace

Command powerLimitCommand() {
    return {"power-limit", "speed, watts and money of a GPU power limit",
            "Usage: gpu-advisor power-limit --gpu NAME --limit-watts W [--count N | --gpus N] [--metric M] [--workload W]\n"
            "                               [--utilization F|P%] [--kwh-price USD]\n\n"
            "Power ~ clock^3, so the clock falls with the cube root of the limit; below about 2/3 of the\n"
            "TDP the voltage is at its floor and the clock falls linearly, to zero at the quarter of the\n"
            "TDP that memory, fans and regulators draw. Only the clock-bound part of the workload (from\n"
            "the performance model; of LLM token generation, " +
                format::percent(perf::kDecodeReadsClockBoundShare, 0) +
                " of its reads' time - their work at the\n"
                "core clock - not its fixed time per token, mostly the host's) slows down. The\n"
            "worst case - fully clock-bound, like the seed's RTX 2080 Ti BERT-large measurement (-50 W,\n"
            "about -7%) - is shown too. Limits above the TDP or below about 30% of it are rejected with\n"
            "the valid range. A card sold at under 2/3 of its chip's top board power per SM (RTX PRO 6000\n"
            "Max-Q, L4, H100 PCIe) gets a caution: the floor is counted from its own TDP, and no such part\n"
            "was measured below it (JSON: sold_below_chip_voltage_floor). The card's own measured sweeps\n"
            "of this kind of work are listed (a partner card's at its own stock limit within 5% of the\n"
            "TDP too, named with its board power), each with what the calculator gives for its work\n"
            "(JSON: measured, with board_watts and calculator_relative_performance); where one within\n"
            "10% of the TDP of the limit is missed by over 10 points, a caution says so (JSON:\n"
            "measured_miss_near_limit).\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return powerLimit(ctx, Args::parse(rest, perfOptionSpecs({{"gpu"}, {"limit-watts"}, {"count"}, {"gpus"},
                                                                          {"utilization"}, {"kwh-price"}},
                                                                         GpuSetup::One)));
            }};
}

Command psuCommand() {
    return {"psu", "PSU size, power cables and the wall circuit for a build",
            "Usage: gpu-advisor psu (--gpu NAME | --gpu-watts W) --count N|--gpus N [--cpu-watts W] [--other-watts W]\n"
            "                       [--limit-watts W] [--buffer-pct P] [--psu-efficiency F] [--psu-watts W]\n\n"
            "Hardware guide: GPUs + CPU + other parts (100 W), plus 10%, rounded up to a standard PSU size\n"
            "(4 x 250 W + 150 W + 100 W = 1250 W, +10% = 1375 W, buy 1400 W). Also the PCIe power cables\n"
            "and whether the build fits US 15 A / 20 A (80% continuous) and EU 16 A circuits.\n"
            "With --psu-watts, exits 1 when that PSU is too small. --cpu-watts defaults to your cpu_watts\n"
            "setting.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return psu(ctx, Args::parse(rest, {{"gpu"}, {"gpu-watts"}, {"count"}, {"gpus"}, {"cpu-watts"}, {"other-watts"},
                                                   {"limit-watts"}, {"buffer-pct"}, {"psu-efficiency"}, {"psu-watts"}}));
            }};
}

} // namespace advisor::cli
