#include "widgets/plot_fit.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QTextLayout>

#include <algorithm>

namespace advisor::ui {

namespace {

// An element's or axis's text before wrapping and as wrapped (dynamic properties), so that
// fitting again starts from the whole text - unless the text was set anew since (an axis
// keeps its properties when the chart is rebuilt with another title).
const char* const kFullText = "advisorFullText";
const char* const kWrappedText = "advisorWrappedText";

QString fullText(QObject& holder, const QString& shown) {
    if (holder.property(kWrappedText).toString() == shown && holder.property(kFullText).isValid()) {
        return holder.property(kFullText).toString();
    }
    holder.setProperty(kFullText, shown);
    holder.setProperty(kWrappedText, shown);
    return shown;
}

QString wrapped(QObject& holder, const QString& text, const QFont& font, int width) {
    const QString lines = wrapText(text, font, width);
    holder.setProperty(kWrappedText, lines);
    return lines;
}

// Owned by the watched widget, so it goes when the widget does.
class ResizeWatcher : public QObject {
public:
    ResizeWatcher(QWidget* widget, std::function<void()> fit) : QObject(widget), fit_(std::move(fit)) {
        widget->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize) {
            fit_();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> fit_;
};

std::vector<QCPTextElement*> textElements(QCPLayout& layout) {
    std::vector<QCPTextElement*> out;
    for (QCPLayoutElement* e : layout.elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(e)) {
            out.push_back(text);
        }
    }
    return out;
}

std::vector<QCPAxis*> titledAxes(QCustomPlot& plot) {
    std::vector<QCPAxis*> out;
    for (QCPAxisRect* rect : plot.axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            if (axis->visible() && !axis->label().isEmpty()) {
                out.push_back(axis);
            }
        }
    }
    return out;
}

int addedLines(const QString& wrapped) {
    return static_cast<int>(wrapped.count(QLatin1Char('\n')));
}

void unwrapAll(QCustomPlot& plot) {
    for (QCPTextElement* e : textElements(*plot.plotLayout())) {
        const QString text = fullText(*e, e->text());
        e->setText(text);
        e->setProperty(kWrappedText, text);
    }
    for (QCPAxis* axis : titledAxes(plot)) {
        const QString text = fullText(*axis, axis->label());
        axis->setLabel(text);
        axis->setProperty(kWrappedText, text);
    }
    if (plot.legend != nullptr && plot.legend->visible()) {
        plot.legend->setWrap(0);
        plot.legend->setFillOrder(plot.legend->fillOrder(), true);
    }
}

// What QCustomPlot does before it draws, at `width`: afterwards every axis rect knows its size.
void layOut(QCustomPlot& plot, int width) {
    QCPLayoutGrid& layout = *plot.plotLayout();
    layout.setOuterRect(QRect(0, 0, width, std::max(plot.height(), layout.minimumOuterSizeHint().height())));
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout}) {
        layout.update(phase);
    }
}

} // namespace

QString wrapText(const QString& text, const QFont& font, int width) {
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(option);
    QStringList lines;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(std::max(1, width));
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines.join(QLatin1Char('\n'));
}

void wrapLegendToWidth(QCPLegend& legend, int width) {
    for (int columns = std::max(1, legend.itemCount()); columns >= 1; --columns) {
        legend.setWrap(columns);
        legend.setFillOrder(legend.fillOrder(), true); // re-flows the items already there
        if (legend.minimumOuterSizeHint().width() <= width) {
            break;
        }
    }
}

int fitPlotToWidth(QCustomPlot& plot, int width) {
    unwrapAll(plot);
    // The growth is summed element by element: the layout's own minimum height also holds the
    // axis rect's margins, which QCustomPlot only knows after a first layout.
    int taller = 0;
    for (QCPTextElement* e : textElements(*plot.plotLayout())) {
        const QMargins m = e->margins();
        e->setText(wrapped(*e, e->text(), e->font(), width - m.left() - m.right()));
        taller += addedLines(e->text()) * QFontMetrics(e->font()).lineSpacing();
    }
    if (plot.legend != nullptr && plot.legend->visible()) {
        const int before = plot.legend->minimumOuterSizeHint().height();
        wrapLegendToWidth(*plot.legend, width - 20); // the plot layout's side margins
        taller += plot.legend->minimumOuterSizeHint().height() - before;
    }
    // An axis title is centred on its axis, so it wraps to the axis's length (vertical ones
    // are left alone: they are short).
    layOut(plot, width);
    for (QCPAxis* axis : titledAxes(plot)) {
        if (axis->orientation() == Qt::Horizontal) {
            axis->setLabel(wrapped(*axis, axis->label(), axis->labelFont(), axis->axisRect()->width()));
            taller += addedLines(axis->label()) * QFontMetrics(axis->labelFont()).lineSpacing();
        }
    }
    return taller;
}

void fitTickCountToWidth(QCPAxis& axis, int widthPx) {
    constexpr int kPixelsPerTick = 110; // a label like "12,500" and room on both sides
    axis.ticker()->setTickCount(std::clamp(widthPx / kPixelsPerTick, 2, 8));
}

void callOnResize(QWidget* widget, std::function<void()> fit) {
    new ResizeWatcher(widget, std::move(fit));
}

} // namespace advisor::ui
