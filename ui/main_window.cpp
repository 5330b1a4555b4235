#include "main_window.h"

#include "common/errors.h"
#include "dialogs/restore_backup_dialog.h"
#include "pages/advisor_page.h"
#include "pages/calculators_page.h"
#include "pages/charts_page.h"
#include "pages/cloud_offers_page.h"
#include "pages/prices_page.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/shortcut_list.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace advisor::ui {

MainWindow::MainWindow(Session& session, QWidget* parent) : QMainWindow(parent), session_(session) {
    setWindowTitle(tr("GPU Advisor"));
    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    navigation_ = new QListWidget(central);
    navigation_->setAccessibleName(tr("Pages"));
    pages_ = new QStackedWidget(central);
    layout->addWidget(navigation_);
    layout->addWidget(pages_, 1);
    setCentralWidget(central);

    charts_ = new ChartsPage(session_);
    connect(charts_, &ChartsPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
    advisor_ = new AdvisorPage(session_);
    connect(advisor_, &AdvisorPage::showInCharts, this, [this](const QStringList& ids) {
        session_.setHighlighted(ids);
        showPage(QStringLiteral("charts"));
    });
    addPage(QStringLiteral("advisor"), tr("Advisor"), advisor_);
    addPage(QStringLiteral("charts"), tr("Charts"), charts_);
    prices_ = new PricesPage(session_);
    connect(prices_, &PricesPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    addPage(QStringLiteral("prices"), tr("Prices"), prices_);
    calculators_ = new CalculatorsPage(session_);
    addPage(QStringLiteral("calculators"), tr("Calculators"), calculators_);
    auto* cloud = new CloudOffersPage(session_);
    connect(cloud, &CloudOffersPage::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    addPage(QStringLiteral("cloud"), tr("Cloud offers"), cloud);

    connect(&session_, &Session::recovered, this, [this](const QString& message) {
        showMessageBox(QMessageBox::Warning, tr("The price database was damaged"), message);
    });
    connect(&session_, &Session::warning, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
    // Which price database is open (--db can name any): its file in the title, as an editor
    // names its document; the whole path is the title's file path (the platform shows it).
    connect(&session_, &Session::opened, this, [this] {
        const QString path = qs(session_.db().path());
        setWindowFilePath(path);
        setWindowTitle(tr("%1 - GPU Advisor").arg(QFileInfo(path).fileName()));
    });
    connect(&session_, &Session::externalChangesLoaded, this, [this] {
        statusBar()->showMessage(tr("Loaded changes another program made to the prices; undo history cleared"), 8000);
    });
    // As wide as its longest title and no wider: at 1,024 px every pixel it does not need goes
    // to the tables and charts, which otherwise scroll sideways.
    navigation_->setFixedWidth(navigation_->sizeHintForColumn(0) + 2 * navigation_->frameWidth() + 16);
    connect(navigation_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
    navigation_->setCurrentRow(0);
    buildMenus();
    restoreWindowState();
    statusBar()->showMessage(tr("Ready"));
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* exportChart = file->addAction(tr("&Export Chart…"));
    exportChart->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportChart->setStatusTip(tr("Save the current chart as PNG, PDF, SVG or CSV"));
    connect(exportChart, &QAction::triggered, this, [this] {
        showPage(QStringLiteral("charts"));
        charts_->exportWithDialog();
    });
    file->addSeparator();
    // The Prices page's import and export, also here where a desktop user looks for them.
    QAction* importPrices = file->addAction(tr("&Import Prices…"));
    importPrices->setStatusTip(tr("Add prices from a CSV or JSON file (all or nothing)"));
    connect(importPrices, &QAction::triggered, this, [this] {
        showPage(QStringLiteral("prices"));
        prices_->importWithDialog();
    });
    QAction* shippedPrices = file->addAction(tr("Add &Shipped Prices"));
    shippedPrices->setStatusTip(tr("Add the prices this version ships that your database lacks (undoable)"));
    connect(shippedPrices, &QAction::triggered, this, [this] {
        showPage(QStringLiteral("prices"));
        prices_->addShippedPrices();
    });
    QAction* exportPrices = file->addAction(tr("Export &Prices…"));
    exportPrices->setStatusTip(tr("Save all prices as CSV or JSON"));
    connect(exportPrices, &QAction::triggered, this, [this] {
        showPage(QStringLiteral("prices"));
        prices_->exportWithDialog();
    });
    file->addSeparator();
    QAction* backup = file->addAction(tr("&Back Up Prices Now"));
    backup->setStatusTip(tr("Save a copy of the price database in its backup folder"));
    connect(backup, &QAction::triggered, this, &MainWindow::backUpNow);
    QAction* restore = file->addAction(tr("&Restore Prices from Backup…"));
    restore->setStatusTip(tr("Replace the price database by one of its backups; the current one is kept"));
    connect(restore, &QAction::triggered, this, &MainWindow::restoreFromBackup);
    for (QAction* a : {importPrices, shippedPrices, exportPrices, backup, restore}) {
        a->setEnabled(false);
        connect(&session_, &Session::opened, a, [a] { a->setEnabled(true); });
    }
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"));
    // The platform's Quit key, or Ctrl+Q where the platform names none (plain X11, offscreen).
    const QKeySequence platformQuit(QKeySequence::Quit);
    quit->setShortcut(platformQuit.isEmpty() ? QKeySequence(tr("Ctrl+Q")) : platformQuit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = session_.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = session_.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence::Redo});
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < keys_.size(); ++i) {
        QAction* a = view->addAction(navigation_->item(i)->text());
        a->setShortcut(QKeySequence(tr("Ctrl+%1").arg(i + 1)));
        connect(a, &QAction::triggered, this, [this, i] { navigation_->setCurrentRow(i); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keysHelp = help->addAction(tr("&Keyboard Shortcuts"));
    keysHelp->setShortcut(QKeySequence::HelpContents);
    connect(keysHelp, &QAction::triggered, this, [this] {
        QMessageBox box(QMessageBox::NoIcon, tr("Keyboard shortcuts"), shortcutsText(), QMessageBox::Close, this);
        box.setTextFormat(Qt::RichText);
        box.exec();
    });
    QAction* about = help->addAction(tr("&About GPU Advisor"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About GPU Advisor"),
                           tr("<p><b>GPU Advisor</b> %1</p><p>Which GPU(s) to buy for deep learning - or whether to "
                              "rent - and why. Based on Tim Dettmers' \"Which GPU(s) to Get for Deep Learning\" "
                              "(2023) and his hardware guide; computed from a spec catalog, a calibrated "
                              "performance model and your own prices.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

QString MainWindow::shortcutsText() const {
    std::vector<std::pair<QString, const QWidget*>> pages;
    for (int i = 0; i < pages_->count(); ++i) {
        pages.emplace_back(navigation_->item(i)->text(), pages_->widget(i));
    }
    return shortcutsHtml(collectShortcuts(menuBar(), pages));
}

void MainWindow::addPage(const QString& key, const QString& title, QWidget* page) {
    keys_ << key;
    navigation_->addItem(title);
    pages_->addWidget(page);
}

bool MainWindow::showPage(const QString& key) {
    const int index = static_cast<int>(keys_.indexOf(key));
    if (index < 0) {
        return false;
    }
    navigation_->setCurrentRow(index);
    return true;
}

QString MainWindow::currentPageKey() const {
    const int index = pages_->currentIndex();
    return index >= 0 && index < keys_.size() ? keys_.at(index) : QString();
}

QStringList MainWindow::pageKeys() const {
    return keys_;
}

void MainWindow::openDatabaseLater(const std::string& path) {
    QTimer::singleShot(0, this, [this, path] {
        try {
            session_.open(path);
            if (statusBar()->currentMessage().isEmpty()) { // a warning from opening stays readable
                statusBar()->showMessage(tr("Price database: %1").arg(QString::fromStdString(path)), 5000);
            }
        } catch (const AdvisorError& e) {
            showError(tr("Cannot open the price database"), QString::fromUtf8(e.what()));
        }
    });
}

void MainWindow::showError(const QString& title, const QString& text) {
    showMessageBox(QMessageBox::Critical, title, text);
}

void MainWindow::showMessageBox(int icon, const QString& title, const QString& text) {
    statusBar()->showMessage(title);
    // Window-modal but not blocking: start-up and the event loop carry on behind it.
    auto* box = new QMessageBox(static_cast<QMessageBox::Icon>(icon), title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("messageBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::backUpNow() {
    try {
        const std::string path = session_.backUpNow();
        statusBar()->showMessage(tr("Backed up to %1").arg(QString::fromStdString(path)), 8000);
    } catch (const std::exception& e) {
        showError(tr("Backup failed"), QString::fromUtf8(e.what()));
    }
}

void MainWindow::restoreFromBackup() {
    RestoreBackupDialog dialog(session_, this);
    if (dialog.exec() == QDialog::Accepted) {
        statusBar()->showMessage(
            dialog.keptAs().isEmpty()
                ? tr("Restored the price database from %1").arg(dialog.restoredFrom())
                : tr("Restored the price database from %1; the replaced one is kept as %2")
                      .arg(dialog.restoredFrom(), dialog.keptAs()));
    }
}

void MainWindow::restoreWindowState() {
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        resize(1200, 780);
    }
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    showPage(s.value(QStringLiteral("window/page"), QStringLiteral("advisor")).toString());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/page"), currentPageKey());
    event->accept();
}

} // namespace advisor::ui
