#include "pages/prices_page.h"

#include "commands/price_commands.h"
#include "common/format.h"
#include "dialogs/add_price_dialog.h"
#include "dialogs/custom_gpu_dialog.h"
#include "models/price_filter_proxy.h"
#include "models/price_table_model.h"
#include "pages/settings_panel.h"
#include "prices/price_io.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/source_links.h"
#include "widgets/table_export_dialog.h"
#include "widgets/table_rows.h"
#include "widgets/vertical_scroll.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QToolTip>
#include <QUndoStack>
#include <QVBoxLayout>

#include <tuple>

namespace advisor::ui {

namespace {

struct ImportState {
    std::atomic<size_t> done{0};
    std::atomic<size_t> total{0};
    ImportOutcome outcome;
    QStringList problems;
    QString error;
    bool ok = false;
};

} // namespace

PricesPage::PricesPage(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    model_ = new PriceTableModel(session_, this);
    auto* proxy = new PriceFilterProxy(this);
    proxy_ = proxy;
    proxy_->setSourceModel(model_);
    proxy_->setDynamicSortFilter(true);

    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("Search GPU, source, note or date (Ctrl+F)"));
    search_->setClearButtonEnabled(true);
    condition_ = new QComboBox;
    condition_->addItem(tr("New and used"), QString());
    condition_->addItem(tr("New only"), QStringLiteral("new"));
    condition_->addItem(tr("Used only"), QStringLiteral("used"));
    auto* add = new QPushButton(tr("&Add price…"));
    add->setToolTip(tr("Record a price you saw (Ctrl+N)"));
    auto* remove = new QPushButton(tr("&Delete"));
    remove->setToolTip(tr("Delete the selected prices (Del); undo with Ctrl+Z"));
    auto* addGpu = new QPushButton(tr("Add &GPU…"));
    addGpu->setToolTip(tr("Enter a GPU the catalog lacks"));
    auto* importButton = new QPushButton(tr("&Import…"));
    importButton->setToolTip(tr("Add prices from a CSV or JSON file (all or nothing) (Ctrl+I)"));
    auto* exportButton = new QPushButton(tr("E&xport…"));
    exportButton->setToolTip(tr("Save all prices as CSV or JSON"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(condition_);
    for (auto* b : {add, remove, addGpu, importButton, exportButton}) {
        bar->addWidget(b);
    }

    view_ = new QTableView;
    view_->setModel(proxy_);
    // The indicator first: enabling sorting sorts once by it (sortByColumn after sorted again).
    view_->horizontalHeader()->setSortIndicator(PriceTableModel::GpuColumn, Qt::AscendingOrder);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                           QAbstractItemView::AnyKeyPressed);
    view_->horizontalHeader()->setStretchLastSection(true);
    useSingleLineRows(view_);
    addSourceLinkMenu(view_, [this](const QModelIndex& shown) {
        return qs(model_->priceAt(proxy_->mapToSource(shown).row()).sourceUrl);
    });
    view_->setAlternatingRowColors(true);
    view_->setColumnWidth(PriceTableModel::GpuColumn, 170);
    // Short columns as wide as their header or their widest value, not QHeaderView's 100 px
    // each: at 1,024 px the Source column then shows instead of scrolling out of sight.
    // (Measured from a sample, not the rows: there may be 100,000 of them.)
    for (const auto& [column, widest] : {std::pair{PriceTableModel::ConditionColumn, QStringLiteral("used")},
                                         std::pair{PriceTableModel::AmountColumn, QStringLiteral("888,888")},
                                         std::pair{PriceTableModel::CurrencyColumn, QStringLiteral("USD")},
                                         std::pair{PriceTableModel::DateColumn, QStringLiteral("8888-88-88")}}) {
        view_->setColumnWidth(column, std::max(view_->horizontalHeader()->sectionSizeHint(column),
                                               view_->fontMetrics().horizontalAdvance(widest) + 16));
    }
    view_->setColumnWidth(PriceTableModel::SourceColumn, 220);
    view_->setColumnWidth(PriceTableModel::UrlColumn, 170);
    view_->setAccessibleName(tr("Prices"));
    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->hide();

    history_ = new QCustomPlot;
    history_->setMinimumHeight(180);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("yyyy-MM"));
    ticker->setDateTimeSpec(Qt::UTC);
    history_->xAxis->setTicker(ticker);
    history_->yAxis->setLabel(tr("USD"));
    history_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates)); // "25,000" as in the table
    history_->legend->setVisible(true);
    auto* historyBox = new QGroupBox(tr("Price history of the selected GPU"));
    auto* historyLayout = new QVBoxLayout(historyBox);
    historyLayout->addWidget(history_);
    auto* settingsBox = new QGroupBox(tr("Settings that change results"));
    auto* settingsLayout = new QVBoxLayout(settingsBox);
    // Scrolls when the window is short: squeezed, its fields were cut to half their height.
    settingsLayout->addWidget(scrollVertically(new SettingsPanel(session_)));
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(historyBox);
    lower->addWidget(settingsBox);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    lower->setSizes({700, 420});

    auto* upper = new QWidget;
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addLayout(bar);
    upperLayout->addWidget(view_, 1);
    upperLayout->addWidget(message_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({440, 360}); // the settings' nine rows whole in a 860 px window
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(search_, &QLineEdit::textChanged, this, &PricesPage::setFilterText);
    connect(condition_, &QComboBox::currentIndexChanged, this,
            [this, proxy] { proxy->setCondition(condition_->currentData().toString()); });
    connect(add, &QPushButton::clicked, this, &PricesPage::addPriceWithDialog);
    connect(remove, &QPushButton::clicked, this, &PricesPage::deleteSelected);
    connect(addGpu, &QPushButton::clicked, this, &PricesPage::addGpuWithDialog);
    connect(importButton, &QPushButton::clicked, this, &PricesPage::importWithDialog);
    connect(exportButton, &QPushButton::clicked, this, &PricesPage::exportWithDialog);
    connect(model_, &PriceTableModel::editRejected, this, [this](const QModelIndex& index, const QString& why) {
        showMessage(tr("Not changed - %1").arg(why), true);
        const QModelIndex shown = proxy_->mapFromSource(index);
        const QRect cell = view_->visualRect(shown);
        QToolTip::showText(view_->viewport()->mapToGlobal(cell.bottomLeft()), why, view_->viewport(), cell, 6000);
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &PricesPage::updateHistory);
    // After a reload (new database, undo of an import) keep a row current, so the history shows.
    connect(proxy_, &QAbstractItemModel::modelReset, this, [this] {
        if (!view_->currentIndex().isValid() && proxy_->rowCount() > 0) {
            view_->setCurrentIndex(proxy_->index(0, 0));
        }
    });
    connect(&session_, &Session::pricesChanged, this, &PricesPage::updateHistory);
    connect(session_.undoStack(), &QUndoStack::indexChanged, this, [this] { message_->hide(); });
    for (const auto& [keys, slot, what] :
         {std::tuple{QKeySequence(QKeySequence::New), &PricesPage::addPriceWithDialog, tr("Add a price")},
          std::tuple{QKeySequence(QKeySequence::Delete), &PricesPage::deleteSelected, tr("Delete the selected prices")},
          std::tuple{QKeySequence(tr("Ctrl+I")), &PricesPage::importWithDialog, tr("Import prices from a file")}}) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        shortcut->setWhatsThis(what); // listed by Help > Keyboard Shortcuts
        connect(shortcut, &QShortcut::activated, this, slot);
    }
    if (proxy_->rowCount() > 0) {
        view_->setCurrentIndex(proxy_->index(0, 0));
    }
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    find->setWhatsThis(tr("Search the prices"));
    connect(find, &QShortcut::activated, search_, [this] { search_->setFocus(); search_->selectAll(); });
}

