#pragma once
/// \file
/// Writes a chart to a file: PNG at any size, vector PDF and SVG, or CSV of exactly the
/// plotted numbers. The same builder draws the window's chart, so exports look like it.
/// Files are written atomically: a failed export leaves no partial file behind.

#include "charts/chart_data.h"
#include "charts/chart_style.h"

#include <QSize>
#include <QString>

namespace advisor::ui {

enum class ExportFormat { Png, Pdf, Svg, Csv };

/// From the file name's extension (case-insensitive); nullopt for anything else.
std::optional<ExportFormat> exportFormatFor(const QString& path);

/// Throws AdvisorError naming the file when it cannot be written or the format is unknown.
/// `size` is in pixels (PNG), points (PDF) or SVG user units; `scale` multiplies PNG pixels.
/// A height of 0 means as tall as the chart needs at that width (every GPU row at its
/// height, with the words wrapped to the width). Returns the size written.
QSize exportChart(const charts::ChartData& data, const ChartStyle& style, const QString& path, QSize size,
                  double scale = 1.0);

} // namespace advisor::ui
