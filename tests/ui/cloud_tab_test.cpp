// The Cloud vs desktop tab offscreen on a real database: the seed's break-even example, offers
// with their spot prices, GPUs and GPU counts, and a plot whose legend and label stay readable
// in a narrow window.
#include "advisor/cheapest_offer.h"
#include "calc/cloud_vs_desktop.h"
#include "calculator_checks.h"
#include "commands/cloud_offer_commands.h"
#include "common/format.h"
#include "pages/calculators/cloud_tab.h"
#include "prices/cloud_offer.h"
#include "private_session.h"
#include "session.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <string>
#include <utility>

using namespace advisor;
using advisor::testing::pick;
using advisor::testing::q;
using advisor::testing::verifyLabelInsidePlot;

// The offer list starts with "Enter a price" and "Cheapest for this desktop's work".
constexpr int kFirstOffer = 2;

// An on-demand offer from provider "Test", as the window's Add offer dialog passes it on.
CloudOfferInput testOffer(std::string instance, std::string gpu, std::string count, std::string onDemand,
                          std::string date) {
    CloudOfferInput in;
    in.provider = "Test";
    in.instance = std::move(instance);
    in.gpu = std::move(gpu);
    in.gpuCount = std::move(count);
    in.onDemand = std::move(onDemand);
    in.date = std::move(date);
    return in;
}

class CloudTabTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

