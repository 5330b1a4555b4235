// Tests for core/prices/cloud_offer_io and PriceDb::importCloudOffers: cloud offer files in,
// out and back.
#include "catalog/catalog.h"
#include "common/csv.h"
#include "common/embedded_resources.h"
#include "common/file_io.h"
#include "prices/cloud_offer_io.h"
#include "prices/price_db.h"
#include "../support/input_problems.h"
#include "../support/price_fixtures.h"
#include "../support/temp_dir.h"

#include <gtest/gtest.h>

#include <set>

namespace advisor {
namespace {

using testing::problemsOf;

const Date kToday{2026, 11, 22};

PriceDb::Options unseeded() {
    return testing::unseeded(kToday);
}

std::vector<std::string> keysOf(const std::vector<CloudOffer>& offers) {
    std::vector<std::string> keys;
    for (const auto& o : offers) {
        keys.push_back(observationKey(o));
    }
    return keys;
}

std::vector<CloudOffer> validated(const std::vector<LocatedCloudOfferInput>& rows) {
    std::vector<CloudOffer> out;
    std::vector<InputProblem> problems;
    for (const auto& r : rows) {
        if (auto o = validateCloudOffer(r.input, Catalog::builtin(), kToday, r.where, problems)) {
            out.push_back(*o);
        }
    }
    EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems.front().describe());
    return out;
}

TEST(CloudOfferCsv, ReadsColumnsInAnyOrderWithAliasesAndSkipsBlankLines) {
    const auto rows = offerio::parseCsv("Hourly,GPU,Provider,GPUs,Instance,Date,Spot\n"
                                        "55.04,H100 SXM,AWS,8,p5.48xlarge,2026-10-10,\n"
                                        "   \n"
                                        "0.69,RTX 4090,\"RunPod, community\",1,,2025-03,0.35\n",
                                        "o.csv");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].where.line, 2);
    EXPECT_EQ(rows[1].where.line, 4);
    EXPECT_EQ(rows[0].input.onDemand, "55.04");
    EXPECT_EQ(rows[0].input.instance, "p5.48xlarge");
    EXPECT_EQ(rows[0].input.gpuCount, "8");
    EXPECT_EQ(rows[1].input.provider, "RunPod, community");
    EXPECT_EQ(rows[1].input.spot, "0.35");
    EXPECT_EQ(rows[1].input.date, "2025-03");
}

TEST(CloudOfferCsv, ASemicolonFileReadsDecimalCommasInItsNumbersOnly) {
    const auto rows = offerio::parseCsv(
        "provider;gpu;gpus;hourly;spot;note\nRunPod;RTX 4090;1;0,69;0,35;cheap, community\n", "o.csv");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].input.onDemand, "0.69");
    EXPECT_EQ(rows[0].input.spot, "0.35");
    EXPECT_EQ(rows[0].input.gpuCount, "1");
    EXPECT_EQ(rows[0].input.note, "cheap, community");
    const auto validOffers = validated(rows);
    ASSERT_EQ(validOffers.size(), 1u);
    EXPECT_DOUBLE_EQ(validOffers[0].onDemandUsdPerHour, 0.69);
}

TEST(CloudOfferCsv, HeaderProblemsAreAllReported) {
    // A misspelt optional column would otherwise be dropped without a word.
    EXPECT_EQ(problemsOf([] { offerio::parseCsv("provider,gpu,hourly,spot_usd_per_hr,on_demand_usd_per_hour\n", "o.csv"); }),
              (std::vector<std::string>{
                  "o.csv:1: field 'spot_usd_per_hr': unknown column; expected columns: provider, instance_or_sku, gpu, "
                  "gpu_count, gpu_memory_gb, on_demand_usd_per_hour, spot_usd_per_hour, region, observed_date, "
                  "source_url, note",
                  "o.csv:1: field 'on_demand_usd_per_hour': column given twice"}));
    EXPECT_EQ(problemsOf([] { offerio::parseCsv("region,note\n", "o.csv"); }),
              (std::vector<std::string>{"o.csv:1: field 'provider': required column is missing",
                                        "o.csv:1: field 'gpu': required column is missing",
                                        "o.csv:1: field 'on_demand_usd_per_hour': required column is missing"}));
    EXPECT_EQ(problemsOf([] { offerio::parseCsv("provider,gpu,hourly\nA,H100,1\nB,H100\n", "o.csv"); }),
              (std::vector<std::string>{"o.csv:3: has 2 fields; the header has 3"}));
}

