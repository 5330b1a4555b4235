#pragma once
/// \file
/// What every page shares: the price database, the catalog (shipped + the user's GPUs), the
/// performance model, the undo stack and the current recommendation. Pages read through it
/// and change data only through it, so each change is undoable and every page hears of it.

#include "catalog/catalog.h"
#include "perf/model.h"
#include "prices/price_db.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

class QUndoStack;

namespace advisor::ui {

class Session : public QObject {
    Q_OBJECT

public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    /// Opens the database (creating and seeding it when new). Throws AdvisorError naming
    /// the file. The window calls it after its first paint.
    void open(const std::string& databasePath);
    bool isOpen() const { return db_ != nullptr; }

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
    void notifySettingsChanged();
    void notifyCatalogChanged();

signals:
    void opened();
    void pricesChanged();
    void settingsChanged();
    void catalogChanged();
    void highlightedChanged();

private:
    std::unique_ptr<PriceDb> db_;
    std::unique_ptr<perf::PerfModel> model_;
    std::vector<Price> prices_;
    bool pricesValid_ = false;
    QStringList highlighted_;
    QUndoStack* undoStack_ = nullptr;
};

} // namespace advisor::ui