PricesPage::~PricesPage() {
    if (importThread_ != nullptr) { // closing during an import: cancel it (nothing is changed)
        cancelImport_->store(true);
        importThread_->wait();
    }
}

void PricesPage::cancelImport() {
    if (cancelImport_) {
        cancelImport_->store(true);
    }
}

QString PricesPage::message() const {
    return message_->isHidden() ? QString() : message_->text();
}

void PricesPage::showMessage(const QString& text, bool error) {
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
    message_->show();
}

void PricesPage::setFilterText(const QString& text) {
    static_cast<PriceFilterProxy*>(proxy_)->setNeedle(text);
}

QString PricesPage::selectedGpuId() const {
    const QModelIndex current = view_->currentIndex();
    if (!current.isValid()) {
        return {};
    }
    const int row = proxy_->mapToSource(current).row();
    return row >= 0 && row < model_->rowCount() ? qs(model_->priceAt(row).gpuId) : QString();
}

void PricesPage::updateHistory() {
    history_->clearGraphs();
    const QString id = selectedGpuId();
    if (id.isEmpty() || !session_.isOpen()) {
        history_->xAxis->setLabel(tr("Select a price to see its GPU's history"));
        history_->replot();
        return;
    }
    const std::string gpuId = id.toStdString();
    std::string name;
    QVector<double> xs[2], ys[2];
    int otherCurrency = 0;
    for (const auto& p : session_.prices()) {
        if (p.gpuId != gpuId) {
            continue;
        }
        name = p.gpuName;
        if (p.currency != "USD") {
            ++otherCurrency;
            continue;
        }
        const int k = p.condition == Condition::New ? 0 : 1;
        xs[k] << static_cast<double>(p.observed.daysSinceEpoch()) * 86400.0;
        ys[k] << p.amount;
    }
    const QColor colours[2] = {QColor(0, 114, 178), QColor(230, 159, 0)};
    const QString names[2] = {tr("new"), tr("used")};
    double lo = 1e300, hi = -1e300, top = 0;
    for (int k = 0; k < 2; ++k) {
        if (xs[k].isEmpty()) {
            continue;
        }
        QCPGraph* g = history_->addGraph();
        g->setName(names[k]);
        g->setPen(QPen(colours[k], 1.5));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colours[k], colours[k], 6));
        g->setData(xs[k], ys[k]); // sorts by date
        for (int i = 0; i < xs[k].size(); ++i) {
            lo = std::min(lo, xs[k][i]);
            hi = std::max(hi, xs[k][i]);
            top = std::max(top, ys[k][i]);
        }
    }
    const double pad = std::max(30.0 * 86400, (hi - lo) * 0.05);
    history_->xAxis->setRange(lo - pad, hi + pad);
    history_->yAxis->setRange(0, top * 1.15 + 1);
    history_->xAxis->setLabel(qs(name) + (otherCurrency > 0 ? tr(" (%1 in other currencies not shown)").arg(qs(format::count(otherCurrency, "price")))
                                                             : QString()));
    history_->replot();
}

