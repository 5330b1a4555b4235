// Tests for core/common: strict numbers, UTF-8, dates, CSV reading/writing, formatting.
#include "common/csv.h"
#include "common/date.h"
#include "common/errors.h"
#include "common/format.h"
#include "common/text.h"

#include <gtest/gtest.h>

namespace advisor {
namespace {

using text::NumberError;

TEST(ParseNumber, AcceptsPlainDecimals) {
    EXPECT_DOUBLE_EQ(*text::parseNumber("1599").value, 1599.0);
    EXPECT_DOUBLE_EQ(*text::parseNumber(" 2.14 ").value, 2.14);
    EXPECT_DOUBLE_EQ(*text::parseNumber("+3").value, 3.0);
    EXPECT_DOUBLE_EQ(*text::parseNumber("-0.5").value, -0.5);
    EXPECT_DOUBLE_EQ(*text::parseNumber("1e3").value, 1000.0);
}

TEST(ParseFraction, TakesANumberOrAPercentage) {
    EXPECT_DOUBLE_EQ(*text::parseFraction("0.15").value, 0.15);
    EXPECT_DOUBLE_EQ(*text::parseFraction("15%").value, 0.15);
    EXPECT_DOUBLE_EQ(*text::parseFraction(" 7.5 % ").value, 0.075);
    EXPECT_EQ(text::parseFraction("%").error, NumberError::Empty);
    EXPECT_EQ(text::parseFraction("15%%").error, NumberError::NotANumber);
    EXPECT_EQ(text::parseFraction("abc%").error, NumberError::NotANumber);
}

struct BadNumber {
    const char* input;
    NumberError error;
};

class ParseNumberRejects : public ::testing::TestWithParam<BadNumber> {};

TEST_P(ParseNumberRejects, WithTheRightReason) {
    const auto r = text::parseNumber(GetParam().input);
    EXPECT_FALSE(r.value.has_value()) << GetParam().input;
    EXPECT_EQ(r.error, GetParam().error) << GetParam().input;
}

INSTANTIATE_TEST_SUITE_P(Table, ParseNumberRejects,
                         ::testing::Values(BadNumber{"", NumberError::Empty}, BadNumber{"  ", NumberError::Empty},
                                           BadNumber{"abc", NumberError::NotANumber},
                                           BadNumber{"1,599", NumberError::NotANumber},
                                           BadNumber{"$1599", NumberError::NotANumber},
                                           BadNumber{"0x10", NumberError::NotANumber},
                                           BadNumber{"12abc", NumberError::NotANumber},
                                           BadNumber{"NaN", NumberError::NotFinite},
                                           BadNumber{"inf", NumberError::NotFinite},
                                           BadNumber{"-Infinity", NumberError::NotFinite},
                                           BadNumber{"1e999", NumberError::OutOfRange}));

TEST(Utf8, FindsTheFirstInvalidByte) {
    EXPECT_FALSE(text::firstInvalidUtf8("plain").has_value());
    EXPECT_FALSE(text::firstInvalidUtf8("GeForce – 4090 €").has_value());
    EXPECT_EQ(text::firstInvalidUtf8("ab\xff"), 2u);
    EXPECT_EQ(text::firstInvalidUtf8("\xc3"), 0u);            // truncated sequence
    EXPECT_EQ(text::firstInvalidUtf8("x\xc0\xaf"), 1u);       // overlong '/'
    EXPECT_EQ(text::firstInvalidUtf8("\xed\xa0\x80"), 0u);    // surrogate
}

TEST(Text, ControlCharactersAndQuoting) {
    EXPECT_TRUE(text::hasControlCharacters(std::string("a\0b", 3)));
    EXPECT_FALSE(text::hasControlCharacters("tab\tand\nnewline"));
    EXPECT_EQ(text::quoteForMessage("abc"), "'abc'");
    const std::string longText(100, 'x');
    EXPECT_EQ(text::quoteForMessage(longText), "'" + std::string(40, 'x') + "...' (100 bytes)");
}

TEST(Text, ClosestMatchSuggestsOnlyALikelyTypo) {
    const std::vector<std::string> commands = {"gpus", "prices", "perf", "recommend", "memory", "cloud", "cloud-vs-desktop"};
    EXPECT_EQ(text::closestMatch("recomend", commands), "recommend"); // one edit
    EXPECT_EQ(text::closestMatch("memroy", commands), "memory");      // a swap is two edits
    EXPECT_EQ(text::closestMatch("cloud-vs", commands), "cloud-vs-desktop"); // the only one it starts
    EXPECT_EQ(text::closestMatch("clod", commands), "cloud");
    EXPECT_FALSE(text::closestMatch("frobnicate", commands)); // nothing close
    EXPECT_FALSE(text::closestMatch("perfs", {"perf", "pers"})); // two at one edit: no guess
    EXPECT_FALSE(text::closestMatch("gpus", commands));          // exact: not a typo
    EXPECT_FALSE(text::closestMatch("", commands));
    EXPECT_FALSE(text::closestMatch("ab", {"xy"})); // every letter different is not a typo
    const std::vector<std::string> options = {"--memory-gb", "--params-billion", "--budget"};
    EXPECT_EQ(text::closestMatch("--memory", options), "--memory-gb");
    EXPECT_EQ(text::closestMatch("--budgte", options), "--budget");
}

TEST(Text, ExactDoubleFormattingRoundTrips) {
    for (const double v : {1599.0, 2.14, 0.1, 1234.56, 1e-7, 34749.95}) {
        EXPECT_EQ(*text::parseNumber(text::formatDoubleExact(v)).value, v);
    }
    EXPECT_EQ(text::formatDoubleExact(1599.0), "1599");
}

TEST(DateTest, ParsesDayAndMonthPrecision) {
    const auto d = Date::parse("2023-10-05");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->toString(), "2023-10-05");
    const auto m = Date::parse("2023-10");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->hasDay());
    EXPECT_EQ(m->toString(), "2023-10");
    EXPECT_LT(*m, *d);
}

