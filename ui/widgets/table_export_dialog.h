#pragma once
/// \file
/// The save dialog of the Prices and Cloud offers pages: where to write, and as which kind of
/// file (CSV with commas, CSV with semicolons and decimal commas for spreadsheets that use
/// them, or JSON; the extension says CSV or JSON, the chosen filter which CSV).

#include "common/csv.h"

#include <QString>

#include <optional>

class QWidget;

namespace advisor::ui {

struct TableExportTarget {
    QString path;
    csv::Style style = csv::Style::Commas;
};

/// Asks for the file; nullopt when cancelled.
std::optional<TableExportTarget> askTableExportTarget(QWidget* parent, const QString& title, const QString& suggested);

} // namespace advisor::ui
