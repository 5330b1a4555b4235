#include "session.h"

#include "common/errors.h"

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

Session::Session(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this)) {}

Session::~Session() = default;

void Session::open(const std::string& databasePath) {
    auto db = std::make_unique<PriceDb>(databasePath, Catalog::builtin());
    model_ = std::make_unique<perf::PerfModel>(db->catalog());
    db_ = std::move(db);
    pricesValid_ = false;
    undoStack_->clear();
    emit opened();
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

void Session::notifySettingsChanged() {
    emit settingsChanged();
}

void Session::notifyCatalogChanged() {
    model_ = std::make_unique<perf::PerfModel>(db().catalog());
    pricesValid_ = false;
    emit catalogChanged();
}

} // namespace advisor::ui
