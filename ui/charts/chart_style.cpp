#include "charts/chart_style.h"

namespace advisor::ui {

namespace {

// Okabe & Ito's colour-blind-safe palette: blue, orange, bluish green, vermillion.
QVector<QColor> okabeIto() {
    return {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(213, 94, 0)};
}

} // namespace

ChartStyle ChartStyle::light() {
    ChartStyle s;
    s.background = Qt::white;
    s.text = QColor(30, 30, 30);
    s.grid = QColor(220, 220, 220);
    s.highlight = QColor(255, 214, 10, 90);
    s.series = okabeIto();
    s.font = QFont(QStringLiteral("DejaVu Sans"), 9);
    return s;
}

ChartStyle ChartStyle::dark() {
    ChartStyle s = light();
    s.background = QColor(32, 33, 36);
    s.text = QColor(232, 232, 232);
    s.grid = QColor(70, 70, 74);
    s.highlight = QColor(255, 214, 10, 60);
    s.series = {QColor(86, 180, 233), QColor(230, 159, 0), QColor(0, 158, 115), QColor(240, 128, 80)};
    return s;
}

ChartStyle ChartStyle::fromPalette(const QPalette& palette, const QFont& font) {
    const bool darkWindow = palette.color(QPalette::Window).lightness() < 128;
    ChartStyle s = darkWindow ? dark() : light();
    s.background = palette.color(QPalette::Base);
    s.text = palette.color(QPalette::Text);
    s.font = font;
    return s;
}

} // namespace advisor::ui
