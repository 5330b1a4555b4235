// `gpu-advisor prices ...` against a real temporary database, including malformed imports:
// each must fail with its exact error and leave the database unchanged.
#include "cli_runner.h"
#include "common/date.h"
#include "support/shipped_prices.h"

#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

TEST(PricesCli, NewDatabaseIsSeeded) {
    Cli cli;
    const auto doc = cli.json({"prices", "list"});
    EXPECT_EQ(doc.at("count"), testing::kShippedPrices);
    const auto one = cli.json({"prices", "list", "--gpu", "RTX 3090 Ti"});
    EXPECT_GT(one.at("count").get<int>(), 0);
    for (const auto& p : one.at("prices")) {
        EXPECT_EQ(p.at("gpu_id"), "rtx-3090-ti");
    }
    // The count line says which GPU it counted for (it read "0 prices in ..." for a GPU without any).
    const auto none = cli.run({"prices", "list", "--gpu", "RTX PRO 6000 Server Edition"});
    EXPECT_NE(none.out.find("0 prices for RTX PRO 6000 Blackwell Server Edition in "), std::string::npos) << none.out;
}

TEST(PricesCli, ImportShippedAddsWhatAnOlderDatabaseLacks) {
    Cli cli;
    const auto none = cli.json({"prices", "import", "--shipped"}); // a new database holds them all
    EXPECT_EQ(none.at("added"), 0);
    EXPECT_EQ(none.at("duplicates"), testing::kShippedPrices);
    // As a database an older version seeded: without the prices added with the RTX 3070 Ti.
    const auto ti = cli.json({"prices", "list", "--gpu", "RTX 3070 Ti"});
    ASSERT_EQ(ti.at("count"), 2);
    for (const auto& p : ti.at("prices")) {
        ASSERT_EQ(cli.run({"prices", "remove", std::to_string(p.at("id").get<int>())}).exitCode, 0);
    }
    const auto human = cli.run({"prices", "import", "--shipped"});
    EXPECT_EQ(human.exitCode, 0) << human.err;
    EXPECT_EQ(human.out, "imported 2 prices from the shipped prices (" + std::to_string(testing::kShippedPrices - 2) +
                             " already present, skipped)\n");
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"), testing::kShippedPrices);
    const auto both = cli.run({"prices", "import", "--shipped", cli.file("x.csv")});
    EXPECT_EQ(both.exitCode, 2);
    const auto neither = cli.run({"prices", "import"});
    EXPECT_EQ(neither.exitCode, 2);
    EXPECT_NE(neither.err.find("or --shipped"), std::string::npos) << neither.err;
}

TEST(PricesCli, AddListRemove) {
    Cli cli;
    const auto added = cli.json({"prices", "add", "--gpu", "geforce rtx 5090", "--price", "2699", "--condition",
                                 "new", "--source", "signal test", "--date", "2026-06-22", "--note", "shortage"});
    const auto p = added.at("added");
    EXPECT_EQ(p.at("gpu_id"), "rtx-5090");
    EXPECT_EQ(p.at("amount"), 2699);
    EXPECT_EQ(p.at("observed_date"), "2026-06-22");
    const int id = p.at("id");
    const auto human = cli.run({"prices", "remove", std::to_string(id)});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_EQ(human.out, "removed price " + std::to_string(id) +
                             ": RTX 5090, new, $2,699 (2026-06-22, signal test)\n");
    const auto again = cli.run({"prices", "remove", std::to_string(id)});
    EXPECT_EQ(again.exitCode, 1);
    EXPECT_EQ(again.err, "error: no price with id " + std::to_string(id) + "\n");
    EXPECT_EQ(cli.run({"prices", "remove", "abc"}).exitCode, 2);
}