void PricesPage::addPriceWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    QString gpu;
    if (const QString id = selectedGpuId(); !id.isEmpty()) {
        if (const Gpu* g = session_.catalog().findById(id.toStdString())) {
            gpu = qs(g->name);
        }
    }
    AddPriceDialog dialog(session_, gpu, this);
    if (dialog.exec() == QDialog::Accepted) {
        const int row = model_->rowOf(dialog.addedId());
        if (row >= 0) {
            view_->setCurrentIndex(proxy_->mapFromSource(model_->index(row, PriceTableModel::AmountColumn)));
        }
        emit statusMessage(tr("Price added (Ctrl+Z to undo)"));
    }
}

void PricesPage::addGpuWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    CustomGpuDialog dialog(session_, this);
    if (dialog.exec() == QDialog::Accepted) {
        emit statusMessage(tr("GPU added: it is in every page and chart now; add a price to compare its value"));
    }
}

void PricesPage::deleteSelected() {
    if (!session_.isOpen()) {
        return;
    }
    std::vector<std::int64_t> ids;
    for (const QModelIndex& index : view_->selectionModel()->selectedRows()) {
        ids.push_back(model_->priceAt(proxy_->mapToSource(index).row()).id);
    }
    if (ids.empty()) {
        return;
    }
    session_.undoStack()->push(new RemovePricesCommand(session_, ids));
    emit statusMessage(tr("Deleted %1 (Ctrl+Z to undo)").arg(qs(format::count(static_cast<long long>(ids.size()), "price"))));
}

void PricesPage::exportFile(const QString& path, csv::Style style) {
    priceio::exportFile(path.toStdString(), session_.prices(), style);
}

void PricesPage::exportWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    QSettings settings;
    const auto target = askTableExportTarget(
        this, tr("Export prices"),
        settings.value(QStringLiteral("prices/exportPath"), QStringLiteral("prices.csv")).toString());
    if (!target) {
        return;
    }
    try {
        exportFile(target->path, target->style);
        settings.setValue(QStringLiteral("prices/exportPath"), target->path);
        emit statusMessage(
            tr("Exported %1 to %2")
                .arg(qs(format::count(static_cast<long long>(session_.prices().size()), "price")), target->path));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
    }
}

void PricesPage::addShippedPrices() {
    if (!session_.isOpen()) {
        return;
    }
    if (importThread_ != nullptr) { // one import at a time: said, not ignored
        showMessage(tr("An import is running; add the shipped prices when it has finished"), true);
        return;
    }
    try {
        const ImportOutcome o = session_.db().importShippedPrices();
        if (!o.addedIds.empty()) {
            session_.undoStack()->push(new ImportPricesCommand(session_, o.addedIds, tr("this version's prices")));
        }
        const QString summary =
            o.added == 0 ? tr("Your database already holds every price this version ships (%1)").arg(o.duplicates)
                         : tr("Added %1 this version ships (%2 already known, skipped; Ctrl+Z to undo)")
                               .arg(qs(format::count(static_cast<long long>(o.added), "price")))
                               .arg(o.duplicates);
        showMessage(summary, false);
        emit statusMessage(summary);
    } catch (const AdvisorError& e) {
        showMessage(QString::fromUtf8(e.what()), true);
    }
}

