#pragma once
/// \file
/// PSU and wall circuit: the power supply a build needs (the guide: GPUs + CPU + 100 W, plus
/// 10%), its cables, and whether a household circuit carries it continuously.

#include "pages/calculators/calculator_tab.h"

class QTableWidget;

namespace advisor::ui {

class PsuTab : public CalculatorTab {
    Q_OBJECT

public:
    explicit PsuTab(Session& session, QWidget* parent = nullptr);
    QString resultText() const;
    QSpinBox* countField() const { return count_; }
    QDoubleSpinBox* cpuField() const { return cpu_; }
    QComboBox* gpuField() const { return gpu_; }
    QDoubleSpinBox* limitField() const { return limit_; }
    QDoubleSpinBox* otherField() const { return other_; }
    QDoubleSpinBox* bufferField() const { return buffer_; }
    QDoubleSpinBox* psuField() const { return psu_; }
    QTableWidget* circuits() const { return circuits_; }

protected:
    void compute() override;
    void refillFromData() override { followCpuSetting(); }

private:
    /// The CPU's watts from the cpu_watts setting, as in the build check and the command line.
    void followCpuSetting();
    QComboBox* gpu_ = nullptr;
    QSpinBox* count_ = nullptr;
    QDoubleSpinBox* cpu_ = nullptr;
    QDoubleSpinBox* limit_ = nullptr;
    QDoubleSpinBox* other_ = nullptr;
    QDoubleSpinBox* buffer_ = nullptr;
    QDoubleSpinBox* psu_ = nullptr;
    QLabel* result_ = nullptr;
    QTableWidget* circuits_ = nullptr;
};

} // namespace advisor::ui
