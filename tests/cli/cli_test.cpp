// Command-line contract: global options, help, exit codes, the catalog commands.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace advisor::testing {
namespace {

TEST(Cli, VersionAndHelp) {
    Cli cli;
    const auto v = cli.run({"--version"});
    EXPECT_EQ(v.exitCode, 0);
    EXPECT_EQ(v.out.rfind("gpu-advisor ", 0), 0u);
    const auto h = cli.run({"--help"});
    EXPECT_EQ(h.exitCode, 0);
    for (const char* cmd : {"gpus", "prices", "settings"}) {
        EXPECT_NE(h.out.find(std::string("  ") + cmd), std::string::npos) << cmd;
    }
    const auto ph = cli.run({"prices", "--help"});
    EXPECT_EQ(ph.exitCode, 0);
    EXPECT_NE(ph.out.find("prices import FILE.csv|FILE.json"), std::string::npos);
}

TEST(Cli, UsageErrorsExitWithTwoAndSayWhy) {
    Cli cli;
    const auto unknown = cli.run({"frobnicate"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_EQ(unknown.err, "gpu-advisor: error: unknown command 'frobnicate'; see 'gpu-advisor --help'\n");
    const auto badOpt = cli.run({"gpus", "list", "--colour", "red"});
    EXPECT_EQ(badOpt.exitCode, 2);
    EXPECT_NE(badOpt.err.find("unknown option '--colour'; this command accepts"), std::string::npos) << badOpt.err;
    EXPECT_TRUE(badOpt.out.empty());
    // A likely typo gets a suggestion.
    EXPECT_EQ(cli.run({"recomend"}).err,
              "gpu-advisor: error: unknown command 'recomend'; did you mean 'recommend'? See 'gpu-advisor --help'\n");
    const auto typo = cli.run({"recommend", "--memory", "24", "--budget", "1500"});
    EXPECT_EQ(typo.exitCode, 2);
    EXPECT_NE(typo.err.find("unknown option '--memory'; did you mean '--memory-gb'? This command accepts --memory-gb, "),
              std::string::npos)
        << typo.err;
    const auto missing = cli.run({"prices", "add", "--gpu", "RTX 4090"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("missing required option '--price'"), std::string::npos);
}

TEST(Cli, JsonFlagWorksBeforeOrAfterTheCommand) {
    Cli cli;
    const auto before = cli.run({"--json", "gpus", "list"});
    const auto after = cli.run({"gpus", "list", "--json"});
    ASSERT_EQ(before.exitCode, 0);
    EXPECT_EQ(before.out, after.out);
    const auto doc = nlohmann::json::parse(before.out);
    EXPECT_GE(doc.at("count").get<int>(), 60);
    EXPECT_EQ(doc.at("gpus").size(), doc.at("count").get<size_t>());
}

TEST(Cli, GpusListDoesNotCreateADatabase) {
    Cli cli;
    ASSERT_EQ(cli.run({"gpus", "list"}).exitCode, 0);
    EXPECT_FALSE(std::filesystem::exists(cli.db()));
}

TEST(Cli, GpusListFilters) {
    Cli cli;
    const auto doc = cli.json({"gpus", "list", "--min-memory", "80", "--vendor", "amd"});
    ASSERT_GE(doc.at("count").get<int>(), 3);
    for (const auto& g : doc.at("gpus")) {
        EXPECT_EQ(g.at("vendor"), "AMD");
        EXPECT_GE(g.at("memory").at("size_gb").get<double>(), 80);
    }
    // A misspelt vendor is an error that lists the vendors, not an empty list.
    const auto typo = cli.run({"gpus", "list", "--vendor", "nvidea"});
    EXPECT_EQ(typo.exitCode, 1);
    EXPECT_NE(typo.err.find("--vendor: no GPU in the catalog is made by 'nvidea'; vendors: NVIDIA, AMD, Intel"),
              std::string::npos)
        << typo.err;
    EXPECT_TRUE(typo.out.empty()) << typo.out;
    // By form: the complete computers; every SXM generation; an unknown form lists the forms.
    const auto systems = cli.json({"gpus", "list", "--form", "system"});
    ASSERT_EQ(systems.at("count"), 2);
    std::set<std::string> systemNames;
    for (const auto& g : systems.at("gpus")) {
        systemNames.insert(g.at("name").get<std::string>());
    }
    EXPECT_EQ(systemNames, (std::set<std::string>{"DGX Spark", "Ryzen AI Max+ 395"}));
    const auto sxm = cli.json({"gpus", "list", "--form", "SXM"}); // kept: the loop reads into it
    ASSERT_GE(sxm.at("count").get<int>(), 10);
    for (const auto& g : sxm.at("gpus")) {
        EXPECT_EQ(g.at("board").at("form").get<std::string>().rfind("sxm", 0), 0u) << g.at("name");
    }
    const auto badForm = cli.run({"gpus", "list", "--form", "card"});
    EXPECT_EQ(badForm.exitCode, 1);
    EXPECT_NE(badForm.err.find("unknown form 'card'; forms: pcie, sxm, oam, superchip, system"), std::string::npos)
        << badForm.err;
}

TEST(Cli, GpusShowResolvesAndExplainsAmbiguity) {
    Cli cli;
    const auto doc = cli.json({"gpus", "show", "NVIDIA H100 80GB SXM5"});
    EXPECT_EQ(doc.at("id"), "h100-sxm5");
    EXPECT_EQ(doc.at("memory").at("bandwidth_gbs"), 3350);
    const auto human = cli.run({"gpus", "show", "rtx 4090"});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_NE(human.out.find("Memory: 24 GB GDDR6X, 1,008 GB/s"), std::string::npos) << human.out;
    EXPECT_EQ(human.out.find("Model assumes"), std::string::npos) << human.out; // everything published
    // An unpublished figure is said so (it printed "L2 - MB"), with what the model takes instead.
    const auto l40s = cli.run({"gpus", "show", "L40S"});
    EXPECT_NE(l40s.out.find("Cache: L2 not published, shared memory 100 KB per SM\n"), std::string::npos) << l40s.out;
    EXPECT_NE(l40s.out.find("Model assumes: L2 size not published; taken from RTX 6000 Ada"), std::string::npos)
        << l40s.out;
    // A card that must not anchor its chip's clock says why, and what the model does instead.
    const auto d = cli.run({"gpus", "show", "4090D"});
    EXPECT_NE(d.out.find("Not a clock anchor: Its 425 W for 114 SMs"), std::string::npos) << d.out;
    EXPECT_NE(d.out.find("Model assumes: its board power per SM does not set AD102's sustained clock for the other "
                         "cards (the catalog says why); its own clock is derived from the RTX 4090's"),
              std::string::npos)
        << d.out;
    const std::string why = cli.json({"gpus", "show", "RTX 4090 D"}).at("compute").at("not_a_clock_anchor");
    EXPECT_EQ(why.rfind("Its 425 W", 0), 0u) << why;
    // What measurements of the GPU said about the model, by metric; in --json as the catalog has it.
    const auto strix = cli.run({"gpus", "show", "Strix Halo"});
    EXPECT_NE(strix.out.find("Measured (llm-decode): llama.cpp runs (kyuz0/amd-strix-halo-toolboxes, 2025;"),
              std::string::npos)
        << strix.out;
    EXPECT_NE(strix.out.find("Measured (llm-prefill): "), std::string::npos) << strix.out;
    const auto checks = cli.json({"gpus", "show", "Strix Halo"}).at("model_checks");
    EXPECT_EQ(checks.size(), 2u);
    EXPECT_EQ(cli.json({"gpus", "show", "rtx 4090"}).count("model_checks"), 0u);
    const auto amb = cli.run({"gpus", "show", "A100"});
    EXPECT_EQ(amb.exitCode, 1);
    EXPECT_EQ(amb.err, "error: 'A100' is ambiguous; it matches A100 40GB PCIe, A100 40GB SXM4, A100 80GB PCIe, "
                       "A100 80GB SXM4. Add the memory size or form (for example '80GB' or 'SXM') or use the "
                       "full name\n");
    EXPECT_TRUE(amb.out.empty());
}

TEST(Cli, SettingsCanBeChangedAndAreValidated) {
    Cli cli;
    EXPECT_EQ(cli.json({"settings", "set", "electricity_usd_per_kwh", "0.30"}).at("value"), "0.3");
    EXPECT_EQ(cli.json({"settings", "list"}).at("settings").at("electricity_usd_per_kwh"), "0.3");
    const auto bad = cli.run({"settings", "set", "years", "-1"});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_EQ(bad.err, "error: settings: field 'years': must be more than 0 and at most 30\n");
}

} // namespace
} // namespace advisor::testing
