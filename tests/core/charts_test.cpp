// Tests for core/charts: the numbers behind the raw performance and perf-per-dollar charts,
// on a five-GPU fixture catalog and hand-made prices.
#include "charts/chart_data.h"
#include "catalog/catalog.h"
#include "common/csv.h"
#include "support/price_fixtures.h"
#include "common/errors.h"
#include "common/format.h"
#include "common/text.h"
#include "value/tco.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace advisor::charts {
namespace {

const Catalog& fixture() {
    static const Catalog c = Catalog::fromFile(ADVISOR_FIXTURES_DIR "/catalog_small.json");
    return c;
}

constexpr auto price = [](const char* gpu, double usd, Condition c) { return testing::observedPrice(gpu, usd, c); };

const std::vector<Price>& prices() {
    static const std::vector<Price> p = {price("rtx-4090", 1600, Condition::New), price("rtx-3090", 700, Condition::Used),
                                         price("rtx-4070-ti", 800, Condition::New)};
    return p;
}

ChartOptions options(ChartKind kind) {
    ChartOptions o;
    o.kind = kind;
    o.settings.referenceGpu = "rtx-4090";
    o.settings.priceRule = PriceRule::Cheapest;
    return o;
}

TEST(RawChart, EveryGpuRelativeToTheReferenceSortedByTheChosenMetric) {
    const perf::PerfModel model(fixture());
    const auto d = buildChartData(fixture(), model, prices(), options(ChartKind::RawPerformance));
    ASSERT_EQ(d.rows.size(), 5u);
    ASSERT_EQ(d.seriesNames, (std::vector<std::string>{"8-bit inference", "16-bit inference", "16-bit training"}));
    const size_t train = d.metricIndex(perf::Metric::Fp16Training);
    for (size_t i = 1; i < d.rows.size(); ++i) {
        EXPECT_GE(*d.rows[i - 1].values[train], *d.rows[i].values[train]);
    }
    const Gpu& ref = *fixture().findById("rtx-4090");
    for (const auto& r : d.rows) {
        for (size_t m = 0; m < d.metrics.size(); ++m) {
            perf::PerfQuery q;
            q.metric = d.metrics[m];
            EXPECT_DOUBLE_EQ(*r.values[m], model.relative(*r.gpu, ref, q)) << r.gpu->name;
        }
        if (r.gpu->id == "rtx-4090") {
            EXPECT_DOUBLE_EQ(*r.values[train], 1.0);
        }
    }
    EXPECT_EQ(d.rows.front().gpu->id, "h100-pcie");
    // Every bar carries the model's reasons: its bound and the terms that moved it most.
    for (const auto& r : d.rows) {
        ASSERT_EQ(r.why.size(), d.metrics.size());
        for (size_t m = 0; m < d.metrics.size(); ++m) {
            perf::PerfQuery q;
            q.metric = d.metrics[m];
            EXPECT_EQ(r.why[m], perf::explanationSummary(model.explain(*r.gpu, q))) << r.gpu->name;
            EXPECT_EQ(r.why[m].rfind("bound by ", 0), 0u) << r.why[m];
            EXPECT_EQ(r.caveats.at(m), model.explain(*r.gpu, q).notes) << r.gpu->name; // and its caveats
        }
    }
    EXPECT_EQ(d.valueAxisLabel, "Performance relative to RTX 4090 (1.0 = RTX 4090)");
    EXPECT_TRUE(d.notes.empty());
}

TEST(RawChart, ALanguageModelIsChartedWithItsOwnProfile) {
    // perf/llm_training.h: no GPU-independent time, so the H100 PCIe's tensor rate counts more
    // against the RTX 4090 than with the transformer class's shares.
    const perf::PerfModel model(fixture());
    ChartOptions o = options(ChartKind::RawPerformance);
    const auto asClass = buildChartData(fixture(), model, prices(), o);
    o.workload = *perf::parseWorkloadChoice("llm");
    const auto lm = buildChartData(fixture(), model, prices(), o);
    EXPECT_EQ(lm.title, "Relative deep learning performance (language model, 8B)");
    const size_t train = lm.metricIndex(perf::Metric::Fp16Training);
    const auto h100 = [&](const ChartData& d) {
        for (const auto& r : d.rows) {
            if (r.gpu->id == "h100-pcie") {
                return *r.values[train];
            }
        }
        return 0.0;
    };
    perf::PerfQuery q;
    q.metric = perf::Metric::Fp16Training;
    q.llmTrainingParamsBillion = 8.0;
    EXPECT_DOUBLE_EQ(h100(lm), model.relative(*fixture().findById("h100-pcie"), *fixture().findById("rtx-4090"), q));
    EXPECT_GT(h100(lm), h100(asClass));
    for (const auto& r : lm.rows) {
        EXPECT_NE(r.why[train].find("language-model scale"), std::string::npos) << r.gpu->name;
    }
}

TEST(RawChart, FiltersAndHighlight) {
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::RawPerformance);
    o.minMemoryGb = 20;
    o.highlight = {"rtx-3090"};
    auto d = buildChartData(fixture(), model, prices(), o);
    EXPECT_EQ(d.rows.size(), 4u); // RTX 4070 Ti has 12 GB
    for (const auto& r : d.rows) {
        EXPECT_EQ(r.highlighted, r.gpu->id == "rtx-3090");
    }
    EXPECT_EQ(d.notes, std::vector<std::string>{"1 GPU left out by the memory/vendor filter"});
    o = options(ChartKind::RawPerformance);
    o.vendor = "amd";
    d = buildChartData(fixture(), model, prices(), o);
    ASSERT_EQ(d.rows.size(), 1u);
    EXPECT_EQ(d.rows[0].gpu->id, "rx-7900-xtx");
    o = options(ChartKind::RawPerformance);
    o.onlyPriced = true;
    EXPECT_EQ(buildChartData(fixture(), model, prices(), o).rows.size(), 3u);
    o.maxRows = 2;
    d = buildChartData(fixture(), model, prices(), o);
    EXPECT_EQ(d.rows.size(), 2u);
    EXPECT_EQ(d.notes.front(), "showing the best 2 of 3");
}