TEST(DateTest, RejectsGarbageAndImpossibleDates) {
    for (const char* bad : {"", "2023", "2023-13", "2023-02-30", "2023-1-5", "23-10-05", "2023/10/05",
                            "2023-10-05T00:00", "yesterday", "2023-00", "2023-10-00"}) {
        EXPECT_FALSE(Date::parse(bad)) << bad;
    }
    EXPECT_TRUE(Date::parse("2024-02-29"));
    EXPECT_FALSE(Date::parse("2023-02-29"));
}

TEST(DateTest, FutureComparesAtThePrecisionGiven) {
    const Date today{2026, 11, 22};
    EXPECT_FALSE(isInFuture(*Date::parse("2026-11"), today));
    EXPECT_FALSE(isInFuture(*Date::parse("2026-11-22"), today));
    EXPECT_TRUE(isInFuture(*Date::parse("2026-11-23"), today));
    EXPECT_TRUE(isInFuture(*Date::parse("2026-12"), today));
    EXPECT_EQ(Date::parse("1970-01-02")->daysSinceEpoch(), 1);
}

TEST(DateTest, OverAYearBeforeTheNewestIsMoreThan365Days) {
    const Date newest{2026, 10, 10};
    EXPECT_FALSE(isOverAYearBefore(*Date::parse("2025-10-10"), newest)); // 365 days
    EXPECT_TRUE(isOverAYearBefore(*Date::parse("2025-10-09"), newest));
    EXPECT_TRUE(isOverAYearBefore(*Date::parse("2023-03-31"), newest));
    EXPECT_FALSE(isOverAYearBefore(*Date::parse("2026-10"), newest));
    EXPECT_TRUE(isOverAYearBefore(*Date::parse("2025-09"), newest)); // counts from 2025-09-01
    EXPECT_FALSE(isOverAYearBefore(*Date::parse("1999-01"), Date{})); // no newest: nothing to compare with
}

TEST(Csv, ReadsHeaderRowsAndLineNumbers) {
    const auto t = csv::read("GPU, Amount\nRTX 4090,1599\n\n\"RTX\n3090\",\"7,00\"\nA,1\n", "f.csv");
    EXPECT_EQ(t.header, (std::vector<std::string>{"gpu", "amount"}));
    ASSERT_EQ(t.rows.size(), 3u);
    EXPECT_EQ(t.rows[0].line, 2);
    EXPECT_EQ(t.rows[1].line, 4); // a quoted field spanning lines keeps its first line
    EXPECT_EQ(t.rows[1].fields[0], "RTX\n3090");
    EXPECT_EQ(t.rows[1].fields[1], "7,00");
    EXPECT_EQ(t.rows[2].line, 6);
}

TEST(Csv, HandlesCrLfAndByteOrderMark) {
    const auto t = csv::read("\xEF\xBB\xBFgpu,amount\r\nRTX 4090,1599\r\n", "f.csv");
    EXPECT_EQ(t.header.front(), "gpu");
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0].fields[1], "1599");
}

TEST(Csv, AHeaderWithoutCommasTakesItsSemicolonsOrTabsAsTheDelimiter) {
    // A spreadsheet in a locale with a decimal comma saves "CSV" with semicolons.
    const auto semi = csv::read("gpu;amount;note\nRTX 4090;1599,90;\"a; b\"\n", "f.csv");
    EXPECT_EQ(semi.delimiter, ';');
    EXPECT_EQ(semi.header, (std::vector<std::string>{"gpu", "amount", "note"}));
    EXPECT_EQ(semi.rows.at(0).fields, (std::vector<std::string>{"RTX 4090", "1599,90", "a; b"}));
    // Empty fields between tabs survive (libcsv would skip leading tabs as blanks).
    const auto tabs = csv::read("gpu\tamount\tcondition\tnote\nRTX 4080\t999.5\t\tx\n", "f.csv");
    EXPECT_EQ(tabs.delimiter, '\t');
    EXPECT_EQ(tabs.rows.at(0).fields, (std::vector<std::string>{"RTX 4080", "999.5", "", "x"}));
    // One comma in the header keeps commas, whatever the rows hold.
    const auto commas = csv::read("gpu,note\nRTX 4090;x,a;b\n", "f.csv");
    EXPECT_EQ(commas.delimiter, ',');
    EXPECT_EQ(commas.rows.at(0).fields, (std::vector<std::string>{"RTX 4090;x", "a;b"}));
    EXPECT_EQ(csv::read("gpu\nRTX 4090\n", "f.csv").delimiter, ',');
}

