#pragma once
/// \file
/// What every page shares: the price database, the catalog (shipped + the user's GPUs), the
/// performance model, the undo stack and the current recommendation. Pages read through it
/// and change data only through it, so each change is undoable and every page hears of it.

#include "catalog/catalog.h"
#include "perf/model.h"
#include "prices/db_recovery.h"
#include "prices/price_db.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

class QTimer;
class QUndoStack;

namespace advisor::ui {

class Session : public QObject {
    Q_OBJECT

public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    /// Opens the database (creating and seeding it when new) and makes the day's backup. A
    /// damaged file is set aside untouched and the newest good backup (or a fresh database)
    /// takes its place; recovered() says so. Throws AdvisorError naming the file when the
    /// database cannot be used (another application's, a newer version's, no permission).
    /// The window calls it after its first paint.
    void open(const std::string& databasePath);
    bool isOpen() const { return db_ != nullptr; }

    /// Makes a backup now; returns its path. Throws AdvisorError.
    std::string backUpNow();
    /// Backups of the open database, newest first.
    std::vector<BackupFile> backups() const;
    /// Replaces the database by a backup (the current file is kept beside it and its path
    /// returned) and reopens it; the undo history is cleared. Throws AdvisorError, keeping
    /// the open database, when the backup cannot be used.
    std::string restoreFromBackup(const std::string& backupPath);

    /// Reloads when another process (or connection) has committed since the last look:
    /// every page refreshes and the undo history, which may no longer apply, is cleared.
    /// Polled every kExternalCheckMs while open; returns whether anything was reloaded.
    bool checkForExternalChanges();
    static constexpr int kExternalCheckMs = 1500;
    /// Brackets writes made by this program's own worker threads (an import), so that they
    /// are not mistaken for another program's and do not clear the undo history.
    void beginWorkerWrite();
    void endWorkerWrite();

    PriceDb& db();
    const Catalog& catalog() const;
    const perf::PerfModel& model() const;
    /// All prices, cached until the next change.
    const std::vector<Price>& prices();
    Settings settings() const;

    /// Saves new settings as one undoable step ("Change electricity price").
    void changeSettings(const Settings& settings, const QString& description);

    /// The GPUs the current recommendation names (gpu ids); charts mark them.
    const QStringList& highlighted() const { return highlighted_; }
    void setHighlighted(const QStringList& gpuIds);

    QUndoStack* undoStack() const { return undoStack_; }

    /// Called by undo commands and imports after they changed the database.
    void notifyPricesChanged();
    void notifyCloudOffersChanged();
    void notifySettingsChanged();
    void notifyCatalogChanged();

signals:
    void opened();
    /// The database at start could not be used and was replaced; `message` says what happened.
    void recovered(const QString& message);
    /// Another program's changes were loaded (after opened() was emitted for them).
    void externalChangesLoaded();
    /// Something went wrong that the user should hear of (a failed automatic backup).
    void warning(const QString& message);
    void pricesChanged();
    void cloudOffersChanged();
    void settingsChanged();
    void catalogChanged();
    void highlightedChanged();

private:
    void adopt(std::unique_ptr<PriceDb> db);

    std::unique_ptr<PriceDb> db_;
    std::int64_t seenChangeCounter_ = 0;
    int workersWriting_ = 0;
    std::unique_ptr<perf::PerfModel> model_;
    std::vector<Price> prices_;
    bool pricesValid_ = false;
    QStringList highlighted_;
    QUndoStack* undoStack_ = nullptr;
    QTimer* externalCheck_ = nullptr;
};

} // namespace advisor::ui