TEST(PricesCli, RemovesSeveralIdsAllOrNone) {
    // As the Prices page deletes a selection; the command took one id.
    Cli cli;
    std::vector<std::string> ids;
    for (const char* amount : {"1001", "1002", "1003"}) {
        ids.push_back(std::to_string(cli.json({"prices", "add", "--gpu", "RTX 4090", "--price", amount}).at("added").at("id").get<int>()));
    }
    const auto count = [&] { return cli.json({"prices", "list"}).at("prices").size(); };
    const size_t before = count();
    // One unknown id: nothing is removed.
    const auto bad = cli.run({"prices", "remove", ids[0], "999999", ids[1]});
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_EQ(bad.err, "error: no price with id 999999\n");
    EXPECT_EQ(count(), before);
    const auto twice = cli.run({"prices", "remove", ids[0], ids[0]});
    EXPECT_EQ(twice.exitCode, 2);
    EXPECT_NE(twice.err.find("id " + ids[0] + " is given twice"), std::string::npos) << twice.err;
    EXPECT_EQ(cli.run({"prices", "remove"}).exitCode, 2);
    const auto doc = cli.json({"prices", "remove", ids[0], ids[1]});
    EXPECT_EQ(doc.at("count"), 2);
    EXPECT_EQ(doc.at("removed_all").size(), 2u);
    EXPECT_EQ(doc.at("removed").at("amount"), 1001); // the first, as for one id
    EXPECT_EQ(count(), before - 2);
    // Cloud offers alike.
    std::vector<std::string> offers;
    for (const char* hourly : {"1.5", "2.5"}) {
        offers.push_back(std::to_string(cli.json({"cloud", "add", "--provider", "Test", "--gpu", "L4", "--hourly", hourly})
                                            .at("added").at("id").get<int>()));
    }
    const auto removed = cli.run({"cloud", "remove", offers[0], offers[1]});
    EXPECT_EQ(removed.exitCode, 0);
    EXPECT_EQ(removed.out, "removed cloud offer " + offers[0] + ": Test L4\nremoved cloud offer " + offers[1] + ": Test L4\n");
}

TEST(PricesCli, AddUsesTheCurrencySettingUnlessTold) {
    Cli cli;
    const auto usd = cli.json({"prices", "add", "--gpu", "RTX 4090", "--price", "1599"});
    EXPECT_EQ(usd.at("added").at("currency"), "USD");
    ASSERT_EQ(cli.run({"settings", "set", "currency", "EUR"}).exitCode, 0);
    const auto eur = cli.json({"prices", "add", "--gpu", "RTX 4090", "--price", "1799"});
    EXPECT_EQ(eur.at("added").at("currency"), "EUR"); // as the window's add dialog does
    const auto told = cli.json({"prices", "add", "--gpu", "RTX 4090", "--price", "1699", "--currency", "usd"});
    EXPECT_EQ(told.at("added").at("currency"), "USD");
}

