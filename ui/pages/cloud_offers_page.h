#pragma once
/// \file
/// The cloud offers in the database (shipped, dated and sourced, plus the user's own): a
/// searchable, sortable table; add an offer, correct one or record its newer price, delete
/// the selected ones, import a file (all undoable) and export the offers shown. The Cloud vs desktop calculator picks its offers
/// from here.

#include "common/csv.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <set>
#include <vector>

class QCheckBox;
class QLineEdit;
class QTableWidget;

namespace advisor::ui {

class Session;

class CloudOffersPage : public QWidget {
    Q_OBJECT

public:
    explicit CloudOffersPage(Session& session, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    QLineEdit* searchField() const { return search_; }
    /// Shows only the newest observation of each offer (as the calculator lists them).
    QCheckBox* newestOnlyField() const { return newestOnly_; }
    /// Ids of the offers on the rows shown, in table order.
    std::vector<std::int64_t> shownIds() const;
    /// Adds the offers of a CSV or JSON file, all or nothing, as one undoable step. A refusal
    /// lists every bad row (in a dialog unless `quiet`, and in lastImportProblems()).
    /// Returns whether the file was applied.
    bool importFile(const QString& path, bool quiet = false);
    const QStringList& lastImportProblems() const { return importProblems_; }
    /// Writes the offers shown (the search and "Newest only" apply), in table order.
    void exportFile(const QString& path, csv::Style style = csv::Style::Commas);

public slots:
    /// Copies the current row's source address (its context menu's entry).
    bool copyCurrentSourceLink();
    void addOfferWithDialog();
    /// Opens the current offer in the offer dialog: correct it, or save a newer price of it.
    void editCurrentWithDialog();
    void deleteSelected();
    void importWithDialog();
    void exportWithDialog();

signals:
    void statusMessage(const QString& text);

private:
    void reload();
    void applyFilter();

    Session& session_;
    QLineEdit* search_ = nullptr;
    QCheckBox* newestOnly_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::set<std::int64_t> currentIds_; ///< the newest observation of each offer
    QStringList importProblems_;
};

} // namespace advisor::ui
