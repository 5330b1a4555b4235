// The Calculators page offscreen on a real database: each tab recomputes as its inputs change,
// shows core's numbers (checked against core directly and against the seed's figures), draws
// its chart, and shows a refusal in the tab (the Memory needs tab: memory_tab_test.cpp).
#include "calculator_checks.h"
#include "calc/build_check.h"
#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "calc/power_limit.h"
#include "calc/psu.h"
#include "common/format.h"
#include "pages/calculators/build_tab.h"
#include "pages/calculators/power_limit_tab.h"
#include "pages/calculators/psu_tab.h"
#include "pages/calculators_page.h"
#include "private_session.h"
#include "session.h"

#include <qcustomplot.h>

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace advisor;

using advisor::testing::pick;
using advisor::testing::q;
using advisor::testing::verifyLabelInsidePlot;

class CalculatorsPageTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

private slots:
    void initTestCase() {
        session_ = testing::openPrivateSession(dir_); // remembered inputs go to dir_, not the user's
    }

    void pageHasEveryCalculator() {
        ui::CalculatorsPage page(*session_);
        QCOMPARE(page.tabs()->count(), 5);
        for (const char* key : {"power", "psu", "build", "memory", "cloud"}) {
            QVERIFY(page.showTab(QLatin1String(key)));
            QCOMPARE(page.tabs()->currentWidget()->objectName(), QLatin1String(key));
        }
        QVERIFY(!page.showTab(QStringLiteral("nope")));
    }

    void powerLimitFollowsTheSeedAndDrawsTheCurve() {
        ui::PowerLimitTab tab(*session_);
        pick(tab.gpuField(), "rtx-2080-ti");
        tab.limitField()->setValue(200); // -50 W from 250 W
        const Gpu& g = *session_->catalog().findById("rtx-2080-ti");
        calc::PowerLimitInput in;
        in.limitWatts = 200;
        const auto r = calc::powerLimit(g, in);
        QVERIFY(std::abs(1 - r.worstCaseRelativePerformance - 0.07) < 0.01); // the seed: about -7%
        QVERIFY2(tab.resultText().contains(QStringLiteral("Worst case, fully clock-bound work: ") +
                                           q(format::percent(r.worstCaseRelativePerformance, 1))),
                 qPrintable(tab.resultText()));
        QCOMPARE(tab.plot()->graphCount(), 3);
        QCOMPARE(tab.plot()->graph(1)->data()->at(0)->key, 200.0); // the chosen point
        // The seed's own measurement on this card, a diamond beside the curve, and named below it.
        QCOMPARE(tab.plot()->graph(2)->data()->size(), 1);
        QCOMPARE(tab.plot()->graph(2)->data()->at(0)->key, 200.0);
        QCOMPARE(tab.plot()->graph(2)->data()->at(0)->value, 0.93);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Measured on this card")) &&
                     tab.resultText().contains(QStringLiteral("dettmers-2023 (fp16-inference, bert_large_squad): "
                                                              "93.0% at 200 W (calculator 92.9%)")),
                 qPrintable(tab.resultText()));
        QVERIFY(tab.error().isEmpty());
        // Four cards save 4 x 50 W; one card is "the GPU", never "1 GPU(s)".
        tab.countField()->setValue(4);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Saves 200 W for the 4 GPUs:")), qPrintable(tab.resultText()));
        tab.countField()->setValue(1);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Saves 50 W for the GPU:")), qPrintable(tab.resultText()));
        QVERIFY(!tab.resultText().contains(QStringLiteral("Caution:")));
        // A card sold far below its chip's top power per SM says its curve may be optimistic.
        pick(tab.gpuField(), "rtx-pro-6000-blackwell-max-q");
        QVERIFY2(tab.resultText().contains(QStringLiteral("Caution:</i> RTX PRO 6000 Blackwell Max-Q is sold at 47% "
                                                          "of the RTX 5090's board power per SM")),
                 qPrintable(tab.resultText()));
    }

    void powerLimitOnLlmTokenGenerationSlowsOnlyItsReadsClockedWorkAndWarnsBelowTheVoltageFloor() {
        ui::PowerLimitTab tab(*session_);
        pick(tab.gpuField(), "rtx-3090");
        pick(tab.workField(), "llm-decode");
        tab.limitField()->setValue(200);
        const Gpu& g = *session_->catalog().findById("rtx-3090");
        perf::PerfQuery query;
        query.metric = perf::Metric::LlmDecode; // the model's defaults: 8B in 4 bits
        calc::PowerLimitInput in;
        in.limitWatts = 200;
        in.clockBoundShare = calc::clockBoundShare(session_->model(), g, query);
        QVERIFY(in.clockBoundShare > 0.05 && in.clockBoundShare < 0.23); // a share of its reads, not its fixed time
        const auto r = calc::powerLimit(g, in);
        const QString speed = q(format::percent(r.relativePerformance, 1)) + QStringLiteral(" of full speed");
        QVERIFY2(tab.resultText().contains(speed), qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("voltage is at its floor")), qPrintable(tab.resultText()));
        // A single 3090 measured far slower at this limit than the calculator says: a caution names it.
        QVERIFY2(tab.resultText().contains(QStringLiteral("Caution:</i> at 200 W this card measured 64.4%")),
                 qPrintable(tab.resultText()));
        // Prompt processing is mostly matmuls at the clock: it loses more at the same limit.
        pick(tab.workField(), "llm-prefill");
        query.metric = perf::Metric::LlmPrefill;
        in.clockBoundShare = calc::clockBoundShare(session_->model(), g, query);
        QVERIFY(calc::powerLimit(g, in).relativePerformance < r.relativePerformance);
        QVERIFY2(tab.resultText().contains(q(format::percent(calc::powerLimit(g, in).relativePerformance, 1))),
                 qPrintable(tab.resultText()));
        // llmgarage's four long-prompt points on 3090s beside the curve, the lowest (0.26) inside the plot.
        QCOMPARE(tab.plot()->graphCount(), 3);
        QCOMPARE(tab.plot()->graph(2)->data()->size(), 4);
        QVERIFY(tab.plot()->yAxis->range().lower < 0.258);
        // A partner RTX 5090's prompt sweep at its own 600 W (the card's 575 W), named with its board.
        pick(tab.gpuField(), "rtx-5090");
        QVERIFY2(tab.resultText().contains(QStringLiteral("apnar-2026, a 600 W board's own 100% (llm-prefill")),
                 qPrintable(tab.resultText()));
        pick(tab.gpuField(), "rtx-3090");
        // Above two thirds of the TDP the cube root holds and nothing is said about the floor.
        tab.limitField()->setValue(300);
        QVERIFY2(!tab.resultText().contains(QStringLiteral("voltage is at its floor")), qPrintable(tab.resultText()));
        // The LLM's own model and context, as perf --model --context: Llama 3.1 70B's prompt of 32K.
        QVERIFY(tab.llmModelField()->isEnabled());
        pick(tab.llmModelField(), "llama-3.1-70b");
        tab.llmContextField()->setValue(32768);
        perf::PerfQuery longPrompt = query;
        longPrompt.llmContextTokens = 32768;
        calc::applyModelShape(longPrompt, *calc::findModelShape("llama-3.1-70b"));
        in.limitWatts = 300;
        in.clockBoundShare = calc::clockBoundShare(session_->model(), g, longPrompt);
        QVERIFY2(tab.resultText().contains(q(format::percent(calc::powerLimit(g, in).relativePerformance, 1)) +
                                           QStringLiteral(" of full speed")),
                 qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(q(format::percent(in.clockBoundShare, 0)) +
                                           QStringLiteral(" of this work's time scales with the clock")),
                 qPrintable(tab.resultText()));
        // Training work has no LLM to describe.
        pick(tab.workField(), "cnn");
        QVERIFY(!tab.llmModelField()->isEnabled());
        QVERIFY(!tab.llmContextField()->isEnabled());
    }

    void powerLimitLabelStaysInsideTheNarrowPlot() {
        ui::PowerLimitTab tab(*session_);
        tab.show();
        tab.resize(720, 600); // the width a tab gets in the window at its smallest
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        pick(tab.gpuField(), "rtx-3090");
        for (const int height : {600, 480}) { // a short plot has fewer pixels above 100% for the label
            tab.resize(720, height);
            QCoreApplication::processEvents();
            for (const double watts : {350.0, 300.0, 220.0, 150.0}) { // the TDP down to a deep cut
                tab.limitField()->setValue(watts);
                verifyLabelInsidePlot(tab.plot());
            }
        }
    }

    void psuFollowsTheGuide() {
        ui::PsuTab tab(*session_);
        QCOMPARE(tab.gpuField()->findData(QStringLiteral("dgx-spark")), -1); // has its own power supply
        pick(tab.gpuField(), "rtx-3090");
        tab.countField()->setValue(4);
        calc::PsuInput in;
        in.gpu = session_->catalog().findById("rtx-3090");
        in.gpuWatts = in.gpu->tdpW;
        in.gpuCount = 4;
        in.cpuWatts = session_->settings().cpuWatts; // the CPU field starts at the setting
        QCOMPARE(tab.cpuField()->value(), in.cpuWatts);
        const auto r = calc::sizePsu(in);
        QVERIFY2(tab.resultText().contains(QStringLiteral("A %1 W power supply").arg(q(format::number(r.recommendedPsuWatts, 0)))) ||
                     r.recommendedPsuWatts == 0,
                 qPrintable(tab.resultText()));
        QCOMPARE(tab.circuits()->rowCount(), static_cast<int>(r.circuits.size()));
        // A change of the setting moves the field and the result, as in the build check.
        Settings s = session_->settings();
        s.cpuWatts = 250;
        session_->changeSettings(s, QStringLiteral("cpu watts"));
        QCOMPARE(tab.cpuField()->value(), 250.0);
        QVERIFY2(tab.resultText().contains(QStringLiteral("CPU 250 W")), qPrintable(tab.resultText()));
        // Any value the setting takes, not one cut to the field's range (it stopped at 1,000 W).
        s.cpuWatts = 1800;
        session_->changeSettings(s, QStringLiteral("cpu watts"));
        QVERIFY2(tab.resultText().contains(QStringLiteral("CPU 1,800 W")), qPrintable(tab.resultText()));
        session_->undoStack()->undo();
        session_->undoStack()->undo();
        QCOMPARE(tab.cpuField()->value(), in.cpuWatts);
    }

    void psuCircuitTableIsAsBigAsItsContents() {
        // Its stretched "Enough?" column kept 100 px for "yes" and scrolled the table sideways
        // at 1,024 px; the table also filled the tab's height for three rows.
        ui::PsuTab tab(*session_);
        tab.resize(870, 600); // about what a 1,024 px window leaves the tab
        tab.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCoreApplication::processEvents();
        QTableWidget* circuits = tab.circuits();
        int columns = 0;
        for (int c = 0; c < circuits->columnCount(); ++c) {
            columns += circuits->columnWidth(c);
        }
        QVERIFY2(columns <= circuits->viewport()->width(),
                 qPrintable(QStringLiteral("%1 px of columns in %2 px").arg(columns).arg(circuits->viewport()->width())));
        const int rows = circuits->verticalHeader()->length() + circuits->horizontalHeader()->height();
        QVERIFY2(circuits->height() < rows + 40, qPrintable(QStringLiteral("%1 px tall for %2 px of rows").arg(circuits->height()).arg(rows)));
        QVERIFY(circuits->height() >= rows);
    }

    void psuTakesOtherPartsBufferAndThePsuYouHave() {
        // The guide's example: 4 x 250 W + 150 W CPU + 100 W = 1,250 W, +10% = 1,375 W.
        ui::PsuTab tab(*session_);
        pick(tab.gpuField(), "rtx-2080-ti"); // 250 W
        tab.countField()->setValue(4);
        tab.cpuField()->setValue(150);
        QVERIFY2(tab.resultText().contains(QStringLiteral("A 1,400 W power supply")), qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Load 1,250 W (GPUs 1,000 W, CPU 150 W, other parts 100 W); "
                                                          "with a 10% buffer 1,375 W")),
                 qPrintable(tab.resultText()));
        tab.psuField()->setValue(1300);
        // And the limit that makes it enough: (1,300 / 1.1 - 250) / 4 = 233 -> 230 W per card,
        // (230 / 250)^(1/3) = 0.973 of the clock.
        QVERIFY2(tab.resultText().contains(QStringLiteral("Your 1,300 W PSU: too small: the build needs 1,375 W with the "
                                                          "10% buffer; a power limit of 230 W per GPU makes it enough "
                                                          "(at most 3% slower)")),
                 qPrintable(tab.resultText()));
        tab.bufferField()->setValue(0); // 1,250 W fits a 1,300 W PSU without headroom
        QVERIFY2(tab.resultText().contains(QStringLiteral("Your 1,300 W PSU: enough.")), qPrintable(tab.resultText()));
        tab.otherField()->setValue(200);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Your 1,300 W PSU: too small")), qPrintable(tab.resultText()));
        // A limit above the card's TDP was sized as if real (1,000 W per RTX 2080 Ti).
        tab.limitField()->setValue(1000);
        QCOMPARE(tab.error(), QStringLiteral("GPU power limit: is above the board power (TDP) of 250 W; valid range for "
                                             "RTX 2080 Ti: 75-250 W"));
        tab.limitField()->setValue(0);
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
    }

    void buildCheckListsFindingsThatFollowTheInputs() {
        ui::BuildTab tab(*session_);
        pick(tab.gpuField(), "rtx-4090");
        tab.countField()->setValue(4);
        QVERIFY(tab.findingsText().contains(QStringLiteral("critical")));
        const int four = tab.findingCount();
        tab.countField()->setValue(1);
        QVERIFY(!tab.findingsText().contains(QStringLiteral("critical")));
        QVERIFY(tab.findingCount() < four);
    }

    void buildSpeedFollowsTheLimitAndTheReferenceSetting() {
        ui::BuildTab tab(*session_);
        pick(tab.gpuField(), "rtx-4090");
        tab.countField()->setValue(4);
        // The tab states core's speed for the build (4 cards on the default 8 lanes each), efficiency included.
        calc::BuildInput in;
        in.gpu = session_->catalog().findById("rtx-4090");
        in.count = 4;
        in.reference = in.gpu;
        const auto report = calc::checkBuild(in, session_->model());
        const QString speed = QString::fromStdString(calc::describeSpeed(in, report));
        QVERIFY2(speed.contains(QStringLiteral("x one RTX 4090 (fp16 transformer training; data-parallel efficiency ")),
                 qPrintable(speed));
        QVERIFY2(report.efficiency > 0.7 && report.efficiency < 0.95, qPrintable(speed));
        QVERIFY2(tab.resultText().contains(speed), qPrintable(tab.resultText() + " / " + speed));
        tab.limitField()->setValue(300); // it was ignored: the same speed at any limit
        QVERIFY2(tab.resultText().contains(QStringLiteral("power limit 300 W: 10% slower")), qPrintable(tab.resultText()));
        tab.limitField()->setValue(0);
        Settings s = session_->settings();
        s.referenceGpu = "rtx-3090";
        session_->changeSettings(s, QStringLiteral("Change reference GPU"));
        QVERIFY2(tab.resultText().contains(QStringLiteral("x one RTX 3090")), qPrintable(tab.resultText()));
    }

    void buildCheckTakesASecondGpuTypeAndLanesAndRefusesALimitAboveTheTdp() {
        ui::BuildTab tab(*session_);
        pick(tab.gpuField(), "rtx-4090");
        tab.countField()->setValue(2);
        QVERIFY(!tab.extraCountField()->isEnabled()); // nothing to count yet
        QVERIFY(!tab.findingsText().contains(QStringLiteral("slowest")));
        pick(tab.extraGpuField(), "rtx-3090"); // the core's mixed-type pacing finding
        QVERIFY(tab.extraCountField()->isEnabled());
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
        QVERIFY2(tab.findingsText().contains(QStringLiteral("slowest")), qPrintable(tab.findingsText()));
        tab.extraCountField()->setValue(15); // 2 + 15 cards
        QCOMPARE(tab.error(), QStringLiteral("Second GPU count: must be at least 1, and all GPUs together at most 16"));
        tab.extraCountField()->setValue(1);
        tab.extraGpuField()->setCurrentIndex(0); // none
        QVERIFY(!tab.findingsText().contains(QStringLiteral("slowest")));
        // Lanes as chosen: x4 for 2 cards costs speed, which the automatic x16 does not.
        QVERIFY(!tab.findingsText().contains(QStringLiteral("x4 lanes")));
        pick(tab.lanesField(), "4");
        QVERIFY2(tab.findingsText().contains(QStringLiteral("x4 lanes per GPU")), qPrintable(tab.findingsText()));
        // A limit above the card's TDP was modelled as if real; it is refused with the range.
        tab.limitField()->setValue(1000);
        QCOMPARE(tab.error(), QStringLiteral("GPU power limit: is above the board power (TDP) of 450 W; valid range for RTX 4090: 135-450 W"));
        tab.limitField()->setValue(300);
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
    }
};

QTEST_MAIN(CalculatorsPageTest)
#include "calculators_page_test.moc"