TEST(PricesCli, AddRejectsBadFieldsWithoutStoring) {
    Cli cli;
    const auto r = cli.run({"prices", "add", "--gpu", "A100", "--price", "0", "--date", "2999-01-01"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("error: --gpu: 'A100' is ambiguous"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error: --price: must be greater than zero, got '0'"), std::string::npos);
    EXPECT_NE(r.err.find("error: --date: is in the future (2999-01-01"), std::string::npos);
    EXPECT_EQ(cli.json({"prices", "list"}).at("count"), testing::kShippedPrices);
}

TEST(PricesCli, ExportImportRoundTripsExactly) {
    Cli cli;
    cli.run({"prices", "add", "--gpu", "RTX 4090", "--price", "1599.99", "--source", "=cmd|' /C calc'!A0",
             "--note", "two\nlines, \"quoted\""});
    ASSERT_EQ(cli.run({"prices", "export", cli.file("a.csv")}).exitCode, 0);
    ASSERT_EQ(cli.run({"prices", "export", cli.file("a.json")}).exitCode, 0);
    // For a spreadsheet whose decimal mark is the comma: semicolons, "1599,99".
    ASSERT_EQ(cli.run({"prices", "export", cli.file("semi.csv"), "--semicolons"}).exitCode, 0);
    EXPECT_NE(cli.read("semi.csv").find(";1599,99;USD;"), std::string::npos) << cli.read("semi.csv");
    const auto notCsv = cli.run({"prices", "export", cli.file("semi.json"), "--semicolons"});
    EXPECT_EQ(notCsv.exitCode, 2);
    EXPECT_NE(notCsv.err.find("--semicolons writes a .csv file"), std::string::npos) << notCsv.err;
    for (const char* name : {"a.csv", "a.json", "semi.csv"}) {
        Cli fresh;
        // Start from an empty database: remove every seeded price first.
        const auto seeded = fresh.json({"prices", "list"});
        for (const auto& p : seeded.at("prices")) {
            ASSERT_EQ(fresh.run({"prices", "remove", std::to_string(p.at("id").get<int>())}).exitCode, 0);
        }
        const auto imported = fresh.json({"prices", "import", cli.file(name)});
        EXPECT_EQ(imported.at("added"), testing::kShippedPrices + 1) << name;
        ASSERT_EQ(fresh.run({"prices", "export", fresh.file("b.csv")}).exitCode, 0);
        EXPECT_EQ(fresh.read("b.csv"), cli.read("a.csv")) << name;
    }
    // The formula-looking source is inert in the CSV (a spreadsheet will not run it).
    EXPECT_NE(cli.read("a.csv").find(",'=cmd|' /C calc'!A0,"), std::string::npos);
}

TEST(PricesCli, ImportingTheSameFileTwiceSkipsDuplicates) {
    Cli cli;
    const auto f = cli.write("new.csv", "gpu,amount,observed_date,condition\nRTX 4090,1499,2025-01,used\n");
    EXPECT_EQ(cli.json({"prices", "import", f}).at("added"), 1);
    const auto second = cli.json({"prices", "import", f});
    EXPECT_EQ(second.at("added"), 0);
    EXPECT_EQ(second.at("duplicates"), 1);
}

struct BadImport {
    const char* name;
    std::string content;
    std::string expectedErr; ///< "{F}" stands for the file's path, "{TODAY}" for the date of the run
};

class MalformedImport : public ::testing::TestWithParam<BadImport> {};

TEST_P(MalformedImport, IsRejectedWithItsExactErrorAndChangesNothing) {
    Cli cli;
    ASSERT_EQ(cli.run({"prices", "export", cli.file("before.csv")}).exitCode, 0);
    const std::string ext = std::string(GetParam().name).find("json") != std::string::npos ? ".json" : ".csv";
    const std::string f = cli.write(std::string("bad") + ext, GetParam().content);
    // The run may cross midnight: its "today" is the date before it or the date after it.
    const Date before = Date::today();
    const auto r = cli.run({"prices", "import", f});
    const Date after = Date::today();
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const auto expectedOn = [&](const Date& today) {
        std::string expected = GetParam().expectedErr;
        for (const auto& [key, value] : {std::pair<std::string, std::string>{"{F}", f}, {"{TODAY}", today.toString()}}) {
            for (size_t pos; (pos = expected.find(key)) != std::string::npos;) {
                expected.replace(pos, key.size(), value);
            }
        }
        return expected;
    };
    EXPECT_EQ(r.err, r.err == expectedOn(after) ? expectedOn(after) : expectedOn(before));
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_EQ(cli.run({"prices", "export", cli.file("after.csv")}).exitCode, 0);
    EXPECT_EQ(cli.read("after.csv"), cli.read("before.csv")) << "the database changed";
}

const std::string kHeader = "gpu,amount,observed_date\n";
const std::string kGood = "RTX 4090,1599,2024-01-05\n";
const std::string kColumns = "gpu, amount, observed_date, currency, condition, source, source_url, note";

std::string tenMegabyteLine() {
    return "gpu,amount,note\nRTX 4090,1599," + std::string(10 * 1024 * 1024, 'x') + "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedImport,
    ::testing::Values(
        BadImport{"unknown_column", "gpu,price_eur,amount\n" + kGood,
                  "error: {F}:1: field 'price_eur': unknown column; expected columns: " + kColumns + "\n"},
        BadImport{"missing_column", "gpu,observed_date\nRTX 4090,2024-01-05\n",
                  "error: {F}:1: field 'amount': required column is missing\n"},
        BadImport{"short_row", kHeader + kGood + "RTX 3090,700\n",
                  "error: {F}:3: has 2 fields; the header has 3\n"},
        BadImport{"non_numeric", kHeader + kGood + "RTX 3090,seven hundred,2024-01-05\n",
                  "error: {F}:3: field 'amount': not a number: 'seven hundred'\n"},
        BadImport{"negative", kHeader + "RTX 3090,-700,2024-01-05\n",
                  "error: {F}:2: field 'amount': must be greater than zero, got '-700'\n"},
        BadImport{"zero", kHeader + "RTX 3090,0,2024-01-05\n",
                  "error: {F}:2: field 'amount': must be greater than zero, got '0'\n"},
        BadImport{"nan", kHeader + "RTX 3090,NaN,2024-01-05\n",
                  "error: {F}:2: field 'amount': must be a finite number, got 'NaN'\n"},
        BadImport{"infinite", kHeader + "RTX 3090,inf,2024-01-05\n",
                  "error: {F}:2: field 'amount': must be a finite number, got 'inf'\n"},
        BadImport{"overflow", kHeader + "RTX 3090,1e999,2024-01-05\n",
                  "error: {F}:2: field 'amount': number out of range: '1e999'\n"},
        BadImport{"unknown_gpu", kHeader + "RTX 9090,1999,2024-01-05\n",
                  "error: {F}:2: field 'gpu': unknown GPU 'RTX 9090'; 'gpu-advisor gpus list' shows the known GPUs\n"},
        BadImport{"future_date", kHeader + "RTX 3090,700,2999-01-01\n",
                  "error: {F}:2: field 'observed_date': is in the future (2999-01-01; today is {TODAY})\n"},
        BadImport{"garbage_date", kHeader + "RTX 3090,700,last tuesday\n",
                  "error: {F}:2: field 'observed_date': is not a date: 'last tuesday'; use YYYY-MM-DD or YYYY-MM\n"},
        BadImport{"invalid_utf8", "gpu,amount,note\nRTX 3090,700,caf\xe9\n",
                  "error: {F}:2: field 'note': is not valid UTF-8 (bad byte at offset 3)\n"},
        BadImport{"binary_junk", std::string("PK\x03\x04\x14\x00\x08\x00\xff\xfe\x00\x01", 12),
                  "error: {F}:1: contains a NUL byte; this looks like a binary file, not CSV text\n"},
        BadImport{"empty_file", "", "error: {F}: file is empty; expected a header row\n"},
        BadImport{"ten_megabyte_line", tenMegabyteLine(),
                  "error: {F}:2: field 'note': field is 10485760 bytes long; the limit is 65536 bytes\n"},
        BadImport{"unterminated_quote", kHeader + kGood + "\"RTX 3090,700,2024-01-05\n",
                  "error: {F}:3: unterminated quoted field (opened on this line, never closed)\n"},
        BadImport{"several_bad_rows", kHeader + "A100,1,2024-01\n" + kGood + "RTX 3090,-1,2024-13-01\n",
                  "error: {F}:2: field 'gpu': 'A100' is ambiguous; it matches A100 40GB PCIe, A100 40GB SXM4, "
                  "A100 80GB PCIe, A100 80GB SXM4. Add the memory size or form (for example '80GB' or 'SXM') "
                  "or use the full name\n"
                  "error: {F}:4: field 'amount': must be greater than zero, got '-1'\n"
                  "error: {F}:4: field 'observed_date': is not a date: '2024-13-01'; use YYYY-MM-DD or YYYY-MM\n"},
        // Errors name the column as the file spells it ("price", "date", "name"), not the field's canonical name.
        BadImport{"column_spelled_price_and_date", "name,price,date\nRTX 3090,-700,2024-13-01\n",
                  "error: {F}:2: field 'price': must be greater than zero, got '-700'\n"
                  "error: {F}:2: field 'date': is not a date: '2024-13-01'; use YYYY-MM-DD or YYYY-MM\n"},
        BadImport{"json_key_spelled_price", "{\"prices\": [\n  {\"name\": \"RTX 9090\", \"price\": 5}\n]}\n",
                  "error: {F}:2: prices[0]: field 'name': unknown GPU 'RTX 9090'; 'gpu-advisor gpus list' shows the "
                  "known GPUs\n"},
        BadImport{"json_bad_amount", "{\"prices\": [\n  {\"gpu\": \"RTX 4090\", \"amount\": -1}\n]}\n",
                  "error: {F}:2: prices[0]: field 'amount': must be greater than zero, got '-1'\n"},
        BadImport{"json_syntax", "{\"prices\": [\n  {\"gpu\": \"RTX 4090\" \"amount\": 1}\n]}\n",
                  "error: {F}:2: not valid JSON: parse error at line 2, column 29: syntax error while parsing "
                  "object - unexpected string literal; expected '}'\n"}),
    [](const ::testing::TestParamInfo<BadImport>& p) { return std::string(p.param.name); });

TEST(PricesCli, ImportOfAMissingFileSaysSo) {
    Cli cli;
    const auto r = cli.run({"prices", "import", cli.file("nope.csv")});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "error: " + cli.file("nope.csv") + ": cannot open: no such file\n");
}

} // namespace
} // namespace advisor::testing
