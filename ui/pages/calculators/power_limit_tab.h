#pragma once
/// \file
/// Power limit: what a lower limit costs in speed and saves in watts and money (seed: -50 W on
/// an RTX 2080 Ti costs ~7% in the worst case), with the performance-vs-watts curve.

#include "pages/calculators/calculator_tab.h"

class QCustomPlot;

namespace advisor::ui {

class PowerLimitTab : public CalculatorTab {
    Q_OBJECT

public:
    explicit PowerLimitTab(Session& session, QWidget* parent = nullptr);
    QDoubleSpinBox* limitField() const { return limit_; }
    QSpinBox* countField() const { return count_; }
    QComboBox* gpuField() const { return gpu_; }
    QComboBox* workField() const { return workload_; }
    QComboBox* llmModelField() const { return llmModel_; }
    QSpinBox* llmContextField() const { return llmContext_; }
    QString resultText() const;
    QCustomPlot* plot() const { return plot_; }

protected:
    void compute() override;

private:
    QComboBox* gpu_ = nullptr;
    QSpinBox* count_ = nullptr;
    QDoubleSpinBox* limit_ = nullptr;
    QComboBox* workload_ = nullptr;
    QComboBox* llmModel_ = nullptr;   ///< LLM work: a published model, or 8B Llama-like
    QComboBox* llmWeights_ = nullptr;
    QSpinBox* llmContext_ = nullptr;
    QLabel* result_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QString lastGpu_;
};

} // namespace advisor::ui
