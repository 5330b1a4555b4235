// The Prices page offscreen on a real database: the table model passes Qt's model tester,
// bad edits are refused with a message and change nothing, undo restores, filters work,
// imports run in the background (refused files list every bad row; cancel changes nothing),
// and the add-price and add-GPU dialogs validate through core.
#include "custom_gpu_fill.h"
#include "dialogs/add_price_dialog.h"
#include "dialogs/custom_gpu_dialog.h"
#include "models/price_table_model.h"
#include "pages/prices_page.h"
#include "session.h"
#include "widgets/source_links.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QClipboard>
#include <QGuiApplication>
#include <QtTest>

using namespace advisor;

class PricesPageTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

    QString write(const QString& name, const QByteArray& content) {
        QFile f(dir_.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(content);
        return f.fileName();
    }

    QModelIndex firstIndexOf(ui::PricesPage& page, const char* gpuId, int column) {
        auto* m = page.model();
        for (int r = 0; r < m->rowCount(); ++r) {
            if (m->priceAt(r).gpuId == gpuId) {
                return m->index(r, column);
            }
        }
        return {};
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        session_ = std::make_unique<ui::Session>();
        session_->open(dir_.filePath(QStringLiteral("prices.sqlite")).toStdString());
    }

    void modelPassesQtsModelTester() {
        ui::PricesPage page(*session_);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.model()->rowCount(), static_cast<int>(session_->db().priceCount()));
        page.setFilterText(QStringLiteral("2080"));
        page.proxy()->sort(ui::PriceTableModel::AmountColumn, Qt::DescendingOrder);
        session_->notifyPricesChanged(); // a reset under the testers
    }

    void shortColumnsLeaveTheSourceInSightOnASmallScreen() {
        // Condition, price, currency and date took 100 px each, and at 1,024 px the Source
        // column scrolled out of sight.
        ui::PricesPage page(*session_);
        page.resize(890, 650); // what a 1,024 px window leaves the page
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTableView* view = page.view();
        using M = ui::PriceTableModel;
        for (const int c : {M::ConditionColumn, M::AmountColumn, M::CurrencyColumn, M::DateColumn}) {
            QVERIFY2(view->columnWidth(c) >= view->horizontalHeader()->sectionSizeHint(c), qPrintable(QString::number(c)));
            QVERIFY2(view->columnWidth(c) < 100, qPrintable(QString::number(view->columnWidth(c))));
        }
        QVERIFY(view->columnWidth(M::DateColumn) >= view->fontMetrics().horizontalAdvance(QStringLiteral("2025-08-21")));
        const int sourceEnd = view->columnViewportPosition(M::SourceColumn) + view->columnWidth(M::SourceColumn);
        QVERIFY2(sourceEnd <= view->viewport()->width(),
                 qPrintable(QStringLiteral("Source ends at %1 of %2 px").arg(sourceEnd).arg(view->viewport()->width())));
    }

    void aPricesSourceAddressIsCopiedFromItsRow() {
        ui::PricesPage page(*session_);
        const QModelIndex amount = firstIndexOf(page, "rtx-4090", ui::PriceTableModel::AmountColumn);
        page.view()->setCurrentIndex(page.proxy()->mapFromSource(amount));
        const QString url = QString::fromStdString(page.model()->priceAt(amount.row()).sourceUrl);
        QVERIFY(url.startsWith(QStringLiteral("https://")));
        QCOMPARE(page.currentSourceUrl(), url);
        QGuiApplication::clipboard()->clear();
        QVERIFY(page.copyCurrentSourceLink());
        QCOMPARE(QGuiApplication::clipboard()->text(), url);
        QVERIFY(!ui::copySourceLink(QStringLiteral("  "))); // nothing to copy: the clipboard is kept
        QCOMPARE(QGuiApplication::clipboard()->text(), url);
        QCOMPARE(page.view()->contextMenuPolicy(), Qt::CustomContextMenu);
    }

    void columnsSortByTheirValues() {
        // Compared in place (not through built strings): prices as numbers, dates as dates,
        // text ignoring case.
        ui::PricesPage page(*session_);
        QSortFilterProxyModel* proxy = page.proxy();
        const auto verifySorted = [&](int column, Qt::SortOrder order, const auto& key) {
            proxy->sort(column, order);
            QVERIFY(proxy->rowCount() > 50);
            for (int r = 1; r < proxy->rowCount(); ++r) {
                const Price& a = page.model()->priceAt(proxy->mapToSource(proxy->index(r - 1, 0)).row());
                const Price& b = page.model()->priceAt(proxy->mapToSource(proxy->index(r, 0)).row());
                QVERIFY2(order == Qt::AscendingOrder ? !(key(b) < key(a)) : !(key(a) < key(b)),
                         qPrintable(QStringLiteral("column %1, rows %2 and %3").arg(column).arg(r - 1).arg(r)));
            }
        };
        verifySorted(ui::PriceTableModel::AmountColumn, Qt::DescendingOrder, [](const Price& p) { return p.amount; });
        verifySorted(ui::PriceTableModel::DateColumn, Qt::AscendingOrder, [](const Price& p) { return p.observed; });
        verifySorted(ui::PriceTableModel::GpuColumn, Qt::AscendingOrder,
                     [](const Price& p) { return QString::fromStdString(p.gpuName).toLower(); });
        verifySorted(ui::PriceTableModel::SourceColumn, Qt::DescendingOrder,
                     [](const Price& p) { return QString::fromStdString(p.source).toLower(); });
    }

    void badEditIsRefusedWithAMessageAndChangesNothing() {
        ui::PricesPage page(*session_);
        const QModelIndex amount = firstIndexOf(page, "rtx-4090", ui::PriceTableModel::AmountColumn);
        QVERIFY(amount.isValid());
        const auto id = page.model()->priceAt(amount.row()).id;
        const Price before = *session_->db().price(id);
        QSignalSpy rejected(page.model(), &ui::PriceTableModel::editRejected);
        const int undoSteps = session_->undoStack()->count();
        QVERIFY(!page.model()->setData(amount, QStringLiteral("-5")));
        QCOMPARE(rejected.count(), 1);
        QVERIFY2(rejected.at(0).at(1).toString().startsWith(QStringLiteral("Price: ")),
                 qPrintable(rejected.at(0).at(1).toString()));
        QVERIFY(page.message().startsWith(QStringLiteral("Not changed - Price: ")));
        QVERIFY(session_->db().price(id)->sameObservation(before));
        QCOMPARE(session_->undoStack()->count(), undoSteps);
        // The same through the real editor: type a date that does not exist, press Enter.
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QModelIndex date = page.proxy()->mapFromSource(page.model()->index(amount.row(), ui::PriceTableModel::DateColumn));
        page.view()->setCurrentIndex(date);
        page.view()->edit(date);
        auto* editor = qobject_cast<QLineEdit*>(page.view()->indexWidget(date));
        if (editor == nullptr) {
            editor = page.view()->viewport()->findChild<QLineEdit*>();
        }
        QVERIFY(editor);
        QCOMPARE(editor->text(), QString::fromStdString(before.observed.toString()));
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("2023-13-45"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(rejected.count(), 2); // the delegate commits on the next event loop turn
        QVERIFY2(rejected.at(1).at(1).toString().startsWith(QStringLiteral("Date: is not a date")), qPrintable(rejected.at(1).at(1).toString()));
        QVERIFY(session_->db().price(id)->sameObservation(before));
    }

    void goodEditIsSavedAndUndoRestoresIt() {
        ui::PricesPage page(*session_);
        const QModelIndex amount = firstIndexOf(page, "rtx-3090", ui::PriceTableModel::AmountColumn);
        const auto id = page.model()->priceAt(amount.row()).id;
        const double old = session_->db().price(id)->amount;
        QVERIFY(page.model()->setData(amount, QStringLiteral("1234.5")));
        QCOMPARE(session_->db().price(id)->amount, 1234.5);
        QCOMPARE(page.model()->data(page.model()->index(page.model()->rowOf(id), ui::PriceTableModel::AmountColumn),
                                    Qt::EditRole).toString(),
                 QStringLiteral("1234.5"));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Edit price of RTX 3090"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().price(id)->amount, old);
        session_->undoStack()->redo();
        QCOMPARE(session_->db().price(id)->amount, 1234.5);
        session_->undoStack()->undo();
    }

    void deleteAndUndoRestoreTheSameRows() {
        ui::PricesPage page(*session_);
        const size_t count = session_->db().priceCount();
        page.setFilterText(QStringLiteral("RTX 2080 Ti"));
        QVERIFY(page.proxy()->rowCount() >= 2);
        for (int r = 0; r < page.proxy()->rowCount(); ++r) {
            QCOMPARE(page.proxy()->index(r, 0).data().toString(), QStringLiteral("RTX 2080 Ti"));
        }
        const int shown = page.proxy()->rowCount();
        page.view()->selectAll();
        page.deleteSelected();
        QCOMPARE(session_->db().priceCount(), count - static_cast<size_t>(shown));
        QCOMPARE(page.proxy()->rowCount(), 0);
        session_->undoStack()->undo();
        QCOMPARE(session_->db().priceCount(), count);
        QCOMPARE(page.proxy()->rowCount(), shown);
        // One row: "1 price", not "1 prices", in the status bar and the Edit menu.
        QSignalSpy status(&page, &ui::PricesPage::statusMessage);
        page.view()->clearSelection();
        page.view()->selectRow(0);
        page.deleteSelected();
        QCOMPARE(session_->db().priceCount(), count - 1);
        QVERIFY(!status.isEmpty());
        QCOMPARE(status.last().at(0).toString(), QStringLiteral("Deleted 1 price (Ctrl+Z to undo)"));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Delete price"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().priceCount(), count);
    }

    void refusedImportListsEveryBadRowAndChangesNothing() {
        ui::PricesPage page(*session_);
        const size_t count = session_->db().priceCount();
        const QString file = write(QStringLiteral("bad.csv"),
                                   "gpu,condition,price,currency,date,source\n"
                                   "RTX 4090,new,1599,USD,2024-01,shop\n"
                                   "RTX 9999,new,100,USD,2024-01,shop\n"
                                   "RTX 3090,old,700,USD,2024-01,shop\n"
                                   "RTX 3090,used,-1,USD,2024-01,shop\n");
        QSignalSpy done(&page, &ui::PricesPage::importFinished);
        page.importFile(file, true);
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QCOMPARE(page.lastImportProblems().size(), 3);
        QVERIFY2(page.lastImportProblems().at(0).contains(QStringLiteral("bad.csv:3")), qPrintable(page.lastImportProblems().at(0)));
        QVERIFY(page.lastImportProblems().at(1).contains(QStringLiteral("bad.csv:4")));
        QVERIFY(page.lastImportProblems().at(2).contains(QStringLiteral("bad.csv:5")));
        QCOMPARE(session_->db().priceCount(), count);
        QVERIFY(page.message().contains(QStringLiteral("3 problems; nothing was changed")));
    }

    void importAddsInTheBackgroundAndUndoRemoves() {
        ui::PricesPage page(*session_);
        const size_t count = session_->db().priceCount();
        const QString file = write(QStringLiteral("good.csv"),
                                   "gpu,condition,price,currency,date,source\n"
                                   "RTX 4090,used,1450,USD,2026-10,forum\n"
                                   "RTX 5090,new,2499,USD,2026-11-01,shop\n");
        QSignalSpy done(&page, &ui::PricesPage::importFinished);
        page.importFile(file, true);
        QVERIFY(done.wait(10000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        QCOMPARE(session_->db().priceCount(), count + 2);
        QCOMPARE(page.model()->rowCount(), static_cast<int>(count + 2));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Import 2 prices from good.csv"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().priceCount(), count);
        session_->undoStack()->redo();
        QCOMPARE(session_->db().priceCount(), count + 2);
        session_->undoStack()->undo();
    }

    void theShippedPricesComeBackAsOneUndoableStep() {
        // A database an older version seeded lacks the rows shipped since: here, two removed.
        ui::PricesPage page(*session_);
        const size_t count = session_->db().priceCount();
        std::vector<std::int64_t> shipped;
        for (const auto& p : session_->db().prices()) {
            if (p.gpuId == "rtx-3070-ti") {
                shipped.push_back(p.id);
            }
        }
        QCOMPARE(shipped.size(), size_t{2}); // used and new, added with the card in this version
        session_->db().removePrices(shipped);
        page.addShippedPrices();
        QCOMPARE(session_->db().priceCount(), count);
        QVERIFY2(page.message().startsWith(QStringLiteral("Added 2 prices this version ships")),
                 qPrintable(page.message()));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Import 2 prices from this version's prices"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().priceCount(), count - 2);
        session_->undoStack()->redo();
        QCOMPARE(session_->db().priceCount(), count);
        page.addShippedPrices(); // nothing left to add: said, and no undo step
        QCOMPARE(session_->db().priceCount(), count);
        QVERIFY2(page.message().startsWith(QStringLiteral("Your database already holds every price")),
                 qPrintable(page.message()));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Import 2 prices from this version's prices"));
    }

    void cancelledImportChangesNothing() {
        ui::PricesPage page(*session_);
        const size_t count = session_->db().priceCount();
        QByteArray big = "gpu,condition,price,currency,date,source\n";
        for (int i = 0; i < 50000; ++i) {
            big += "RTX 3090,used," + QByteArray::number(500 + i % 400) + ",USD,2024-0" + QByteArray::number(1 + i % 9) +
                   ",row " + QByteArray::number(i) + "\n";
        }
        const QString file = write(QStringLiteral("big.csv"), big);
        QSignalSpy done(&page, &ui::PricesPage::importFinished);
        page.importFile(file, true);
        page.addShippedPrices(); // not while an import writes: said
        QCOMPARE(page.message(), QStringLiteral("An import is running; add the shipped prices when it has finished"));
        page.cancelImport();
        QVERIFY(done.wait(30000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QVERIFY(done.at(0).at(1).toString().contains(QStringLiteral("cancelled; nothing was changed")));
        QCOMPARE(session_->db().priceCount(), count);
    }

    void addPriceDialogValidatesThroughCore() {
        ui::AddPriceDialog dialog(*session_, QStringLiteral("RTX 4090"));
        dialog.amountField()->setText(QStringLiteral("twelve"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected)); // still open
        QVERIFY2(dialog.error().startsWith(QStringLiteral("Price: ")), qPrintable(dialog.error()));
        QCOMPARE(dialog.focusWidget(), static_cast<QWidget*>(dialog.amountField()));
        dialog.amountField()->setText(QStringLiteral("1499"));
        dialog.dateField()->setText(QStringLiteral("last tuesday"));
        dialog.accept();
        QVERIFY2(dialog.error().startsWith(QStringLiteral("Date seen: is not a date")), qPrintable(dialog.error()));
        QCOMPARE(dialog.focusWidget(), static_cast<QWidget*>(dialog.dateField())); // the cursor moved there
        dialog.dateField()->setText(QStringLiteral("2026-11"));
        const size_t count = session_->db().priceCount();
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(session_->db().priceCount(), count + 1);
        QCOMPARE(session_->db().price(dialog.addedId())->amount, 1499.0);
        session_->undoStack()->undo();
        QCOMPARE(session_->db().priceCount(), count);
    }

    void customGpuDialogValidatesAndUndoRemovesTheGpu() {
        ui::CustomGpuDialog dialog(*session_);
        dialog.nameField()->setText(QStringLiteral("Test Accelerator X"));
        dialog.accept(); // architecture, memory, bandwidth and power missing: core names the first
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        // The refused field is named as the form labels it, and the cursor goes there.
        QCOMPARE(dialog.error(), QStringLiteral("Architecture: must not be empty"));
        QCOMPARE(dialog.focusWidget(), dialog.architectureField());
        dialog.architectureField()->setText(QStringLiteral("Blackwell"));
        dialog.accept();
        QVERIFY2(dialog.error().startsWith(QStringLiteral("Memory: ")), qPrintable(dialog.error()));
        QCOMPARE(dialog.focusWidget(), static_cast<QWidget*>(dialog.memoryField()));
        QVERIFY(!session_->catalog().findById("custom-test-accelerator-x"));
        testing::fillCustomGpuSize(dialog, 32, 1500, 400);
        dialog.accept();
        QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.error()));
        QCOMPARE(QString::fromStdString(dialog.addedId()), QStringLiteral("custom-test-accelerator-x"));
        QVERIFY(session_->catalog().findById("custom-test-accelerator-x"));
        QVERIFY(session_->model().throughput(*session_->catalog().findById("custom-test-accelerator-x"), {}) > 0);
        session_->undoStack()->undo();
        QVERIFY(!session_->catalog().findById("custom-test-accelerator-x"));
    }
};

QTEST_MAIN(PricesPageTest)
#include "prices_page_test.moc"
