#include "charts/bar_chart_builder.h"

#include "common/format.h"
#include "perf/accuracy.h"
#include "perf/model.h"
#include "ui_text.h"
#include "widgets/plot_fit.h"

#include <qcustomplot.h>

#include <QToolTip>

#include <algorithm>

namespace advisor::ui {

namespace {

constexpr int kRowHeight = 26;   // px per GPU: three or four bars and a readable label
constexpr int kChromeHeight = 170; // title, subtitle, two value axes, notes
constexpr double kGroupWidth = 0.8; // of one row; the rest separates GPUs

QCPTextElement* textElement(QCustomPlot& plot, const QString& text, const QFont& font, const QColor& color) {
    auto* e = new QCPTextElement(&plot, text, font);
    e->setTextColor(color);
    e->setTextFlags(Qt::AlignLeft | Qt::TextWordWrap);
    e->setMargins(QMargins(10, 4, 10, 2));
    return e;
}

void styleAxis(QCPAxis* axis, const ChartStyle& style) {
    const QPen pen(style.text, 1);
    axis->setBasePen(pen);
    axis->setTickPen(pen);
    axis->setSubTickPen(pen);
    axis->setTickLabelColor(style.text);
    axis->setLabelColor(style.text);
    axis->setTickLabelFont(style.font);
    axis->setLabelFont(style.font);
    axis->grid()->setPen(QPen(style.grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

// What a bar predicts, as far as how well such predictions did says: its measure, and for LLM
// inference the engine and the GPUs per setup (a serving engine's own held-out error).
perf::PerfQuery accuracyQuery(const charts::ChartData& data, size_t metric) {
    perf::PerfQuery q;
    q.metric = data.metrics.at(metric);
    q.llmEngine = data.llmEngine;
    q.llmSplit = data.llmSplit;
    q.llmWeights = data.llmWeights;
    q.llmExperts = data.llmExperts;
    q.gpus = data.gpusPerSetup;
    return q;
}

} // namespace

QString BarChartBuilder::rowLabel(const charts::ChartRow& row) {
    return (row.highlighted ? QStringLiteral("\u2605 ") : QString()) + qs(row.gpu->name) +
           (row.partlyInRam ? QStringLiteral(" (+RAM)") : QString());
}

int BarChartBuilder::preferredHeight(const charts::ChartData& data) {
    const int perRow = kRowHeight + 6 * std::max(0, static_cast<int>(data.metrics.size()) - 3);
    return kChromeHeight + perRow * std::max<int>(1, static_cast<int>(data.rows.size()));
}

void BarChartBuilder::build(QCustomPlot& plot, const charts::ChartData& data, const ChartStyle& style) {
    plot.clearPlottables();
    plot.clearItems();
    // Text rows from an earlier build: keep only the axis rect.
    QCPLayoutGrid* layout = plot.plotLayout();
    for (int row = layout->rowCount() - 1; row >= 0; --row) {
        QCPLayoutElement* e = layout->element(row, 0);
        if (auto* grid = qobject_cast<QCPLayoutGrid*>(e); grid != nullptr && grid->hasElement(0, 0) &&
                                                           grid->element(0, 0) == plot.legend) {
            grid->take(plot.legend); // the plot owns its legend; it is placed again below
        }
        if (e != nullptr && e != plot.axisRect()) {
            layout->remove(e);
        }
    }
    layout->simplify();
    plot.setBackground(QBrush(style.background));
    plot.setAntialiasedElements(QCP::aeAll);

    QCPAxisRect* rect = plot.axisRect();
    rect->setBackground(QBrush(style.background));
    QCPAxis* keyAxis = plot.yAxis;
    QCPAxis* valueAxis = plot.xAxis;
    for (QCPAxis* a : {plot.xAxis, plot.yAxis, plot.xAxis2}) {
        styleAxis(a, style);
    }
    plot.yAxis2->setVisible(false);

    // Rows: the best GPU at the top.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t i = 0; i < data.rows.size(); ++i) {
        ticker->addTick(static_cast<double>(i), rowLabel(data.rows[i]));
    }
    keyAxis->setTicker(ticker);
    keyAxis->setRangeReversed(true);
    keyAxis->setRange(-0.6, std::max<double>(0.6, static_cast<double>(data.rows.size()) - 0.4));
    keyAxis->setTickLength(0, 0);
    keyAxis->setSubTicks(false);
    keyAxis->grid()->setVisible(false);

    double maxValue = 0;
    auto* group = new QCPBarsGroup(&plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    const int n = static_cast<int>(data.metrics.size());
    for (int m = 0; m < n; ++m) {
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(qs(data.seriesNames[static_cast<size_t>(m)]));
        const QColor c = style.series[m % style.series.size()];
        bars->setBrush(c);
        bars->setPen(QPen(c.darker(130), 0.5));
        bars->setWidth(kGroupWidth / n);
        // The bar the keyboard is on (Charts page) is outlined; the mouse does not select.
        bars->setSelectable(QCP::stSingleData);
        bars->selectionDecorator()->setPen(QPen(style.text, 2));
        bars->selectionDecorator()->setBrush(c);
        bars->setBarsGroup(group);
        QVector<double> keys, values;
        for (size_t i = 0; i < data.rows.size(); ++i) {
            const auto& v = data.rows[i].values[static_cast<size_t>(m)];
            if (v) {
                keys << static_cast<double>(i);
                values << *v;
                maxValue = std::max(maxValue, *v);
            }
        }
        bars->setData(keys, values, true);
    }
    const double upper = maxValue > 0 ? maxValue * 1.08 : 1.0;
    valueAxis->setRange(0, upper);
    valueAxis->setLabel(qs(data.valueAxisLabel));
    // The same scale on top, so a tall chart can be read without scrolling to the bottom.
    plot.xAxis2->setVisible(true);
    plot.xAxis2->setRange(0, upper);
    plot.xAxis2->setTicker(valueAxis->ticker());
    plot.xAxis2->grid()->setVisible(false);

    // The reference GPU is 1.0 on both charts (perf/$: when it has a price).
    if (data.kind == charts::ChartKind::RawPerformance || data.normalisedToReference) {
        auto* line = new QCPItemStraightLine(&plot);
        line->point1->setCoords(1, 0);
        line->point2->setCoords(1, 1);
        line->setPen(QPen(style.text, 1, Qt::DashLine));
    }
    for (size_t i = 0; i < data.rows.size(); ++i) {
        if (!data.rows[i].highlighted) {
            continue;
        }
        auto* band = new QCPItemRect(&plot);
        band->setLayer(QStringLiteral("grid"));
        band->topLeft->setCoords(0, static_cast<double>(i) - 0.5);
        band->bottomRight->setCoords(upper, static_cast<double>(i) + 0.5);
        band->setPen(Qt::NoPen);
        band->setBrush(style.highlight);
    }

    QFont titleFont = style.font;
    titleFont.setPointSizeF(style.font.pointSizeF() + 3);
    titleFont.setBold(true);
    QFont smallFont = style.font;
    smallFont.setPointSizeF(std::max(6.0, style.font.pointSizeF() - 1));
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, textElement(plot, qs(data.title), titleFont, style.text));
    plot.plotLayout()->insertRow(1);
    plot.plotLayout()->addElement(1, 0, textElement(plot, qs(data.subtitle), smallFont, style.text));
    if (!data.notes.empty()) {
        QStringList notes;
        for (const auto& note : data.notes) {
            notes << qs(note);
        }
        const int row = plot.plotLayout()->rowCount();
        plot.plotLayout()->insertRow(row);
        plot.plotLayout()->addElement(row, 0, textElement(plot, notes.join(QStringLiteral("; ")), smallFont, style.text));
    }

    // The legend in one line under the subtitle: visible without scrolling a tall chart.
    plot.legend->setVisible(true);
    plot.legend->setFont(style.font);
    plot.legend->setTextColor(style.text);
    plot.legend->setBrush(QBrush(style.background));
    plot.legend->setBorderPen(Qt::NoPen);
    plot.legend->setWrap(0); // one line (a narrow window wraps it again: fitPlotToWidth)
    plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // closes gaps left by a wrap
    plot.legend->setMargins(QMargins(10, 0, 10, 0));
    if (rect->insetLayout()->elementCount() > 0 && rect->insetLayout()->elementAt(0) == plot.legend) {
        rect->insetLayout()->take(plot.legend);
        rect->insetLayout()->simplify();
    }
    for (int i = 0; i < plot.legend->itemCount(); ++i) { // packed to the left, not spread out
        QCPAbstractLegendItem* item = plot.legend->item(i);
        if (item == nullptr) {
            continue; // an empty cell
        }
        item->setTextColor(style.text);
        item->setMaximumSize(item->minimumOuterSizeHint().width() + 28, QWIDGETSIZE_MAX);
    }
    auto* legendRow = new QCPLayoutGrid; // legend, then empty space
    plot.plotLayout()->insertRow(2);
    plot.plotLayout()->addElement(2, 0, legendRow);
    legendRow->addElement(0, 0, plot.legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(&plot));
    legendRow->setColumnStretchFactors({0.001, 1});
    plot.plotLayout()->setRowStretchFactor(2, 0.001);
}

QString BarChartBuilder::barText(const charts::ChartData& data, size_t row, size_t metric) {
    const auto& r = data.rows.at(row);
    const auto& value = r.values.at(metric);
    QString text = qs(r.gpu->name) + QStringLiteral("\n") + qs(data.seriesNames.at(metric)) + QStringLiteral(": ") +
                   (value ? qs(format::number(*value, 3)) : QObject::tr("no estimate"));
    if (value && data.reference && (data.kind == charts::ChartKind::RawPerformance || data.normalisedToReference)) {
        text += QStringLiteral(" (") + qs(data.reference->name) + QStringLiteral(" = 1)");
    }
    text += QStringLiteral("\n") + (r.price ? QObject::tr("Price: %1 (%2)").arg(qs(format::money(r.price->usd)), qs(r.price->basis))
                                            : QObject::tr("Price: none in your database"));
    if (r.tcoUsd) {
        text += QStringLiteral("\n") + QObject::tr("Cost of ownership: %1").arg(qs(format::money(*r.tcoUsd)));
    }
    text += QStringLiteral("\n") + QObject::tr("Memory: %1, TDP: %2 W")
                                       .arg(qs(format::gigabytes(r.gpu->memoryGb)), qs(format::number(r.gpu->tdpW, 0)));
    if (value && metric < r.why.size()) {
        text += QStringLiteral("\n") + QObject::tr("Why: %1").arg(qs(r.why[metric]));
    }
    if (value && metric < r.caveats.size()) {
        // Figures estimated, read as a floor, ...: a tooltip does not wrap plain text, and these run long.
        for (const auto& caveat : r.caveats[metric]) {
            text += QStringLiteral("\n") + wrapText(QObject::tr("Note: %1").arg(qs(caveat)), QToolTip::font(), 640);
        }
    }
    if (value && data.workload.languageModelParamsBillion > 0) {
        // No held-out error on the calibration data stands for the language-model profile.
        text += QStringLiteral("\n") + QObject::tr("Language-model profile: not fitted; compared with measured LLM "
                                                   "training runs in docs/performance-model.md");
    } else if (const auto band = perf::shippedAccuracy().forQuery(accuracyQuery(data, metric)); value && band) {
        text += QStringLiteral("\n") + QObject::tr("Typical error of such estimates: %1% (1 in 10 off by %2% or more)")
                                           .arg(qs(format::number(band->medianPct, 0)), qs(format::number(band->p90Pct, 0)));
    }
    return text;
}

std::optional<int> BarChartBuilder::barIndex(QCustomPlot& plot, size_t row, size_t metric) {
    auto* bars = metric < static_cast<size_t>(plot.plottableCount()) ? qobject_cast<QCPBars*>(plot.plottable(static_cast<int>(metric)))
                                                                      : nullptr;
    if (bars == nullptr) {
        return std::nullopt;
    }
    for (int i = 0; i < bars->dataCount(); ++i) {
        if (static_cast<size_t>(bars->data()->at(i)->key + 0.5) == row) {
            return i;
        }
    }
    return std::nullopt; // this GPU has no value for the metric
}

std::optional<QPointF> BarChartBuilder::barCentre(QCustomPlot& plot, size_t row, size_t metric) {
    const auto index = barIndex(plot, row, metric);
    if (!index) {
        return std::nullopt;
    }
    auto* bars = qobject_cast<QCPBars*>(plot.plottable(static_cast<int>(metric)));
    const QPointF tip = bars->dataPixelPosition(*index);
    return QPointF((bars->valueAxis()->coordToPixel(0) + tip.x()) / 2, tip.y());
}

std::optional<QString> BarChartBuilder::tooltipAt(QCustomPlot& plot, const charts::ChartData& data, QPointF pos) {
    for (int p = 0; p < plot.plottableCount() && p < static_cast<int>(data.metrics.size()); ++p) {
        auto* bars = qobject_cast<QCPBars*>(plot.plottable(p));
        if (bars == nullptr) {
            continue;
        }
        QVariant details;
        const double distance = bars->selectTest(pos, false, &details);
        if (distance < 0 || distance >= plot.selectionTolerance()) { // inside a bar: just under the tolerance
            continue;
        }
        const auto selection = details.value<QCPDataSelection>();
        if (selection.isEmpty()) {
            continue;
        }
        const auto row = static_cast<size_t>(bars->data()->at(selection.dataRange().begin())->key + 0.5);
        if (row < data.rows.size()) {
            return barText(data, row, static_cast<size_t>(p));
        }
    }
    return std::nullopt;
}

} // namespace advisor::ui
