// The real window, offscreen: pages open and switch (also by keyboard), the window remembers
// its page, size, inputs and walk, fits a small screen, and its keys are unique and listed.
// The Charts page's own tests are in charts_page_test.cpp.
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
#include "private_session.h"
#include "session.h"

#include <qcustomplot.h>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QScrollArea>
#include <QShortcut>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <functional>

using namespace advisor;

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::string dbPath() const { return dir_.filePath(QStringLiteral("prices.sqlite")).toStdString(); }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("gpu-advisor-test"));
        QCoreApplication::setApplicationName(QStringLiteral("ui-window-test"));
        testing::usePrivateSettings(dir_);
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

    void theTitleNamesTheOpenDatabaseAndPriceFilesWaitForIt() {
        ui::Session session;
        ui::MainWindow window(session);
        QCOMPARE(window.windowTitle(), QStringLiteral("GPU Advisor")); // before the database opens
        // File > Import/Export Prices work on the database, so they wait for it.
        QList<QAction*> priceFiles;
        for (QAction* a : window.menuBar()->actions().front()->menu()->actions()) {
            if (a->text().contains(QStringLiteral("Prices…")) || a->text() == QStringLiteral("Add &Shipped Prices")) {
                priceFiles << a;
            }
        }
        QCOMPARE(priceFiles.size(), 3); // Import, Add Shipped, Export
        for (QAction* a : priceFiles) {
            QVERIFY(!a->isEnabled());
        }
        session.open(dbPath());
        for (QAction* a : priceFiles) {
            QVERIFY(a->isEnabled());
        }
        QCOMPARE(window.windowTitle(), QStringLiteral("prices.sqlite - GPU Advisor"));
        QCOMPARE(window.windowFilePath(), QString::fromStdString(dbPath()));
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
        // The page list shows each title whole and takes no more: it once took 170 px for
        // titles of 80, and the Cloud offers table lost its Region and Date columns to it.
        auto* nav = window.findChild<QListWidget*>();
        int widestTitle = 0;
        for (int i = 0; i < nav->count(); ++i) {
            const int title = nav->fontMetrics().horizontalAdvance(nav->item(i)->text());
            QVERIFY2(nav->visualItemRect(nav->item(i)).width() >= title, qPrintable(nav->item(i)->text()));
            widestTitle = std::max(widestTitle, title);
        }
        QVERIFY2(nav->width() <= widestTitle + 40, qPrintable(QStringLiteral("%1 px for titles of %2").arg(nav->width()).arg(widestTitle)));
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
        const auto forEveryScreen = [&window](const std::function<void(const QString&)>& verify) {
            for (const auto& key : window.pageKeys()) {
                window.showPage(key);
                verify(key);
            }
            window.showPage(QStringLiteral("calculators"));
            for (const char* tab : {"power", "psu", "build", "memory", "cloud"}) {
                window.calculatorsPage()->showTab(QString::fromLatin1(tab));
                verify(QString::fromLatin1(tab));
            }
        };
        forEveryScreen(verifyNothingCutOff);
        // At the smallest size no field is squeezed below its height: inputs scroll instead
        // (the Prices page's settings were cut to half their height).
        window.resize(least);
        forEveryScreen([&window](const QString& screen) {
            QCoreApplication::processEvents();
            for (QWidget* field : window.findChildren<QWidget*>()) {
                if (!field->isVisible() || (!qobject_cast<QAbstractSpinBox*>(field) && !qobject_cast<QComboBox*>(field))) {
                    continue;
                }
                QVERIFY2(field->height() >= field->minimumSizeHint().height(),
                         qPrintable(QStringLiteral("%1: a field %2 px tall, needs %3")
                                        .arg(screen)
                                        .arg(field->height())
                                        .arg(field->minimumSizeHint().height())));
            }
        });
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

};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
