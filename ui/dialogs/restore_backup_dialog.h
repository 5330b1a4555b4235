#pragma once
/// \file
/// File > Restore from Backup: pick one of the rolling backups (newest first) or any file,
/// and put it in place of the price database. Nothing is lost: the replaced database is
/// kept beside it, and the restore itself is one step the dialog explains before it runs.

#include <QDialog>

class QLabel;
class QListWidget;
class QPushButton;

namespace advisor::ui {

class Session;

class RestoreBackupDialog : public QDialog {
    Q_OBJECT

public:
    explicit RestoreBackupDialog(Session& session, QWidget* parent = nullptr);

    QListWidget* backupList() const { return list_; }
    /// After accept(): where the replaced database was kept ("" when there was none).
    const QString& keptAs() const { return keptAs_; }
    const QString& restoredFrom() const { return restoredFrom_; }
    /// The last failure, also shown in the dialog.
    QString error() const;

public slots:
    void accept() override;
    /// Restores from a file chosen outside the backup folder.
    void restoreFromFile(const QString& path);

private:
    void chooseFile();

    Session& session_;
    QListWidget* list_ = nullptr;
    QLabel* error_ = nullptr;
    QPushButton* restore_ = nullptr;
    QString keptAs_;
    QString restoredFrom_;
};

} // namespace advisor::ui
