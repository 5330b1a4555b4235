#pragma once
/// \file
/// Colours and fonts of a chart: from the window's palette (light or dark), or the fixed
/// light style used for exported files so a report looks the same wherever it was made.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QVector>

namespace advisor::ui {

struct ChartStyle {
    QColor background;
    QColor text;
    QColor grid;
    QColor highlight;        ///< band behind highlighted GPUs
    QVector<QColor> series;  ///< one per metric, colour-blind-safe (Okabe-Ito)
    QFont font;

    static ChartStyle light();
    static ChartStyle dark();
    /// Light or dark, whichever the palette's window colour is closer to.
    static ChartStyle fromPalette(const QPalette& palette, const QFont& font);
};

} // namespace advisor::ui
