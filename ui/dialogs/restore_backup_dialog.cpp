#include "dialogs/restore_backup_dialog.h"

#include "session.h"
#include "ui_text.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace advisor::ui {

RestoreBackupDialog::RestoreBackupDialog(Session& session, QWidget* parent) : QDialog(parent), session_(session) {
    setWindowTitle(tr("Restore from Backup"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("A backup of your price database is made each day you use GPU Advisor; the newest %1 are kept. "
           "Restoring replaces the database with the backup you choose. The current database is not deleted: "
           "it is kept beside it, named …replaced-<time>.")
            .arg(DbBackups::kDefaultKeep),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    list_ = new QListWidget(this);
    list_->setAccessibleName(tr("Backups, newest first"));
    for (const auto& b : session_.backups()) {
        auto* item = new QListWidgetItem(
            tr("%1  (%2)").arg(qs(b.takenUtc), QLocale().formattedDataSize(static_cast<qint64>(b.bytes))), list_);
        item->setData(Qt::UserRole, qs(b.path));
        item->setToolTip(qs(b.path));
    }
    if (list_->count() == 0) {
        auto* none = new QListWidgetItem(tr("No backups yet"), list_);
        none->setFlags(Qt::NoItemFlags);
    } else {
        list_->setCurrentRow(0);
    }
    layout->addWidget(list_);

    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->hide();
    layout->addWidget(error_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    restore_ = buttons->addButton(tr("&Restore"), QDialogButtonBox::AcceptRole);
    restore_->setEnabled(list_->currentItem() != nullptr && (list_->currentItem()->flags() & Qt::ItemIsEnabled));
    auto* other = buttons->addButton(tr("Other &File…"), QDialogButtonBox::ActionRole);
    connect(other, &QPushButton::clicked, this, &RestoreBackupDialog::chooseFile);
    connect(buttons, &QDialogButtonBox::accepted, this, &RestoreBackupDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QListWidget::itemDoubleClicked, this, &RestoreBackupDialog::accept);
    layout->addWidget(buttons);
    resize(520, 360);
}

QString RestoreBackupDialog::error() const {
    return error_->text();
}

void RestoreBackupDialog::accept() {
    const QListWidgetItem* item = list_->currentItem();
    if (item == nullptr || !(item->flags() & Qt::ItemIsEnabled)) {
        return;
    }
    restoreFromFile(item->data(Qt::UserRole).toString());
}

void RestoreBackupDialog::restoreFromFile(const QString& path) {
    try {
        keptAs_ = qs(session_.restoreFromBackup(path.toStdString()));
        restoredFrom_ = path;
        QDialog::accept();
    } catch (const std::exception& e) {
        error_->setText(QString::fromUtf8(e.what()));
        error_->show();
    }
}

void RestoreBackupDialog::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Restore from File"), QString(),
                                                      tr("GPU Advisor databases (*.sqlite *.sqlite.*);;All files (*)"));
    if (!path.isEmpty()) {
        restoreFromFile(path);
    }
}

} // namespace advisor::ui
