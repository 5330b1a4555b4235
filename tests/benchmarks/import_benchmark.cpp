// Price import speed: parse a CSV of N rows and apply it to a fresh database in one
// transaction - what `gpu-advisor prices import FILE.csv` does. Targets (issue #2):
// 10,000 rows < 1 s, 100,000 rows < 5 s.
#include "catalog/catalog.h"
#include "common/file_io.h"
#include "prices/price_db.h"
#include "prices/price_io.h"
#include "support/bulk_prices.h"
#include "support/process.h"
#include "support/temp_dir.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

void BM_ImportCsv(benchmark::State& state) {
    const int rows = static_cast<int>(state.range(0));
    const std::string csv = advisor::testing::bulkPriceCsv(rows);
    advisor::PriceDb::Options options;
    options.seedDefaults = false;
    for (auto _ : state) {
        state.PauseTiming();
        advisor::testing::TempDir dir;
        advisor::PriceDb db(dir.file("bench.sqlite"), advisor::Catalog::builtin(), options);
        state.ResumeTiming();
        const auto parsed = advisor::priceio::parseCsv(csv, "bench.csv");
        const auto outcome = db.importPrices(parsed);
        benchmark::DoNotOptimize(outcome.added);
        state.PauseTiming();
        if (outcome.added != static_cast<size_t>(rows)) {
            state.SkipWithError("not every row was imported");
        }
        state.ResumeTiming();
    }
    state.SetItemsProcessed(state.iterations() * rows);
}
BENCHMARK(BM_ImportCsv)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

#ifdef GPU_ADVISOR_BIN
// The same through the real command line: process start, file read, parse, import, commit.
void BM_CliImport(benchmark::State& state) {
    const int rows = static_cast<int>(state.range(0));
    advisor::testing::TempDir files;
    const std::string csvPath = files.file("prices.csv");
    advisor::files::writeAtomically(csvPath, advisor::testing::bulkPriceCsv(rows));
    for (auto _ : state) {
        state.PauseTiming();
        advisor::testing::TempDir dir;
        // Create and seed the database outside the timed region.
        advisor::testing::runProcess(GPU_ADVISOR_BIN, {"--db", dir.file("p.sqlite"), "prices", "list"});
        state.ResumeTiming();
        const auto r = advisor::testing::runProcess(
            GPU_ADVISOR_BIN, {"--db", dir.file("p.sqlite"), "prices", "import", csvPath});
        if (r.exitCode != 0) {
            state.SkipWithError(r.err.c_str());
        }
    }
    state.SetItemsProcessed(state.iterations() * rows);
}
BENCHMARK(BM_CliImport)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

} // namespace

BENCHMARK_MAIN();
