#pragma once
/// \file
/// Build check: a multi-GPU build against the hardware guide - fit and cooling, PCIe lanes,
/// CPU threads, RAM, power and network - as findings with a severity and the reason.

#include "pages/calculators/calculator_tab.h"

class QCheckBox;
class QTextBrowser;

namespace advisor::ui {

class BuildTab : public CalculatorTab {
    Q_OBJECT

public:
    explicit BuildTab(Session& session, QWidget* parent = nullptr);
    /// The findings as shown (one per line: severity, what to do, why).
    QString findingsText() const;
    /// The verdict, the counts, the modelled speed and the power supply, as shown.
    QString resultText() const;
    int findingCount() const { return findingCount_; }
    QSpinBox* countField() const { return count_; }
    QComboBox* gpuField() const { return gpu_; }
    QComboBox* extraGpuField() const { return extraGpu_; }
    QSpinBox* extraCountField() const { return extraCount_; }
    QComboBox* lanesField() const { return lanes_; }
    QDoubleSpinBox* limitField() const { return limit_; }

protected:
    void compute() override;

private:
    QComboBox* gpu_ = nullptr;
    QSpinBox* count_ = nullptr;
    QComboBox* extraGpu_ = nullptr;
    QSpinBox* extraCount_ = nullptr;
    QComboBox* lanes_ = nullptr;
    QSpinBox* spacing_ = nullptr;
    QSpinBox* threads_ = nullptr;
    QDoubleSpinBox* ram_ = nullptr;
    QCheckBox* blower_ = nullptr;
    QCheckBox* extenders_ = nullptr;
    QSpinBox* machines_ = nullptr;
    QDoubleSpinBox* network_ = nullptr;
    QDoubleSpinBox* limit_ = nullptr;
    QDoubleSpinBox* psu_ = nullptr;
    QLabel* summary_ = nullptr;
    QTextBrowser* findings_ = nullptr;
    int findingCount_ = 0;
};

} // namespace advisor::ui