TEST(RawChart, CnnTrainingOnTheNewestCardsIsReadAsAFloor) {
    // What most newer runs of CNN training say; said once, under the chart.
    const perf::PerfModel model(fixture());
    const std::string floor = "CNN training on the Ada, Hopper and Blackwell cards: read as a floor (the model was "
                              "slow on most newer runs of them)";
    auto o = options(ChartKind::RawPerformance);
    o.workload.workload = perf::WorkloadClass::Cnn;
    EXPECT_EQ(buildChartData(fixture(), model, prices(), o).notes, std::vector<std::string>{floor});
    o.metrics = {perf::Metric::Int8Inference, perf::Metric::Fp16Inference}; // no training charted
    o.sortBy = perf::Metric::Int8Inference;
    EXPECT_TRUE(buildChartData(fixture(), model, prices(), o).notes.empty());
    o = options(ChartKind::RawPerformance);
    o.workload.workload = perf::WorkloadClass::Cnn;
    o.vendor = "amd"; // the RX 7900 XTX alone: no such finding for it
    EXPECT_EQ(buildChartData(fixture(), model, prices(), o).notes,
              std::vector<std::string>{"4 GPUs left out by the memory/vendor filter"});
}

TEST(PerfPerDollarChart, ThroughputOverCostOfOwnershipReferenceIsOne) {
    const perf::PerfModel model(fixture());
    const auto o = options(ChartKind::PerfPerDollar);
    const auto d = buildChartData(fixture(), model, prices(), o);
    ASSERT_EQ(d.rows.size(), 3u); // unpriced H100 PCIe and RX 7900 XTX left out ...
    EXPECT_EQ(d.notes.back(),       // ... and said so
              "2 GPUs without a price (cheaper of new and used) are not shown (add prices on the Prices page)");
    const auto tco = [&](const char* id, double usd) {
        value::TcoInput in;
        in.gpuPriceUsd = usd;
        in.gpuWatts = fixture().findById(id)->tdpW;
        in.desktopBaseCostUsd = o.settings.desktopBaseCostUsd;
        in.electricityUsdPerKwh = o.settings.electricityUsdPerKwh;
        in.utilization = o.settings.utilization;
        in.years = o.settings.years;
        return value::totalCostOfOwnership(in).totalUsd;
    };
    const size_t train = d.metricIndex(perf::Metric::Fp16Training);
    std::map<std::string, double> ppd;
    for (const auto& r : d.rows) {
        ppd[r.gpu->id] = *r.values[train];
    }
    EXPECT_DOUBLE_EQ(ppd["rtx-4090"], 1.0);
    perf::PerfQuery q;
    const Gpu& ref = *fixture().findById("rtx-4090");
    const double expected3090 =
        (model.relative(*fixture().findById("rtx-3090"), ref, q) / tco("rtx-3090", 700)) / (1.0 / tco("rtx-4090", 1600));
    EXPECT_NEAR(ppd["rtx-3090"], expected3090, 1e-12);
}

