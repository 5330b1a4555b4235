// The Cloud offers page offscreen on a real database: the shipped offers are listed and
// searchable; an offer added through the dialog (refusals named as the form labels them)
// reaches the database and the Cloud vs desktop calculator; deleting and undo restore the
// same offers under the same ids; a file's offers are imported as one undoable step (a bad file
// changes nothing and lists its rows) and the offers shown are exported.
#include "dialogs/add_cloud_offer_dialog.h"
#include "pages/calculators/cloud_tab.h"
#include "pages/cloud_offers_page.h"
#include "common/file_io.h"
#include "prices/cloud_offer_io.h"
#include "private_session.h"
#include "session.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QClipboard>
#include <QGuiApplication>
#include <QtTest>

#include <set>

using namespace advisor;

class CloudOffersPageTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

    static bool comboHas(QComboBox* box, const QString& part) {
        for (int i = 0; i < box->count(); ++i) {
            if (box->itemText(i).contains(part)) {
                return true;
            }
        }
        return false;
    }

private slots:
    void initTestCase() {
        session_ = testing::openPrivateSession(dir_); // the page remembers a filter: not in the user's settings
    }

    void listsTheShippedOffersAndSearches() {
        ui::CloudOffersPage page(*session_);
        const auto stored = session_->db().cloudOffers();
        QCOMPARE(page.table()->rowCount(), static_cast<int>(stored.size()));
        QVERIFY(page.table()->rowHeight(0) <= page.table()->fontMetrics().height() + 10); // one text line per row
        QVERIFY(stored.size() >= 190);
        page.searchField()->setText(QStringLiteral("h100 sxm"));
        const auto shown = page.shownIds();
        QVERIFY(!shown.empty());
        QVERIFY(shown.size() < stored.size());
        for (const auto id : shown) {
            QVERIFY(QString::fromStdString(session_->db().cloudOffer(id)->gpuName).contains(QStringLiteral("H100 SXM"),
                                                                                              Qt::CaseInsensitive));
        }
        // Money sorts as a number: the cheapest per hour first.
        page.searchField()->clear();
        page.table()->sortByColumn(4, Qt::AscendingOrder);
        const auto ids = page.shownIds();
        double previous = 0;
        for (const auto id : ids) {
            const double hourly = session_->db().cloudOffer(id)->onDemandUsdPerHour;
            QVERIFY2(hourly >= previous, qPrintable(QString::number(hourly)));
            previous = hourly;
        }
    }

    void eachOffersDateIsInSightAtTheWidthOfASmallScreen() {
        // Long provider and instance names (up to 180 px each) pushed the Date column out of
        // sight at 1,024 px, behind the Region; without it an old price looked current.
        ui::CloudOffersPage page(*session_);
        page.resize(890, 600); // what a 1,024 px window leaves the page
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTableWidget* table = page.table();
        int date = -1;
        for (int c = 0; c < table->columnCount(); ++c) {
            if (table->horizontalHeaderItem(c)->text() == QStringLiteral("Date")) {
                date = c;
            }
        }
        QVERIFY(date >= 0);
        const int right = table->columnViewportPosition(date) + table->columnWidth(date);
        QVERIFY2(right <= table->viewport()->width(),
                 qPrintable(QStringLiteral("the Date column ends at %1 px of %2").arg(right).arg(table->viewport()->width())));
        // A cut-off name is whole in its tooltip.
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(table->item(row, 1)->toolTip(), table->item(row, 1)->text());
        }
    }

    void anOffersSourceAddressIsCopiedFromItsRow() {
        ui::CloudOffersPage page(*session_);
        page.table()->setCurrentCell(0, 0);
        const QString url = QString::fromStdString(session_->db().cloudOffer(page.shownIds().front())->sourceUrl);
        QVERIFY(url.startsWith(QStringLiteral("https://")));
        QVERIFY(page.copyCurrentSourceLink());
        QCOMPARE(QGuiApplication::clipboard()->text(), url);
    }

    void newestOnlyHidesOlderObservationsOfTheSameOffer() {
        ui::CloudOffersPage page(*session_);
        const auto stored = session_->db().cloudOffers();
        const auto current = currentOffers(stored);
        QVERIFY(current.size() < stored.size()); // the shipped history repeats some offers
        QVERIFY(!page.newestOnlyField()->isChecked()); // the whole history by default
        QCOMPARE(page.shownIds().size(), stored.size());
        page.newestOnlyField()->setChecked(true);
        std::set<std::int64_t> expected;
        for (const auto& o : current) {
            expected.insert(o.id);
        }
        const auto shown = page.shownIds();
        QCOMPARE(std::set<std::int64_t>(shown.begin(), shown.end()), expected);
        // With a search: both filters apply.
        page.searchField()->setText(QStringLiteral("p5en"));
        for (const auto id : page.shownIds()) {
            QVERIFY(expected.count(id) == 1);
            QVERIFY(QString::fromStdString(session_->db().cloudOffer(id)->instance).contains(QStringLiteral("p5en")));
        }
        QVERIFY(!page.shownIds().empty());
        page.searchField()->clear();
        {
            ui::CloudOffersPage again(*session_); // the choice outlives the page (and the app)
            QVERIFY(again.newestOnlyField()->isChecked());
            QCOMPARE(again.shownIds().size(), current.size());
        }
        page.newestOnlyField()->setChecked(false);
        QCOMPARE(page.shownIds().size(), stored.size());
        QVERIFY(!ui::CloudOffersPage(*session_).newestOnlyField()->isChecked());
    }

    void datesTheRecommenderPassesOverAreDimmedAndSaySo() {
        ui::CloudOffersPage page(*session_);
        QTableWidget* table = page.table();
        const int date = 7; // before Region, so that it stays in sight
        QCOMPARE(table->horizontalHeaderItem(date)->text(), QStringLiteral("Date"));
        const auto stored = session_->db().cloudOffers();
        std::set<std::int64_t> current;
        for (const auto& o : currentOffers(stored)) {
            current.insert(o.id);
        }
        const Date newest = newestObservation(stored);
        int old = 0, history = 0, fresh = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const auto offer = session_->db().cloudOffer(table->item(row, 0)->data(Qt::UserRole).toLongLong());
            QVERIFY(offer);
            const QString tip = table->item(row, date)->toolTip();
            if (current.count(offer->id) == 0) {
                ++history;
                QCOMPARE(tip, QStringLiteral("an earlier observation: a newer one of this offer is listed"));
            } else if (isOverAYearBefore(offer->observed, newest)) {
                ++old;
                QVERIFY2(tip.startsWith(QStringLiteral("the offer was last seen ") + QString::fromStdString(offer->observed.toString())),
                         qPrintable(tip));
            } else {
                ++fresh;
                QVERIFY2(tip.isEmpty(), qPrintable(tip));
                QCOMPARE(table->item(row, date)->foreground().color(), table->item(row, 0)->foreground().color());
                continue;
            }
            QCOMPARE(table->item(row, date)->foreground().color(), table->palette().color(QPalette::PlaceholderText));
        }
        QVERIFY(old > 0 && history > 0 && fresh > 0); // the shipped offers have all three
    }

    void addThroughTheDialogReachesTheCalculatorAndUndoRemovesIt() {
        ui::CloudOffersPage page(*session_);
        ui::CloudTab calculator(*session_);
        const size_t before = session_->db().cloudOffers().size();
        ui::AddCloudOfferDialog dialog(*session_);
        dialog.providerField()->setText(QStringLiteral("My Cloud"));
        dialog.gpuField()->setCurrentText(QStringLiteral("RTX 4090"));
        dialog.gpuCountField()->setValue(2);
        dialog.hourlyField()->setText(QStringLiteral("-1"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected)); // stays open
        QVERIFY2(dialog.error().startsWith(QStringLiteral("Price per hour: ")), qPrintable(dialog.error()));
        QCOMPARE(dialog.focusWidget(), static_cast<QWidget*>(dialog.hourlyField()));
        QCOMPARE(session_->db().cloudOffers().size(), before);
        dialog.hourlyField()->setText(QStringLiteral("0.70"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const auto offer = session_->db().cloudOffer(dialog.addedId());
        QVERIFY(offer.has_value());
        QCOMPARE(offer->gpuId, std::optional<std::string>("rtx-4090"));
        QCOMPARE(offer->gpuCount, 2);
        QCOMPARE(page.table()->rowCount(), static_cast<int>(before + 1));
        QVERIFY(comboHas(calculator.offerField(), QStringLiteral("My Cloud")));
        session_->undoStack()->undo();
        QVERIFY(!session_->db().cloudOffer(dialog.addedId()));
        QVERIFY(!comboHas(calculator.offerField(), QStringLiteral("My Cloud")));
        session_->undoStack()->redo();
        QCOMPARE(session_->db().cloudOffer(dialog.addedId())->provider, std::string("My Cloud")); // same id
        session_->undoStack()->undo();
    }

    void anOfferIsCorrectedInPlaceOrGetsANewerObservation() {
        ui::CloudOffersPage page(*session_);
        ui::CloudTab calculator(*session_);
        const auto id = session_->db().addCloudOffer(
            CloudOfferInput{"Edit Cloud", "e-8", "H100 SXM", "8", "", "40", "", "eu", "2026-09-01", "", "first"});
        const size_t before = session_->db().cloudOffers().size();
        {
            ui::AddCloudOfferDialog dialog(*session_);
            dialog.editOffer(*session_->db().cloudOffer(id));
            QCOMPARE(dialog.providerField()->text(), QStringLiteral("Edit Cloud"));
            QCOMPARE(dialog.gpuCountField()->value(), 8);
            QCOMPARE(dialog.hourlyField()->text(), QStringLiteral("40"));
            dialog.hourlyField()->setText(QStringLiteral("30.5")); // a typo corrected
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QCOMPARE(dialog.addedId(), id);
        }
        QCOMPARE(session_->db().cloudOffers().size(), before); // in place
        QCOMPARE(session_->db().cloudOffer(id)->onDemandUsdPerHour, 30.5);
        QCOMPARE(session_->db().cloudOffer(id)->note, std::string("first"));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Edit cloud offer Edit Cloud H100 SXM"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().cloudOffer(id)->onDemandUsdPerHour, 40.0);
        session_->undoStack()->redo();
        QCOMPARE(session_->db().cloudOffer(id)->onDemandUsdPerHour, 30.5);

        // A newer price: the old observation stays as history; the same date is refused.
        ui::AddCloudOfferDialog dialog(*session_);
        dialog.editOffer(*session_->db().cloudOffer(id));
        dialog.hourlyField()->setText(QStringLiteral("28"));
        dialog.saveAsNewObservation();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(dialog.error(), QStringLiteral("Date seen: a new observation needs a later date than the offer's "
                                                "(2026-09-01)"));
        QCOMPARE(session_->db().cloudOffers().size(), before);
        auto* date = dialog.findChildren<QLineEdit*>().at(0);
        for (auto* field : dialog.findChildren<QLineEdit*>()) {
            date = field->text() == QStringLiteral("2026-09-01") ? field : date;
        }
        date->setText(QStringLiteral("2026-11-01"));
        dialog.saveAsNewObservation();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.addedId() != id);
        QCOMPARE(session_->db().cloudOffers().size(), before + 1);
        QCOMPARE(session_->db().cloudOffer(id)->onDemandUsdPerHour, 30.5); // history kept
        const auto newer = session_->db().cloudOffer(dialog.addedId());
        QCOMPARE(newer->onDemandUsdPerHour, 28.0);
        QCOMPARE(newer->instance, std::string("e-8"));
        std::set<std::int64_t> current;
        for (const auto& o : currentOffers(session_->db().cloudOffers())) {
            current.insert(o.id);
        }
        QVERIFY(current.count(dialog.addedId()) == 1 && current.count(id) == 0); // the newer price is today's
        session_->undoStack()->undo();
        QCOMPARE(session_->db().cloudOffers().size(), before);
        session_->db().removeCloudOffer(id);
        session_->undoStack()->clear();
    }

    void editingWithoutAnOfferChosenSaysSo() {
        ui::CloudOffersPage page(*session_);
        QSignalSpy status(&page, &ui::CloudOffersPage::statusMessage);
        page.table()->setCurrentCell(-1, -1);
        page.editCurrentWithDialog();
        QCOMPARE(status.last().at(0).toString(), QStringLiteral("Choose an offer to edit first"));
    }

    void deleteSelectedAndUndoRestoresTheSameOffers() {
        ui::CloudOffersPage page(*session_);
        QSignalSpy status(&page, &ui::CloudOffersPage::statusMessage);
        page.deleteSelected(); // nothing selected: says so, deletes nothing
        QCOMPARE(status.last().at(0).toString(), QStringLiteral("Select the offers to delete first"));
        page.searchField()->setText(QStringLiteral("Lambda"));
        const auto shown = page.shownIds();
        QVERIFY(shown.size() >= 2);
        const size_t before = session_->db().cloudOffers().size();
        page.table()->selectAll(); // hidden rows are not deleted
        page.deleteSelected();
        QCOMPARE(session_->db().cloudOffers().size(), before - shown.size());
        QCOMPARE(status.last().at(0).toString(),
                 QStringLiteral("Deleted %1 cloud offers (Ctrl+Z to undo)").arg(shown.size()));
        QVERIFY(page.shownIds().empty());
        session_->undoStack()->undo();
        QCOMPARE(session_->db().cloudOffers().size(), before);
        for (const auto id : shown) {
            QVERIFY(session_->db().cloudOffer(id).has_value());
        }
        QCOMPARE(page.shownIds().size(), shown.size());
    }

    void importAddsAFilesOffersAsOneStepThatUndoTakesOut() {
        ui::CloudOffersPage page(*session_);
        ui::CloudTab calculator(*session_);
        QSignalSpy status(&page, &ui::CloudOffersPage::statusMessage);
        const size_t before = session_->db().cloudOffers().size();
        const QString file = dir_.filePath(QStringLiteral("mine.csv"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("provider,instance,gpu,gpus,hourly,date\n"
                    "Import Cloud,a-1,L4,1,0.55,2026-11-01\n"
                    "Import Cloud,b-8,H100 SXM,8,17.5,2026-11-01\n");
        }
        QVERIFY(page.importFile(file, true));
        QCOMPARE(session_->db().cloudOffers().size(), before + 2);
        QCOMPARE(page.table()->rowCount(), static_cast<int>(before + 2));
        QVERIFY(comboHas(calculator.offerField(), QStringLiteral("Import Cloud")));
        QCOMPARE(status.last().at(0).toString(),
                 QStringLiteral("Imported 2 cloud offers from mine.csv (0 already known, skipped)"));
        QCOMPARE(session_->undoStack()->undoText(), QStringLiteral("Import 2 cloud offers from mine.csv"));
        QVERIFY(page.importFile(file, true)); // again: nothing new, and no empty step to undo
        QCOMPARE(session_->db().cloudOffers().size(), before + 2);
        QCOMPARE(status.last().at(0).toString(),
                 QStringLiteral("Imported 0 cloud offers from mine.csv (2 already known, skipped)"));
        session_->undoStack()->undo();
        QCOMPARE(session_->db().cloudOffers().size(), before);
        QVERIFY(!comboHas(calculator.offerField(), QStringLiteral("Import Cloud")));
        session_->undoStack()->redo();
        QCOMPARE(session_->db().cloudOffers().size(), before + 2);
        session_->undoStack()->undo();
    }

    void aBadFileIsRefusedRowByRowAndChangesNothing() {
        ui::CloudOffersPage page(*session_);
        const size_t before = session_->db().cloudOffers().size();
        const QString file = dir_.filePath(QStringLiteral("bad.json"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"offers\": [\n"
                    "  {\"provider\": \"Good\", \"gpu\": \"L4\", \"hourly\": 0.5},\n"
                    "  {\"provider\": \"Bad\", \"gpu\": \"L4\", \"hourly\": -2}\n"
                    "]}\n");
        }
        QVERIFY(!page.importFile(file, true));
        QCOMPARE(page.lastImportProblems(),
                 QStringList{file + QStringLiteral(":3: offers[1]: field 'hourly': must be more than 0 and at most "
                                                   "10,000 USD per hour, got '-2'")});
        QCOMPARE(session_->db().cloudOffers().size(), before);
        QVERIFY(!page.importFile(dir_.filePath(QStringLiteral("offers.xlsx")), true));
        QCOMPARE(page.lastImportProblems().size(), 1);
        QVERIFY2(page.lastImportProblems().front().endsWith(QStringLiteral("unsupported file type '.xlsx'; use .csv or .json")),
                 qPrintable(page.lastImportProblems().front()));
    }

    void exportWritesTheOffersShownInTableOrder() {
        ui::CloudOffersPage page(*session_);
        page.searchField()->setText(QStringLiteral("Lambda"));
        const auto shown = page.shownIds();
        QVERIFY(shown.size() >= 2);
        const QString file = dir_.filePath(QStringLiteral("lambda.json"));
        page.exportFile(file);
        const auto rows = offerio::parseFile(file.toStdString());
        QCOMPARE(rows.size(), shown.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto stored = session_->db().cloudOffer(shown[i]);
            QCOMPARE(rows[i].input.provider, stored->provider);
            QCOMPARE(rows[i].input.instance, stored->instance);
            QCOMPARE(rows[i].input.date, stored->observed.toString());
        }
        // The export dialog's "CSV with semicolons and decimal commas" writes the same offers so.
        const QString semi = dir_.filePath(QStringLiteral("lambda-semicolons.csv"));
        page.exportFile(semi, csv::Style::SemicolonsDecimalCommas);
        const std::string text = files::readAll(semi.toStdString());
        QVERIFY2(text.rfind("provider;instance_or_sku;gpu;", 0) == 0, text.c_str());
        QCOMPARE(offerio::parseFile(semi.toStdString()).size(), shown.size());
        page.searchField()->clear();
    }
};

QTEST_MAIN(CloudOffersPageTest)
#include "cloud_offers_page_test.moc"
