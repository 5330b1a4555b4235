#pragma once
/// \file
/// Input widgets whose values outlive the window: restored from QSettings when the page is
/// built, saved on every change, and put back to their defaults on request. Nothing typed into
/// a calculator is lost by closing the app.

#include <QObject>
#include <QString>
#include <QVariant>

#include <vector>

class QWidget;

namespace advisor::ui {

class RememberedInputs : public QObject {
    Q_OBJECT

public:
    struct Input {
        QString name;     ///< stable within the group (the field's label)
        QWidget* widget;  ///< a QSpinBox, QDoubleSpinBox, QComboBox (by item data) or QCheckBox
    };

    /// Records each input's current value as its default, then restores what `group` saved.
    /// Inputs are restored in order, so one that resets another (a GPU that fills a cost)
    /// should come first.
    RememberedInputs(const QString& group, std::vector<Input> inputs, QObject* parent);

    /// Every input back to the value it had before restoring; saved as such.
    void resetToDefaults();
    /// Shows again what was saved when this was built. For data that arrives later (the price
    /// database opens after the window): filling it in may have changed inputs, or listed a
    /// GPU only now, and what the user saved wins.
    void reapplySaved();

private:
    void restore(const std::vector<QVariant>& values);
    void save(const Input& input) const;

    QString group_;
    std::vector<Input> inputs_;
    std::vector<QVariant> defaults_;
    std::vector<QVariant> saved_; ///< as read when built
    bool restoring_ = false;
};

/// The value an input shows, as RememberedInputs stores it.
QVariant inputValue(const QWidget* widget);
/// Shows `value` in the input; false if it cannot (an item no longer listed, a wrong type).
bool setInputValue(QWidget* widget, const QVariant& value);

} // namespace advisor::ui