TEST(PerfPerDollarChart, ACompleteComputerIsCostedWithoutADesktopAndSaysSo) {
    const Catalog& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    auto o = options(ChartKind::PerfPerDollar);
    o.settings.desktopBaseCostUsd = 700;
    const std::vector<Price> p = {price("rtx-4090", 1600, Condition::New), price("dgx-spark", 3999, Condition::New)};
    const auto d = buildChartData(cat, model, p, o);
    const auto spark =
        std::find_if(d.rows.begin(), d.rows.end(), [](const ChartRow& r) { return r.gpu->id == "dgx-spark"; });
    const auto card =
        std::find_if(d.rows.begin(), d.rows.end(), [](const ChartRow& r) { return r.gpu->id == "rtx-4090"; });
    ASSERT_NE(spark, d.rows.end());
    ASSERT_NE(card, d.rows.end());
    const auto electricity = [&](double watts) {
        return watts * o.settings.utilization * 8760 / 1000 * o.settings.electricityUsdPerKwh * o.settings.years;
    };
    EXPECT_NEAR(*spark->tcoUsd, 3999 + electricity(140), 1e-6);
    EXPECT_NEAR(*card->tcoUsd, 700 + 1600 + electricity(450), 1e-6);
    EXPECT_NE(std::find(d.notes.begin(), d.notes.end(),
                        "DGX Spark is a complete computer: its cost is the whole machine's, no desktop added"),
              d.notes.end());

    // Two complete computers share one note (a note each made the line under a 1,400 px chart wrap).
    auto both = p;
    both.push_back(price("ryzen-ai-max-395", 1999, Condition::New));
    const auto d2 = buildChartData(cat, model, both, o);
    const auto systemNotes = std::count_if(d2.notes.begin(), d2.notes.end(), [](const std::string& n) {
        return n.find("complete computer") != std::string::npos;
    });
    EXPECT_EQ(systemNotes, 1);
    const bool sparkFirst = std::find_if(d2.rows.begin(), d2.rows.end(), [](const ChartRow& r) {
                                return r.gpu->isCompleteSystem();
                            })->gpu->id == "dgx-spark";
    const std::string expected =
        std::string(sparkFirst ? "DGX Spark and Ryzen AI Max+ 395" : "Ryzen AI Max+ 395 and DGX Spark") +
        " are complete computers: their cost is the whole machine's, no desktop added";
    EXPECT_NE(std::find(d2.notes.begin(), d2.notes.end(), expected), d2.notes.end());
}

