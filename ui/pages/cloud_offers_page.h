#pragma once
/// \file
/// The cloud offers in the database (shipped, dated and sourced, plus the user's own): a
/// searchable, sortable table; add an offer, delete the selected ones; both undoable. The
/// Cloud vs desktop calculator picks its offers from here.

#include <QWidget>

#include <cstdint>
#include <vector>

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
    /// Ids of the offers on the rows shown, in table order.
    std::vector<std::int64_t> shownIds() const;

public slots:
    void addOfferWithDialog();
    void deleteSelected();

signals:
    void statusMessage(const QString& text);

private:
    void reload();
    void applyFilter();

    Session& session_;
    QLineEdit* search_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace advisor::ui