void PricesPage::importWithDialog() {
    if (!session_.isOpen()) {
        return;
    }
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import prices"), settings.value(QStringLiteral("prices/importDir")).toString(),
        tr("Price files (*.csv *.json);;All files (*)"));
    if (!path.isEmpty()) {
        settings.setValue(QStringLiteral("prices/importDir"), QFileInfo(path).absolutePath());
        importFile(path);
    }
}

void PricesPage::importFile(const QString& path, bool quiet) {
    if (importThread_ != nullptr || !session_.isOpen()) {
        return; // one import at a time
    }
    auto state = std::make_shared<ImportState>();
    cancelImport_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancelImport_;
    const std::string dbPath = session_.db().path();
    const std::string file = path.toStdString();
    // A second connection in the worker: SQLite connections are not shared between threads,
    // and WAL lets the window keep reading while the import writes.
    session_.beginWorkerWrite();
    importThread_ = QThread::create([state, cancel, dbPath, file] {
        try {
            const auto rows = priceio::parseFile(file);
            PriceDb db(dbPath, Catalog::builtin());
            state->outcome = db.importPrices(rows, [&](size_t done, size_t total) {
                state->done = done;
                state->total = total;
                return !cancel->load();
            });
            state->ok = true;
        } catch (const InputError& e) {
            for (const auto& p : e.problems()) {
                state->problems << qs(p.describe());
            }
        } catch (const std::exception& e) {
            state->error = QString::fromUtf8(e.what());
        }
    });
    QProgressDialog* progress = nullptr;
    QTimer* poll = nullptr;
    if (!quiet) {
        progress = new QProgressDialog(tr("Importing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000, this);
        progress->setWindowModality(Qt::WindowModal);
        progress->setMinimumDuration(400); // small files finish before it would appear
        connect(progress, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });
        poll = new QTimer(progress);
        connect(poll, &QTimer::timeout, progress, [progress, state] {
            const size_t total = state->total;
            progress->setValue(total > 0 ? static_cast<int>(state->done * 1000 / total) : 0);
        });
        poll->start(100);
    }
    connect(importThread_, &QThread::finished, this, [this, state, cancel, path, progress, quiet] {
        importThread_->deleteLater();
        importThread_ = nullptr;
        session_.endWorkerWrite();
        if (progress != nullptr) {
            progress->deleteLater();
        }
        const QString name = QFileInfo(path).fileName();
        importProblems_ = state->problems;
        if (state->ok) {
            const auto& o = state->outcome;
            if (!o.addedIds.empty()) {
                session_.undoStack()->push(new ImportPricesCommand(session_, o.addedIds, name));
            }
            const QString summary = tr("Imported %1 from %2 (%3 already known, skipped)")
                                        .arg(qs(format::count(static_cast<long long>(o.added), "price")), name)
                                        .arg(o.duplicates);
            showMessage(summary, false);
            emit statusMessage(summary);
            emit importFinished(true, summary);
            return;
        }
        const QString summary = cancel->load() ? tr("Import of %1 cancelled; nothing was changed").arg(name)
                                : !state->problems.isEmpty()
                                    ? tr("Import of %1 refused: %2 problems; nothing was changed")
                                          .arg(name)
                                          .arg(state->problems.size())
                                    : tr("Import of %1 failed: %2; nothing was changed").arg(name, state->error);
        showMessage(summary, !cancel->load());
        if (!quiet && !cancel->load()) {
            QMessageBox box(QMessageBox::Warning, tr("Import refused"), summary, QMessageBox::Close, this);
            box.setInformativeText(tr("Fix the rows listed under Show Details and import the file again."));
            box.setDetailedText(state->problems.isEmpty() ? state->error : state->problems.join(QLatin1Char('\n')));
            box.exec();
        }
        emit importFinished(false, summary);
    });
    importThread_->start();
}

QString PricesPage::currentSourceUrl() const {
    const QModelIndex shown = view_->currentIndex();
    return shown.isValid() ? qs(model_->priceAt(proxy_->mapToSource(shown).row()).sourceUrl) : QString();
}

bool PricesPage::copyCurrentSourceLink() {
    return copySourceLink(currentSourceUrl());
}

} // namespace advisor::ui