TEST(Csv, ANumberCellReadsADecimalCommaOnlyInASemicolonFile) {
    const auto semi = csv::read("gpu;amount\n", "f.csv");
    EXPECT_EQ(csv::numberCell(semi, "1599,90"), "1599.90");
    EXPECT_EQ(csv::numberCell(semi, "1599"), "1599");
    EXPECT_EQ(csv::numberCell(semi, "1.599,90"), "1.599,90"); // thousands marks stay an error
    EXPECT_EQ(csv::numberCell(semi, "1,599,90"), "1,599,90");
    EXPECT_EQ(csv::numberCell(semi, "1,5x"), "1,5x"); // not a number either way: quoted as written
    const auto commas = csv::read("gpu,amount\n", "f.csv");
    EXPECT_EQ(csv::numberCell(commas, "7,00"), "7,00");
}

std::string errorOf(const std::string& text, const csv::Limits& limits = {}) {
    try {
        csv::read(text, "f.csv", limits);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(Csv, ReportsStructuralErrorsWithLines) {
    EXPECT_EQ(errorOf(""), "f.csv: file is empty; expected a header row");
    EXPECT_EQ(errorOf("gpu,amount\nRTX 4090,\"1599\n"),
              "f.csv:2: unterminated quoted field (opened on this line, never closed)");
    EXPECT_EQ(errorOf("gpu,amount\nRTX \"4090\",1\n"),
              "f.csv:2: malformed quoting (a '\"' inside an unquoted field, or text after a closing quote)");
    csv::Limits small;
    small.maxFieldBytes = 10;
    EXPECT_EQ(errorOf("gpu,amount\nRTX 4090 Ti Super Duper,1\n", small),
              "f.csv:2: field 'gpu': field is 23 bytes long; the limit is 10 bytes");
    small.maxFileBytes = 5;
    EXPECT_EQ(errorOf("gpu,amount\n", small), "f.csv: file is 11 bytes; the limit is 5 bytes");
}

TEST(Csv, WritesOnlyNecessaryQuotesAndReadsThemBack) {
    std::string out;
    csv::appendRow(out, {"plain", "a,b", "say \"hi\"", "two\nlines", " padded", ""});
    EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded\",\n");
    const auto t = csv::read("h1,h2,h3,h4,h5,h6\n" + out, "f.csv");
    EXPECT_EQ(t.rows[0].fields,
              (std::vector<std::string>{"plain", "a,b", "say \"hi\"", "two\nlines", " padded", ""}));
}

TEST(Csv, FormulaNeutralizationIsAnExactInverse) {
    EXPECT_EQ(csv::neutralizeFormula("=SUM(A1)"), "'=SUM(A1)");
    EXPECT_EQ(csv::neutralizeFormula("+1"), "'+1");
    EXPECT_EQ(csv::neutralizeFormula("-2"), "'-2");
    EXPECT_EQ(csv::neutralizeFormula("@cmd"), "'@cmd");
    EXPECT_EQ(csv::neutralizeFormula("harmless"), "harmless");
    EXPECT_EQ(csv::neutralizeFormula("'quoted"), "'quoted");
    for (const char* s : {"=1+1", "'=1", "''=1", "'hello", "hello", "-", "@", "", "'", "\tx"}) {
        EXPECT_EQ(csv::unneutralizeFormula(csv::neutralizeFormula(s)), s) << s;
    }
}

TEST(Format, MoneyNumbersAndRatios) {
    EXPECT_EQ(format::money(1599), "$1,599");
    EXPECT_EQ(format::money(2.14), "$2.14");
    EXPECT_EQ(format::money(0.175), "$0.175");
    EXPECT_EQ(format::money(0.12), "$0.12");
    EXPECT_EQ(format::money(1234567.8), "$1,234,568");
    EXPECT_EQ(format::money(999, "EUR"), "999 EUR");
    EXPECT_EQ(format::number(-1234.5, 1), "-1,234.5");
    EXPECT_EQ(format::ratio(0.333), "0.33x");
    EXPECT_EQ(format::percent(0.071), "7.1%");
    EXPECT_EQ(format::gigabytes(24), "24 GB");
    EXPECT_EQ(format::count(1, "GPU"), "1 GPU");
    EXPECT_EQ(format::count(4, "GPU"), "4 GPUs");
    EXPECT_EQ(format::count(1200, "offer"), "1,200 offers");
    EXPECT_EQ(format::trimmed(5.0, 2), "5");
    EXPECT_EQ(format::trimmed(2.5, 2), "2.5"); // half years: not rounded to "3"
    EXPECT_EQ(format::trimmed(0.25, 2), "0.25");
    EXPECT_EQ(format::trimmed(1500, 2), "1,500");
    EXPECT_EQ(format::trimmed(10, 0), "10");
}

} // namespace
} // namespace advisor
