#pragma once
/// \file
/// What every calculator tab shares: inputs on the left that recompute the results on every
/// change, results on the right, a GPU picker over the catalog (including the user's GPUs),
/// and refusals from core shown in the tab rather than swallowed.

#include <QWidget>

#include <map>
#include <string>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QScrollArea;
class QSpinBox;
class QVBoxLayout;

namespace advisor {
struct Gpu;
}

namespace advisor::ui {

class RememberedInputs;
class Session;

class CalculatorTab : public QWidget {
    Q_OBJECT

public:
    explicit CalculatorTab(Session& session, QWidget* parent = nullptr);

    /// Recomputes from the inputs (every input change calls it).
    void recompute();
    /// The refusal shown, empty when the inputs are valid.
    QString error() const;
    /// Keeps the inputs in the settings under `group`: restored now, saved on every change;
    /// a "Reset to defaults" button under them puts the tab's defaults back.
    void rememberInputs(const QString& group);
    void resetInputs();

protected:
    virtual void compute() = 0;
    /// After "Reset to defaults": inputs whose start depends on data (a cost from the prices,
    /// watts from a setting) take it again.
    virtual void refillFromData() {}
    /// Called at the end of the derived constructor: from now on, changes recompute.
    void ready();

    QFormLayout* inputs() const { return inputs_; }
    QVBoxLayout* results() const { return results_; }
    Session& session() const { return session_; }

    /// A GPU picker; with `noneText`, its first choice is no GPU (gpuOf gives nullptr).
    QComboBox* addGpuPicker(const QString& label, const char* defaultGpuId, const QString& noneText = {});
    const Gpu* gpuOf(QComboBox* picker) const;
    /// Leaves complete computers (DGX Spark) out of `picker`: for what only a desktop has (a PSU).
    void offerCardsOnly(QComboBox* picker);
    QSpinBox* addCount(const QString& label, int min, int max, int value);
    QDoubleSpinBox* addNumber(const QString& label, double min, double max, double value, int decimals,
                              const QString& suffix, const QString& zeroText = {});
    /// Recompute when `w` (a spin box, combo or check box) changes.
    void watch(QWidget* w);
    /// Core names `field` in a refusal; the tab shows it as `label` (the input's own label).
    void labelField(const std::string& field, const QString& label);
    QLabel* addResultLabel();

private:
    void refillPickers();

    Session& session_;
    QFormLayout* inputs_ = nullptr;
    QScrollArea* inputScroll_ = nullptr;
    QVBoxLayout* results_ = nullptr;
    QLabel* error_ = nullptr;
    QList<QComboBox*> pickers_;
    QList<QWidget*> watched_; ///< every input, in the order added
    RememberedInputs* remembered_ = nullptr;
    std::map<std::string, QString> fieldLabels_;
    bool computing_ = false;
    bool ready_ = false;
};

} // namespace advisor::ui
