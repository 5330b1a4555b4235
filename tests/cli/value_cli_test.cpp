// `gpu-advisor value`, `cloud-vs-desktop` and `cloud` through the real binary.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <map>

namespace advisor::testing {
namespace {

TEST(ValueCli, AnEmptyTableSaysWhy) {
    Cli cli;
    // A bare header was printed; now the reason, and --all still lists what has no price.
    const auto none = cli.run({"value", "--min-memory", "9999"});
    EXPECT_EQ(none.exitCode, 0);
    EXPECT_NE(none.out.find("No GPU in the catalog with 9,999 GB of memory or more\n"), std::string::npos) << none.out;
    EXPECT_EQ(none.out.find("PERF/$"), std::string::npos) << none.out;
    // The MI325X (256 GB), the B300, the MI350X and the MI355X (288 GB each) have no seeded price.
    const auto unpriced = cli.run({"value", "--min-memory", "250"});
    EXPECT_NE(unpriced.out.find("No GPU with 250 GB of memory or more has a price (add one with 'gpu-advisor prices "
                                "add'; --all lists the 4 GPUs)"),
              std::string::npos)
        << unpriced.out;
    const auto all = cli.run({"value", "--min-memory", "250", "--all"});
    EXPECT_NE(all.out.find("MI325X"), std::string::npos) << all.out;
    EXPECT_NE(all.out.find("B300"), std::string::npos) << all.out;
    EXPECT_NE(all.out.find("MI355X"), std::string::npos) << all.out;
}

TEST(ValueCli, RowsCarryTheContractFieldsAndUnpricedIsNull) {
    Cli cli;
    const auto doc = cli.json({"value", "--metric", "fp16-training"});
    EXPECT_EQ(doc.at("metric"), "fp16-training");
    EXPECT_EQ(doc.at("reference"), "RTX 4090");
    bool sawUnpriced = false;
    for (const auto& r : doc.at("rows")) {
        for (const char* k : {"gpu", "memory_gb", "price_usd", "tco_usd", "relative_performance", "perf_per_dollar"}) {
            EXPECT_TRUE(r.contains(k)) << k;
        }
        if (!r.at("priced").get<bool>()) {
            sawUnpriced = true;
            EXPECT_TRUE(r.at("perf_per_dollar").is_null());
            EXPECT_TRUE(r.at("price_usd").is_null());
        } else {
            EXPECT_GT(r.at("tco_usd").get<double>(), r.at("price_usd").get<double>());
        }
        if (r.at("gpu_id") == "rtx-4090") {
            EXPECT_DOUBLE_EQ(r.at("perf_per_dollar").get<double>(), 1.0);
        }
    }
    EXPECT_TRUE(sawUnpriced);
}

TEST(ValueCli, SparseWeightsMoveOnlyTheGpusWithSparseTensorCores) {
    Cli cli;
    const auto relative = [&](bool sparsity) {
        std::vector<std::string> args = {"value", "--metric", "int8-inference", "--all"};
        if (sparsity) {
            args.push_back("--sparsity");
        }
        const auto doc = cli.json(args);
        EXPECT_EQ(doc.at("sparsity_2_4").get<bool>(), sparsity);
        std::map<std::string, double> byGpu;
        for (const auto& r : doc.at("rows")) {
            byGpu[r.at("gpu").get<std::string>()] = r.at("relative_performance").get<double>();
        }
        return byGpu;
    };
    const auto dense = relative(false), sparse = relative(true);
    EXPECT_DOUBLE_EQ(sparse.at("RTX 4090"), 1.0); // the reference
    // The V100 has no sparse tensor cores: against a reference that got faster it falls back.
    EXPECT_LT(sparse.at("V100 SXM2 32GB"), dense.at("V100 SXM2 32GB"));
    EXPECT_NEAR(sparse.at("V100 SXM2 32GB") / dense.at("V100 SXM2 32GB"),
                sparse.at("RTX 2080 Ti") / dense.at("RTX 2080 Ti"), 1e-12); // both by the reference's gain
}

TEST(ValueCli, ALanguageModelIsValuedWithTheSameNumbersAsPerf) {
    Cli cli;
    const auto doc = cli.json({"value", "--metric", "fp16-training", "--workload", "llm", "--params-billion", "70",
                               "--all"});
    EXPECT_DOUBLE_EQ(doc.at("language_model_params_billion").get<double>(), 70.0);
    double b200 = 0;
    for (const auto& r : doc.at("rows")) {
        if (r.at("gpu") == "B200") {
            b200 = r.at("relative_performance").get<double>();
        }
    }
    const auto perf = cli.json({"perf", "--gpu", "B200", "--metric", "fp16-training", "--workload", "llm",
                                "--params-billion", "70"});
    EXPECT_NEAR(b200, perf.at("predictions").at(0).at("relative_to_reference").get<double>(), 1e-12);
    EXPECT_TRUE(cli.json({"value", "--metric", "fp16-training"}).at("language_model_params_billion").is_null());
    // A size without --workload llm is still refused: the classes take none.
    const auto sized = cli.run({"value", "--params-billion", "70"});
    EXPECT_NE(sized.exitCode, 0);
    EXPECT_NE(sized.err.find("--workload llm takes a language model's size"), std::string::npos) << sized.err;
}

TEST(ValueCli, LlmInferenceIsValuedInTokensPerSecondOnTheGpusThatHoldTheModel) {
    Cli cli;
    const auto doc = cli.json({"value", "--metric", "llm-decode", "--model", "llama-3.1-70b", "--all"});
    const auto tokens = [&](const char* gpu) {
        return cli.json({"perf", "--gpu", gpu, "--metric", "llm-decode", "--model", "llama-3.1-70b"})
            .at("predictions")
            .at(0)
            .at("throughput")
            .get<double>();
    };
    for (const auto& r : doc.at("rows")) {
        // 70B in 4 bits with its KV cache: 42.6 GB.
        EXPECT_EQ(r.at("holds_model").get<bool>(), r.at("memory_gb").get<double>() >= 42.6) << r.at("gpu");
        if (r.at("gpu") == "B200") {
            EXPECT_NEAR(r.at("relative_performance").get<double>(), tokens("B200") / tokens("RTX 4090"), 1e-12);
        }
    }
    const auto text = cli.run({"value", "--metric", "llm-decode", "--model", "llama-3.1-70b"});
    EXPECT_NE(text.out.find("llm-decode (70B parameters, int4 weights, 512 tokens of context)"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("left out: too little memory for the model's weights and KV cache"), std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("RTX 4090 "), std::string::npos) << text.out; // 24 GB: not listed
}

TEST(ValueCli, ElectricityFollowsTheSettings) {
    Cli cli;
    const auto electricity = [&] {
        const auto doc = cli.json({"value"});
        for (const auto& r : doc.at("rows")) {
            if (r.at("gpu_id") == "rtx-4090") {
                return r.at("cost_parts").at("electricity_usd").get<double>();
            }
        }
        return 0.0;
    };
    EXPECT_NEAR(electricity(), 5 * 103.48, 0.05); // seed defaults: 5 years, $0.175/kWh, 15%
    ASSERT_EQ(cli.run({"settings", "set", "electricity_usd_per_kwh", "0"}).exitCode, 0);
    EXPECT_DOUBLE_EQ(electricity(), 0.0);
}

TEST(CloudVsDesktopCli, SeedExampleAndNever) {
    Cli cli;
    const auto doc = cli.json({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cpu-watts", "100",
                               "--utilization", "0.15", "--kwh-price", "0.12", "--cloud-hourly", "2.14"});
    EXPECT_NEAR(doc.at("desktop_kwh_per_year").get<double>(), 591.3, 0.05);
    EXPECT_NEAR(doc.at("desktop_electricity_per_year_usd").get<double>(), 70.96, 0.01);
    EXPECT_NEAR(doc.at("break_even_days").get<double>(), 292.96, 0.01);
    EXPECT_GT(doc.at("curves").size(), 100u);
    EXPECT_NEAR(doc.at("desktop_usd_over_years").get<double>(), 2200 + 5 * 70.956, 0.01); // settings: 5 years
    EXPECT_NEAR(doc.at("cloud_usd_over_years").get<double>(), 5 * 365 * 2.14 * 0.15 * 24, 0.01);
    // The seed's 15% written as a percentage is the same case.
    const auto pct = cli.json({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cpu-watts", "100",
                               "--utilization", "15%", "--kwh-price", "0.12", "--cloud-hourly", "2.14"});
    EXPECT_DOUBLE_EQ(pct.at("break_even_days").get<double>(), doc.at("break_even_days").get<double>());
    const auto never = cli.json({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cpu-watts",
                                 "100", "--utilization", "0.15", "--kwh-price", "0.12", "--cloud-hourly", "0.01"});
    EXPECT_TRUE(never.at("break_even_days").is_null());
    EXPECT_NE(never.at("never_reason").get<std::string>().find("no more than the desktop's electricity"),
              std::string::npos);
    EXPECT_TRUE(doc.at("never_reason").is_null());
    const auto human = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cloud-hourly",
                                "0.01"});
    EXPECT_NE(human.out.find("Never breaks even: the cloud costs"), std::string::npos) << human.out;
    const auto halfYears = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cloud-hourly",
                                    "2.14", "--years", "2.5"});
    EXPECT_NE(halfYears.out.find("Over 2.5 years: desktop $"), std::string::npos) << halfYears.out;
    const auto idle = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cloud-hourly",
                               "2.14", "--utilization", "0"});
    EXPECT_NE(idle.out.find("Never breaks even: at 0% utilization the desktop does no work"), std::string::npos)
        << idle.out;
}

