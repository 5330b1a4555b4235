#include "models/price_filter_proxy.h"

#include "models/price_table_model.h"

namespace advisor::ui {

void PriceFilterProxy::setCondition(const QString& condition) {
    condition_ = condition;
    invalidateFilter();
}

void PriceFilterProxy::setNeedle(const QString& text) {
    needle_ = text.trimmed();
    invalidateFilter();
}

bool PriceFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    return static_cast<const PriceTableModel*>(sourceModel())->sortsBefore(left.row(), right.row(), left.column());
}

bool PriceFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    const auto* m = sourceModel();
    if (!condition_.isEmpty() && m->index(row, PriceTableModel::ConditionColumn, parent).data().toString() != condition_) {
        return false;
    }
    if (needle_.isEmpty()) {
        return true;
    }
    for (const int c : {PriceTableModel::GpuColumn, PriceTableModel::SourceColumn, PriceTableModel::NoteColumn,
                        PriceTableModel::DateColumn}) {
        if (m->index(row, c, parent).data().toString().contains(needle_, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

} // namespace advisor::ui
