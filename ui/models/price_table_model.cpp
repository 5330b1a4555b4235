#include "models/price_table_model.h"

#include "commands/price_commands.h"
#include "common/errors.h"
#include "common/format.h"
#include "common/text.h"
#include "session.h"
#include "ui_text.h"

#include <QUndoStack>

#include <algorithm>
#include <map>

namespace advisor::ui {
PriceTableModel::PriceTableModel(Session& session, QObject* parent) : QAbstractTableModel(parent), session_(session) {
    for (auto signal : {&Session::opened, &Session::pricesChanged, &Session::catalogChanged}) {
        connect(&session_, signal, this, &PriceTableModel::reload);
    }
    reload();
}

void PriceTableModel::reload() {
    std::vector<Price> next = session_.isOpen() ? session_.prices() : std::vector<Price>{};
    // Same rows in the same order (an edit that did not move its row): update in place, so
    // views keep their selection and current cell.
    const bool sameRows = next.size() == prices_.size() &&
                          std::equal(next.begin(), next.end(), prices_.begin(),
                                     [](const Price& a, const Price& b) { return a.id == b.id; });
    if (!sameRows) {
        beginResetModel();
        prices_ = std::move(next);
        endResetModel();
        return;
    }
    for (size_t i = 0; i < next.size(); ++i) {
        if (!next[i].sameObservation(prices_[i])) {
            prices_[i] = std::move(next[i]);
            emit dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
        }
    }
}

int PriceTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(prices_.size());
}

int PriceTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int PriceTableModel::rowOf(std::int64_t id) const {
    for (size_t i = 0; i < prices_.size(); ++i) {
        if (prices_[i].id == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

bool PriceTableModel::sortsBefore(int a, int b, int column) const {
    const Price& l = priceAt(a);
    const Price& r = priceAt(b);
    switch (column) {
    case AmountColumn:
        return l.amount < r.amount;
    case DateColumn:
        return l.observed < r.observed;
    case GpuColumn:
        return text::lessIgnoringAsciiCase(l.gpuName, r.gpuName);
    case ConditionColumn:
        return text::lessIgnoringAsciiCase(toString(l.condition), toString(r.condition));
    case CurrencyColumn:
        return text::lessIgnoringAsciiCase(l.currency, r.currency);
    case SourceColumn:
        return text::lessIgnoringAsciiCase(l.source, r.source);
    case UrlColumn:
        return text::lessIgnoringAsciiCase(l.sourceUrl, r.sourceUrl);
    case NoteColumn:
        return text::lessIgnoringAsciiCase(l.note, r.note);
    default:
        return false;
    }
}

QVariant PriceTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) {
        return {};
    }
    const Price& p = priceAt(index.row());
    if (role == IdRole) {
        return QVariant::fromValue<qlonglong>(p.id);
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() == AmountColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole) {
        return {};
    }
    const bool edit = role == Qt::EditRole;
    switch (index.column()) {
    case GpuColumn:
        return qs(p.gpuName);
    case ConditionColumn:
        return qs(toString(p.condition));
    case AmountColumn:
        return edit ? qs(text::formatDoubleExact(p.amount)) : qs(format::number(p.amount, p.amount < 100 ? 2 : 0));
    case CurrencyColumn:
        return qs(p.currency);
    case DateColumn:
        return qs(p.observed.toString());
    case SourceColumn:
        return qs(p.source);
    case UrlColumn:
        return qs(p.sourceUrl);
    case NoteColumn:
        return qs(p.note);
    default:
        return {};
    }
}

QVariant PriceTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const QString title = columnTitle(section);
    return title.isEmpty() ? QVariant() : QVariant(title);
}

QString PriceTableModel::columnTitle(int section) {
    switch (section) {
    case GpuColumn:
        return tr("GPU");
    case ConditionColumn:
        return tr("Condition");
    case AmountColumn:
        return tr("Price");
    case CurrencyColumn:
        return tr("Currency");
    case DateColumn:
        return tr("Date");
    case SourceColumn:
        return tr("Source");
    case UrlColumn:
        return tr("URL");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

QString PriceTableModel::fieldLabel(const std::string& field) {
    static const std::map<std::string, Column> columns = {
        {"gpu", GpuColumn},        {"condition", ConditionColumn},  {"amount", AmountColumn},
        {"currency", CurrencyColumn}, {"observed_date", DateColumn}, {"source", SourceColumn},
        {"source_url", UrlColumn}, {"note", NoteColumn}};
    const auto it = columns.find(field);
    return it == columns.end() ? qs(field) : columnTitle(it->second);
}

Qt::ItemFlags PriceTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool PriceTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::EditRole || index.row() >= rowCount()) {
        return false;
    }
    const Price& p = priceAt(index.row());
    PriceInput in = toInput(p);
    const std::string v = value.toString().toStdString();
    std::string* field = nullptr;
    switch (index.column()) {
    case GpuColumn:
        field = &in.gpu;
        break;
    case ConditionColumn:
        field = &in.conditionText;
        break;
    case AmountColumn:
        field = &in.amountText;
        break;
    case CurrencyColumn:
        field = &in.currency;
        break;
    case DateColumn:
        field = &in.dateText;
        break;
    case SourceColumn:
        field = &in.source;
        break;
    case UrlColumn:
        field = &in.sourceUrl;
        break;
    case NoteColumn:
        field = &in.note;
        break;
    default:
        return false;
    }
    if (*field == v) {
        return true; // unchanged: no undo step
    }
    *field = v;
    // An empty date means "today" for new prices; in an edit it is a mistake.
    if (index.column() == DateColumn && v.empty()) {
        emit editRejected(index, tr("%1: is empty; use YYYY-MM-DD or YYYY-MM").arg(columnTitle(DateColumn)));
        return false;
    }
    try {
        const QString what = tr("Edit %1 of %2").arg(headerData(index.column(), Qt::Horizontal).toString().toLower(),
                                                   qs(p.gpuName));
        session_.undoStack()->push(EditPriceCommand::create(session_, p.id, in, what));
    } catch (const InputError& e) {
        emit editRejected(index, describeProblems(e, QStringLiteral("; "), &PriceTableModel::fieldLabel));
        return false;
    }
    return true;
}

} // namespace advisor::ui