TEST(CloudVsDesktopCli, DifferentGpusUseTheModelsSpeedRatio) {
    Cli cli;
    const auto doc = cli.json({"cloud-vs-desktop", "--desktop-cost", "2200", "--desktop-gpu", "RTX 3090", "--cloud-gpu",
                               "V100 SXM2 32GB", "--cpu-watts", "100", "--utilization", "phd-cluster", "--kwh-price",
                               "0.12", "--cloud-hourly", "2.14"});
    EXPECT_GT(doc.at("speed_ratio").get<double>(), 1.0);
    EXPECT_NE(doc.at("speed_ratio_basis").get<std::string>().find("performance model"), std::string::npos);
    EXPECT_DOUBLE_EQ(doc.at("utilization").get<double>(), 0.35);
    const auto bad = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--cloud-hourly",
                              "2", "--resale-fraction", "1.5"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("error: --resale-fraction: must be between 0 and 1"), std::string::npos) << bad.err;
}

TEST(CloudVsDesktopCli, WithoutADesktopCostTheDesktopIsPricedFromTheDatabase) {
    // As the window's Cloud vs desktop tab fills it: the desktop base cost plus the GPUs at
    // the price rule's price. The command used to require --desktop-cost.
    Cli cli;
    ASSERT_EQ(cli.run({"prices", "add", "--gpu", "RTX 4090", "--price", "1234", "--date", "2026-11-01"}).exitCode, 0);
    ASSERT_EQ(cli.run({"settings", "set", "price_rule", "newest-new"}).exitCode, 0);
    ASSERT_EQ(cli.run({"settings", "set", "desktop_base_cost_usd", "900"}).exitCode, 0);
    const std::vector<std::string> priced = {"cloud-vs-desktop", "--desktop-gpu", "RTX 4090", "--desktop-gpus", "2",
                                             "--cloud-hourly", "3"};
    const auto doc = cli.json(priced);
    EXPECT_DOUBLE_EQ(doc.at("desktop_cost_usd").get<double>(), 900 + 2 * 1234);
    EXPECT_EQ(doc.at("desktop_cost_basis"), "desktop $900 + 2 x $1,234 (newest new $1,234 (2026-11-01))");
    const auto human = cli.run(priced);
    EXPECT_NE(human.out.find("Desktop: $3,368 (desktop $900 + 2 x $1,234"), std::string::npos) << human.out;
    // Given, it is used as it is.
    auto given = priced;
    given.insert(given.end(), {"--desktop-cost", "5000"});
    const auto asGiven = cli.json(given);
    EXPECT_DOUBLE_EQ(asGiven.at("desktop_cost_usd").get<double>(), 5000);
    EXPECT_TRUE(asGiven.at("desktop_cost_basis").is_null());
    // A complete computer (DGX Spark) is its own desktop: no base cost, and no CPU watts beside its
    // chip's 140 W (the newest new of the two seeded prices: $4,700).
    const auto spark = cli.json({"cloud-vs-desktop", "--desktop-gpu", "DGX Spark", "--cloud-hourly", "3"});
    EXPECT_DOUBLE_EQ(spark.at("desktop_cost_usd").get<double>(), 4700);
    EXPECT_EQ(spark.at("desktop_cost_basis"), "1 x $4,700 (newest new $4,700 (2026-04-18))");
    EXPECT_NEAR(spark.at("desktop_kwh_per_year").get<double>(), 140 * 0.15 * 8760 / 1000, 1e-9);
    // A GPU without a price, or no GPU at all, asks for the cost.
    const auto unpriced = cli.run({"cloud-vs-desktop", "--desktop-gpu", "MI325X", "--cloud-hourly", "3"});
    EXPECT_EQ(unpriced.exitCode, 2);
    EXPECT_NE(unpriced.err.find("missing required option '--desktop-cost': MI325X has no USD price for the price rule "
                                "'newest-new'"),
              std::string::npos)
        << unpriced.err;
    const auto noGpu = cli.run({"cloud-vs-desktop", "--gpu-watts", "300", "--cloud-hourly", "3"});
    EXPECT_EQ(noGpu.exitCode, 2);
    EXPECT_NE(noGpu.err.find("missing required option '--desktop-cost'"), std::string::npos) << noGpu.err;
}