TEST(PerfPerDollarChart, ElectricityPriceReordersTheChart) {
    const perf::PerfModel model(fixture());
    const auto order = [&](double kwh) {
        auto o = options(ChartKind::PerfPerDollar);
        o.settings.electricityUsdPerKwh = kwh;
        o.settings.utilization = 0.5;
        std::vector<std::string> ids;
        for (const auto& r : buildChartData(fixture(), model, prices(), o).rows) {
            ids.push_back(r.gpu->id);
        }
        return ids;
    };
    // Free power: the used RTX 3090 ($700) is the better buy; at $1/kWh and 50% utilization
    // the RTX 4070 Ti's 285 W beat the 3090's 350 W over five years.
    EXPECT_EQ(order(0.0), (std::vector<std::string>{"rtx-3090", "rtx-4090", "rtx-4070-ti"}));
    EXPECT_EQ(order(1.0), (std::vector<std::string>{"rtx-4090", "rtx-4070-ti", "rtx-3090"}));
}

TEST(RawChart, SeveralGpusPerSetupAgainstAsManyOfTheReference) {
    // Four of each: every bar is four of a GPU on its own links against four RTX 4090s, so cards
    // that scale apart by their links and speed move against each other; perf/$ counts four cards.
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::RawPerformance);
    o.gpus = 4;
    const auto d = buildChartData(fixture(), model, prices(), o);
    const Gpu& ref = *fixture().findById("rtx-4090");
    perf::PerfQuery q;
    q.gpus = 4;
    const size_t train = d.metricIndex(perf::Metric::Fp16Training);
    for (const auto& r : d.rows) {
        q.metric = perf::Metric::Fp16Training;
        EXPECT_DOUBLE_EQ(*r.values[train], model.throughput(*r.gpu, q) / model.throughput(ref, q)) << r.gpu->name;
    }
    const auto one = buildChartData(fixture(), model, prices(), options(ChartKind::RawPerformance));
    const auto h100 = [train](const ChartData& c) {
        return *std::find_if(c.rows.begin(), c.rows.end(), [](const ChartRow& r) {
                    return r.gpu->id == "h100-pcie";
                })->values[train];
    };
    EXPECT_NE(h100(d), h100(one)); // the setups scale differently: not the single-GPU chart again
    EXPECT_EQ(d.title, "Relative deep learning performance (transformer, 4 GPUs per setup)");
    EXPECT_EQ(d.subtitle, "Modelled throughput per setup of 4 GPUs; sorted by 16-bit training");
    EXPECT_EQ(d.valueAxisLabel, "Performance relative to 4 x RTX 4090 (1.0 = 4 x RTX 4090)");
    auto ppd = options(ChartKind::PerfPerDollar);
    ppd.gpus = 4;
    const auto p = buildChartData(fixture(), model, prices(), ppd);
    for (const auto& r : p.rows) {
        value::TcoInput in;
        in.gpuPriceUsd = r.price->usd;
        in.gpuCount = 4;
        in.gpuWatts = r.gpu->tdpW;
        in.desktopBaseCostUsd = ppd.settings.desktopBaseCostUsd;
        in.electricityUsdPerKwh = ppd.settings.electricityUsdPerKwh;
        in.utilization = ppd.settings.utilization;
        in.years = ppd.settings.years;
        EXPECT_NEAR(*r.tcoUsd, value::totalCostOfOwnership(in).totalUsd, 1e-6) << r.gpu->name;
    }
    EXPECT_EQ(p.subtitle.rfind("Throughput / 5-year cost: 4 GPUs (cheaper of new and used price)", 0), 0u)
        << p.subtitle;
    for (const int bad : {0, 9}) {
        o.gpus = bad;
        try {
            buildChartData(fixture(), model, prices(), o);
            FAIL() << bad;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "chart: field 'gpus': must be 1 to 8 GPUs per setup, got " + std::to_string(bad));
        }
    }
}

TEST(Charts, RejectsOptionsItCannotDraw) {
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::RawPerformance);
    o.sortBy = perf::Metric::Fp32Training;
    try {
        buildChartData(fixture(), model, prices(), o);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "chart: field 'sort': 'fp32-training' is not one of the chart's metrics");
    }
    // Tokens/s and training throughput answer different questions: not on one chart.
    o = options(ChartKind::RawPerformance);
    o.metrics = {perf::Metric::LlmDecode, perf::Metric::Fp16Training};
    o.sortBy = perf::Metric::LlmDecode;
    try {
        buildChartData(fixture(), model, prices(), o);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "chart: field 'metric': chart LLM inference (llm-decode, llm-prefill) apart "
                                         "from training and inference; fp16-training does not go with llm-decode");
    }
    o.metrics.clear();
    EXPECT_THROW(buildChartData(fixture(), model, prices(), o), InputError);
}