TEST(CloudOfferJson, ReadsTheExportFormatAndABareListWithNumbersOrText) {
    const auto rows = offerio::parseJson(R"({"format": "gpu-advisor-cloud-offers", "version": 1, "offers": [
  {"provider": "AWS", "gpu": "H100 SXM", "gpu_count": 8, "on_demand_usd_per_hour": 55.04, "spot_usd_per_hour": null},
  {"provider": "RunPod", "gpu": "RTX 4090", "hourly": "0.69", "date": "2025-03"}
]})",
                                         "o.json");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].where.line, 2);
    EXPECT_EQ(rows[1].where.line, 3);
    EXPECT_EQ(rows[0].input.gpuCount, "8");
    EXPECT_EQ(rows[0].input.onDemand, "55.04");
    EXPECT_EQ(rows[0].input.spot, "");
    EXPECT_EQ(rows[1].input.onDemand, "0.69");
    EXPECT_EQ(offerio::parseJson(R"([{"provider": "A", "gpu": "L4", "on_demand_usd_per_hour": 0.8}])", "o.json").size(), 1u);
}

TEST(CloudOfferJson, EveryBadEntryIsNamedByLineEntryAndField) {
    EXPECT_EQ(problemsOf([] {
                  offerio::parseJson(R"({"offers": [
  {"provider": "A", "gpu": "L4", "on_demand_usd_per_hour": true},
  {"provider": "A", "gpu": "L4", "colour": "red", "on_demand_usd_per_hour": 1},
  {"provider": "A", "gpu": "L4"},
  {"provider": 7, "gpu": "L4", "on_demand_usd_per_hour": 1},
  "text"
]})",
                                     "o.json");
              }),
              (std::vector<std::string>{
                  "o.json:2: offers[0]: field 'on_demand_usd_per_hour': must be a number, got boolean",
                  "o.json:3: offers[1]: field 'colour': unknown field; expected: provider, instance_or_sku, gpu, "
                  "gpu_count, gpu_memory_gb, on_demand_usd_per_hour, spot_usd_per_hour, region, observed_date, "
                  "source_url, note",
                  "o.json:4: offers[2]: field 'on_demand_usd_per_hour': is missing",
                  "o.json:5: offers[3]: field 'provider': must be text, got number",
                  "o.json:6: offers[4]: must be an object"}));
    EXPECT_EQ(problemsOf([] { offerio::parseJson(R"({"format": "gpu-advisor-prices", "offers": []})", "o.json"); }),
              (std::vector<std::string>{"o.json:1: field 'format': is not 'gpu-advisor-cloud-offers'"}));
    EXPECT_EQ(problemsOf([] { offerio::parseJson(R"({"prices": []})", "o.json"); }),
              (std::vector<std::string>{"o.json:1: field 'offers': expected an object with a 'offers' list"}));
}

TEST(CloudOfferFiles, TheShippedOffersSurviveExportAndImportInBothFormats) {
    const std::string shipped(*resources::find("cloud/cloud_offers.csv"));
    const auto offers = validated(offerio::parseCsv(shipped, "cloud_offers.csv"));
    // Every record of the file (counted by the CSV reader, not the importer) became an offer.
    EXPECT_EQ(offers.size(), csv::read(shipped, "cloud_offers.csv").rows.size());
    EXPECT_GT(offers.size(), 100u);
    EXPECT_EQ(keysOf(validated(offerio::parseCsv(offerio::toCsv(offers), "again.csv"))), keysOf(offers));
    EXPECT_EQ(keysOf(validated(offerio::parseJson(offerio::toJson(offers), "again.json"))), keysOf(offers));
    // ... and in the semicolon CSV a comma-decimal spreadsheet opens as columns ("21,9576").
    const std::string semicolons = offerio::toCsv(offers, csv::Style::SemicolonsDecimalCommas);
    EXPECT_EQ(semicolons.substr(0, semicolons.find('\n')),
              "provider;instance_or_sku;gpu;gpu_count;gpu_memory_gb;on_demand_usd_per_hour;spot_usd_per_hour;region;"
              "observed_date;source_url;note");
    EXPECT_NE(semicolons.find(";21,9576;"), std::string::npos); // AWS p4d, 2026-10-10
    EXPECT_EQ(keysOf(validated(offerio::parseCsv(semicolons, "again.csv"))), keysOf(offers));
    // The CSV export has the shipped file's columns, so either can be edited and read back.
    EXPECT_EQ(csv::read(offerio::toCsv(offers), "x").header, csv::read(shipped, "y").header);
}

