// Tests for core/calc: power limits, PSU and wall circuit, build check (memory needs: memory_test.cpp).
// Data-driven where the seeds give numbers.
#include "calc/build_check.h"
#include "calc/power_limit.h"
#include "calc/power_sweeps.h"
#include "calc/psu.h"
#include "catalog/catalog.h"
#include "common/format.h"

#include "support/input_problems.h"

#include <gtest/gtest.h>

#include <cmath>

namespace advisor::calc {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

// What the refused input said (the whole message), empty when it was accepted.
std::string errorOf(const std::function<void()>& fn) {
    return testing::messageOf(fn);
}

// --- power limit ------------------------------------------------------------------------

TEST(PowerLimit, FiftyWattsOffAnRtx2080TiCostsAboutSevenPercent) {
    // Seed: "Limiting the power by 50W ... decreases performance by only 7%" (BERT-large inference,
    // the workload that stresses the GPU most -> fully clock-bound).
    PowerLimitInput in;
    in.limitWatts = 200;
    in.clockBoundShare = 1.0;
    const auto r = powerLimit(cat().require("RTX 2080 Ti"), in);
    EXPECT_NEAR(r.slowdownPct, 7.0, 0.5);
    EXPECT_NEAR(r.clockRatio, std::cbrt(0.8), 1e-12);
    EXPECT_DOUBLE_EQ(r.savedWatts, 50);
    EXPECT_GT(r.perfPerWattGain, 1.15);
}

TEST(PowerLimit, MemoryBoundWorkLosesLess) {
    const double full = relativePerformance(200, 250, 1.0);
    const double mixed = relativePerformance(200, 250, 0.4);
    const double memory = relativePerformance(200, 250, 0.0);
    EXPECT_LT(full, mixed);
    EXPECT_LT(mixed, memory);
    EXPECT_DOUBLE_EQ(memory, 1.0);
    EXPECT_DOUBLE_EQ(relativePerformance(250, 250, 1.0), 1.0);
}

TEST(PowerLimit, FourRtx3090sAt300WSave200W) {
    PowerLimitInput in;
    in.limitWatts = 300;
    in.count = 4;
    in.utilization = 0.15;
    in.kwhPriceUsd = 0.175;
    const auto r = powerLimit(cat().require("RTX 3090"), in);
    EXPECT_DOUBLE_EQ(r.savedWatts, 200); // seed: "a saving of 200W"
    EXPECT_NEAR(r.savedKwhPerYear, 200 * 0.15 * 8.76, 1e-9);
}

TEST(PowerLimit, InvalidLimitsSayTheValidRange) {
    PowerLimitInput in;
    in.limitWatts = 300;
    EXPECT_EQ(errorOf([&] { powerLimit(cat().require("RTX 2080 Ti"), in); }),
              "power limit: field 'limit_watts': is above the board power (TDP) of 250 W; valid range for RTX 2080 "
              "Ti: 75-250 W");
    in.limitWatts = 50;
    EXPECT_EQ(errorOf([&] { powerLimit(cat().require("RTX 2080 Ti"), in); }),
              "power limit: field 'limit_watts': is below the card's minimum; valid range for RTX 2080 Ti: 75-250 W");
    // The savings' inputs: -50% utilization "saved -219 kWh" before.
    in.limitWatts = 200;
    in.utilization = -0.5;
    EXPECT_EQ(errorOf([&] { powerLimit(cat().require("RTX 2080 Ti"), in); }),
              "power limit: field 'utilization': must be a fraction between 0 and 1 (0.15 = 15%)");
    in.utilization = 1.0;
    // An electricity price in the settings' range, as every calculator takes it (1e9 was accepted).
    for (const double price : {-1.0, 1e9}) {
        in.kwhPriceUsd = price;
        EXPECT_EQ(errorOf([&] { powerLimit(cat().require("RTX 2080 Ti"), in); }),
                  "power limit: field 'kwh_price': must be between 0 and 10 USD per kWh");
    }
}

TEST(PowerLimit, CurveRisesToFullSpeedAtTheTdp) {
    const auto curve = powerCurve(cat().require("RTX 4090"), 0.6, 10);
    ASSERT_EQ(curve.size(), 10u);
    EXPECT_DOUBLE_EQ(curve.back().watts, 450);
    EXPECT_DOUBLE_EQ(curve.back().relativePerformance, 1.0);
    for (size_t i = 1; i < curve.size(); ++i) {
        EXPECT_GT(curve[i].relativePerformance, curve[i - 1].relativePerformance);
    }
}

TEST(PowerLimit, BelowTwoThirdsOfTheTdpTheClockFallsLinearlyToTheClockIndependentPower) {
    // Above the voltage floor the seed's cube root; below it power ~ clock on top of a quarter of
    // the TDP that does not follow the clock: continuous at the floor, zero clock at 25%.
    const double tdp = 350;
    const double floorWatts = tdp * 2.0 / 3.0;
    EXPECT_FALSE(belowVoltageFloor(floorWatts, tdp));
    EXPECT_TRUE(belowVoltageFloor(floorWatts - 1, tdp));
    EXPECT_NEAR(clockRatio(floorWatts, tdp), std::cbrt(2.0 / 3.0), 1e-12);
    EXPECT_NEAR(clockRatio(floorWatts - 1e-9, tdp), std::cbrt(2.0 / 3.0), 1e-9);
    // Halfway between the clock-independent power (87.5 W) and the floor (233.3 W): half the floor's clock.
    EXPECT_NEAR(clockRatio((87.5 + floorWatts) / 2, tdp), std::cbrt(2.0 / 3.0) / 2, 1e-12);
    // An RTX 3090 at 200 W: 0.674 of its clock (the cube root: 0.830); fully clock-bound work at 0.674.
    EXPECT_NEAR(clockRatio(200, tdp), std::cbrt(2.0 / 3.0) * (200.0 / 350 - 0.25) / (2.0 / 3.0 - 0.25), 1e-12);
    EXPECT_NEAR(clockRatio(200, tdp), 0.674, 0.001);
    // At the drivers' 30% floor the clock is low but not zero.
    EXPECT_GT(clockRatio(0.3 * tdp, tdp), 0.05);
    EXPECT_LT(clockRatio(0.3 * tdp, tdp), 0.15);
    PowerLimitInput in;
    in.limitWatts = 200;
    const auto r = powerLimit(cat().require("RTX 3090"), in);
    EXPECT_TRUE(r.belowVoltageFloor);
    in.limitWatts = 280;
    EXPECT_FALSE(powerLimit(cat().require("RTX 3090"), in).belowVoltageFloor);
}

// --- PSU ------------------------------------------------------------------------------------

struct PsuCase {
    const char* name;
    double gpuWatts;
    int count;
    double cpu;
    double required;
    double withBuffer;
    double recommended;
};

class PsuSizing : public ::testing::TestWithParam<PsuCase> {};

TEST_P(PsuSizing, MatchesTheSeeds) {
    PsuInput in;
    in.gpuWatts = GetParam().gpuWatts;
    in.gpuCount = GetParam().count;
    in.cpuWatts = GetParam().cpu;
    const auto r = sizePsu(in);
    EXPECT_DOUBLE_EQ(r.requiredWatts, GetParam().required);
    EXPECT_NEAR(r.withBufferWatts, GetParam().withBuffer, 1e-9);
    EXPECT_DOUBLE_EQ(r.recommendedPsuWatts, GetParam().recommended);
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, PsuSizing,
    ::testing::Values(
        // Hardware guide: 4 x 250 W + 150 W + 100 W = 1250 W, +10% = 1375 W, buy 1400 W.
        PsuCase{"guide_example", 250, 4, 150, 1250, 1375, 1400},
        // 2023 post: 4x RTX 3090 at 350 W is too tight for 1600 W ...
        PsuCase{"rtx3090x4_350W", 350, 4, 150, 1650, 1815, 2000},
        // ... and workable at a 300 W limit.
        PsuCase{"rtx3090x4_300W", 300, 4, 150, 1450, 1595, 1600},
        PsuCase{"one_rtx4090", 450, 1, 125, 675, 742.5, 750}),
    [](const ::testing::TestParamInfo<PsuCase>& p) { return std::string(p.param.name); });

TEST(Psu, ConnectorsAndCircuits) {
    PsuInput in;
    in.gpu = &cat().require("RTX 3090");
    in.gpuWatts = 350;
    in.gpuCount = 4;
    in.cpuWatts = 150;
    auto r = sizePsu(in);
    EXPECT_EQ(r.connectors.pcie8Pin, 8); // 12-pin Founders Edition = 2 x 8-pin each
    ASSERT_EQ(r.circuits.size(), 3u);
    EXPECT_DOUBLE_EQ(r.circuits[0].continuousWatts, 1440); // 120 V x 15 A x 80%
    EXPECT_FALSE(r.circuits[0].fits);                      // 1650 W / 0.9 from the wall
    EXPECT_TRUE(r.circuits[1].fits);                       // 20 A: 1920 W
    EXPECT_DOUBLE_EQ(r.circuits[2].continuousWatts, 3680);
    in.gpu = &cat().require("RTX 4090");
    in.gpuCount = 2;
    r = sizePsu(in);
    EXPECT_EQ(r.connectors.hpwr16Pin, 2);
    EXPECT_NE(r.connectors.notes.front().find("3 x 8-pin"), std::string::npos);
    EXPECT_EQ(describeCables(r.connectors), "2 x 12VHPWR/12V-2x6"); // the kinds not needed are not listed
    in.gpu = &cat().require("RTX A6000");
    EXPECT_EQ(sizePsu(in).connectors.eps8Pin, 2);
    EXPECT_EQ(describeCables(sizePsu(in).connectors), "2 x EPS 8-pin");
    EXPECT_EQ(describeCables(Connectors{1, 0, 2, {}}), "1 x PCIe 8-pin, 2 x EPS 8-pin");
    EXPECT_EQ(describeCables(Connectors{}), ""); // a slot-powered card (75 W)
    in.bufferPct = 150;
    EXPECT_EQ(errorOf([&] { sizePsu(in); }), "PSU: field 'buffer_pct': must be between 0 and 100");
}

TEST(Psu, AHighPowerCardOnAPsuCableGetsTheNoteOnPowerSpikes) {
    const auto spikeNote = [](const PsuInput& in) {
        for (const auto& n : sizePsu(in).notes) {
            if (n.rfind("power spikes:", 0) == 0) {
                return n;
            }
        }
        return std::string();
    };
    PsuInput in;
    in.gpu = &cat().require("RTX 4090");
    in.gpuWatts = 450;
    // PCIe CEM 5.0: up to 3x the sustained power for 100 us.
    EXPECT_NE(spikeNote(in).find("up to 3x its power (1,350 W)"), std::string::npos) << spikeNote(in);
    EXPECT_NE(spikeNote(in).find("ATX 2.x"), std::string::npos);
    in.gpuWatts = 240; // limited below the threshold
    EXPECT_EQ(spikeNote(in), "");
    in.gpu = &cat().require("H100 SXM5"); // a module on a server baseboard: no PSU cable
    in.gpuWatts = 700;
    EXPECT_EQ(spikeNote(in), "");
    in.gpu = nullptr; // watts alone: a card is assumed
    EXPECT_NE(spikeNote(in).find("(2,100 W)"), std::string::npos);
}

TEST(Psu, ThePowerLimitThatMakesAPsuEnough) {
    PsuInput in;
    in.gpu = &cat().require("RTX 3090");
    in.gpuWatts = 350;
    in.gpuCount = 4;
    in.cpuWatts = 150;
    // Seed: 4 x RTX 3090 need more than 1600 W; at 300 W each they fit (1,600 / 1.1 - 250) / 4 = 301.
    const auto fit = powerLimitForPsu(in, 1600);
    ASSERT_TRUE(fit);
    EXPECT_DOUBLE_EQ(fit->limitWatts, 300);
    EXPECT_NEAR(fit->worstSlowdown, 1 - std::cbrt(300.0 / 350.0), 1e-12);
    const auto verdict = judgePsu(in, 1600);
    EXPECT_FALSE(verdict.sufficient);
    ASSERT_TRUE(verdict.fix);
    EXPECT_EQ(verdict.text, "too small: the build needs 1,815 W with the 10% buffer; a power limit of 300 W per GPU "
                            "makes it enough (at most 5% slower)");
    EXPECT_FALSE(powerLimitForPsu(in, 2000)); // it fits already: no limit below the TDP is needed
    EXPECT_EQ(judgePsu(in, 2000).text, "enough");
    EXPECT_FALSE(powerLimitForPsu(in, 600)); // 29 W per card: below what an RTX 3090 can be limited to
    EXPECT_EQ(judgePsu(in, 600).text, "too small: the build needs 1,815 W with the 10% buffer");
    in.gpu = nullptr; // watts only: no card to limit
    EXPECT_FALSE(powerLimitForPsu(in, 1600));
}

// --- build check -------------------------------------------------------------------------------

bool has(const BuildReport& r, Severity s, const std::string& topic, const std::string& text = "") {
    for (const auto& f : r.findings) {
        if (f.severity == s && f.topic == topic && f.message.find(text) != std::string::npos) {
            return true;
        }
    }
    return false;
}

TEST(BuildCheck, FourRtx3090sNeedSpacingCoolingAndAPowerLimit) {
    const perf::PerfModel model(cat());
    BuildInput in;
    in.gpu = &cat().require("RTX 3090");
    in.count = 4;
    const auto r = checkBuild(in, model);
    EXPECT_TRUE(has(r, Severity::Critical, "fit", "extenders"));
    EXPECT_TRUE(has(r, Severity::Warning, "cooling"));
    EXPECT_TRUE(has(r, Severity::Warning, "power", "limiting each GPU to 300 W makes a 1,600 W PSU workable"));
    // Founders Edition 12-pin: two 8-pin cables per card, and no other kind listed.
    EXPECT_TRUE(has(r, Severity::Info, "power", "PSU cables: 8 x PCIe 8-pin"));
    EXPECT_FALSE(has(r, Severity::Info, "power", "12VHPWR"));
    EXPECT_TRUE(has(r, Severity::Info, "power", "up to 3x its power (1,050 W) for 0.1 ms")); // PCIe CEM 5.0
    EXPECT_EQ(r.findings.front().severity, Severity::Critical);
    EXPECT_GT(r.efficiency, 0.5);
    EXPECT_LT(r.efficiency, 1.0);
}

TEST(BuildCheck, APsuThatIsTooSmallGetsThePowerLimitThatMakesItFit) {
    const perf::PerfModel model(cat());
    BuildInput in;
    in.gpu = &cat().require("RTX 4090");
    in.count = 2;
    in.cpuWatts = 100;
    in.psuWatts = 1000;
    // 2 x 450 W + 100 W CPU + 100 W other = 1,100 W, 1,210 W with the buffer. At 350 W each:
    // (700 + 200) x 1.1 = 990 W; 360 W would need 1,012 W. Clock ~ power^(1/3): (350/450)^(1/3)
    // = 0.920, so at most 8% slower.
    const auto r = checkBuild(in, model);
    EXPECT_TRUE(has(r, Severity::Critical, "power",
                    "1,000 W PSU is too small: the build needs 1,210 W with a 10% buffer; limiting each GPU to 350 W "
                    "makes a 1,000 W PSU workable at most 8% slower"));
    in.psuWatts = 400; // no limit the card allows gets there: the message says so without a fix
    const auto hopeless = checkBuild(in, model);
    EXPECT_TRUE(has(hopeless, Severity::Critical, "power", "400 W PSU is too small"));
    EXPECT_FALSE(has(hopeless, Severity::Critical, "power", "limiting each GPU"));
}

TEST(BuildCheck, BlowerWorkstationCardsFitFourUp) {
    const perf::PerfModel model(cat());
    BuildInput in;
    in.gpu = &cat().require("RTX A6000");
    in.count = 4;
    const auto r = checkBuild(in, model);
    EXPECT_FALSE(has(r, Severity::Critical, "fit"));
    EXPECT_FALSE(has(r, Severity::Warning, "cooling"));
}

TEST(BuildCheck, LanesThreadsRamNetworkMixedAndModules) {
    const perf::PerfModel model(cat());
    BuildInput in;
    in.gpu = &cat().require("RTX 4090");
    in.count = 4;
    in.extenders = true;
    in.pcieLanesPerGpu = 4;
    in.cpuThreads = 6;
    in.ramGb = 16;
    in.machines = 2;
    in.networkGbps = 10;
    auto r = checkBuild(in, model);
    EXPECT_TRUE(has(r, Severity::Warning, "pcie", "x4 lanes per GPU cost"));
    EXPECT_TRUE(has(r, Severity::Warning, "cpu"));
    EXPECT_TRUE(has(r, Severity::Warning, "ram", "less than the largest GPU's 24 GB"));
    EXPECT_TRUE(has(r, Severity::Warning, "network", "at least 50 Gbit/s"));
    EXPECT_FALSE(has(r, Severity::Critical, "fit")); // extenders spread the cards

    in = {};
    in.gpu = &cat().require("RTX 4090");
    in.count = 1;
    in.extraGpu = &cat().require("RTX 3090");
    in.extraCount = 1;
    EXPECT_TRUE(has(checkBuild(in, model), Severity::Warning, "mixed", "slowest"));

    in = {};
    in.gpu = &cat().require("H100 SXM5");
    in.count = 8;
    EXPECT_TRUE(has(checkBuild(in, model), Severity::Critical, "form", "server baseboard"));
    in.gpu = &cat().require("H100 PCIe");
    in.count = 2;
    EXPECT_TRUE(has(checkBuild(in, model), Severity::Warning, "cooling", "passively cooled"));
    // The RTX PRO 6000's server card has the workstation card's chip but no fan of its own.
    in.gpu = &cat().require("RTX PRO 6000 Blackwell Server Edition");
    EXPECT_TRUE(has(checkBuild(in, model), Severity::Warning, "cooling", "passively cooled"));
    in.gpu = &cat().require("RTX PRO 6000 Blackwell");
    EXPECT_FALSE(has(checkBuild(in, model), Severity::Warning, "cooling", "passively cooled"));
    in.gpu = &cat().require("H100 PCIe");
    in.psuWatts = 850;
    EXPECT_TRUE(has(checkBuild(in, model), Severity::Critical, "power", "too small"));

    // A DGX Spark is a whole computer: not a card for a desktop, and not a module for a server.
    // Past that, a desktop's checks (lanes, RAM, PSU) do not apply, and there is no PSU to size.
    in = {};
    in.gpu = &cat().require("DGX Spark");
    in.count = 2;
    in.ramGb = 16;
    const auto spark = checkBuild(in, model);
    EXPECT_TRUE(has(spark, Severity::Critical, "form", "complete computer"));
    EXPECT_FALSE(has(spark, Severity::Critical, "form", "server baseboard"));
    EXPECT_EQ(spark.findings.size(), 1u);
    EXPECT_GT(spark.throughput, 0);
    PsuInput sparkPsu;
    sparkPsu.gpu = in.gpu;
    sparkPsu.gpuWatts = 140;
    EXPECT_EQ(testing::problemsOf([&] { sizePsu(sparkPsu); }),
              std::vector<std::string>{"PSU: field 'gpu': DGX Spark is a complete computer with its own power supply: "
                                       "there is no PSU to size"});
    const auto cables = connectorsFor(cat().require("DGX Spark"), 1);
    ASSERT_EQ(cables.notes.size(), 1u);
    EXPECT_EQ(cables.notes.front(), "DGX Spark is a complete computer with its own power supply: no PSU cable");
}

// The build's speed was the main type's alone: a power limit, a second GPU type and the
// user's reference GPU did not change it, and it was stated against a V100.
TEST(BuildCheck, ModelledSpeedCountsEveryGpuThePowerLimitAndTheSlowest) {
    const perf::PerfModel model(cat());
    const Gpu& rtx4090 = cat().require("RTX 4090");
    const Gpu& rtx3090 = cat().require("RTX 3090");
    BuildInput in;
    in.gpu = &rtx4090;
    in.count = 4;
    in.reference = &rtx4090;
    const auto full = checkBuild(in, model);
    // Four cards on x8 lanes: four times one, less the data-parallel overhead.
    EXPECT_NEAR(full.throughput / full.referenceThroughput, 4 * full.efficiency, 1e-9);
    EXPECT_GT(full.efficiency, 0.6);
    EXPECT_LT(full.efficiency, 1.0);
    EXPECT_EQ(describeSpeed(in, full).rfind(format::number(4 * full.efficiency, 2) + "x one RTX 4090 (fp16 transformer "
                                                "training; data-parallel efficiency ",
                                            0),
              0u)
        << describeSpeed(in, full);

    // 300 W of 450: the clock falls to (300/450)^(1/3) = 0.874; only the clock-bound share slows.
    in.powerLimitWatts = 300;
    const auto limited = checkBuild(in, model);
    EXPECT_LT(limited.powerLimitFactor, 1.0);
    EXPECT_GT(limited.powerLimitFactor, std::cbrt(300.0 / 450.0));
    EXPECT_NEAR(limited.throughput, full.throughput * limited.powerLimitFactor, 1e-9);
    EXPECT_NE(describeSpeed(in, limited).find("power limit 300 W: " + format::percent(1 - limited.powerLimitFactor, 0) +
                                              " slower"),
              std::string::npos)
        << describeSpeed(in, limited);

    // 2 x RTX 4090 + 2 x RTX 3090: four GPUs in one job, each at the 3090's pace.
    in.powerLimitWatts.reset();
    in.count = 2;
    in.extraGpu = &rtx3090;
    in.extraCount = 2;
    const auto mixed = checkBuild(in, model);
    perf::PerfQuery job;
    job.gpus = 4;
    job.interconnect.pcieLanes = 8;
    EXPECT_NEAR(mixed.throughput, model.throughput(rtx3090, job), 1e-9);
    EXPECT_GT(mixed.throughput, full.throughput / 2); // more than the two 4090s alone
    EXPECT_LT(mixed.throughput, full.throughput);     // less than four 4090s
    const double combined = (model.throughput(rtx4090, job) + model.throughput(rtx3090, job)) / 2;
    EXPECT_NEAR(mixed.mixedPacingLoss, 1 - mixed.throughput / combined, 1e-9);
    EXPECT_TRUE(has(mixed, Severity::Warning, "mixed", format::percent(mixed.mixedPacingLoss, 0) + " of the combined"));
    EXPECT_NE(describeSpeed(in, mixed).find("paced by the slowest GPU"), std::string::npos);

    // Without a reference the unit is the model's own; several machines are stated per machine.
    in = {};
    in.gpu = &rtx4090;
    in.machines = 2;
    in.networkGbps = 100;
    const auto perMachine = checkBuild(in, model);
    EXPECT_EQ(perMachine.referenceThroughput, 0);
    EXPECT_EQ(describeSpeed(in, perMachine),
              format::number(perMachine.throughput, 2) +
                  "x one V100 SXM2 per machine (fp16 transformer training; across machines the network decides, "
                  "which the model does not cover)");
}

TEST(BuildCheck, RefusesImpossibleInputsAllAtOnce) {
    const perf::PerfModel model(cat());
    BuildInput in;
    in.gpu = &cat().require("RTX 4090");
    in.count = 2;
    in.extraCount = 3;           // no second type
    in.pcieLanesPerGpu = 3;      // no such slot
    in.ramGb = -5;
    in.networkGbps = 0;
    in.psuWatts = -100;
    in.powerLimitWatts = 5000;   // above the 450 W TDP
    try {
        checkBuild(in, model);
        FAIL() << "accepted";
    } catch (const InputError& e) {
        std::vector<std::string> fields;
        for (const auto& p : e.problems()) {
            fields.push_back(p.where.field);
        }
        EXPECT_EQ(fields, (std::vector<std::string>{"extra_count", "pcie_lanes", "ram_gb", "network_gbps", "psu_watts",
                                                    "limit_watts"}));
        EXPECT_NE(std::string(e.what()).find("135-450 W"), std::string::npos) << e.what(); // the power-limit range
    }
    // The same limits the power-limit calculator takes are accepted, and every lane count a slot has.
    in = {};
    in.gpu = &cat().require("RTX 4090");
    in.count = 4;
    for (const int lanes : {1, 2, 4, 8, 16}) {
        in.pcieLanesPerGpu = lanes;
        EXPECT_NO_THROW(checkBuild(in, model)) << lanes;
    }
    const auto range = powerLimitRange(*in.gpu);
    for (const double w : {range.minimumWatts, range.maximumWatts}) {
        in.powerLimitWatts = w;
        EXPECT_NO_THROW(checkBuild(in, model)) << w;
    }
}

TEST(PowerSweeps, APartnerCardAtItsOwnStockLimitCountsAsTheCards) {
    // Within 5% of the card's board power a sweep is the card's own: an ASUS RTX 5090 at its 600 W
    // stock limit (the reference card's is 575 W), named with its board; an RTX 3090 run at 370 W
    // (the card's 350 W, 5.7% more) stays out, as does any sweep once the card's board power moves.
    const auto& cat = Catalog::builtin();
    const Gpu& rtx5090 = cat.require("RTX 5090");
    const auto tokens = sweepsOn(cat, rtx5090, perf::Metric::LlmDecode);
    ASSERT_EQ(tokens.size(), 4u);
    EXPECT_EQ(sweepSource(*tokens.front(), rtx5090), "cmoro-2026, a 600 W board's own 100%");
    // A miss at such a point names the board, not only "this card".
    EXPECT_NE(describeMiss(MeasuredMiss{tokens.front(), 0.5}, rtx5090).find("; cmoro-2026, a 600 W board's own 100%) "),
              std::string::npos);
    EXPECT_EQ(sweepsOn(cat, rtx5090, perf::Metric::LlmPrefill).size(), 4u); // the 50K-token prompt
    for (const auto* m : sweepsOn(cat, cat.require("RTX 3090"), perf::Metric::LlmDecode)) {
        EXPECT_EQ(m->boardWatts, 350) << m->source;
        EXPECT_EQ(sweepSource(*m, cat.require("RTX 3090")), m->source);
    }
    Gpu edited = rtx5090;
    edited.tdpW = 500;
    EXPECT_TRUE(sweepsOn(cat, edited, perf::Metric::LlmDecode).empty());
}

} // namespace
} // namespace advisor::calc