TEST(CloudVsDesktopCli, TheCloudGpuDefaultsToTheOffersThenTheDesktopsGpu) {
    Cli cli;
    const auto added = cli.json({"cloud", "add", "--provider", "Test Cloud", "--gpu", "H100 SXM", "--hourly", "6",
                                 "--date", "2026-10-01"});
    const std::string id = std::to_string(added.at("added").at("id").get<int>());
    const std::vector<std::string> base = {"cloud-vs-desktop", "--desktop-cost", "2200", "--desktop-gpu", "RTX 4090"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = base;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    // The offer's GPU is compared without naming it again, exactly as when it is named.
    const auto viaOffer = cli.json(with({"--offer", id}));
    const auto named = cli.json(with({"--offer", id, "--cloud-gpu", "H100 SXM5"}));
    EXPECT_EQ(viaOffer.at("cloud_gpu"), "H100 SXM5");
    EXPECT_LT(viaOffer.at("speed_ratio").get<double>(), 0.9);
    EXPECT_DOUBLE_EQ(viaOffer.at("speed_ratio").get<double>(), named.at("speed_ratio").get<double>());
    // The metric is the one asked for: token generation is bandwidth-bound, training is not.
    const auto decode = cli.json(with({"--offer", id, "--metric", "llm-decode", "--params-billion", "8"}));
    EXPECT_NE(decode.at("speed_ratio").get<double>(), viaOffer.at("speed_ratio").get<double>());
    EXPECT_NE(decode.at("speed_ratio_basis").get<std::string>().find("llm-decode"), std::string::npos);
    // A price per hour and no other GPU: the same GPU rents in the cloud.
    const auto same = cli.json(with({"--cloud-hourly", "1.5", "--desktop-gpus", "2"}));
    EXPECT_EQ(same.at("cloud_gpu"), "RTX 4090");
    EXPECT_DOUBLE_EQ(same.at("speed_ratio").get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(same.at("work_ratio").get<double>(), 2.0);
}

TEST(CloudVsDesktopCli, AnOfferOverAYearOlderThanTheNewestSaysSo) {
    Cli cli;
    const auto newest = cli.json({"cloud", "add", "--provider", "Now", "--gpu", "RTX 4090", "--hourly", "0.6",
                                  "--date", "2026-10-15"});
    const auto old = cli.json({"cloud", "add", "--provider", "Then", "--gpu", "RTX 4090", "--hourly", "0.3",
                               "--date", "2025-10-14"}); // 366 days before
    const auto run = [&](const nlohmann::json& added, bool json) {
        const std::vector<std::string> a = {"cloud-vs-desktop", "--desktop-cost", "2200", "--desktop-gpu", "RTX 4090",
                                            "--offer", std::to_string(added.at("added").at("id").get<int>())};
        return json ? cli.json(a) : nlohmann::json(cli.run(a).out);
    };
    const std::string note =
        "the offer was last seen 2025-10-14, over a year before the newest offer (2026-10-15): check today's price";
    EXPECT_EQ(run(old, true).at("offer_age_note"), note);
    EXPECT_TRUE(run(newest, true).at("offer_age_note").is_null());
    const std::string text = run(old, false);
    EXPECT_NE(text.find("per day for the same work\n  note: " + note + "\n"), std::string::npos) << text;
}

TEST(CloudVsDesktopCli, WithoutAPriceTheCheapestRecentOfferForTheWorkIsChosen) {
    Cli cli;
    const auto add = [&](const char* gpu, const char* hourly, const char* date) {
        return cli.json({"cloud", "add", "--provider", "Test", "--gpu", gpu, "--hourly", hourly, "--date", date})
            .at("added")
            .at("id")
            .get<int>();
    };
    const int cheap = add("RTX 4090", "0.10", "2026-10-15");
    add("RTX 4090", "0.01", "2025-01-01");   // cheaper, but over a year before the newest
    add("RTX 3060 12GB", "0.01", "2026-10-15"); // cheaper, but 12 GB do not hold the desktop's 24
    const std::vector<std::string> base = {"cloud-vs-desktop", "--desktop-cost", "2200", "--desktop-gpu", "RTX 4090"};
    const auto chosen = cli.json(base);
    EXPECT_EQ(chosen.at("offer_id"), cheap);
    EXPECT_DOUBLE_EQ(chosen.at("cloud_hourly_usd").get<double>(), 0.10);
    EXPECT_EQ(chosen.at("cloud_gpu"), "RTX 4090");
    EXPECT_NE(chosen.at("offer_choice").get<std::string>().find("least per hour with at least 24 GB"), std::string::npos);
    std::vector<std::string> explicitly = base;
    explicitly.insert(explicitly.end(), {"--offer", "cheapest"});
    EXPECT_EQ(cli.json(explicitly).dump(), chosen.dump());
    const auto text = cli.run(base);
    EXPECT_NE(text.out.find("per day for the same work\n  chosen: the offer that does this work (fp16-training)"),
              std::string::npos)
        << text.out;
    // A price or an offer given: nothing is chosen.
    std::vector<std::string> priced = base;
    priced.insert(priced.end(), {"--cloud-hourly", "2"});
    EXPECT_TRUE(cli.json(priced).at("offer_choice").is_null());
    // No offer holds 64 H200s' memory; without a desktop GPU there is no work to compare.
    const auto none = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--desktop-gpu", "H200 SXM",
                               "--desktop-gpus", "64"});
    EXPECT_EQ(none.exitCode, 1);
    EXPECT_NE(none.err.find("no cloud offer's GPUs hold the desktop's"), std::string::npos) << none.err;
    const auto noDesktop = cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350", "--offer",
                                    "cheapest"});
    EXPECT_EQ(noDesktop.exitCode, 2);
    EXPECT_EQ(cli.run({"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350"}).exitCode, 2);
}

