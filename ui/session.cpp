#include "session.h"

#include "common/errors.h"
#include "common/format.h"

#include "ui_text.h"

#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

namespace advisor::ui {

namespace {

class ChangeSettingsCommand : public QUndoCommand {
public:
    ChangeSettingsCommand(Session& session, Settings before, Settings after, const QString& text)
        : QUndoCommand(text), session_(session), before_(std::move(before)), after_(std::move(after)) {}

    void undo() override { apply(before_); }
    void redo() override { apply(after_); }

private:
    void apply(const Settings& s) {
        session_.db().saveSettings(s);
        session_.notifySettingsChanged();
    }

    Session& session_;
    Settings before_;
    Settings after_;
};

} // namespace

Session::Session(QObject* parent)
    : QObject(parent), undoStack_(new QUndoStack(this)), externalCheck_(new QTimer(this)) {
    externalCheck_->setInterval(kExternalCheckMs);
    connect(externalCheck_, &QTimer::timeout, this, &Session::checkForExternalChanges);
}

Session::~Session() = default;

void Session::open(const std::string& databasePath) {
    std::unique_ptr<PriceDb> db;
    QString recovery;
    try {
        db = std::make_unique<PriceDb>(databasePath, Catalog::builtin());
    } catch (const DatabaseUnusable& e) {
        // Only a damaged file is moved: another application's database or a newer version's
        // is a good file in the wrong place, and the user decides what to do with it.
        if (e.reason() != DatabaseUnusable::Reason::Damaged) {
            throw;
        }
        const RecoveryOutcome r = setAsideAndRestore(databasePath);
        db = std::make_unique<PriceDb>(databasePath, Catalog::builtin());
        recovery = tr("%1\n\nThe damaged file is kept, unchanged, as %2.\n\n%3")
                       .arg(qs(e.what()), qs(r.setAsidePath),
                            r.restoredFrom ? tr("Your prices were restored from the backup %1; changes made after it "
                                                "are only in the damaged file.")
                                                 .arg(qs(*r.restoredFrom))
                                           : tr("There was no backup, so a new database with the default prices "
                                                "was started."));
    }
    adopt(std::move(db));
    for (const auto& note : db_->openNotes()) {
        emit warning(qs(note));
    }
    // Rows another program wrote that break the rules are used as they are; say so once.
    if (const auto broken = db_->rowsBreakingRules(); !broken.empty()) {
        emit warning(tr("%1 the app would refuse (written by another program?), e.g. %2 - correct or delete them "
                        "on the Prices or Cloud offers page (a setting is read as its default until set again); "
                        "'gpu-advisor db check' lists them")
                         .arg(qs(format::count(static_cast<long long>(broken.size()), "stored value")),
                              qs(broken.front().problem.describe())));
    }
    try {
        DbBackups(databasePath).makeIfDue(*db_);
    } catch (const std::exception& e) {
        emit warning(qs(e.what()));
    }
    if (!recovery.isEmpty()) {
        emit recovered(recovery);
    }
}

void Session::adopt(std::unique_ptr<PriceDb> db) {
    model_ = std::make_unique<perf::PerfModel>(db->catalog());
    db_ = std::move(db);
    seenChangeCounter_ = db_->externalChangeCounter();
    pricesValid_ = false;
    undoStack_->clear();
    externalCheck_->start();
    emit opened();
}

std::string Session::backUpNow() {
    return DbBackups(db().path()).make(db());
}

std::vector<BackupFile> Session::backups() const {
    return db_ ? DbBackups(db_->path()).list() : std::vector<BackupFile>{};
}

std::string Session::restoreFromBackup(const std::string& backupPath) {
    const std::string path = db().path();
    if (workersWriting_ > 0) {
        throw AdvisorError("an import is still running; restore when it has finished (nothing was changed)");
    }
    if (const auto problem = problemWithDatabaseFile(backupPath)) {
        throw AdvisorError("cannot restore: " + *problem + "; nothing was changed");
    }
    db_.reset(); // the file is about to be replaced: close it first
    std::string keptAs;
    try {
        keptAs = restoreBackup(path, backupPath);
    } catch (const std::exception&) {
        adopt(std::make_unique<PriceDb>(path, Catalog::builtin()));
        throw;
    }
    adopt(std::make_unique<PriceDb>(path, Catalog::builtin()));
    return keptAs;
}

bool Session::checkForExternalChanges() {
    if (!db_ || workersWriting_ > 0) {
        return false;
    }
    try {
        const std::int64_t counter = db_->externalChangeCounter();
        if (counter == seenChangeCounter_ && !db_->fileWasReplaced()) {
            return false;
        }
        seenChangeCounter_ = counter; // a reopen that fails is reported once, not every poll
        // Reopening reloads everything another program may have changed: prices, settings
        // and its own GPUs (the catalog).
        adopt(std::make_unique<PriceDb>(db_->path(), Catalog::builtin()));
    } catch (const std::exception& e) {
        externalCheck_->stop(); // say it once; the open database stays usable as it was
        emit warning(tr("Could not load changes made by another program: %1").arg(qs(e.what())));
        return false;
    }
    emit externalChangesLoaded();
    return true;
}

void Session::beginWorkerWrite() {
    ++workersWriting_;
}

void Session::endWorkerWrite() {
    if (--workersWriting_ == 0 && db_) {
        seenChangeCounter_ = db_->externalChangeCounter();
    }
}

PriceDb& Session::db() {
    if (!db_) {
        throw AdvisorError("the price database is not open yet");
    }
    return *db_;
}

const Catalog& Session::catalog() const {
    return db_ ? db_->catalog() : Catalog::builtin();
}

const perf::PerfModel& Session::model() const {
    if (!model_) {
        throw AdvisorError("the price database is not open yet");
    }
    return *model_;
}

const std::vector<Price>& Session::prices() {
    if (!pricesValid_ && db_) {
        prices_ = db_->prices();
        pricesValid_ = true;
    }
    return prices_;
}

Settings Session::settings() const {
    return db_ ? db_->settings() : Settings{};
}

void Session::changeSettings(const Settings& settings, const QString& description) {
    const Settings before = db().settings();
    if (before.toMap() == settings.toMap()) {
        return;
    }
    undoStack_->push(new ChangeSettingsCommand(*this, before, settings, description));
}

void Session::setHighlighted(const QStringList& gpuIds) {
    if (gpuIds != highlighted_) {
        highlighted_ = gpuIds;
        emit highlightedChanged();
    }
}

void Session::notifyPricesChanged() {
    pricesValid_ = false;
    emit pricesChanged();
}

void Session::notifyCloudOffersChanged() {
    emit cloudOffersChanged();
}

void Session::notifySettingsChanged() {
    emit settingsChanged();
}

void Session::notifyCatalogChanged() {
    model_ = std::make_unique<perf::PerfModel>(db().catalog());
    pricesValid_ = false;
    emit catalogChanged();
}

} // namespace advisor::ui