private slots:
    void initTestCase() {
        session_ = testing::openPrivateSession(dir_); // remembered inputs go to dir_, not the user's
    }

    void cloudLegendSitsAboveTheLinesAndWraps() {
        // Inside the axes the legend covered the cloud's line where it climbed through the
        // legend's corner (the seed's example at 1024 px: the line ran under "Desktop (purchase ...").
        ui::CloudTab tab(*session_);
        tab.offerField()->setCurrentIndex(0);
        tab.hourlyField()->setValue(2.14);
        tab.show();
        tab.resize(900, 600);
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCustomPlot* plot = tab.plot();
        plot->replot();
        const QRect axes = plot->axisRect()->outerRect();
        QVERIFY2(!plot->legend->outerRect().intersects(axes),
                 qPrintable(QStringLiteral("legend %1,%2 %3x%4 overlaps the axes from y=%5")
                                .arg(plot->legend->outerRect().x())
                                .arg(plot->legend->outerRect().y())
                                .arg(plot->legend->outerRect().width())
                                .arg(plot->legend->outerRect().height())
                                .arg(axes.top())));
        QCOMPARE(plot->legend->rowCount(), 1);
        tab.resize(tab.minimumSizeHint().width(), 600); // as narrow as the tab goes
        QCoreApplication::processEvents();
        plot->replot();
        QVERIFY2(plot->legend->rowCount() == 2 && plot->legend->outerRect().right() <= plot->width(),
                 qPrintable(QStringLiteral("%1 rows, right edge %2 in a %3 px plot")
                                .arg(plot->legend->rowCount())
                                .arg(plot->legend->outerRect().right())
                                .arg(plot->width())));
    }

    void cloudVsDesktopReproducesTheSeedsExample() {
        Settings s = session_->settings();
        s.electricityUsdPerKwh = 0.12; // the seed's example
        session_->changeSettings(s, QStringLiteral("seed electricity"));
        ui::CloudTab tab(*session_);
        tab.offerField()->setCurrentIndex(0); // enter a price
        tab.desktopCostField()->setValue(2200);
        tab.hourlyField()->setValue(2.14);
        QVERIFY2(tab.resultText().contains(QStringLiteral("591 kWh")), qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Buying pays off after 293 days")), qPrintable(tab.resultText()));
        QCOMPARE(tab.plot()->graphCount(), 2);
        // A setting change recomputes at once: free electricity moves break-even earlier.
        s.electricityUsdPerKwh = 0.0;
        session_->changeSettings(s, QStringLiteral("free electricity"));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Buying pays off after 286 days")), qPrintable(tab.resultText()));
        session_->undoStack()->undo();
        // A cloud cheaper than the desktop's electricity says so with both prices, as the command line does.
        tab.hourlyField()->setValue(0.01);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Buying never pays off: the cloud costs $0.036 a day")),
                 qPrintable(tab.resultText()));
        // A late break-even: the totals are those at the end of the years of use, not at the end
        // of the drawn curve, which runs past the break-even (it once said "Over 5 years: ...
        // cloud $2,750" for a cloud at $0.036 a day).
        tab.hourlyField()->setValue(0.06);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Over 5 years: desktop $2,555, cloud $394")),
                 qPrintable(tab.resultText()));
        session_->undoStack()->undo();
    }

    void cloudOfferSpotPriceIsOfferedWhereTheOfferHasOne() {
        ui::CloudTab tab(*session_);
        int withSpot = -1, withoutSpot = -1;
        for (int i = kFirstOffer; i < tab.offerField()->count(); ++i) {
            const double spot = tab.offerField()->itemData(i, Qt::UserRole + 3).toDouble();
            int& first = spot > 0 ? withSpot : withoutSpot;
            first = first < 0 ? i : first;
        }
        QVERIFY(withSpot > 0 && withoutSpot > 0); // the seeded offers have both kinds
        tab.offerField()->setCurrentIndex(withSpot);
        QVERIFY(tab.spotField()->isEnabled());
        const double onDemand = tab.offerField()->itemData(withSpot, Qt::UserRole + 1).toDouble();
        const double spot = tab.offerField()->itemData(withSpot, Qt::UserRole + 3).toDouble();
        QCOMPARE(tab.hourlyField()->value(), std::round(onDemand * 1000) / 1000);
        const QString before = tab.resultText();
        tab.spotField()->setChecked(true);
        QCOMPARE(tab.hourlyField()->value(), std::round(spot * 1000) / 1000);
        QVERIFY2(tab.resultText().contains(QStringLiteral(" at the spot price")), qPrintable(tab.resultText()));
        QVERIFY(tab.resultText() != before);
        // An offer without a spot price: the option goes away and its on-demand price is used.
        tab.offerField()->setCurrentIndex(withoutSpot);
        QVERIFY(!tab.spotField()->isEnabled());
        QVERIFY(!tab.spotField()->isChecked());
        QCOMPARE(tab.hourlyField()->value(),
                 std::round(tab.offerField()->itemData(withoutSpot, Qt::UserRole + 1).toDouble() * 1000) / 1000);
    }

    void cloudOffersBringTheirGpusAndCountIntoTheSpeedRatio() {
        // An offer whose GPU name is not one catalog GPU ("A100 40GB" x8 on GCP) was taken to
        // do the desktop's work per hour, whatever its GPUs and their number.
        ui::CloudTab tab(*session_);
        const auto offerIndex = [&tab](const char* instance) {
            for (int i = kFirstOffer; i < tab.offerField()->count(); ++i) {
                if (tab.offerField()->itemText(i).contains(QLatin1String(instance))) {
                    return i;
                }
            }
            return -1;
        };
        const int gcp = offerIndex("a2-highgpu-8g");
        QVERIFY(gcp > 0);
        tab.offerField()->setCurrentIndex(gcp);
        QCOMPARE(tab.cloudGpuField()->currentData().toString(), QStringLiteral("a100-40gb-sxm4"));
        QCOMPARE(tab.cloudCountField()->value(), 8);
        const Gpu* desktop = session_->catalog().findById("rtx-3090");
        const double ratio = calc::workRatio(session_->model(), *desktop, 1, *session_->catalog().findById("a100-40gb-sxm4"), 8, {});
        QVERIFY(ratio < 0.2); // one RTX 3090 does a small part of eight A100s' work
        QVERIFY2(tab.resultText().contains(QStringLiteral("the desktop does %1x the work").arg(q(format::trimmed(ratio, 2)))),
                 qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("assumed A100 40GB SXM4 (8-GPU servers use SXM modules)")),
                 qPrintable(tab.resultText()));
        // Choosing the GPU replaces the assumption.
        tab.cloudGpuField()->setCurrentIndex(tab.cloudGpuField()->findData(QStringLiteral("a100-40gb-pcie")));
        QVERIFY2(!tab.resultText().contains(QStringLiteral("assumed")), qPrintable(tab.resultText()));
        // AWS's A10G (G5 instances) is a catalog GPU of its own.
        const int g5 = offerIndex("g5.12xlarge");
        QVERIFY(g5 > 0);
        tab.offerField()->setCurrentIndex(g5);
        QCOMPARE(tab.cloudGpuField()->currentData().toString(), QStringLiteral("a10g"));
        QCOMPARE(tab.cloudCountField()->value(), 4);
        QVERIFY2(!tab.resultText().contains(QStringLiteral("catalog")), qPrintable(tab.resultText()));
        // A GPU the catalog lacks: the count still counts, and the tab says what it assumed.
        session_->undoStack()->push(
            ui::AddCloudOfferCommand::create(*session_, testOffer("four-gaudi", "Gaudi 3", "4", "20", "2026-10-10")));
        const int unknown = offerIndex("four-gaudi");
        QVERIFY(unknown > 0);
        tab.offerField()->setCurrentIndex(unknown);
        QCOMPARE(tab.cloudGpuField()->currentIndex(), 0); // the same as the desktop
        QCOMPARE(tab.cloudCountField()->value(), 4);
        QVERIFY2(tab.resultText().contains(QStringLiteral("the desktop does 0.25x the work")), qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("'Gaudi 3' is not in the catalog")), qPrintable(tab.resultText()));
        // Undoing the offer's adding takes it, and what it said, away.
        session_->undoStack()->undo();
        QCOMPARE(tab.offerField()->currentIndex(), 0);
        QVERIFY2(!tab.resultText().contains(QStringLiteral("Gaudi")), qPrintable(tab.resultText()));
        // Entering a price: the desktop's GPUs against as many in the cloud as the field says,
        // as the command line counts them.
        tab.offerField()->setCurrentIndex(0);
        tab.cloudCountField()->setValue(1);
        tab.countField()->setValue(4);
        QVERIFY2(tab.resultText().contains(QStringLiteral("the desktop does 4x the work")), qPrintable(tab.resultText()));
        QVERIFY2(!tab.resultText().contains(QStringLiteral("catalog")), qPrintable(tab.resultText()));
    }

    void theCheapestOfferFollowsTheDesktop() {
        ui::CloudTab tab(*session_);
        pick(tab.offerField(), "cheapest");
        // The core rule the Advisor uses: least per hour for the work, holding the desktop's memory.
        const auto expect = [&](const char* gpuId, int count) {
            const Gpu* g = session_->catalog().findById(gpuId);
            return advice::cheapestCloudFor(session_->catalog(), session_->model(), session_->db().cloudOffers(), {},
                                            g->memoryGb * count);
        };
        const auto one = expect("rtx-3090", 1);
        QVERIFY(one.offer.has_value());
        QCOMPARE(tab.hourlyField()->value(), std::round(one.offer->onDemandUsdPerHour * 1000) / 1000);
        QCOMPARE(tab.cloudCountField()->value(), one.offer->gpuCount);
        QVERIFY2(tab.resultText().contains(QStringLiteral("chosen: %1 %2").arg(q(one.offer->provider), q(one.offer->instance))),
                 qPrintable(tab.resultText()));
        // Four desktop cards need four times the memory: the choice moves with them.
        tab.countField()->setValue(4);
        const auto four = expect("rtx-3090", 4);
        QVERIFY(four.offer.has_value());
        QVERIFY(four.offer->id != one.offer->id);
        QCOMPARE(tab.hourlyField()->value(), std::round(four.offer->onDemandUsdPerHour * 1000) / 1000);
        // A refill of the offers (one added elsewhere) keeps the choice, and a cheaper offer wins.
        const std::string newest = newestObservation(currentOffers(session_->db().cloudOffers())).toString();
        session_->undoStack()->push(
            ui::AddCloudOfferCommand::create(*session_, testOffer("four-3090", "RTX 3090", "4", "0.05", newest)));
        QCOMPARE(tab.offerField()->currentData().toString(), QStringLiteral("cheapest"));
        QCOMPARE(tab.hourlyField()->value(), 0.05);
        session_->undoStack()->undo();
        QCOMPARE(tab.hourlyField()->value(), std::round(four.offer->onDemandUsdPerHour * 1000) / 1000);
        tab.countField()->setValue(1);
    }

    void anOfferOverAYearOlderThanTheNewestSaysSo() {
        // The recommender passes over such offers; here the user chose one, so the result says
        // how old it is (a 2023 marketplace price is not what one rents in 2026).
        ui::CloudTab tab(*session_);
        const auto offers = currentOffers(session_->db().cloudOffers());
        const Date newest = newestObservation(offers);
        const CloudOffer* old = nullptr;
        const CloudOffer* recent = nullptr;
        for (const auto& o : offers) {
            (isOverAYearBefore(o.observed, newest) ? old : recent) = &o;
        }
        QVERIFY(old != nullptr && recent != nullptr);
        const auto choose = [&tab](const CloudOffer& o) {
            const int i = tab.offerField()->findData(QVariant::fromValue<qlonglong>(o.id));
            QVERIFY(i > 0);
            tab.offerField()->setCurrentIndex(i);
        };
        choose(*old);
        const QString age = QStringLiteral("the offer was last seen %1, over a year before the newest offer (%2): check "
                                           "today's price")
                                .arg(q(old->observed.toString()), q(newest.toString()));
        QVERIFY2(tab.resultText().contains(age), qPrintable(tab.resultText()));
        tab.cloudGpuField()->setCurrentIndex(tab.cloudGpuField()->findData(QStringLiteral("rtx-4090")));
        QVERIFY2(tab.resultText().contains(age), qPrintable(tab.resultText())); // still that old
        choose(*recent);
        QVERIFY2(!tab.resultText().contains(QStringLiteral("last seen")), qPrintable(tab.resultText()));
        tab.offerField()->setCurrentIndex(0); // entering a price
        QVERIFY2(!tab.resultText().contains(QStringLiteral("last seen")), qPrintable(tab.resultText()));
    }

    void breakEvenLabelStaysInsideTheNarrowPlot() {
        ui::CloudTab tab(*session_);
        tab.show();
        tab.resize(720, 600); // the width a tab gets in the window at its smallest
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        tab.offerField()->setCurrentIndex(0); // enter a price
        tab.desktopCostField()->setValue(2200);
        for (const double hourly : {5.0, 2.14, 0.5, 0.32}) { // break-even from weeks to years
            tab.hourlyField()->setValue(hourly);
            QVERIFY2(tab.resultText().contains(QStringLiteral("pays off after")), qPrintable(tab.resultText()));
            verifyLabelInsidePlot(tab.plot());
        }
        // The day axis's labels stand apart ("1,0001,2501,500" ran together at this width).
        QCPAxis* days = tab.plot()->xAxis;
        tab.plot()->replot();
        const QVector<double> ticks = days->tickVector();
        const QVector<QString> labels = days->tickVectorLabels();
        QVERIFY(ticks.size() >= 2);
        const QFontMetrics metrics(days->tickLabelFont());
        for (qsizetype i = 1; i < ticks.size(); ++i) {
            const double apart = days->coordToPixel(ticks[i]) - days->coordToPixel(ticks[i - 1]);
            const double needed = (metrics.horizontalAdvance(labels[i]) + metrics.horizontalAdvance(labels[i - 1])) / 2.0 + 6;
            QVERIFY2(apart >= needed, qPrintable(QStringLiteral("'%1' and '%2' are %3 px apart, need %4")
                                                     .arg(labels[i - 1], labels[i])
                                                     .arg(apart)
                                                     .arg(needed)));
        }
    }

    void longCloudOffersKeepTheInputColumnNarrow() {
        ui::CloudTab tab(*session_);
        QVERIFY(tab.offerField()->count() > 100); // the seeded offers, some 60 characters long
        tab.resize(1350, 800);
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        auto* inputs = tab.findChild<QScrollArea*>();
        QVERIFY(inputs != nullptr);
        QVERIFY2(inputs->width() <= 460, qPrintable(QString::number(inputs->width())));
        QVERIFY2(tab.plot()->width() > inputs->width(), qPrintable(QString::number(tab.plot()->width())));
        // The open list is still wide enough to read every offer.
        int widest = 0;
        for (int i = 0; i < tab.offerField()->count(); ++i) {
            widest = std::max(widest, tab.offerField()->fontMetrics().horizontalAdvance(tab.offerField()->itemText(i)));
        }
        QVERIFY2(tab.offerField()->view()->minimumWidth() >= widest,
                 qPrintable(QStringLiteral("%1 < %2").arg(tab.offerField()->view()->minimumWidth()).arg(widest)));
    }
};

QTEST_MAIN(CloudTabTest)
#include "cloud_tab_test.moc"
