// Tests for core/prices/price_io: CSV and JSON price files.
#include "catalog/catalog.h"
#include "common/file_io.h"
#include "common/json_fields.h"
#include "prices/price_io.h"
#include "../support/input_problems.h"
#include "../support/temp_dir.h"

#include <gtest/gtest.h>

namespace advisor {
namespace {

using testing::problemsOf;

TEST(PriceCsv, ReadsColumnsInAnyOrderWithAliases) {
    const auto rows = priceio::parseCsv("Date,Price_USD,GPU,Note\n2023-10,704,RTX 3090,\"eBay, used\"\n", "f.csv");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].where.line, 2);
    EXPECT_EQ(rows[0].input.gpu, "RTX 3090");
    EXPECT_EQ(rows[0].input.amountText, "704");
    EXPECT_EQ(rows[0].input.currency, "USD");
    EXPECT_EQ(rows[0].input.dateText, "2023-10");
    EXPECT_EQ(rows[0].input.note, "eBay, used");
}

TEST(PriceCsv, GpuIdWinsOverTheDisplayName) {
    const auto rows = priceio::parseCsv("gpu,gpu_id,amount\nSomething,rtx-4090,1\n", "f.csv");
    EXPECT_EQ(rows[0].input.gpu, "rtx-4090");
}

TEST(PriceCsv, HeaderProblemsAreAllReported) {
    EXPECT_EQ(problemsOf([] { priceio::parseCsv("gpu,colour,price,amount\n", "f.csv"); }),
              (std::vector<std::string>{
                  "f.csv:1: field 'colour': unknown column; expected columns: gpu, amount, observed_date, "
                  "currency, condition, source, source_url, note",
                  "f.csv:1: field 'amount': column given twice"}));
    EXPECT_EQ(problemsOf([] { priceio::parseCsv("name_of_gpu,when\n", "f.csv"); }).size(), 4u);
    EXPECT_EQ(problemsOf([] { priceio::parseCsv("source,note\n", "f.csv"); }),
              (std::vector<std::string>{"f.csv:1: field 'gpu': required column is missing",
                                        "f.csv:1: field 'amount': required column is missing"}));
}

TEST(PriceCsv, ShortAndLongRowsAreReportedByLine) {
    EXPECT_EQ(problemsOf([] { priceio::parseCsv("gpu,amount,note\nRTX 4090,1599\nA,1,x,extra\nB,2,ok\n", "f.csv"); }),
              (std::vector<std::string>{"f.csv:2: has 2 fields; the header has 3",
                                        "f.csv:3: has 4 fields; the header has 3"}));
}

TEST(PriceCsv, ASemicolonFileWithDecimalCommasReadsAsItsSpreadsheetMeant) {
    const auto rows =
        priceio::parseCsv("\xEF\xBB\xBFGPU;Amount;Date;Note\r\nRTX 4090;1599,90;2026-01;eBay, used\r\n", "f.csv");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].input.amountText, "1599.90");
    EXPECT_EQ(rows[0].input.note, "eBay, used"); // a comma in text stays a comma
    std::vector<InputProblem> problems;
    const auto price = validatePrice(rows[0].input, Catalog::builtin(), Date{2026, 11, 22}, rows[0].where, problems);
    ASSERT_TRUE(price);
    EXPECT_DOUBLE_EQ(price->amount, 1599.90);
    // Thousands marks are not guessed at: the amount is refused, naming the line and field.
    const auto grouped = priceio::parseCsv("gpu;amount\nRTX 4090;1.599,90\n", "f.csv");
    EXPECT_FALSE(validatePrice(grouped[0].input, Catalog::builtin(), Date{2026, 11, 22}, grouped[0].where, problems));
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].describe(), "f.csv:2: field 'amount': not a number: '1.599,90'");
}

TEST(PriceJson, ReadsTheExportFormatAndABareList) {
    const auto rows = priceio::parseJson(R"({"format": "gpu-advisor-prices", "version": 1, "prices": [
  {"gpu": "RTX 4090", "amount": 1599, "observed_date": "2023-01"},
  {"gpu": "RTX 3090", "amount": "704.5", "condition": "used"}
]})",
                                         "p.json");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].where.line, 2);
    EXPECT_EQ(rows[1].where.line, 3);
    EXPECT_EQ(rows[0].input.amountText, "1599");
    EXPECT_EQ(rows[1].input.conditionText, "used");
    const auto bare = priceio::parseJson("[{\"gpu\": \"RTX 4090\", \"price_usd\": 1}]", "p.json");
    EXPECT_EQ(bare[0].input.currency, "USD");
}

