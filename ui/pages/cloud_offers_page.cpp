#include "pages/cloud_offers_page.h"

#include "commands/cloud_offer_commands.h"
#include "common/format.h"
#include "dialogs/add_cloud_offer_dialog.h"
#include "prices/cloud_offer.h"
#include "prices/cloud_offer_io.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/remembered_inputs.h"
#include "widgets/source_links.h"
#include "widgets/table_export_dialog.h"
#include "widgets/table_rows.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace advisor::ui {
namespace {

constexpr int kIdRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;

// The date before the region: how old a price is matters more, and it stays in sight at 1,024 px.
enum Column { Provider, Instance, Gpu, Count, Hourly, PerGpuHour, Spot, Date, Region, Source, ColumnCount };
/// Widest a text column starts (its cells show the whole text as a tooltip).
constexpr int kMaxColumnWidth = 140;

// Money and counts sort as numbers, not as text ("$10" after "$9").
class SortedItem : public QTableWidgetItem {
public:
    SortedItem(const QString& text, const QVariant& sortKey) : QTableWidgetItem(text) { setData(kSortRole, sortKey); }
    bool operator<(const QTableWidgetItem& other) const override {
        return QVariant::compare(data(kSortRole), other.data(kSortRole)) == QPartialOrdering::Less;
    }
};

} // namespace