TEST(CloudOfferFiles, ACellASpreadsheetWouldRunIsExportedInertAndReadBackAsWritten) {
    CloudOffer o;
    o.provider = "=HYPERLINK(\"http://x\")";
    o.gpuName = "L4";
    o.onDemandUsdPerHour = 0.8;
    o.observed = Date{2026, 1, 2};
    o.note = "-5% with a commitment";
    const std::string text = offerio::toCsv({o});
    EXPECT_NE(text.find("'=HYPERLINK"), std::string::npos);
    EXPECT_NE(text.find("'-5%"), std::string::npos);
    const auto back = offerio::parseCsv(text, "x.csv");
    EXPECT_EQ(back.at(0).input.provider, o.provider);
    EXPECT_EQ(back.at(0).input.note, o.note);
}

TEST(CloudOfferImport, IsAllOrNothingAndNamesEveryBadRowInTheFilesOwnColumns) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const auto rows = offerio::parseCsv("provider,gpu,hourly,gpus,date\n"
                                        "AWS,H100 SXM,55.04,8,2026-10-10\n"
                                        "Lambda,H100 SXM,free,8,2026-10-10\n"
                                        ",A100 80GB SXM,14.32,0,2030-01-01\n",
                                        "offers.csv");
    EXPECT_EQ(problemsOf([&] { db.importCloudOffers(rows); }),
              (std::vector<std::string>{"offers.csv:3: field 'hourly': not a number: 'free'",
                                        "offers.csv:4: field 'provider': is empty",
                                        "offers.csv:4: field 'gpus': must be a whole number from 1 to 64, got '0'",
                                        "offers.csv:4: field 'date': is in the future (2030-01-01; today is 2026-11-22)"}));
    EXPECT_TRUE(db.cloudOffers().empty()); // the good first row was not stored either
}

TEST(CloudOfferImport, SkipsOffersAlreadyStoredAndRepeatsWithinTheFile) {
    testing::TempDir dir;
    PriceDb db(dir.file("p.sqlite"), Catalog::builtin(), unseeded());
    const std::string file = "provider,instance,gpu,gpus,hourly,date\n"
                             "AWS,p5.48xlarge,H100 SXM,8,55.04,2026-10-10\n"
                             "AWS,p5.48xlarge,H100 SXM,8,55.04,2026-10-10\n"
                             "AWS,p5.48xlarge,H100 SXM,8,98.32,2025-01-15\n";
    const ImportOutcome first = db.importCloudOffers(offerio::parseCsv(file, "o.csv"));
    EXPECT_EQ(first.added, 2u);
    EXPECT_EQ(first.duplicates, 1u);
    ASSERT_EQ(first.addedIds.size(), 2u);
    EXPECT_EQ(db.cloudOffer(first.addedIds[0])->gpuId, std::optional<std::string>("h100-sxm5"));
    EXPECT_EQ(db.cloudOffer(first.addedIds[1])->onDemandUsdPerHour, 98.32);
    const ImportOutcome again = db.importCloudOffers(offerio::parseCsv(file, "o.csv"));
    EXPECT_EQ(again.added, 0u);
    EXPECT_EQ(again.duplicates, 3u);
    EXPECT_EQ(db.cloudOffers().size(), 2u);
}

TEST(CloudOfferImport, ADatabasesOffersExportedToAFileFillAnotherDatabaseAlike) {
    testing::TempDir dir;
    PriceDb::Options seeded;
    seeded.today = kToday;
    PriceDb from(dir.file("a.sqlite"), Catalog::builtin(), seeded);
    for (const std::string name : {"offers.csv", "offers.json"}) {
        testing::TempDir out;
        offerio::exportFile(out.file(name), from.cloudOffers());
        PriceDb fresh(out.file("fresh.sqlite"), Catalog::builtin(), unseeded());
        const ImportOutcome o = fresh.importCloudOffers(offerio::parseFile(out.file(name)));
        EXPECT_EQ(o.added, from.cloudOffers().size()) << name;
        EXPECT_EQ(o.duplicates, 0u) << name;
        const auto a = keysOf(from.cloudOffers());
        const auto b = keysOf(fresh.cloudOffers());
        EXPECT_EQ(std::multiset<std::string>(a.begin(), a.end()), std::multiset<std::string>(b.begin(), b.end()))
            << name;
    }
    EXPECT_EQ(problemsOf([&] { offerio::exportFile(dir.file("offers.xlsx"), from.cloudOffers()); }),
              (std::vector<std::string>{dir.file("offers.xlsx") + ": unsupported file type '.xlsx'; use .csv or .json"}));
}

} // namespace
} // namespace advisor
