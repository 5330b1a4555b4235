#pragma once
/// \file
/// The Prices page: the price database as an editable, sortable, searchable table with undo;
/// add and delete prices, add your own GPUs, import and export CSV/JSON (large files in the
/// background with progress and cancel, every bad row reported), a price-history plot of the
/// selected GPU, and the settings that change results.

#include "common/csv.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QThread;

namespace advisor::ui {

class PriceTableModel;
class Session;

class PricesPage : public QWidget {
    Q_OBJECT

public:
    explicit PricesPage(Session& session, QWidget* parent = nullptr);
    ~PricesPage() override;

    PriceTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QCustomPlot* historyPlot() const { return history_; }
    /// The message under the table (the last refusal), empty when none.
    QString message() const;
    /// Problems of the last refused import, one "file:line: field: reason" per line.
    const QStringList& lastImportProblems() const { return importProblems_; }

    void setFilterText(const QString& text);
    /// Starts importing in the background; emits importFinished. Errors are shown in the window
    /// unless `quiet` (tests).
    void importFile(const QString& path, bool quiet = false);
    /// Writes all prices; throws AdvisorError naming the file.
    void exportFile(const QString& path, csv::Style style = csv::Style::Commas);
    void deleteSelected();
    /// Asks a running import to stop; it then changes nothing.
    void cancelImport();

    /// The source address of the current row (empty when none).
    QString currentSourceUrl() const;

public slots:
    /// Copies the current row's source address (its context menu's entry).
    bool copyCurrentSourceLink();
    void addPriceWithDialog();
    void addGpuWithDialog();
    void importWithDialog();
    /// The prices this version ships, added to the database (rows it holds are skipped), as one
    /// undoable step: a database an older version made gains the ones added since.
    void addShippedPrices();
    void exportWithDialog();

signals:
    void importFinished(bool ok, const QString& summary);
    void statusMessage(const QString& text);

private:
    void showMessage(const QString& text, bool error);
    void updateHistory();
    QString selectedGpuId() const;

    Session& session_;
    PriceTableModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QTableView* view_ = nullptr;
    QLineEdit* search_ = nullptr;
    QComboBox* condition_ = nullptr;
    QLabel* message_ = nullptr;
    QCustomPlot* history_ = nullptr;
    QStringList importProblems_;
    QThread* importThread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelImport_;
};

} // namespace advisor::ui
