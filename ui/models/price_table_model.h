#pragma once
/// \file
/// The price database as a table for Qt views: one row per stored price, editable in place.
/// An edit is validated by core before anything changes; a bad value is refused with the
/// reason (editRejected) and the database keeps the old one. Accepted edits are undoable.

#ifndef Q_MOC_RUN // moc cannot parse the C++20 standard headers core pulls in
#include "prices/price.h"
#endif

#include <QAbstractTableModel>

#include <vector>

namespace advisor::ui {

class Session;

class PriceTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { GpuColumn, ConditionColumn, AmountColumn, CurrencyColumn, DateColumn, SourceColumn, UrlColumn,
                  NoteColumn, ColumnCount };
    static constexpr int IdRole = Qt::UserRole + 2;

    explicit PriceTableModel(Session& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// The column header for a field core names in its errors ("amount" -> "Price"); the
    /// field itself when no column shows it.
    static QString fieldLabel(const std::string& field);
    /// The header of a column ("Price"); empty for no column.
    static QString columnTitle(int section);

    const Price& priceAt(int row) const { return prices_.at(static_cast<size_t>(row)); }
    /// Whether row `a` sorts before row `b` by `column`: prices as numbers, dates as dates and
    /// text ignoring ASCII case, compared where they are stored. Through SortRole each
    /// comparison built two lowercased strings: 2 s to sort 100,000 prices at start-up.
    bool sortsBefore(int a, int b, int column) const;
    /// Row of a price id, or -1.
    int rowOf(std::int64_t id) const;

signals:
    /// An edit was refused; `message` names the field and why. Nothing was changed.
    void editRejected(const QModelIndex& index, const QString& message);

private:
    void reload();

    Session& session_;
    std::vector<Price> prices_;
};

} // namespace advisor::ui
