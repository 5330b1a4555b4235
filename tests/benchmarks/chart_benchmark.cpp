// Live charts (issue #7): recompute the chart numbers for the full catalog and replot,
// as the Charts page does on every price or setting change. Target: one frame, < 16 ms.
#include "charts/bar_chart_builder.h"
#include "catalog/catalog.h"
#include "prices/price_io.h"
#include "common/embedded_resources.h"

#include <qcustomplot.h>

#include <QApplication>

#include <benchmark/benchmark.h>

namespace {

using namespace advisor;

const std::vector<Price>& shippedPrices() {
    static const std::vector<Price> prices = [] {
        std::vector<Price> out;
        for (const auto& r : priceio::parseCsv(*resources::find("prices/default_prices.csv"), "default_prices.csv")) {
            std::vector<InputProblem> problems;
            if (auto p = validatePrice(r.input, Catalog::builtin(), Date{2026, 11, 22}, r.where, problems)) {
                out.push_back(*p);
            }
        }
        return out;
    }();
    return prices;
}

charts::ChartOptions fullCatalog(charts::ChartKind kind, double electricity) {
    charts::ChartOptions o;
    o.kind = kind;
    o.metrics = charts::defaultChartMetrics(true);
    o.settings.electricityUsdPerKwh = electricity;
    return o;
}

void BM_RecomputeChartData(benchmark::State& state) {
    const perf::PerfModel model(Catalog::builtin());
    const auto kind = state.range(0) ? charts::ChartKind::PerfPerDollar : charts::ChartKind::RawPerformance;
    int i = 0;
    for (auto _ : state) {
        auto d = charts::buildChartData(Catalog::builtin(), model, shippedPrices(), fullCatalog(kind, 0.1 + 0.01 * (++i % 7)));
        benchmark::DoNotOptimize(d.rows.data());
    }
}
BENCHMARK(BM_RecomputeChartData)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// What a settings change costs on the Charts page: new numbers, a rebuilt plot, a full replot.
void BM_RecomputeAndReplot(benchmark::State& state) {
    const perf::PerfModel model(Catalog::builtin());
    const auto kind = state.range(0) ? charts::ChartKind::PerfPerDollar : charts::ChartKind::RawPerformance;
    QCustomPlot plot;
    const auto first = charts::buildChartData(Catalog::builtin(), model, shippedPrices(), fullCatalog(kind, 0.175));
    plot.resize(1100, ui::BarChartBuilder::preferredHeight(first));
    int i = 0;
    for (auto _ : state) {
        const auto d = charts::buildChartData(Catalog::builtin(), model, shippedPrices(), fullCatalog(kind, 0.1 + 0.01 * (++i % 7)));
        ui::BarChartBuilder::build(plot, d, ui::ChartStyle::light());
        plot.replot(QCustomPlot::rpImmediateRefresh);
    }
    state.counters["gpus"] = static_cast<double>(first.rows.size());
}
BENCHMARK(BM_RecomputeAndReplot)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
