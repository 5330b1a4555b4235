#pragma once
/// \file
/// The Charts page: the seed's raw performance and performance-per-dollar charts, computed
/// live from the model, the user's prices and settings, filtered to what the user needs,
/// with exact values on hover and export to PNG, PDF, SVG and CSV.

#include "charts/chart_data.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QMouseEvent;
class QScrollArea;
class QSpinBox;
class QSplitter;

namespace advisor::ui {

class Session;

class ChartsPage : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPage(Session& session, QWidget* parent = nullptr);

    /// The chart's options as the controls and settings set them.
    charts::ChartOptions options() const;
    /// What is drawn now.
    const charts::ChartData& data() const { return data_; }
    QCustomPlot* plot() const { return plot_; }

    /// Recomputes and replots (called on every change; cheap - see chart_benchmark).
    void refresh();
    /// Asks for a file and exports; errors are shown in the window.
    void exportWithDialog();
    /// The text of the bar the keyboard is on (also in the status bar); empty when none.
    QString focusedBarText() const;

    /// Exports the current chart (the window's size for images). Throws AdvisorError.
    void exportTo(const QString& path);

    void setKind(charts::ChartKind kind);
    /// The measure the chart is sorted by; an LLM one (llm-decode, llm-prefill) charts LLM inference.
    void setSortBy(perf::Metric metric);
    /// LLM inference: the published model (empty id: an 8B model), and its weights (fp16, int8, int4).
    QComboBox* llmModelField() const { return llmModel_; }
    QComboBox* llmWeightsField() const { return llmWeights_; }
    QSpinBox* llmContextField() const { return llmContext_; }
    QSpinBox* llmSequencesField() const { return llmSequences_; }
    /// With "as many as fit": the tokens/s each sequence must still get (0: any).
    QDoubleSpinBox* llmSequenceSpeedField() const { return llmSequenceSpeed_; }
    /// Prompt processing's micro-batch (llama.cpp's -ub): the tokens each step multiplies.
    QSpinBox* llmMicroBatchField() const { return llmMicroBatch_; }
    QComboBox* llmSystemRamField() const { return llmSystemRam_; }
    QComboBox* llmEngineField() const { return llmEngine_; }
    QComboBox* llmSplitField() const { return llmSplit_; }
    void setMinimumMemory(double gb);

signals:
    void statusMessage(const QString& text);

protected:
    void changeEvent(QEvent* event) override; ///< light/dark palette switches restyle the chart
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildControls();
    void saveViewState() const;
    void restoreViewState();
    /// The choices the page keeps between sessions, by settings key ("charts/<key>": item data).
    std::vector<std::pair<const char*, QComboBox*>> savedChoices() const;
    void showTooltip(QMouseEvent* event);
    void fitChartToWidth();
    bool moveBarFocus(int key); ///< arrow keys on the chart; false for other keys
    void showFocusedBar();

    Session& session_;
    charts::ChartData data_;
    QComboBox* kind_ = nullptr;
    QComboBox* sortBy_ = nullptr;
    QComboBox* workload_ = nullptr;
    QComboBox* vendor_ = nullptr;
    QDoubleSpinBox* minMemory_ = nullptr;
    QCheckBox* fp32_ = nullptr;
    QCheckBox* onlyPriced_ = nullptr;
    QCheckBox* sparsity_ = nullptr; ///< 2:4 structured-sparse weights (off by default)
    QComboBox* llmModel_ = nullptr;
    QComboBox* llmWeights_ = nullptr;
    QSpinBox* llmContext_ = nullptr;
    QSpinBox* llmSequences_ = nullptr;
    QDoubleSpinBox* llmSequenceSpeed_ = nullptr;
    QSpinBox* llmMicroBatch_ = nullptr;
    QSpinBox* gpus_ = nullptr; ///< GPUs per setup: every bar that many cards, against as many of the reference
    QComboBox* llmSystemRam_ = nullptr;
    QComboBox* llmEngine_ = nullptr; ///< llama.cpp or a serving engine (no micro-batch, no system RAM)
    QComboBox* llmSplit_ = nullptr;  ///< the serving engine's split over the GPUs per setup
    QLabel* empty_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QSplitter* splitter_ = nullptr;
    bool restoring_ = false;
    // The bar the keyboard is on: a GPU row and an index into data_.metrics (none before the
    // first arrow key and after the chart changes).
    std::optional<size_t> focusRow_;
    size_t focusMetric_ = 0;
};

} // namespace advisor::ui