CloudOffersPage::CloudOffersPage(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("Search provider, instance, GPU or region (Ctrl+F)"));
    search_->setClearButtonEnabled(true);
    newestOnly_ = new QCheckBox(tr("&Newest of each offer only"));
    newestOnly_->setToolTip(tr("Hide older observations of the same provider, instance, GPU and count (the Cloud vs "
                               "desktop calculator lists only the newest)"));
    auto* add = new QPushButton(tr("&Add offer..."));
    add->setToolTip(tr("Add an offer you have seen (Ctrl+N)"));
    auto* remove = new QPushButton(tr("&Delete"));
    remove->setToolTip(tr("Delete the selected offers (Del); Ctrl+Z brings them back"));
    auto* importButton = new QPushButton(tr("&Import…"));
    importButton->setToolTip(tr("Add offers from a CSV or JSON file, all or nothing (Ctrl+I); Ctrl+Z takes them out"));
    auto* exportButton = new QPushButton(tr("E&xport…"));
    exportButton->setToolTip(tr("Save the offers shown (the search and \"Newest only\" apply) as CSV or JSON"));
    table_ = new QTableWidget(0, ColumnCount);
    table_->setHorizontalHeaderLabels({tr("Provider"), tr("Instance"), tr("GPU"), tr("GPUs"), tr("$/hour"),
                                       tr("$/GPU-hour"), tr("Spot $/hour"), tr("Date"), tr("Region"), tr("Source")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    useSingleLineRows(table_);
    addSourceLinkMenu(table_, [this](const QModelIndex& index) { return table_->item(index.row(), Source)->text(); });
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSortingEnabled(true);
    table_->sortByColumn(Provider, Qt::AscendingOrder);
    auto* note = new QLabel(tr("Prices per hour in USD for the whole instance, as observed on the date shown. The "
                               "Cloud vs desktop calculator compares a desktop with any of them. Double-click an "
                               "offer (or press F2) to correct it or to record a newer price of it."));
    note->setWordWrap(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(newestOnly_);
    bar->addWidget(add);
    bar->addWidget(remove);
    bar->addWidget(importButton);
    bar->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);
    layout->addWidget(note);

    connect(search_, &QLineEdit::textChanged, this, &CloudOffersPage::applyFilter);
    connect(newestOnly_, &QCheckBox::toggled, this, &CloudOffersPage::applyFilter);
    new RememberedInputs(QStringLiteral("cloud-offers"), {{QStringLiteral("newest-only"), newestOnly_}}, this);
    connect(add, &QPushButton::clicked, this, &CloudOffersPage::addOfferWithDialog);
    connect(remove, &QPushButton::clicked, this, &CloudOffersPage::deleteSelected);
    connect(importButton, &QPushButton::clicked, this, &CloudOffersPage::importWithDialog);
    connect(table_, &QTableWidget::doubleClicked, this, &CloudOffersPage::editCurrentWithDialog);
    connect(exportButton, &QPushButton::clicked, this, &CloudOffersPage::exportWithDialog);
    connect(&session_, &Session::opened, this, &CloudOffersPage::reload);
    connect(&session_, &Session::cloudOffersChanged, this, &CloudOffersPage::reload);
    for (const auto& [keys, slot, what] :
         {std::tuple{QKeySequence(QKeySequence::New), &CloudOffersPage::addOfferWithDialog, tr("Add a cloud offer")},
          std::tuple{QKeySequence(QKeySequence::Delete), &CloudOffersPage::deleteSelected,
                     tr("Delete the selected offers")},
          std::tuple{QKeySequence(tr("Ctrl+I")), &CloudOffersPage::importWithDialog, tr("Import cloud offers from a file")},
          std::tuple{QKeySequence(Qt::Key_F2), &CloudOffersPage::editCurrentWithDialog,
                     tr("Edit the current offer, or record a newer price of it")}}) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        shortcut->setWhatsThis(what); // listed by Help > Keyboard Shortcuts
        connect(shortcut, &QShortcut::activated, this, slot);
    }
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    find->setWhatsThis(tr("Search the offers"));
    connect(find, &QShortcut::activated, search_, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    reload();
}

void CloudOffersPage::reload() {
    if (!session_.isOpen()) {
        return;
    }
    const int sortColumn = table_->horizontalHeader()->sortIndicatorSection();
    const Qt::SortOrder order = table_->horizontalHeader()->sortIndicatorOrder();
    table_->setSortingEnabled(false); // fill first, then sort once
    table_->setRowCount(0);
    const auto offers = session_.db().cloudOffers();
    currentIds_.clear();
    for (const auto& o : currentOffers(offers)) {
        currentIds_.insert(o.id);
    }
    const advisor::Date newest = newestObservation(offers);
    for (const auto& o : offers) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const auto money = [](double usd) { return new SortedItem(qs(format::money(usd)), usd); };
        const auto text = [](const std::string& t) {
            auto* item = new QTableWidgetItem(qs(t));
            item->setToolTip(item->text()); // whole, where the column cuts it off
            return item;
        };
        auto* provider = text(o.provider);
        provider->setData(kIdRole, QVariant::fromValue(o.id));
        table_->setItem(row, Provider, provider);
        table_->setItem(row, Instance, text(o.instance));
        table_->setItem(row, Gpu, text(o.gpuName));
        table_->setItem(row, Count, new SortedItem(QString::number(o.gpuCount), o.gpuCount));
        table_->setItem(row, Hourly, money(o.onDemandUsdPerHour));
        table_->setItem(row, PerGpuHour, money(o.onDemandPerGpuHour()));
        table_->setItem(row, Spot, o.spotUsdPerHour ? money(*o.spotUsdPerHour) : new SortedItem(QStringLiteral("-"), -1.0));
        table_->setItem(row, Region, text(o.region));
        auto* date = new QTableWidgetItem(qs(o.observed.toString()));
        // What the recommender passes over, dimmed and said (an older observation is history).
        const QString age = currentIds_.count(o.id) == 0 ? tr("an earlier observation: a newer one of this offer is listed")
                                                         : qs(offerAgeNote(o, newest));
        if (!age.isEmpty()) {
            date->setToolTip(age);
            date->setForeground(table_->palette().brush(QPalette::PlaceholderText));
        }
        table_->setItem(row, Date, date);
        auto* source = new QTableWidgetItem(qs(o.sourceUrl));
        source->setToolTip(qs(o.note.empty() ? o.sourceUrl : o.sourceUrl + "\n" + o.note));
        table_->setItem(row, Source, source);
    }
    table_->setSortingEnabled(true);
    table_->sortByColumn(sortColumn, order);
    for (int c = Provider; c < Source; ++c) { // fit the text, but a long name does not push Source away
        table_->resizeColumnToContents(c);
        table_->setColumnWidth(c, std::min(table_->columnWidth(c), kMaxColumnWidth));
    }
    applyFilter();
}

void CloudOffersPage::applyFilter() {
    const QString needle = search_->text().trimmed();
    for (int row = 0; row < table_->rowCount(); ++row) {
        bool match = needle.isEmpty();
        for (const int c : {Provider, Instance, Gpu, Region}) {
            match = match || table_->item(row, c)->text().contains(needle, Qt::CaseInsensitive);
        }
        const auto id = table_->item(row, Provider)->data(kIdRole).toLongLong();
        match = match && (!newestOnly_->isChecked() || currentIds_.count(id) != 0);
        table_->setRowHidden(row, !match);
    }
}

std::vector<std::int64_t> CloudOffersPage::shownIds() const {
    std::vector<std::int64_t> ids;
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (!table_->isRowHidden(row)) {
            ids.push_back(table_->item(row, Provider)->data(kIdRole).toLongLong());
        }
    }
    return ids;
}

void CloudOffersPage::addOfferWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    AddCloudOfferDialog dialog(session_, this);
    if (dialog.exec() == QDialog::Accepted) {
        emit statusMessage(tr("Added a cloud offer (Ctrl+Z to undo)"));
    }
}

