#pragma once
// Checks the calculator tabs' tests share: pick a combo entry by its data, and find a plot's
// one text label drawn inside its axis rectangle.
#include <qcustomplot.h>

#include <QComboBox>
#include <QString>
#include <QtTest>

#include <string>

namespace advisor::testing {

inline void pick(QComboBox* box, const char* data) {
    const int i = box->findData(QString::fromLatin1(data));
    QVERIFY2(i >= 0, data);
    box->setCurrentIndex(i);
}

inline QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The plot's one text label lies inside the axis rectangle (drawn, not cut off at an edge).
inline void verifyLabelInsidePlot(QCustomPlot* plot) {
    plot->replot();
    QCOMPARE(plot->itemCount() > 0, true);
    QCPItemText* label = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i))) {
            label = t;
        }
    }
    QVERIFY(label != nullptr);
    const QRect area = plot->axisRect()->rect();
    const QPointF topLeft = label->topLeft->pixelPosition();
    const QPointF bottomRight = label->bottomRight->pixelPosition();
    QVERIFY2(topLeft.x() >= area.left() - 1 && bottomRight.x() <= area.right() + 1 && topLeft.y() >= area.top() - 1 &&
                 bottomRight.y() <= area.bottom() + 1,
             qPrintable(QStringLiteral("'%1' spans x %2..%3, y %4..%5; the plot's area x %6..%7, y %8..%9")
                            .arg(label->text())
                            .arg(topLeft.x())
                            .arg(bottomRight.x())
                            .arg(topLeft.y())
                            .arg(bottomRight.y())
                            .arg(area.left())
                            .arg(area.right())
                            .arg(area.top())
                            .arg(area.bottom())));
}


} // namespace advisor::testing
