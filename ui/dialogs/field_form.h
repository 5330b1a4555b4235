#pragma once
/// \file
/// A dialog form whose rows know the core field they set. A refusal from core is shown under
/// the form with each field named as its row is labelled ("Price per hour: must be more
/// than 0"), and the cursor goes to the first refused row. Shared by the dialogs that store
/// something through core.

#include "common/errors.h"

#include <QString>

#include <functional>
#include <map>
#include <string>

class QComboBox;
class QFormLayout;
class QLabel;
class QWidget;

namespace advisor {
class Catalog;
}

namespace advisor::ui {

class FieldForm {
public:
    FieldForm();

    QFormLayout* layout() const { return layout_; }
    /// The refusal, hidden until there is one; the dialog places it (under the form).
    QLabel* errorLabel() const { return error_; }

    /// Adds a row labelled `label` ("&Price per hour:") for core's `field` ("on_demand_usd_per_hour").
    void addRow(const QString& label, QWidget* widget, const std::string& field);
    /// Shows the refusal and puts the cursor in the first refused row.
    void showProblems(const InputError& e);
    /// Runs `store` (which stores through core and pushes the undo step); when core refuses,
    /// shows why and returns false, so the dialog stays open for the user to fix the field.
    bool tryStore(const std::function<void()>& store);
    /// The refusal shown, empty if none.
    QString error() const;

private:
    struct Row {
        QString label; ///< without '&' and ':'
        QWidget* widget;
    };
    QFormLayout* layout_;
    QLabel* error_;
    std::map<std::string, Row> rows_;
};

/// An editable GPU picker over the catalog's names (sorted, completing on any part of a
/// name), starting at `current`.
QComboBox* gpuNameBox(const Catalog& catalog, const QString& current);

} // namespace advisor::ui