void CloudOffersPage::editCurrentWithDialog() {
    const int row = table_->currentRow();
    if (!session_.isOpen() || row < 0 || table_->isRowHidden(row)) {
        emit statusMessage(tr("Choose an offer to edit first"));
        return;
    }
    const auto offer = session_.db().cloudOffer(table_->item(row, Provider)->data(kIdRole).toLongLong());
    if (!offer) {
        return;
    }
    AddCloudOfferDialog dialog(session_, this);
    dialog.editOffer(*offer);
    if (dialog.exec() == QDialog::Accepted) {
        emit statusMessage(dialog.addedId() == offer->id ? tr("Corrected the offer (Ctrl+Z to undo)")
                                                          : tr("Added a newer observation of the offer (Ctrl+Z to undo)"));
    }
}

void CloudOffersPage::deleteSelected() {
    std::set<std::int64_t> ids;
    for (const auto& index : table_->selectionModel()->selectedRows()) {
        if (!table_->isRowHidden(index.row())) {
            ids.insert(table_->item(index.row(), Provider)->data(kIdRole).toLongLong());
        }
    }
    if (ids.empty()) {
        emit statusMessage(tr("Select the offers to delete first"));
        return;
    }
    session_.undoStack()->push(new RemoveCloudOffersCommand(session_, {ids.begin(), ids.end()}));
    emit statusMessage(tr("Deleted %1 (Ctrl+Z to undo)")
                           .arg(qs(format::count(static_cast<long long>(ids.size()), "cloud offer"))));
}

void CloudOffersPage::importWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import cloud offers"), settings.value(QStringLiteral("cloud-offers/importDir")).toString(),
        tr("Cloud offer files (*.csv *.json);;All files (*)"));
    if (!path.isEmpty()) {
        settings.setValue(QStringLiteral("cloud-offers/importDir"), QFileInfo(path).absolutePath());
        importFile(path);
    }
}

bool CloudOffersPage::importFile(const QString& path, bool quiet) {
    importProblems_.clear();
    if (!session_.isOpen()) {
        return false;
    }
    const QString name = QFileInfo(path).fileName();
    QString error;
    try {
        // Offer files are small (hundreds of rows): read and applied here, in one transaction.
        const ImportOutcome o = session_.db().importCloudOffers(offerio::parseFile(path.toStdString()));
        if (!o.addedIds.empty()) {
            session_.undoStack()->push(new ImportCloudOffersCommand(session_, o.addedIds, name));
        }
        emit statusMessage(tr("Imported %1 from %2 (%3 already known, skipped)")
                               .arg(qs(format::count(static_cast<long long>(o.added), "cloud offer")), name)
                               .arg(o.duplicates));
        return true;
    } catch (const InputError& e) {
        for (const auto& p : e.problems()) {
            importProblems_ << qs(p.describe());
        }
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    const QString summary = importProblems_.isEmpty()
                                ? tr("Import of %1 failed: %2; nothing was changed").arg(name, error)
                                : tr("Import of %1 refused: %2; nothing was changed")
                                      .arg(name, qs(format::count(importProblems_.size(), "problem")));
    emit statusMessage(summary);
    if (!quiet) {
        QMessageBox box(QMessageBox::Warning, tr("Import refused"), summary, QMessageBox::Close, this);
        box.setInformativeText(tr("Fix the rows listed under Show Details and import the file again."));
        box.setDetailedText(importProblems_.isEmpty() ? error : importProblems_.join(QLatin1Char('\n')));
        box.exec();
    }
    return false;
}

void CloudOffersPage::exportFile(const QString& path, csv::Style style) {
    std::map<std::int64_t, CloudOffer> byId;
    for (auto& o : session_.db().cloudOffers()) {
        byId.emplace(o.id, std::move(o));
    }
    std::vector<CloudOffer> shown;
    for (const auto id : shownIds()) {
        shown.push_back(byId.at(id));
    }
    offerio::exportFile(path.toStdString(), shown, style);
}

void CloudOffersPage::exportWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    QSettings settings;
    const auto target = askTableExportTarget(
        this, tr("Export cloud offers"),
        settings.value(QStringLiteral("cloud-offers/exportPath"), QStringLiteral("cloud_offers.csv")).toString());
    if (!target) {
        return;
    }
    try {
        exportFile(target->path, target->style);
        settings.setValue(QStringLiteral("cloud-offers/exportPath"), target->path);
        emit statusMessage(
            tr("Exported %1 to %2")
                .arg(qs(format::count(static_cast<long long>(shownIds().size()), "cloud offer")), target->path));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
    }
}

bool CloudOffersPage::copyCurrentSourceLink() {
    const int row = table_->currentRow();
    return row >= 0 && copySourceLink(table_->item(row, Source)->text());
}

} // namespace advisor::ui
