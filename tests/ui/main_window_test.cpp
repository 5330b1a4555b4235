// The real window, offscreen: pages open and switch (also by keyboard), the window remembers
// its page, and the Charts page follows settings, undo, filters and highlights at once.
#include "charts/bar_chart_builder.h"
#include "common/format.h"
#include "dialogs/add_cloud_offer_dialog.h"
#include "dialogs/add_price_dialog.h"
#include "dialogs/custom_gpu_dialog.h"
#include "dialogs/restore_backup_dialog.h"
#include "main_window.h"
#include "mnemonics.h"
#include "pages/advisor_page.h"
#include "pages/calculators/build_tab.h"
#include "pages/calculators/cloud_tab.h"
#include "pages/calculators/memory_tab.h"
#include "pages/calculators/power_limit_tab.h"
#include "pages/calculators_page.h"
#include "pages/charts_page.h"
#include "pages/settings_panel.h"
#include "session.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QTabWidget>
#include <QScrollArea>
#include <QSignalSpy>
#include <QShortcut>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace advisor;

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::string dbPath() const { return dir_.filePath(QStringLiteral("prices.sqlite")).toStdString(); }

    static double valueOf(const charts::ChartData& d, const std::string& id) {
        for (const auto& r : d.rows) {
            if (r.gpu->id == id) {
                return *r.values[d.metricIndex(perf::Metric::Fp16Training)];
            }
        }
        return -1;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("gpu-advisor-test"));
        QCoreApplication::setApplicationName(QStringLiteral("ui-window-test"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.path());
        QSettings().clear();
    }

    void pagesOpenAndSwitchByListAndKeyboard() {
        ui::Session session;
        ui::MainWindow window(session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.pageKeys(), (QStringList{"advisor", "charts", "prices", "calculators", "cloud"}));
        QCOMPARE(window.currentPageKey(), QStringLiteral("advisor"));
        for (const auto& key : window.pageKeys()) {
            QVERIFY(window.showPage(key));
            QCOMPARE(window.currentPageKey(), key);
        }
        QVERIFY(!window.showPage(QStringLiteral("nowhere")));
        QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+2")));
        QCOMPARE(window.currentPageKey(), QStringLiteral("charts"));
        QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+1")));
        QCOMPARE(window.currentPageKey(), QStringLiteral("advisor"));
        auto* nav = window.findChild<QListWidget*>();
        nav->setFocus();
        QTest::keyClick(nav, Qt::Key_Down);
        QCOMPARE(window.currentPageKey(), QStringLiteral("charts"));
    }

    void remembersItsPageAndSize() {
        {
            ui::Session session;
            ui::MainWindow window(session);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.showPage(QStringLiteral("prices"));
            window.resize(1000, 700); // above the smallest the window allows (about 910 x 500)
            window.close();
        }
        ui::Session session;
        ui::MainWindow again(session);
        QCOMPARE(again.currentPageKey(), QStringLiteral("prices"));
        QCOMPARE(again.size(), QSize(1000, 700));
    }

    void fitsASmallScreenWithEveryPageFilled() {
        // Every page and calculator computed on a real database; the window must still shrink
        // to a 1024 x 700 screen (the Memory tab's one-row legend once held it at 1,352 px).
        ui::Session session;
        session.open(dbPath());
        ui::MainWindow window(session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const auto& key : window.pageKeys()) {
            window.showPage(key);
        }
        for (const char* tab : {"power", "psu", "build", "memory", "cloud"}) {
            QVERIFY(window.calculatorsPage()->showTab(QString::fromLatin1(tab)));
            QCoreApplication::processEvents();
        }
        const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(least.width() <= 1024 && least.height() <= 700,
                 qPrintable(QStringLiteral("%1 x %2").arg(least.width()).arg(least.height())));
        window.resize(1024, 700);
        QCoreApplication::processEvents();
        QCOMPARE(window.size(), QSize(1024, 700));
        // Input columns that never scroll sideways must not cut their fields off on the right.
        const auto verifyNothingCutOff = [&window](const QString& screen) {
            QCoreApplication::processEvents();
            for (auto* scroll : window.findChildren<QScrollArea*>()) {
                if (!scroll->isVisible() || scroll->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff) {
                    continue;
                }
                const int needs = scroll->widget()->minimumSizeHint().width();
                QVERIFY2(needs <= scroll->viewport()->width(),
                         qPrintable(QStringLiteral("%1: inputs need %2 px, shown in %3 px")
                                        .arg(screen)
                                        .arg(needs)
                                        .arg(scroll->viewport()->width())));
            }
        };
        for (const auto& key : window.pageKeys()) {
            window.showPage(key);
            verifyNothingCutOff(key);
        }
        window.showPage(QStringLiteral("calculators"));
        for (const char* tab : {"power", "psu", "build", "memory", "cloud"}) {
            window.calculatorsPage()->showTab(QString::fromLatin1(tab));
            verifyNothingCutOff(QString::fromLatin1(tab));
        }
    }

    void chartsPageShowsTheWholeChartOnASmallScreen() {
        // At 1024 x 700 the options once kept 430 px and the chart scrolled sideways in what
        // was left: the options must narrow and the chart (title, legend, bars) fit its column.
        ui::Session session;
        session.open(dbPath());
        ui::MainWindow window(session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(1024, 700);
        window.showPage(QStringLiteral("charts"));
        auto* page = window.chartsPage();
        auto* fp32 = page->findChild<QCheckBox*>();
        QVERIFY(fp32 != nullptr && fp32->text().contains(QStringLiteral("32-bit")));
        for (const auto kind : {charts::ChartKind::RawPerformance, charts::ChartKind::PerfPerDollar}) {
            for (const bool fourMetrics : {false, true}) {
                page->setKind(kind);
                fp32->setChecked(fourMetrics);
                QCoreApplication::processEvents();
                auto* scroll = qobject_cast<QScrollArea*>(page->plot()->parentWidget()->parentWidget());
                QVERIFY(scroll != nullptr);
                const QString what = QStringLiteral("%1, %2 metrics")
                                         .arg(QString::fromLatin1(charts::toString(kind)))
                                         .arg(fourMetrics ? 4 : 3);
                QVERIFY2(page->plot()->width() >= 480,
                         qPrintable(what + QStringLiteral(": the chart gets only %1 px").arg(page->plot()->width())));
                const int needs = static_cast<QWidget*>(page->plot())->minimumSizeHint().width(); // protected in QCustomPlot
                QVERIFY2(needs <= scroll->viewport()->width(),
                         qPrintable(what + QStringLiteral(": the chart needs %1 px, shown in %2 px")
                                               .arg(needs)
                                               .arg(scroll->viewport()->width())));
            }
        }
        page->setKind(charts::ChartKind::RawPerformance); // the page remembers: later tests expect its defaults
        fp32->setChecked(false);
    }

    void everyAltKeyOnAScreenIsUnique() {
        ui::Session session;
        session.open(dbPath());
        ui::MainWindow window(session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto check = [&window](const QString& screen) {
            QCoreApplication::processEvents();
            const QStringList clashes = testing::clashingMnemonics(&window);
            QVERIFY2(clashes.isEmpty(), qPrintable(screen + QStringLiteral(": ") + clashes.join(QStringLiteral("; "))));
        };
        for (const auto& key : window.pageKeys()) {
            window.showPage(key);
            check(key);
        }
        window.showPage(QStringLiteral("calculators"));
        for (const char* tab : {"power", "psu", "build", "memory", "cloud"}) {
            window.calculatorsPage()->showTab(QString::fromLatin1(tab));
            check(QStringLiteral("calculators/") + QString::fromLatin1(tab));
        }
        window.showPage(QStringLiteral("advisor")); // a recommendation, with its buttons
        window.advisorPage()->setBudget(1500);
        for (const char* a : {"no", "yes", "yes"}) {
            QVERIFY(window.advisorPage()->answer(QString::fromLatin1(a)));
        }
        check(QStringLiteral("advisor result"));
        ui::AddPriceDialog price(session);
        ui::CustomGpuDialog gpu(session);
        ui::AddCloudOfferDialog offer(session);
        ui::RestoreBackupDialog restore(session);
        for (QDialog* dialog : std::initializer_list<QDialog*>{&price, &gpu, &offer, &restore}) {
            dialog->show();
            QCoreApplication::processEvents();
            const QStringList clashes = testing::clashingMnemonics(dialog);
            QVERIFY2(clashes.isEmpty(), qPrintable(dialog->windowTitle() + QStringLiteral(": ") + clashes.join(QStringLiteral("; "))));
            dialog->hide();
        }
    }

    void calculatorInputsSurviveARestartAndReset() {
        const auto pickData = [](QComboBox* box, const QString& data) {
            const int i = box->findData(data);
            QVERIFY2(i >= 0, qPrintable(data));
            box->setCurrentIndex(i);
        };
        {
            ui::Session session;
            session.open(dbPath());
            ui::MainWindow window(session);
            auto* build = window.calculatorsPage()->findChild<ui::BuildTab*>();
            pickData(build->gpuField(), QStringLiteral("rtx-3090"));
            build->countField()->setValue(3);
            pickData(build->extraGpuField(), QStringLiteral("rtx-4090"));
            build->extraCountField()->setValue(2);
            pickData(build->lanesField(), QStringLiteral("4"));
            auto* memory = window.calculatorsPage()->findChild<ui::MemoryTab*>();
            memory->paramsField()->setValue(70);
            pickData(memory->weightsField(), QStringLiteral("int8")); // inference in 8-bit, saved
            pickData(memory->modeField(), QStringLiteral("qlora")); // moves the weights to 4-bit: saved too
            auto* power = window.calculatorsPage()->findChild<ui::PowerLimitTab*>();
            pickData(power->gpuField(), QStringLiteral("rtx-4090")); // moves the limit into its range
            power->limitField()->setValue(320);
            window.calculatorsPage()->showTab(QStringLiteral("memory"));
        }
        ui::Session session;
        session.open(dbPath());
        ui::MainWindow again(session);
        QCOMPARE(again.calculatorsPage()->tabs()->currentWidget()->objectName(), QStringLiteral("memory"));
        auto* build = again.calculatorsPage()->findChild<ui::BuildTab*>();
        QCOMPARE(build->gpuField()->currentData().toString(), QStringLiteral("rtx-3090"));
        QCOMPARE(build->countField()->value(), 3);
        QCOMPARE(build->extraGpuField()->currentData().toString(), QStringLiteral("rtx-4090"));
        QCOMPARE(build->extraCountField()->value(), 2);
        QVERIFY(build->extraCountField()->isEnabled());
        QCOMPARE(build->lanesField()->currentData().toInt(), 4);
        QVERIFY2(build->findingsText().contains(QStringLiteral("slowest")), qPrintable(build->findingsText()));
        auto* memory = again.calculatorsPage()->findChild<ui::MemoryTab*>();
        QCOMPARE(memory->paramsField()->value(), 70.0);
        QCOMPARE(memory->modeField()->currentData().toString(), QStringLiteral("qlora"));
        QCOMPARE(memory->weightsField()->currentData().toString(), QStringLiteral("int4"));
        QVERIFY2(memory->error().isEmpty(), qPrintable(memory->error()));
        auto* power = again.calculatorsPage()->findChild<ui::PowerLimitTab*>();
        QCOMPARE(power->gpuField()->currentData().toString(), QStringLiteral("rtx-4090"));
        QCOMPARE(power->limitField()->value(), 320.0);
        // Reset puts the tab's defaults back, and they are what the next start shows.
        build->resetInputs();
        QCOMPARE(build->gpuField()->currentData().toString(), QStringLiteral("rtx-4090"));
        QCOMPARE(build->countField()->value(), 4);
        QCOMPARE(build->extraGpuField()->currentData().toString(), QString());
        QVERIFY(!build->extraCountField()->isEnabled());
        ui::Session third;
        third.open(dbPath());
        ui::MainWindow fresh(third);
        QCOMPARE(fresh.calculatorsPage()->findChild<ui::BuildTab*>()->countField()->value(), 4);
        QCOMPARE(fresh.calculatorsPage()->findChild<ui::MemoryTab*>()->paramsField()->value(), 70.0); // not reset
        fresh.calculatorsPage()->findChild<ui::MemoryTab*>()->resetInputs();
        fresh.calculatorsPage()->findChild<ui::PowerLimitTab*>()->resetInputs();
    }

    void rememberedInputsSurviveTheDatabaseOpeningAfterTheWindow() {
        // The app builds the window, then opens the database (openDatabaseLater). Opening
        // fills the cloud tab's desktop cost from the prices; the cost the user typed must win.
        {
            ui::Session session;
            session.open(dbPath());
            ui::MainWindow window(session);
            auto* cloud = window.calculatorsPage()->findChild<ui::CloudTab*>();
            cloud->desktopCostField()->setValue(5000);
        }
        ui::Session session;
        ui::MainWindow window(session); // not open yet
        session.open(dbPath());
        auto* cloud = window.calculatorsPage()->findChild<ui::CloudTab*>();
        QCOMPARE(cloud->desktopCostField()->value(), 5000.0);
        QVERIFY2(cloud->resultText().contains(QStringLiteral("Over 5 years: desktop $")), qPrintable(cloud->resultText()));
        // Reset: the cost a tab without remembered inputs fills in from the prices, not 0 or a constant.
        cloud->resetInputs();
        const ui::CloudTab untouched(session);
        QCOMPARE(cloud->desktopCostField()->value(), untouched.desktopCostField()->value());
        QVERIFY(untouched.desktopCostField()->value() != 2200.0); // the field's own start, before the prices
    }

    void keyboardShortcutsHelpListsEveryShortcut() {
        ui::Session session;
        session.open(dbPath());
        ui::MainWindow window(session);
        const QString text = window.shortcutsText();
        // Each page shortcut says what it does, and the help shows it with its keys.
        const auto shortcuts = window.findChildren<QShortcut*>();
        QVERIFY(shortcuts.size() >= 7); // prices: add, delete, import, find; offers: ...; advisor: back, restart
        for (const QShortcut* s : shortcuts) {
            const QString keys = s->key().toString(QKeySequence::NativeText);
            QVERIFY2(!s->whatsThis().isEmpty(), qPrintable(keys + QStringLiteral(" has no description")));
            QVERIFY2(text.contains(QStringLiteral("<b>%1</b></td><td>%2</td>").arg(keys.toHtmlEscaped(), s->whatsThis().toHtmlEscaped())),
                     qPrintable(keys));
        }
        // And so does every menu action with a shortcut (pages, undo, export, quit, this help).
        for (const QAction* a : window.findChildren<QAction*>()) {
            if (!a->shortcut().isEmpty() && a->menu() == nullptr && !a->text().isEmpty()) {
                QVERIFY2(text.contains(QStringLiteral("<b>") + a->shortcut().toString(QKeySequence::NativeText)),
                         qPrintable(a->text()));
            }
        }
        QVERIFY2(text.contains(QStringLiteral("</td><td>Quit</td>")), qPrintable(text)); // a key on every platform
        QVERIFY(text.contains(QStringLiteral("Prices</th>")));
        // Keys a widget handles itself are listed with its page: the chart's arrow keys.
        QVERIFY2(text.contains(QStringLiteral("<b>Up, Down (on the chart)</b></td><td>Previous or next GPU")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Advisor</th>")));
    }

    void chartsWaitForTheDatabaseThenDraw() {
        ui::Session session;
        ui::MainWindow window(session);
        window.show();
        auto* charts = window.chartsPage();
        QVERIFY(charts->data().rows.empty()); // not opened yet: no blocking work before the first paint
        window.openDatabaseLater(dbPath());
        QTRY_VERIFY(session.isOpen());
        QVERIFY(charts->data().rows.size() > 40);
        QVERIFY(charts->plot()->plottableCount() == 3);
    }

    void chartsFollowSettingsAndUndoAtOnce() {
        ui::Session session;
        session.open(dbPath());
        ui::ChartsPage page(session);
        page.setKind(charts::ChartKind::PerfPerDollar);
        const double before = valueOf(page.data(), "rtx-3090");
        QVERIFY(before > 0);
        Settings s = session.settings();
        s.electricityUsdPerKwh = 0.60;
        session.changeSettings(s, QStringLiteral("Change electricity price"));
        const double after = valueOf(page.data(), "rtx-3090");
        QVERIFY(after > 0);
        QVERIFY(std::abs(after - before) > 1e-6);
        QCOMPARE(session.undoStack()->undoText(), QStringLiteral("Change electricity price"));
        session.undoStack()->undo();
        QCOMPARE(valueOf(page.data(), "rtx-3090"), before);
        QCOMPARE(session.settings().electricityUsdPerKwh, 0.175);
        session.undoStack()->redo();
        QCOMPARE(valueOf(page.data(), "rtx-3090"), after);
        session.undoStack()->undo();
    }

    void settingsPanelKeepsEveryValueTheCommandLineAllows() {
        // The panel's fields once stopped short of what `settings set` accepts (15 years,
        // $5/kWh, $50,000, 1,000 W, 1% utilization): one edit in the window silently cut the
        // others down to the field's limits.
        ui::Session session;
        session.open(dbPath());
        Settings wide = session.settings();
        wide.years = 25;
        wide.electricityUsdPerKwh = 8;
        wide.desktopBaseCostUsd = 250000;
        wide.cpuWatts = 1800;
        wide.utilization = 0.155; // shown rounded, as 16%
        wide.gridKgCo2ePerKwh = 1.9;
        session.changeSettings(wide, QStringLiteral("settings set"));
        ui::SettingsPanel panel(session);
        auto* years = panel.findChildren<QDoubleSpinBox*>().at(2);
        QVERIFY(years->suffix().contains(QStringLiteral("years")));
        years->setValue(24); // one edit, as a user makes it
        const Settings after = session.settings();
        QCOMPARE(after.years, 24.0);
        QCOMPARE(after.electricityUsdPerKwh, 8.0);
        QCOMPARE(after.desktopBaseCostUsd, 250000.0);
        QCOMPARE(after.cpuWatts, 1800.0);
        QCOMPARE(after.utilization, 0.155); // not the 0.16 the field shows
        QCOMPARE(after.gridKgCo2ePerKwh, 1.9);
        Settings idle = after;
        idle.utilization = 0; // a spare machine: allowed, and the field goes down to it
        session.changeSettings(idle, QStringLiteral("settings set"));
        years->setValue(23);
        QCOMPARE(session.settings().utilization, 0.0);
        for (int i = 0; i < 4; ++i) {
            session.undoStack()->undo();
        }
    }

    void chartsFilterAndHighlight() {
        ui::Session session;
        session.open(dbPath());
        ui::ChartsPage page(session);
        page.setKind(charts::ChartKind::RawPerformance);
        page.setMinimumMemory(24);
        QVERIFY(!page.data().rows.empty());
        for (const auto& r : page.data().rows) {
            QVERIFY(r.gpu->memoryGb >= 24);
        }
        session.setHighlighted({QStringLiteral("rtx-3090")});
        bool found = false;
        for (const auto& r : page.data().rows) {
            found |= r.highlighted && r.gpu->id == "rtx-3090";
        }
        QVERIFY(found);
        const auto ticks = page.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
        QVERIFY(ticks.values().contains(QStringLiteral("\u2605 RTX 3090")));
        page.setMinimumMemory(0);
    }

    void arrowKeysWalkTheBarsAndSayWhatEachMeans() {
        // What the mouse's hover tells, the keyboard reaches too: arrows move from bar to bar,
        // the bar is outlined, and its text goes to the tooltip, status bar and screen reader.
        ui::Session session;
        session.open(dbPath());
        ui::ChartsPage page(session);
        page.resize(1000, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy status(&page, &ui::ChartsPage::statusMessage);
        auto* plot = page.plot();
        plot->setFocus();
        const auto& data = page.data();
        QVERIFY(data.rows.size() > 10);
        const auto selectedBar = [plot]() -> std::pair<int, int> { // (series, data index) of the outlined bar
            std::pair<int, int> found{-1, -1};
            for (int p = 0; p < plot->plottableCount(); ++p) {
                if (!plot->plottable(p)->selection().isEmpty()) {
                    found = {p, plot->plottable(p)->selection().dataRange().begin()};
                }
            }
            return found;
        };
        QCOMPARE(page.focusedBarText(), QString());
        QTest::keyClick(plot, Qt::Key_Down); // lands on the top GPU, in the measure the chart is sorted by
        const int sorted = 2;                // 16-bit training: the third bar of each GPU
        QCOMPARE(data.metrics[sorted], perf::Metric::Fp16Training);
        QVERIFY2(page.focusedBarText().startsWith(QString::fromStdString(data.rows[0].gpu->name) +
                                                  QStringLiteral("\n16-bit training: ") +
                                                  QString::fromStdString(format::number(*data.rows[0].values[sorted], 3))),
                 qPrintable(page.focusedBarText()));
        QCOMPARE(selectedBar(), std::make_pair(sorted, *ui::BarChartBuilder::barIndex(*plot, 0, sorted)));
        QCOMPARE(status.count(), 1);
        QVERIFY(status.last().at(0).toString().startsWith(QString::fromStdString(data.rows[0].gpu->name) +
                                                          QStringLiteral("; 16-bit training: ")));
        QCOMPARE(plot->accessibleDescription(), page.focusedBarText());
        QTest::keyClick(plot, Qt::Key_Down);
        QTest::keyClick(plot, Qt::Key_Left);
        QVERIFY(page.focusedBarText().startsWith(QString::fromStdString(data.rows[1].gpu->name) +
                                                 QStringLiteral("\n16-bit inference: ")));
        QCOMPARE(selectedBar().first, 1);
        QTest::keyClick(plot, Qt::Key_Up);
        QTest::keyClick(plot, Qt::Key_Up); // stays on the first GPU
        QVERIFY(page.focusedBarText().startsWith(QString::fromStdString(data.rows[0].gpu->name) + QStringLiteral("\n")));
        QTest::keyClick(plot, Qt::Key_End); // the last GPU, scrolled into view
        const auto& lastRow = data.rows.back();
        QVERIFY(page.focusedBarText().startsWith(QString::fromStdString(lastRow.gpu->name) + QStringLiteral("\n")));
        const auto centre = ui::BarChartBuilder::barCentre(*plot, data.rows.size() - 1, 1);
        QVERIFY(centre);
        QWidget* viewport = plot->parentWidget(); // the chart's scroll area's
        const QPoint inView = plot->mapTo(viewport, centre->toPoint());
        QVERIFY2(viewport->rect().contains(inView),
                 qPrintable(QStringLiteral("%1,%2").arg(inView.x()).arg(inView.y())));
        QTest::keyClick(plot, Qt::Key_Escape);
        QCOMPARE(page.focusedBarText(), QString());
        QCOMPARE(selectedBar().first, -1);
        // A changed chart forgets the bar (its rows may be others now).
        QTest::keyClick(plot, Qt::Key_Down);
        QVERIFY(!page.focusedBarText().isEmpty());
        page.setMinimumMemory(24);
        QCOMPARE(page.focusedBarText(), QString());
        page.setMinimumMemory(0);
    }

    void exportsTheChartShown() {
        ui::Session session;
        session.open(dbPath());
        ui::ChartsPage page(session);
        page.resize(1000, 700);
        const QString path = dir_.filePath(QStringLiteral("page.png"));
        page.exportTo(path);
        QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY(image.height() > 1000); // every GPU gets its row
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