TEST(CloudVsDesktopCli, SpeedOptionsItCannotUseAreRefused) {
    Cli cli;
    const std::vector<std::string> watts = {"cloud-vs-desktop", "--desktop-cost", "2200", "--gpu-watts", "350",
                                            "--cloud-hourly", "1"};
    auto with = [](std::vector<std::string> a, std::vector<std::string> extra) {
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const auto bogus = cli.run(with(watts, {"--desktop-gpu", "RTX 3090", "--metric", "bogus"}));
    EXPECT_EQ(bogus.exitCode, 2);
    EXPECT_NE(bogus.err.find("--metric must be"), std::string::npos) << bogus.err;
    const auto badWorkload = cli.run(with(watts, {"--desktop-gpu", "RTX 3090", "--workload", "nonsense"}));
    EXPECT_EQ(badWorkload.exitCode, 2);
    EXPECT_NE(badWorkload.err.find("--workload must be"), std::string::npos) << badWorkload.err;
    for (const auto& extra : std::vector<std::vector<std::string>>{
             {"--metric", "int8-inference"}, {"--cloud-gpu", "A100 40GB SXM4"}, {"--batch", "2"}}) {
        const auto r = cli.run(with(watts, extra));
        EXPECT_EQ(r.exitCode, 2) << extra[0];
        EXPECT_NE(r.err.find("give --desktop-gpu too"), std::string::npos) << r.err;
    }
    const auto spot = cli.run(with(watts, {"--spot"}));
    EXPECT_EQ(spot.exitCode, 2);
    EXPECT_NE(spot.err.find("--spot picks an offer's spot price"), std::string::npos) << spot.err;
    const auto offerAndPrice = cli.run(with(watts, {"--offer", "4", "--cloud-gpus", "2"}));
    EXPECT_EQ(offerAndPrice.exitCode, 2);
    EXPECT_NE(offerAndPrice.err.find("--offer cannot be combined with --cloud-hourly or --cloud-gpus"),
              std::string::npos)
        << offerAndPrice.err;
    const auto llmWithoutMetric = cli.run(with(watts, {"--desktop-gpu", "RTX 3090", "--params-billion", "8"}));
    EXPECT_EQ(llmWithoutMetric.exitCode, 2);
    EXPECT_NE(llmWithoutMetric.err.find("give --metric llm-decode"), std::string::npos) << llmWithoutMetric.err;
    // A named model is an LLM option too, not silently ignored, here or where the default metric is
    // not an LLM one.
    const auto valueWithModel = cli.run({"value", "--model", "mixtral-8x7b"});
    EXPECT_EQ(valueWithModel.exitCode, 2);
    EXPECT_NE(valueWithModel.err.find("describe an LLM; give --metric llm-decode or llm-prefill"), std::string::npos)
        << valueWithModel.err;
    const auto powerWithModel =
        cli.run({"power-limit", "--gpu", "RTX 3090", "--limit-watts", "300", "--params-billion", "70"});
    EXPECT_EQ(powerWithModel.exitCode, 2);
    EXPECT_NE(powerWithModel.err.find("give --metric llm-decode or llm-prefill"), std::string::npos)
        << powerWithModel.err;
    EXPECT_EQ(cli.run({"power-limit", "--gpu", "RTX 3090", "--limit-watts", "300", "--metric", "llm-prefill",
                       "--params-billion", "70"})
                  .exitCode,
              0);
    const auto modelWithoutMetric = cli.run(with(watts, {"--desktop-gpu", "RTX 3090", "--model", "mixtral-8x7b"}));
    EXPECT_EQ(modelWithoutMetric.exitCode, 2);
    EXPECT_NE(modelWithoutMetric.err.find("--model, --weights, --context, --depth, --kv-cache, --sequences, "
                                          "--min-sequence-speed, --ubatch and --engine describe an LLM; give --metric "
                                          "llm-decode"),
              std::string::npos)
        << modelWithoutMetric.err;
}

TEST(CloudCli, SeededOffersAddAndRemove) {
    Cli cli;
    const auto offers = cli.json({"cloud", "list"});
    EXPECT_GE(offers.at("count").get<int>(), 190);
    const auto added = cli.json({"cloud", "add", "--provider", "Test Cloud", "--gpu", "H100 SXM", "--hourly", "19.9",
                                 "--gpus", "8", "--spot", "9.5", "--date", "2026-10-01"});
    EXPECT_EQ(added.at("added").at("gpu_id"), "h100-sxm5");
    const int id = added.at("added").at("id");
    const auto viaOffer = cli.json({"cloud-vs-desktop", "--desktop-cost", "40000", "--desktop-gpu", "RTX 4090",
                                    "--desktop-gpus", "4", "--offer", std::to_string(id), "--spot", "--cloud-gpu",
                                    "H100 SXM"});
    EXPECT_DOUBLE_EQ(viaOffer.at("cloud_hourly_usd").get<double>(), 9.5);
    EXPECT_EQ(cli.run({"cloud", "remove", std::to_string(id)}).exitCode, 0);
    const auto gone = cli.run({"cloud", "remove", std::to_string(id)});
    EXPECT_EQ(gone.exitCode, 1);
    EXPECT_EQ(gone.err, "error: no cloud offer with id " + std::to_string(id) + "\n");
    const auto bad = cli.run({"cloud", "add", "--provider", "X", "--gpu", "H100 SXM", "--hourly", "-3"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("error: --hourly: must be more than 0"), std::string::npos) << bad.err;
}

TEST(CloudCli, CurrentListsTheNewestObservationOfEachOffer) {
    Cli cli;
    for (const char* date : {"2026-01-01", "2026-06-01"}) {
        ASSERT_EQ(cli.run({"cloud", "add", "--provider", "Test Cloud", "--instance", "t1", "--gpu", "L4", "--hourly",
                           date[6] == '1' ? "1.00" : "0.80", "--date", date})
                      .exitCode,
                  0);
    }
    const auto testCloud = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"cloud", "list", "--provider", "test cloud"});
        std::vector<double> hourly;
        const auto doc = cli.json(args);
        for (const auto& o : doc.at("offers")) {
            hourly.push_back(o.at("on_demand_usd_per_hour").get<double>());
        }
        return hourly;
    };
    EXPECT_EQ(testCloud({}).size(), 2u); // the history
    EXPECT_EQ(testCloud({"--current"}), std::vector<double>{0.80}); // the June price only
    // The shipped offers hold several observations of some instances (AWS p5en.48xlarge).
    EXPECT_LT(cli.json({"cloud", "list", "--current"}).at("count").get<int>(),
              cli.json({"cloud", "list"}).at("count").get<int>());
}

} // namespace
} // namespace advisor::testing
