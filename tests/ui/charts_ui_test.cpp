// The chart builder and exporter on a five-GPU fixture catalog: bars, order, labels,
// highlight, tooltips, and exported PNG/PDF/SVG/CSV files that are opened and checked.
#include "charts/bar_chart_builder.h"
#include "charts/chart_export.h"
#include "catalog/catalog.h"
#include "common/errors.h"
#include "common/format.h"
#include "perf/accuracy.h"
#include "widgets/plot_fit.h"

#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace advisor;

namespace {

const Catalog& fixture() {
    static const Catalog c = Catalog::fromFile(ADVISOR_FIXTURES_DIR "/catalog_small.json");
    return c;
}

std::vector<Price> fixturePrices() {
    std::vector<Price> out;
    for (const auto& [id, usd, c] : {std::tuple{"rtx-4090", 1600.0, Condition::New},
                                     std::tuple{"rtx-3090", 700.0, Condition::Used},
                                     std::tuple{"rtx-4070-ti", 800.0, Condition::New}}) {
        Price p;
        p.gpuId = id;
        p.gpuName = id;
        p.amount = usd;
        p.condition = c;
        p.observed = *Date::parse("2025-01");
        out.push_back(p);
    }
    return out;
}

charts::ChartData chart(charts::ChartKind kind, std::vector<std::string> highlight = {},
                        perf::WorkloadChoice workload = {}) {
    static const perf::PerfModel model(fixture());
    charts::ChartOptions o;
    o.kind = kind;
    o.workload = workload;
    o.settings.referenceGpu = "rtx-4090";
    o.settings.priceRule = PriceRule::Cheapest;
    o.highlight = std::move(highlight);
    return charts::buildChartData(fixture(), model, fixturePrices(), o);
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class ChartsUiTest : public QObject {
    Q_OBJECT

private slots:
    void builderDrawsOneBarSeriesPerMetricInChartOrder() {
        const auto data = chart(charts::ChartKind::RawPerformance, {"rtx-3090"});
        QCustomPlot plot;
        plot.resize(800, ui::BarChartBuilder::preferredHeight(data));
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light());
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light()); // rebuilding does not pile up
        QCOMPARE(plot.plottableCount(), 3);
        QCOMPARE(plot.plotLayout()->rowCount(), 4); // title, subtitle, legend, axis rect (no notes)
        for (int m = 0; m < 3; ++m) {
            auto* bars = qobject_cast<QCPBars*>(plot.plottable(m));
            QVERIFY(bars);
            QCOMPARE(bars->name(), QString::fromStdString(data.seriesNames[static_cast<size_t>(m)]));
            QCOMPARE(bars->data()->size(), 5);
            for (int i = 0; i < 5; ++i) {
                QCOMPARE(bars->data()->at(i)->key, double(i));
                QCOMPARE(bars->data()->at(i)->value, *data.rows[static_cast<size_t>(i)].values[static_cast<size_t>(m)]);
            }
            QVERIFY(bars->keyAxis() == plot.yAxis); // horizontal bars
        }
        auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const auto ticks = ticker->ticks();
        QCOMPARE(ticks.size(), 5);
        QCOMPARE(ticks.value(0), QStringLiteral("H100 PCIe")); // fastest in 16-bit training at the top
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(ticks.value(i), ui::BarChartBuilder::rowLabel(data.rows[static_cast<size_t>(i)]));
        }
        int starred = 0;
        for (const auto& label : ticks) {
            starred += label.startsWith(QStringLiteral("\u2605 ")) ? 1 : 0;
        }
        QCOMPARE(starred, 1);
        QVERIFY(ticks.values().contains(QStringLiteral("\u2605 RTX 3090")));
        QVERIFY(plot.yAxis->rangeReversed());
        QCOMPARE(plot.xAxis->label(), QStringLiteral("Performance relative to RTX 4090 (1.0 = RTX 4090)"));
        QCOMPARE(plot.legend->itemCount(), 3);
        auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("Relative deep learning performance (transformer)"));
    }

    void notesAppearUnderThePerfPerDollarChart() {
        const auto data = chart(charts::ChartKind::PerfPerDollar);
        QCOMPARE(data.rows.size(), size_t(3));
        QCustomPlot plot;
        plot.resize(800, 500);
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light());
        QCOMPARE(plot.plotLayout()->rowCount(), 5);
        auto* legendRow = qobject_cast<QCPLayoutGrid*>(plot.plotLayout()->element(2, 0));
        QVERIFY(legendRow && legendRow->element(0, 0) == plot.legend); // above the bars, never scrolled away
        auto* notes = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(4, 0));
        QVERIFY(notes);
        QVERIFY(notes->text().contains(QStringLiteral("2 GPUs without a price")));
    }

    void wrapTextBreaksAtWordsWithinTheWidth() {
        const QFont font;
        const QFontMetrics metrics(font);
        const QString text = QStringLiteral("Throughput / 5-year cost: GPU (average of new and used price) + $700 desktop");
        const QString wrapped = ui::wrapText(text, font, 200);
        const QStringList lines = wrapped.split(QLatin1Char('\n'));
        QVERIFY2(lines.size() >= 3, qPrintable(wrapped));
        for (const auto& line : lines) {
            QVERIFY2(metrics.horizontalAdvance(line) <= 200, qPrintable(line));
            QVERIFY(!line.startsWith(QLatin1Char(' ')) && !line.endsWith(QLatin1Char(' ')));
        }
        QCOMPARE(lines.join(QLatin1Char(' ')), text); // every word kept, in order
        QCOMPARE(ui::wrapText(text, font, 5000), text);
        QCOMPARE(ui::wrapText(QStringLiteral("unbreakable"), font, 10), QStringLiteral("unbreakable"));
    }

    void aNarrowChartWrapsItsWordsAndAWideOneJoinsThemAgain() {
        // In a narrow window or export the perf/$ chart's subtitle, notes, axis title and
        // legend once ran past the right edge (the built-in catalog's chart at 480 px).
        const auto data = chart(charts::ChartKind::PerfPerDollar);
        QCustomPlot plot;
        plot.resize(400, 600);
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light());
        const auto texts = [&plot] {
            QStringList out;
            for (auto* e : plot.plotLayout()->elements(true)) {
                if (auto* t = qobject_cast<QCPTextElement*>(e)) {
                    out << t->text();
                }
            }
            return out << plot.xAxis->label();
        };
        const QStringList full = texts();
        const int taller = ui::fitPlotToWidth(plot, 400);
        QVERIFY(taller > 0);
        QVERIFY2(plot.plotLayout()->minimumOuterSizeHint().width() <= 400,
                 qPrintable(QString::number(plot.plotLayout()->minimumOuterSizeHint().width())));
        plot.replot();
        QVERIFY(plot.xAxis->label().contains(QLatin1Char('\n')));
        QVERIFY2(QFontMetrics(plot.xAxis->labelFont()).boundingRect(QRect(), 0, plot.xAxis->label()).width() <=
                     plot.axisRect()->width(),
                 qPrintable(plot.xAxis->label()));
        QStringList joined;
        for (const auto& t : texts()) {
            joined << QString(t).replace(QLatin1Char('\n'), QLatin1Char(' '));
        }
        QCOMPARE(joined, full); // wrapped, not shortened
        QCOMPARE(ui::fitPlotToWidth(plot, 400), taller); // fitting again changes nothing
        ui::fitPlotToWidth(plot, 300);
        QVERIFY(plot.legend->columnCount() < 3); // three metrics no longer fit in one row
        QVERIFY(plot.legend->minimumOuterSizeHint().width() <= 300);
        QCOMPARE(ui::fitPlotToWidth(plot, 3000), 0);
        QCOMPARE(texts(), full);
        QCOMPARE(plot.legend->columnCount(), 3);
        // The same plot rebuilt as the other chart (the window's plot when the kind changes):
        // its axes are the same objects, and must take the new title, not the old one.
        ui::fitPlotToWidth(plot, 400);
        const auto raw = chart(charts::ChartKind::RawPerformance);
        ui::BarChartBuilder::build(plot, raw, ui::ChartStyle::light());
        ui::fitPlotToWidth(plot, 400);
        QCOMPARE(plot.xAxis->label().replace(QLatin1Char('\n'), QLatin1Char(' ')), QString::fromStdString(raw.valueAxisLabel));
        ui::fitPlotToWidth(plot, 3000);
        QCOMPARE(plot.xAxis->label(), QString::fromStdString(raw.valueAxisLabel));
    }

    void tooltipGivesTheExactValuePriceMemoryAndPower() {
        const auto data = chart(charts::ChartKind::PerfPerDollar);
        QCustomPlot plot;
        plot.resize(800, 500);
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light());
        plot.replot();
        auto* bars = qobject_cast<QCPBars*>(plot.plottable(2)); // 16-bit training
        const int row = 1;
        const QPointF tip = bars->dataPixelPosition(row);
        const QPointF middle((plot.xAxis->coordToPixel(0) + tip.x()) / 2, tip.y());
        const auto text = ui::BarChartBuilder::tooltipAt(plot, data, middle);
        QVERIFY(text);
        const auto& r = data.rows[row];
        QVERIFY2(text->startsWith(QString::fromStdString(r.gpu->name)), qPrintable(*text));
        QVERIFY2(text->contains(QStringLiteral("16-bit training: ") +
                                QString::fromStdString(format::number(*r.values[2], 3))),
                 qPrintable(*text));
        QVERIFY(text->contains(QString::fromStdString(format::money(r.price->usd))));
        QVERIFY(text->contains(QStringLiteral("Memory: ") + QString::fromStdString(format::gigabytes(r.gpu->memoryGb))));
        QVERIFY(text->contains(QStringLiteral("TDP: %1 W").arg(r.gpu->tdpW)));
        // The model's reasons for this bar: the bound and the terms that moved it.
        QVERIFY2(text->contains(QStringLiteral("Why: bound by ")), qPrintable(*text));
        QVERIFY2(text->contains(QString::fromStdString(r.why[2])), qPrintable(*text));
        // And how far such estimates were off for architectures the calibration never saw.
        const auto band = perf::shippedAccuracy().forMetric(perf::Metric::Fp16Training);
        QVERIFY(band);
        QVERIFY2(text->contains(QStringLiteral("Typical error of such estimates: %1% (1 in 10 off by %2% or more)")
                                    .arg(QString::fromStdString(format::number(band->medianPct, 0)),
                                         QString::fromStdString(format::number(band->p90Pct, 0)))),
                 qPrintable(*text));
        QVERIFY(!ui::BarChartBuilder::tooltipAt(plot, data, QPointF(2, 2))); // the title, no bar
    }

    void aLanguageModelsTooltipClaimsNoHeldOutError() {
        // The calibration's held-out error is for its networks; the language-model profile is not
        // fitted, and its tooltip says where it was compared instead.
        const auto data = chart(charts::ChartKind::RawPerformance, {}, *perf::parseWorkloadChoice("llm"));
        QCustomPlot plot;
        plot.resize(800, 500);
        ui::BarChartBuilder::build(plot, data, ui::ChartStyle::light());
        plot.replot();
        auto* bars = qobject_cast<QCPBars*>(plot.plottable(2));
        const QPointF tip = bars->dataPixelPosition(0);
        const auto text = ui::BarChartBuilder::tooltipAt(plot, data, QPointF((plot.xAxis->coordToPixel(0) + tip.x()) / 2,
                                                                              tip.y()));
        QVERIFY(text);
        QVERIFY2(!text->contains(QStringLiteral("Typical error")), qPrintable(*text));
        QVERIFY2(text->contains(QStringLiteral("Language-model profile: not fitted")), qPrintable(*text));
    }

    void exportsPngAtTheRequestedSize() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        ui::exportChart(chart(charts::ChartKind::RawPerformance), ui::ChartStyle::light(), path, QSize(640, 400), 2.0);
        QVERIFY(readFile(path).startsWith("\x89PNG\r\n\x1a\n"));
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1280, 800));
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white)); // the light export style
    }

    void exportsVectorPdfAndSvg() {
        QTemporaryDir dir;
        const auto data = chart(charts::ChartKind::RawPerformance);
        const QString pdf = dir.filePath(QStringLiteral("chart.pdf"));
        ui::exportChart(data, ui::ChartStyle::light(), pdf, QSize(800, 500));
        const QByteArray bytes = readFile(pdf);
        QVERIFY(bytes.startsWith("%PDF-1."));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QCOMPARE(bytes.count("/Type /Page\n") + bytes.count("/Type /Page "), qsizetype(1));
        QVERIFY(bytes.contains("/MediaBox [0 0 800.000000 500.000000]")); // 1 px = 1 pt
        QVERIFY(!bytes.contains("/Subtype /Image")); // drawn as vectors and text, not a bitmap

        const QString svg = dir.filePath(QStringLiteral("chart.svg"));
        ui::exportChart(data, ui::ChartStyle::light(), svg, QSize(800, 500));
        QXmlStreamReader xml(readFile(svg));
        int texts = 0, paths = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) {
                texts += xml.name() == QLatin1String("text") ? 1 : 0;
                paths += xml.name() == QLatin1String("path") || xml.name() == QLatin1String("rect") ? 1 : 0;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(texts > 10);
        QVERIFY(paths > 15); // 15 bars at least
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 800, 500));
        QVERIFY(readFile(svg).contains("RTX 4090"));
    }

    void exportsCsvOfThePlottedNumbers() {
        QTemporaryDir dir;
        const auto data = chart(charts::ChartKind::PerfPerDollar);
        const QString path = dir.filePath(QStringLiteral("chart.CSV"));
        ui::exportChart(data, ui::ChartStyle::light(), path, QSize(800, 500));
        QCOMPARE(readFile(path).toStdString(), charts::chartCsv(data));
    }

    void refusesUnknownTypesAndUnwritablePlacesWithoutLeavingFiles() {
        QTemporaryDir dir;
        const auto data = chart(charts::ChartKind::RawPerformance);
        try {
            ui::exportChart(data, ui::ChartStyle::light(), dir.filePath(QStringLiteral("chart.gif")), QSize(800, 500));
            QFAIL("no error");
        } catch (const AdvisorError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).endsWith(QStringLiteral("chart.gif: unknown file type; use .png, .pdf, .svg or .csv")), e.what());
        }
        const QString missing = dir.filePath(QStringLiteral("no/such/dir/chart.png"));
        QVERIFY_THROWS_EXCEPTION(AdvisorError, ui::exportChart(data, ui::ChartStyle::light(), missing, QSize(800, 500)));
        QVERIFY_THROWS_EXCEPTION(AdvisorError, ui::exportChart(data, ui::ChartStyle::light(),
                                                               dir.filePath(QStringLiteral("c.png")), QSize(50, 50)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).size(), 0);
    }

    void darkStyleFollowsADarkPalette() {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(30, 30, 30));
        dark.setColor(QPalette::Base, QColor(20, 20, 20));
        dark.setColor(QPalette::Text, QColor(240, 240, 240));
        const auto style = ui::ChartStyle::fromPalette(dark, QFont());
        QCOMPARE(style.background, QColor(20, 20, 20));
        QCOMPARE(style.text, QColor(240, 240, 240));
        QVERIFY(style.grid != ui::ChartStyle::light().grid);
    }
};

QTEST_MAIN(ChartsUiTest)
#include "charts_ui_test.moc"
