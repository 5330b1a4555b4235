// `gpu-advisor cloud import|export` against real temporary databases: files round-trip, a bad
// file changes nothing and says where it is wrong.
#include "cli_runner.h"

#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

/// Removes every offer (the seeded ones too), so a database holds only what is imported.
void removeAllOffers(const Cli& cli) {
    std::vector<std::string> args = {"cloud", "remove"};
    const auto listed = cli.json({"cloud", "list"}); // kept: the loop reads into it
    for (const auto& o : listed.at("offers")) {
        args.push_back(std::to_string(o.at("id").get<long long>()));
    }
    const auto r = cli.run(args);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_EQ(cli.json({"cloud", "list"}).at("count"), 0);
}

TEST(CloudFilesCli, ExportThenImportRebuildsTheSameOffersInEitherFormat) {
    Cli from;
    ASSERT_EQ(from.run({"cloud", "add", "--provider", "=cmd|' /C calc'!A0", "--gpu", "L4", "--hourly", "0.8",
                        "--date", "2026-03-01", "--note", "two\nlines, \"quoted\""})
                  .exitCode,
              0);
    const int stored = from.json({"cloud", "list"}).at("count");
    ASSERT_EQ(from.run({"cloud", "export", from.file("a.csv")}).exitCode, 0);
    const auto json = from.json({"cloud", "export", from.file("a.json")});
    EXPECT_EQ(json.at("exported"), stored);
    for (const char* name : {"a.csv", "a.json"}) {
        Cli to;
        removeAllOffers(to);
        const auto imported = to.json({"cloud", "import", from.file(name)});
        EXPECT_EQ(imported.at("added"), stored) << name;
        EXPECT_EQ(imported.at("duplicates"), 0) << name;
        ASSERT_EQ(to.run({"cloud", "export", to.file("b.csv")}).exitCode, 0);
        EXPECT_EQ(to.read("b.csv"), from.read("a.csv")) << name;
    }
    // The formula-looking provider is inert in the CSV (a spreadsheet will not run it).
    EXPECT_NE(from.read("a.csv").find("\n'=cmd|' /C calc'!A0,"), std::string::npos);
}

TEST(CloudFilesCli, ExportTakesTheListsSelection) {
    Cli cli;
    const auto current = cli.json({"cloud", "export", cli.file("c.json"), "--current", "--gpu", "H100 SXM"});
    EXPECT_EQ(current.at("exported"), cli.json({"cloud", "list", "--current", "--gpu", "H100 SXM"}).at("count"));
    EXPECT_LT(current.at("exported").get<int>(), cli.json({"cloud", "list", "--gpu", "H100 SXM"}).at("count").get<int>());
    const auto aws = cli.json({"cloud", "export", cli.file("aws.csv"), "--provider", "aws"});
    EXPECT_EQ(aws.at("exported"), cli.json({"cloud", "list", "--provider", "aws"}).at("count"));
}

TEST(CloudFilesCli, AnImportedOfferCanBeComparedAndImportingAgainSkipsIt) {
    Cli cli;
    const auto f = cli.write("mine.csv", "provider,instance,gpu,gpus,hourly,spot,date\n"
                                         "My Cloud,big-8,H100 SXM,8,16.00,8.00,2026-11-01\n");
    const auto g = cli.write("sized.csv", "provider,gpu,memory_gb,hourly,date\n"
                                          "Sized Cloud,H100 SXM,80,2.5,2026-11-01\n");
    ASSERT_EQ(cli.run({"cloud", "import", g}).exitCode, 0);
    EXPECT_EQ(cli.json({"cloud", "list", "--provider", "Sized Cloud"}).at("offers").at(0).at("gpu_memory_gb"), 80.0);
    const auto first = cli.json({"cloud", "import", f});
    EXPECT_EQ(first.at("added"), 1);
    const long long id = first.at("added_ids").at(0);
    const auto listed = cli.json({"cloud", "list", "--provider", "My Cloud"});
    ASSERT_EQ(listed.at("count"), 1);
    EXPECT_EQ(listed.at("offers").at(0).at("id"), id);
    EXPECT_EQ(listed.at("offers").at(0).at("gpu_memory_gb"), nullptr); // the file did not say
    EXPECT_EQ(listed.at("offers").at(0).at("spot_usd_per_hour"), 8.0);
    const auto compared = cli.json({"cloud-vs-desktop", "--desktop-cost", "40000", "--desktop-gpu", "RTX 4090",
                                    "--desktop-gpus", "4", "--offer", std::to_string(id), "--spot"});
    EXPECT_DOUBLE_EQ(compared.at("cloud_hourly_usd").get<double>(), 8.0);
    const auto again = cli.run({"cloud", "import", f});
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_EQ(again.out, "imported 0 cloud offers from " + f + " (1 already present, skipped)\n");
}

TEST(CloudFilesCli, ABadFileIsRefusedWithEveryProblemAndChangesNothing) {
    Cli cli;
    ASSERT_EQ(cli.run({"cloud", "export", cli.file("before.csv")}).exitCode, 0);
    const auto f = cli.write("bad.csv", "provider,gpu,hourly,gpus\n"
                                        "Good,H100 SXM,10,8\n"
                                        "Bad,H100 SXM,ten,8\n"
                                        "Worse,,1,99\n");
    const auto r = cli.run({"cloud", "import", f});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "error: " + f + ":3: field 'hourly': not a number: 'ten'\n"
                     "error: " + f + ":4: field 'gpu': is empty\n"
                     "error: " + f + ":4: field 'gpus': must be a whole number from 1 to 64, got '99'\n");
    ASSERT_EQ(cli.run({"cloud", "export", cli.file("after.csv")}).exitCode, 0);
    EXPECT_EQ(cli.read("after.csv"), cli.read("before.csv"));
    const auto sheet = cli.run({"cloud", "export", cli.file("offers.xlsx")});
    EXPECT_EQ(sheet.exitCode, 1);
    EXPECT_EQ(sheet.err, "error: " + cli.file("offers.xlsx") + ": unsupported file type '.xlsx'; use .csv or .json\n");
}

} // namespace
} // namespace advisor::testing
