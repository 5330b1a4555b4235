#include "widgets/table_export_dialog.h"

#include <QFileDialog>
#include <QObject>

namespace advisor::ui {

std::optional<TableExportTarget> askTableExportTarget(QWidget* parent, const QString& title, const QString& suggested) {
    const QString commas = QObject::tr("CSV (*.csv)");
    const QString semicolons =
        QObject::tr("CSV with semicolons and decimal commas, for a spreadsheet that uses them (*.csv)");
    const QString json = QObject::tr("JSON (*.json)");
    QString chosen = commas;
    const QString path = QFileDialog::getSaveFileName(
        parent, title, suggested, QStringList{commas, semicolons, json}.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty()) {
        return std::nullopt;
    }
    return TableExportTarget{path, chosen == semicolons ? csv::Style::SemicolonsDecimalCommas : csv::Style::Commas};
}

} // namespace advisor::ui
