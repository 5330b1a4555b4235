#pragma once
/// \file
/// The Prices table as shown: searched (GPU, source, note, date), filtered by condition, and
/// sorted by each column's value (PriceTableModel::sortsBefore), not its text.

#include <QSortFilterProxyModel>

namespace advisor::ui {

class PriceFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// "new", "used", or empty for both.
    void setCondition(const QString& condition);
    /// Case-insensitive text searched in the GPU, source, note and date; empty shows all.
    void setNeedle(const QString& text);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString condition_;
    QString needle_;
};

} // namespace advisor::ui
