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

    /// Tooltip for the bar under `pos` (widget coordinates): GPU, metric, exact value,
    /// price, memory and TDP. nullopt when no bar is there.
    static std::optional<QString> tooltipAt(QCustomPlot& plot, const charts::ChartData& data, QPointF pos);
};

} // namespace advisor::ui