TEST(PriceJson, ErrorsPointAtLineAndField) {
    EXPECT_EQ(problemsOf([] {
                  priceio::parseJson("{\"prices\": [\n  {\"gpu\": \"A\", \"amount\": 1},\n  {\"gpu\": \"B\", \"amount\": true, \"shop\": \"x\"},\n  7\n]}",
                                     "p.json");
              }),
              (std::vector<std::string>{"p.json:3: prices[1]: field 'amount': must be a number, got boolean",
                                        "p.json:3: prices[1]: field 'shop': unknown field; expected: gpu, amount, "
                                        "observed_date, currency, condition, source, source_url, note",
                                        "p.json:4: prices[2]: must be an object"}));
    const auto syntax = problemsOf([] { priceio::parseJson("{\"prices\": [\n {\"gpu\": \"A\",,}\n]}", "p.json"); });
    ASSERT_EQ(syntax.size(), 1u);
    EXPECT_EQ(syntax[0].rfind("p.json:2: not valid JSON: parse error", 0), 0u) << syntax[0];
    // Found by fuzzing: a number beyond a double's range is a clear refusal, not an escaped exception.
    EXPECT_EQ(problemsOf([] { priceio::parseJson("[{\"gpu\": \"A100\", \"price\": 1e309}]", "p.json"); }),
              std::vector<std::string>{"p.json: not valid JSON: number overflow parsing '1e309'"});
    EXPECT_EQ(problemsOf([] { priceio::parseJson("", "p.json"); }),
              std::vector<std::string>{"p.json: file is empty; expected a JSON document"});
    EXPECT_EQ(problemsOf([] { priceio::parseJson("{\"x\": 1}", "p.json"); }),
              std::vector<std::string>{"p.json:1: field 'prices': expected an object with a 'prices' list"});
}

TEST(PriceJson, ElementLinesIgnoreNestedAndQuotedBrackets) {
    const std::string doc = "{\"meta\": {\"prices\": [1]},\n \"note\": \"[not, this]\",\n \"prices\": [\n"
                            "  {\"a\": [1, 2]},\n  {\"b\": \"x\\\"]\"},\n  3\n]}";
    EXPECT_EQ(advisor::jsonArrayElementLines(doc, "prices"), (std::vector<int>{4, 5, 6}));
}

TEST(PriceFiles, ExportThenImportRoundTripsExactly) {
    std::vector<Price> prices(3);
    prices[0] = {0, "rtx-4090", "RTX 4090", 1599.99, "USD", Condition::New, "Shop, Inc.", "https://x.test/?a=1&b=2",
                 *Date::parse("2023-01"), "line one\nline two \"quoted\""};
    prices[1] = {0, "rtx-3090", "RTX 3090", 704, "EUR", Condition::Used, "=HYPERLINK(\"evil\")", "",
                 *Date::parse("2023-10-05"), "-50 W power limit"};
    prices[2] = {0, "h100-sxm5", "H100 SXM5", 30000.123456789, "USD", Condition::New, "@analyst", "", *Date::parse("2024-02"),
                 "'already quoted"};
    testing::TempDir dir;
    for (const char* name : {"p.csv", "p.json"}) {
        priceio::exportFile(dir.file(name), prices);
        const auto rows = priceio::parseFile(dir.file(name));
        ASSERT_EQ(rows.size(), prices.size()) << name;
        std::vector<InputProblem> problems;
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto back = validatePrice(rows[i].input, Catalog::builtin(), Date{2026, 11, 22}, rows[i].where, problems);
            ASSERT_TRUE(back) << name << " row " << i << ": " << (problems.empty() ? "" : problems[0].describe());
            EXPECT_TRUE(back->sameObservation(prices[i])) << name << " row " << i;
        }
    }
    // Spreadsheet safety: the formula cell is inert in the CSV.
    const std::string csvText = priceio::toCsv(prices);
    EXPECT_NE(csvText.find("\"'=HYPERLINK(\"\"evil\"\")\""), std::string::npos) << csvText;
    EXPECT_NE(csvText.find(",'@analyst,"), std::string::npos);
    EXPECT_NE(csvText.find(",'-50 W power limit"), std::string::npos);
}

TEST(PriceFiles, ASemicolonExportWithDecimalCommasReadsBackExactly) {
    std::vector<Price> prices(2);
    prices[0] = {0,
                 "rtx-4090",
                 "RTX 4090",
                 1599.99,
                 "EUR",
                 Condition::Used,
                 "Shop; Inc., Berlin",
                 "https://x.test/?a=1;b=2",
                 *Date::parse("2025-06"),
                 "eBay; \"boxed\", 2 fans\nsecond line"};
    prices[1] = {
        0, "h100-sxm5", "H100 SXM5", 30000.123456789, "USD", Condition::New, "=analyst", "", *Date::parse("2024-02-01"),
        ""};
    testing::TempDir dir;
    priceio::exportFile(dir.file("p.csv"), prices, csv::Style::SemicolonsDecimalCommas);
    const std::string text = files::readAll(dir.file("p.csv"));
    EXPECT_EQ(text.substr(0, text.find('\n')),
              "gpu;gpu_id;condition;amount;currency;observed_date;source;source_url;note");
    EXPECT_NE(text.find(";1599,99;EUR;2025-06;\"Shop; Inc., Berlin\";"), std::string::npos) << text; // a bare number
    EXPECT_NE(text.find(";30000,123456789;"), std::string::npos) << text;
    const auto rows = priceio::parseFile(dir.file("p.csv"));
    ASSERT_EQ(rows.size(), prices.size());
    std::vector<InputProblem> problems;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto back = validatePrice(rows[i].input, Catalog::builtin(), Date{2026, 11, 22}, rows[i].where, problems);
        ASSERT_TRUE(back) << i << ": " << (problems.empty() ? "" : problems[0].describe());
        EXPECT_TRUE(back->sameObservation(prices[i])) << i;
    }
}

TEST(PriceFiles, UnknownExtensionIsRejected) {
    EXPECT_EQ(problemsOf([] { files::tableFormatForPath("prices.xlsx"); }),
              std::vector<std::string>{"prices.xlsx: unsupported file type '.xlsx'; use .csv or .json"});
}

} // namespace
} // namespace advisor
