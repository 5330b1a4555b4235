#pragma once
/// \file
/// Memory needs: how much GPU memory a model needs for inference, LoRA/QLoRA fine-tuning or
/// full training - itemised as a stacked bar - and which GPUs hold it on 1, 2, 4 or 8 cards.

#include "pages/calculators/calculator_tab.h"

class QCheckBox;
class QCustomPlot;
class QTableWidget;

namespace advisor::calc {
struct ModelShape;
}

namespace advisor::ui {

class MemoryTab : public CalculatorTab {
    Q_OBJECT

public:
    explicit MemoryTab(Session& session, QWidget* parent = nullptr);
    /// A published model (its size and shape), or "Any size" (empty data).
    QComboBox* modelField() const { return model_; }
    QDoubleSpinBox* paramsField() const { return params_; }
    QComboBox* modeField() const { return mode_; }
    QComboBox* weightsField() const { return weights_; }
    QSpinBox* layersField() const { return layers_; }
    QSpinBox* hiddenField() const { return hidden_; }
    QSpinBox* kvHeadsField() const { return kvHeads_; }
    QSpinBox* headDimField() const { return headDim_; }
    QComboBox* kvCacheField() const { return kvCache_; }
    /// Inference: the engine whose own files hold the weights (empty data: none in particular).
    QComboBox* engineField() const { return engine_; }
    QSpinBox* shardsField() const { return shards_; }
    /// Inference with TensorRT-LLM over several GPUs: how it splits the model (memory --split).
    QComboBox* splitField() const { return split_; }
    QSpinBox* contextField() const { return context_; }
    /// Prompt tokens inference reads at once; 0 is "whole prompt".
    QSpinBox* prefillChunkField() const { return prefillChunk_; }
    QSpinBox* loraRankField() const { return loraRank_; }
    QCheckBox* flashAttentionField() const { return flashAttention_; }
    QString resultText() const;
    QCustomPlot* plot() const { return plot_; }
    QTableWidget* fits() const { return fits_; }

protected:
    void compute() override;

private:
    void fitLegendToPlot();
    void followModel();
    void nameWeightsForEngine();

    QComboBox* model_ = nullptr;
    QDoubleSpinBox* params_ = nullptr;
    QComboBox* mode_ = nullptr;
    QComboBox* weights_ = nullptr;
    QSpinBox* context_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QComboBox* checkpointing_ = nullptr;
    QSpinBox* shards_ = nullptr;
    QComboBox* split_ = nullptr;
    QCheckBox* offload_ = nullptr;
    QSpinBox* loraRank_ = nullptr;
    QCheckBox* flashAttention_ = nullptr;
    QSpinBox* layers_ = nullptr;
    QSpinBox* hidden_ = nullptr;
    QSpinBox* kvHeads_ = nullptr;
    QSpinBox* headDim_ = nullptr;
    QComboBox* kvCache_ = nullptr;
    QComboBox* engine_ = nullptr;
    QSpinBox* prefillChunk_ = nullptr;
    QLabel* result_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QTableWidget* fits_ = nullptr;
};

} // namespace advisor::ui
