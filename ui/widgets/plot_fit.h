#pragma once
/// \file
/// Fits a plot's words to a width: titles, notes and axis titles wrap onto more lines and
/// the legend onto more rows, so that a narrow window or export shows all of them instead
/// of cutting them off or scrolling sideways.

#include <QFont>
#include <QString>

#include <functional>

class QCPAxis;
class QCPLegend;
class QCustomPlot;
class QWidget;

namespace advisor::ui {

/// `text` broken at word boundaries into lines of at most `width` pixels in `font` (a word
/// longer than that keeps a line of its own).
QString wrapText(const QString& text, const QFont& font, int width);

/// As many legend items per row as fit in `width` pixels, at least one.
void wrapLegendToWidth(QCPLegend& legend, int width);

/// Wraps every text element of the plot's layout, the titles of its visible axes and its
/// legend to `width` (the plot's width). Each element's full text is kept, so fitting again
/// to a wider width joins the lines again. Returns how many pixels taller the plot's
/// layout became than with every text on one line and the legend in one row.
int fitPlotToWidth(QCustomPlot& plot, int width);

/// About one tick per 110 px of `widthPx` (2 to 8) on `axis`: QCustomPlot's default of five
/// ran "1,000 1,250 1,500" into one another on a narrow plot.
void fitTickCountToWidth(QCPAxis& axis, int widthPx);

/// Calls `fit` whenever `widget` is resized (for as long as the widget lives): plots re-wrap
/// their legend and words to their new width.
void callOnResize(QWidget* widget, std::function<void()> fit);

} // namespace advisor::ui
