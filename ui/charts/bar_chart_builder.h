#pragma once
/// \file
/// Draws a ChartData as horizontal grouped bars on a QCustomPlot - the one builder behind
/// the Charts page and every exported PNG, PDF and SVG.

#include "charts/chart_data.h"
#include "charts/chart_style.h"

#include <QPointF>
#include <QString>

#include <optional>

class QCustomPlot;

namespace advisor::ui {

class BarChartBuilder {
public:
    /// Clears `plot` and draws `data`: one bar series per metric (legend = metric names), one
    /// row per GPU (best at the top), a dashed line at 1.0 (the reference), highlighted GPUs
    /// marked with a band and a star, title, subtitle, axis title and notes.
    static void build(QCustomPlot& plot, const charts::ChartData& data, const ChartStyle& style);

    /// A height that gives every GPU row room for its bars and label (pixels).
    static int preferredHeight(const charts::ChartData& data);

    /// The text row label of a GPU ("★ RTX 4090" when highlighted).
    static QString rowLabel(const charts::ChartRow& row);

    /// Tooltip for the bar under `pos` (widget coordinates): barText of that bar; nullopt
    /// when no bar is there.
    static std::optional<QString> tooltipAt(QCustomPlot& plot, const charts::ChartData& data, QPointF pos);

    /// What one bar says: GPU, metric, exact value, price, cost of ownership, memory, TDP, the
    /// model's reasons and typical error. `metric` indexes data.metrics; a GPU without a value
    /// for it reads "no estimate".
    static QString barText(const charts::ChartData& data, size_t row, size_t metric);

    /// The data index of a GPU row's bar in metric `metric`'s series; nullopt when it has none.
    static std::optional<int> barIndex(QCustomPlot& plot, size_t row, size_t metric);

    /// The middle of that bar in widget coordinates (after the plot was laid out).
    static std::optional<QPointF> barCentre(QCustomPlot& plot, size_t row, size_t metric);
};

} // namespace advisor::ui