TEST(LlmChart, ABarCarriesWhatMeasuredRunsOfItsGpuSaid) {
    // A catalog entry's model_checks reach the tooltip of the bar of their metric, and only that one.
    const Catalog& cat = Catalog::builtin();
    const perf::PerfModel model(cat);
    auto o = options(ChartKind::RawPerformance);
    o.metrics = llmChartMetrics();
    o.sortBy = perf::Metric::LlmDecode;
    const auto d = buildChartData(cat, model, {}, o);
    const auto strix = std::find_if(d.rows.begin(), d.rows.end(),
                                    [](const ChartRow& r) { return r.gpu->id == "ryzen-ai-max-395"; });
    ASSERT_NE(strix, d.rows.end());
    for (size_t m = 0; m < d.metrics.size(); ++m) {
        const std::string expected = "measured on this GPU (never fitted): " +
                                     strix->gpu->modelChecks.at(perf::toString(d.metrics[m]));
        EXPECT_NE(std::find(strix->caveats[m].begin(), strix->caveats[m].end(), expected), strix->caveats[m].end());
    }
    const auto card = std::find_if(d.rows.begin(), d.rows.end(), [](const ChartRow& r) { return r.gpu->id == "rtx-4090"; });
    ASSERT_NE(card, d.rows.end());
    for (const auto& notes : card->caveats) {
        for (const auto& n : notes) {
            EXPECT_EQ(n.find("measured on this GPU"), std::string::npos) << n;
        }
    }
}

TEST(LlmChart, LongPromptsSayOnceThatMeasuredAttentionRanFarBelowTheModel) {
    // Said under the chart when some bar's prompt spends a tenth of its time or more on attention
    // (perf/attention_at_depth.h), with the range of the discrete cards measured: the RX 7900 XTX's
    // 36 TFLOPS against the model's 82 (2.3x) to the Arc Pro B70's 3.5 against 122 (35x).
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::RawPerformance);
    o.metrics = llmChartMetrics();
    o.sortBy = perf::Metric::LlmDecode;
    const std::string note = "long prompts: llama.cpp's flash attention ran 2.3-35x below the model's rate in 4 "
                             "discrete cards' runs and 1.1x it on an RTX 4090 (CUDA, build b10689): read as upper "
                             "bounds with such builds (each card's caveats)";
    const auto hasNote = [&](const ChartData& d) {
        return std::find(d.notes.begin(), d.notes.end(), note) != d.notes.end();
    };
    EXPECT_FALSE(hasNote(buildChartData(fixture(), model, prices(), o))); // pp512: attention about 2%
    o.llm.llmDepthTokens = 32768;
    const auto deep = buildChartData(fixture(), model, prices(), o);
    EXPECT_TRUE(hasNote(deep));
    EXPECT_EQ(std::count(deep.notes.begin(), deep.notes.end(), note), 1);
    o.metrics = {perf::Metric::LlmDecode}; // token generation alone: no prompt charted
    EXPECT_FALSE(hasNote(buildChartData(fixture(), model, prices(), o)));
}

TEST(LlmChart, TokensPerSecondRelativeToTheReferenceForTheGpusThatHoldTheModel) {
    // A 30B model in 4 bits (4.85 bits per weight: 18.2 GB) and its KV cache at 4,096 tokens: the
    // 12 GB RTX 4070 Ti cannot hold it and is left out, said in a note.
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::RawPerformance);
    o.metrics = llmChartMetrics();
    o.sortBy = perf::Metric::LlmDecode;
    o.llm.llmParamsBillion = 30;
    o.llm.llmWeights = perf::Precision::Int4;
    o.llm.llmContextTokens = 4096;
    o.workload = perf::WorkloadChoice{perf::WorkloadClass::Transformer, 70}; // left over from a training chart
    const auto d = buildChartData(fixture(), model, prices(), o);
    EXPECT_EQ(d.workload.languageModelParamsBillion, 0.0); // the bars are inference, not its training profile
    EXPECT_EQ(d.seriesNames, (std::vector<std::string>{"token generation", "prompt processing"}));
    EXPECT_EQ(d.title, "Relative LLM inference speed (30B parameters, int4 weights, 4,096 tokens of context)");
    EXPECT_EQ(d.valueAxisLabel, "Tokens per second relative to RTX 4090 (1.0 = RTX 4090)");
    ASSERT_EQ(d.rows.size(), 4u);
    const Gpu& ref = *fixture().findById("rtx-4090");
    for (const auto& r : d.rows) {
        EXPECT_NE(r.gpu->id, "rtx-4070-ti");
        for (size_t m = 0; m < d.metrics.size(); ++m) {
            perf::PerfQuery q;
            q.metric = d.metrics[m];
            q.llmParamsBillion = 30;
            q.llmWeights = perf::Precision::Int4;
            q.llmContextTokens = 4096;
            EXPECT_DOUBLE_EQ(*r.values[m], model.throughput(*r.gpu, q) / model.throughput(ref, q)) << r.gpu->name;
        }
        EXPECT_NE(r.why[0].find("memory"), std::string::npos) << r.why[0]; // token generation streams the weights
    }
    EXPECT_EQ(d.rows.front().gpu->id, "h100-pcie"); // 2 TB/s
    const std::string kvGb = format::number((30e9 * 4.85 / 8 + 65536.0 * std::sqrt(30.0 / 8) * 4096 * 2) / 1e9, 1);
    EXPECT_NE(std::find(d.notes.begin(), d.notes.end(),
                        "1 GPU left out: too little memory for the model's " + kvGb + " GB of weights and KV cache"),
              d.notes.end())
        << text::join(d.notes, " | ");
    // Per dollar: the same tokens/s over each GPU's cost of ownership.
    o.kind = ChartKind::PerfPerDollar;
    const auto perDollar = buildChartData(fixture(), model, prices(), o);
    EXPECT_EQ(perDollar.title.rfind("LLM inference per dollar (30B parameters", 0), 0u) << perDollar.title;
    for (const auto& r : perDollar.rows) {
        EXPECT_NE(r.gpu->id, "rtx-4070-ti");
    }
}

TEST(ChartCsv, HoldsExactlyThePlottedNumbers) {
    const perf::PerfModel model(fixture());
    auto o = options(ChartKind::PerfPerDollar);
    o.metrics = defaultChartMetrics(true);
    o.highlight = {"rtx-4070-ti"};
    const auto d = buildChartData(fixture(), model, prices(), o);
    const auto table = csv::read(chartCsv(d), "chart.csv");
    EXPECT_EQ(table.header,
              (std::vector<std::string>{"gpu", "gpu_id", "memory_gb", "tdp_w", "price_usd", "price_basis", "tco_usd",
                                        "perf_per_dollar_int8-inference", "perf_per_dollar_fp16-inference",
                                        "perf_per_dollar_fp16-training", "perf_per_dollar_fp32-training",
                                        "highlighted"}));
    ASSERT_EQ(table.rows.size(), d.rows.size());
    for (size_t i = 0; i < d.rows.size(); ++i) {
        const auto& f = table.rows[i].fields;
        EXPECT_EQ(f[1], d.rows[i].gpu->id);
        EXPECT_EQ(text::parseNumber(f[4]).value.value(), d.rows[i].price->usd);
        EXPECT_EQ(text::parseNumber(f[6]).value.value(), *d.rows[i].tcoUsd);
        for (size_t m = 0; m < 4; ++m) {
            EXPECT_EQ(text::parseNumber(f[7 + m]).value.value(), *d.rows[i].values[m]); // bit-exact
        }
        EXPECT_EQ(f[11], d.rows[i].gpu->id == "rtx-4070-ti" ? "yes" : "no");
    }
}

} // namespace
} // namespace advisor::charts
