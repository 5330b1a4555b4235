#include "pages/charts_page.h"

#include "charts/bar_chart_builder.h"
#include "charts/chart_export.h"
#include "common/errors.h"
#include "pages/settings_panel.h"
#include "session.h"
#include "widgets/compact_combo.h"
#include "widgets/model_choice.h"
#include "widgets/plot_fit.h"
#include "widgets/vertical_scroll.h"
#include "widgets/shortcut_list.h"
#include "widgets/system_ram_choice.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace advisor::ui {

namespace {

// The options column's first width: room for every row on one line, and on a 1024 px
// screen the chart keeps about 490 px.
constexpr int kOptionsWidth = 320;

// The last two chart LLM inference instead (token generation and prompt processing in tokens/s).
const perf::Metric kSortable[] = {perf::Metric::Int8Inference, perf::Metric::Fp16Inference,
                                  perf::Metric::Fp16Training, perf::Metric::Fp32Training,
                                  perf::Metric::LlmDecode,     perf::Metric::LlmPrefill};

} // namespace

ChartsPage::ChartsPage(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    buildControls();
    restoreViewState();
    for (auto signal : {&Session::opened, &Session::pricesChanged, &Session::settingsChanged, &Session::catalogChanged,
                        &Session::highlightedChanged}) {
        connect(&session_, signal, this, &ChartsPage::refresh);
    }
    refresh();
}

void ChartsPage::buildControls() {
    kind_ = new QComboBox;
    kind_->addItem(tr("Raw performance"), QStringLiteral("raw"));
    kind_->addItem(tr("Performance per dollar"), QStringLiteral("perf-per-dollar"));
    sortBy_ = new QComboBox;
    fp32_ = new QCheckBox(tr("Show &32-bit training"));
    for (const auto m : kSortable) {
        const QString label = QString::fromStdString(charts::metricLabel(m));
        sortBy_->addItem(perf::isLlm(m) ? tr("LLM %1").arg(label) : label, QString::fromLatin1(perf::toString(m)));
    }
    sortBy_->setCurrentIndex(2);
    workload_ = new QComboBox;
    workload_->addItem(tr("Transformers"), QStringLiteral("transformer"));
    workload_->addItem(tr("CNNs"), QStringLiteral("cnn"));
    workload_->addItem(tr("RNNs"), QStringLiteral("rnn"));
    workload_->addItem(tr("Recommender models"), QStringLiteral("recsys"));
    workload_->addItem(tr("Language models (8B)"), QStringLiteral("llm"));
    vendor_ = new QComboBox;
    vendor_->addItem(tr("All vendors"), QString());
    for (const char* v : {"NVIDIA", "AMD", "Intel"}) {
        vendor_->addItem(QString::fromLatin1(v), QString::fromLatin1(v));
    }
    minMemory_ = new QDoubleSpinBox;
    minMemory_->setRange(0, 512);
    minMemory_->setDecimals(0);
    minMemory_->setSuffix(tr(" GB"));
    minMemory_->setSingleStep(4);
    minMemory_->setToolTip(tr("Leave out GPUs with less memory (seed: 24 GB for transformers)"));
    gpus_ = new QSpinBox;
    gpus_->setObjectName(QStringLiteral("gpusPerSetup"));
    gpus_->setRange(1, 8);
    gpus_->setKeyboardTracking(false);
    gpus_->setToolTip(tr("Every bar a setup of this many of the GPU on its own links (data-parallel training, "
                         "models split over them), against as many of the reference GPU; perf/$ counts them all"));
    onlyPriced_ = new QCheckBox(tr("Only &GPUs with a price"));
    sparsity_ = new QCheckBox(tr("2:4 sp&arse weights"));
    sparsity_->setToolTip(tr("Assume 2 of every 4 weights are zero (structured sparsity). The tensor cores of Ampere "
                             "and later GPUs multiply such weights twice as fast (seed: up to 2x on the matmuls); "
                             "other GPUs keep their dense speed. Few trained networks are sparse, so it is off "
                             "by default."));

    // LLM inference (sorted by an LLM measure): the model, its weights and the context.
    llmModel_ = new QComboBox;
    fillModelChoice(llmModel_, tr("8B (Llama-like)"));
    llmWeights_ = new QComboBox;
    fillLlmWeightsChoice(llmWeights_);
    llmContext_ = new QSpinBox;
    llmContext_->setRange(1, 1048576);
    llmContext_->setValue(512);
    describeLlmContextField(llmContext_);
    llmSequences_ = new QSpinBox;
    describeLlmSequencesField(llmSequences_);
    llmSequenceSpeed_ = new QDoubleSpinBox;
    describeLlmSequenceSpeedField(llmSequenceSpeed_);

    llmMicroBatch_ = new QSpinBox;
    llmMicroBatch_->setRange(1, 1048576);
    llmMicroBatch_->setValue(perf::kDefaultMicroBatchTokens);
    llmMicroBatch_->setToolTip(tr("Prompt processing: the prompt tokens each step multiplies together (llama.cpp's "
                                  "micro-batch, -ub; default 512). Each step reads the weights its tokens use once, "
                                  "which a mixture of experts' prompt can wait on. Token generation is unaffected."));

    llmSystemRam_ = new QComboBox;
    fillSystemRamChoice(llmSystemRam_);
    llmEngine_ = new QComboBox;
    fillLlmEngineChoice(llmEngine_);
    llmSplit_ = new QComboBox;
    fillLlmSplitChoice(llmSplit_);

    for (QComboBox* box : {kind_, sortBy_, workload_, llmModel_, llmSystemRam_}) {
        makeCompact(box, 12); // the options column stays narrow beside the chart
    }

    auto* chartBox = new QGroupBox(tr("Chart"));
    auto* form = new QFormLayout(chartBox);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // a narrow column puts labels above fields
    form->addRow(tr("&Chart:"), kind_);
    form->addRow(tr("&Sort by:"), sortBy_);
    form->addRow(QString(), fp32_);
    form->addRow(tr("&Workload:"), workload_);
    form->addRow(tr("Ve&ndor:"), vendor_);
    form->addRow(tr("&Memory at least:"), minMemory_);
    form->addRow(tr("GPUs per setup:"), gpus_); // no Alt key free on this screen, as for the system RAM
    form->addRow(QString(), onlyPriced_);
    form->addRow(QString(), sparsity_);
    form->addRow(tr("LLM mo&del:"), llmModel_);
    form->addRow(tr("LLM we&ights:"), llmWeights_);
    form->addRow(tr("LLM conte&xt:"), llmContext_);
    form->addRow(tr("LLM se&quences:"), llmSequences_);
    form->addRow(tr("LLM speed of each:"), llmSequenceSpeed_); // no Alt key free, as for the system RAM
    form->addRow(tr("LLM micro-batch:"), llmMicroBatch_); // no Alt key free, as for the system RAM
    // No Alt key: every letter of its label is taken on this screen (everyAltKeyOnAScreenIsUnique).
    form->addRow(tr("LLM system RAM:"), llmSystemRam_);
    form->addRow(tr("LLM engine:"), llmEngine_); // no Alt key free, as for the system RAM
    form->addRow(tr("LLM split over GPUs:"), llmSplit_);
    auto* assumptions = new QGroupBox(tr("Assumptions (shared with every page)"));
    auto* assumptionsLayout = new QVBoxLayout(assumptions);
    assumptionsLayout->addWidget(new SettingsPanel(session_));

    auto* side = new QVBoxLayout;
    side->addWidget(chartBox);
    side->addWidget(assumptions);
    side->addStretch(1);

    plot_ = new QCustomPlot;
    plot_->setMouseTracking(true);
    plot_->setFocusPolicy(Qt::StrongFocus);
    plot_->setAccessibleName(tr("Chart"));
    plot_->setWhatsThis(tr("Arrow keys move from bar to bar (Up/Down: GPUs, Left/Right: measures, Home/End: "
                           "first and last GPU) and say what each bar means; Escape hides it."));
    plot_->setProperty(kKeyboardHelpProperty,
                       QStringList{tr("Up, Down (on the chart)|Previous or next GPU's bar, with what it means"),
                                   tr("Left, Right (on the chart)|The GPU's bar for the previous or next measure"),
                                   tr("Home, End (on the chart)|The first or last GPU"),
                                   tr("Esc (on the chart)|Hide the bar's details")});
    plot_->installEventFilter(this); // arrow keys (moveBarFocus)
    connect(plot_, &QCustomPlot::mouseMove, this, &ChartsPage::showTooltip);
    scroll_ = new QScrollArea;
    scroll_->setWidget(plot_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    callOnResize(scroll_->viewport(), [this] { // the chart's words follow its width
        if (!data_.rows.empty()) {
            fitChartToWidth();
        }
    });
    empty_ = new QLabel;
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->hide();
    auto* chartColumn = new QVBoxLayout;
    chartColumn->setContentsMargins(4, 0, 0, 0); // every pixel of width goes to the chart
    chartColumn->addWidget(empty_);
    chartColumn->addWidget(scroll_, 1);

    // Options | chart, resizable; the options scroll when the window is short.
    auto* sideWidget = new QWidget;
    sideWidget->setLayout(side);
    QScrollArea* sideScroll = scrollVertically(sideWidget);
    sideScroll->setMinimumWidth(sideWidget->minimumSizeHint().width() + 8); // drag the splitter to hide it
    auto* chartWidget = new QWidget;
    chartWidget->setLayout(chartColumn);
    splitter_ = new QSplitter(Qt::Horizontal);
    splitter_->addWidget(sideScroll);
    splitter_->addWidget(chartWidget);
    splitter_->setStretchFactor(1, 1);
    splitter_->setSizes({std::min(kOptionsWidth, sideWidget->sizeHint().width()), 900});
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);
    connect(splitter_, &QSplitter::splitterMoved, this, [this] { saveViewState(); });

    const auto changed = [this] {
        if (!restoring_) {
            saveViewState();
            refresh();
        }
    };
    for (QComboBox* c :
         {kind_, sortBy_, workload_, vendor_, llmModel_, llmWeights_, llmSystemRam_, llmEngine_, llmSplit_}) {
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    }
    connect(llmContext_, &QSpinBox::valueChanged, this, changed);
    connect(llmSequences_, &QSpinBox::valueChanged, this, changed);
    connect(llmSequenceSpeed_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(llmMicroBatch_, &QSpinBox::valueChanged, this, changed);
    connect(gpus_, &QSpinBox::valueChanged, this, changed);
    connect(minMemory_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(fp32_, &QCheckBox::toggled, this, changed);
    connect(onlyPriced_, &QCheckBox::toggled, this, changed);
    connect(sparsity_, &QCheckBox::toggled, this, changed);
}

charts::ChartOptions ChartsPage::options() const {
    charts::ChartOptions o;
    o.kind = charts::parseChartKind(kind_->currentData().toString().toStdString()).value_or(charts::ChartKind::RawPerformance);
    o.metrics = charts::defaultChartMetrics(fp32_->isChecked());
    o.sortBy = perf::parseMetric(sortBy_->currentData().toString().toStdString()).value_or(perf::Metric::Fp16Training);
    if (o.sortBy == perf::Metric::Fp32Training && !fp32_->isChecked()) {
        o.metrics.push_back(perf::Metric::Fp32Training); // sorting by it shows it
    }
    if (perf::isLlm(o.sortBy)) {
        o.metrics = charts::llmChartMetrics();
        applyLlmChoices(o.llm, llmModel_, llmWeights_, llmContext_);
        applyLlmSequences(o.llm, llmSequences_, llmSequenceSpeed_);
        o.llm.llmEngine = chosenLlmEngine(llmEngine_);
        // One GPU is not split; llama.cpp's split is by layers whatever the box says.
        o.llm.llmSplit = gpus_->value() > 1 ? chosenLlmSplit(llmSplit_) : perf::LlmSplit::Tensors;
        if (o.llm.llmEngine == perf::LlmEngine::LlamaCpp) { // a serving engine has neither
            o.llm.llmMicroBatchTokens = llmMicroBatch_->value();
            o.llm.systemRamGbs = chosenSystemRamGbs(llmSystemRam_);
        }
    }
    o.workload = perf::parseWorkloadChoice(workload_->currentData().toString().toStdString())
                     .value_or(perf::WorkloadChoice{});
    o.vendor = vendor_->currentData().toString().toStdString();
    o.minMemoryGb = minMemory_->value();
    o.gpus = gpus_->value();
    o.onlyPriced = onlyPriced_->isChecked();
    o.sparsity24 = sparsity_->isChecked();
    o.settings = session_.settings();
    for (const auto& id : session_.highlighted()) {
        o.highlight.push_back(id.toStdString());
    }
    return o;
}

void ChartsPage::refresh() {
    // An LLM measure charts LLM inference: its own options apply, the workload's do not.
    const auto sortBy = perf::parseMetric(sortBy_->currentData().toString().toStdString());
    const bool llm = sortBy && perf::isLlm(*sortBy);
    for (QWidget* w : std::initializer_list<QWidget*>{workload_, fp32_, sparsity_}) {
        w->setEnabled(!llm);
    }
    for (QWidget* w : std::initializer_list<QWidget*>{llmModel_, llmWeights_, llmContext_, llmSequences_, llmEngine_}) {
        w->setEnabled(llm);
    }
    const bool llamaCpp = chosenLlmEngine(llmEngine_) == perf::LlmEngine::LlamaCpp;
    nameLlmWeightsForEngine(llmWeights_, chosenLlmEngine(llmEngine_));
    llmMicroBatch_->setEnabled(llm && llamaCpp);
    llmSequenceSpeed_->setEnabled(llm && llmSequences_->value() == 0); // a speed limits "as many as fit"
    llmSystemRam_->setEnabled(llm && llamaCpp);
    llmSplit_->setEnabled(llm && !llamaCpp && gpus_->value() > 1);
    if (!session_.isOpen()) {
        empty_->setText(tr("Opening the price database…"));
        empty_->show();
        scroll_->hide();
        return;
    }
    try {
        data_ = charts::buildChartData(session_.catalog(), session_.model(), session_.prices(), options());
    } catch (const AdvisorError& e) {
        empty_->setText(QString::fromUtf8(e.what()));
        empty_->show();
        scroll_->hide();
        return;
    }
    if (focusRow_) { // the rows may have changed
        focusRow_.reset();
        QToolTip::hideText();
    }
    const bool nothing = data_.rows.empty();
    empty_->setVisible(nothing);
    scroll_->setVisible(!nothing);
    if (nothing) {
        empty_->setText(tr("No GPU matches the filters. %1")
                            .arg(QString::fromStdString(data_.notes.empty() ? std::string() : data_.notes.back())));
        return;
    }
    plot_->setBufferDevicePixelRatio(plot_->devicePixelRatioF()); // crisp on high-DPI screens, also after moving
    BarChartBuilder::build(*plot_, data_, ChartStyle::fromPalette(palette(), font()));
    fitChartToWidth();
}

void ChartsPage::fitChartToWidth() {
    // Titles, notes and legend wrap to the visible width instead of scrolling sideways (down
    // to a floor, below which the chart would be unreadable anyway); the rows keep their height.
    constexpr int kNarrowest = 320;
    const int extra = fitPlotToWidth(*plot_, std::max(kNarrowest, scroll_->viewport()->width()));
    plot_->setMinimumHeight(BarChartBuilder::preferredHeight(data_) + extra);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool ChartsPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::KeyPress &&
        moveBarFocus(static_cast<QKeyEvent*>(event)->key())) {
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

bool ChartsPage::moveBarFocus(int key) {
    if (data_.rows.empty() || data_.metrics.empty()) {
        return false;
    }
    const size_t last = data_.rows.size() - 1;
    if (key == Qt::Key_Escape) {
        if (!focusRow_) {
            return false;
        }
        focusRow_.reset();
        showFocusedBar();
        return true;
    }
    if (!focusRow_) { // the first key lands on the top GPU's bar of the sorting measure
        if (key != Qt::Key_Up && key != Qt::Key_Down && key != Qt::Key_Left && key != Qt::Key_Right &&
            key != Qt::Key_Home && key != Qt::Key_End) {
            return false;
        }
        const auto sorted = std::find(data_.metrics.begin(), data_.metrics.end(), options().sortBy);
        focusMetric_ = sorted == data_.metrics.end() ? 0 : static_cast<size_t>(sorted - data_.metrics.begin());
        focusRow_ = key == Qt::Key_End ? last : 0;
        showFocusedBar();
        return true;
    }
    size_t& row = *focusRow_;
    switch (key) {
    case Qt::Key_Up: row = row == 0 ? 0 : row - 1; break;
    case Qt::Key_Down: row = std::min(last, row + 1); break;
    case Qt::Key_Home: row = 0; break;
    case Qt::Key_End: row = last; break;
    case Qt::Key_Left: focusMetric_ = focusMetric_ == 0 ? 0 : focusMetric_ - 1; break;
    case Qt::Key_Right: focusMetric_ = std::min(data_.metrics.size() - 1, focusMetric_ + 1); break;
    default: return false;
    }
    showFocusedBar();
    return true;
}

QString ChartsPage::focusedBarText() const {
    return focusRow_ ? BarChartBuilder::barText(data_, *focusRow_, focusMetric_) : QString();
}

void ChartsPage::showFocusedBar() {
    for (int p = 0; p < plot_->plottableCount(); ++p) {
        plot_->plottable(p)->setSelection(QCPDataSelection());
    }
    if (!focusRow_) {
        QToolTip::hideText();
        plot_->replot();
        return;
    }
    if (const auto index = BarChartBuilder::barIndex(*plot_, *focusRow_, focusMetric_)) {
        plot_->plottable(static_cast<int>(focusMetric_))->setSelection(QCPDataSelection(QCPDataRange(*index, *index + 1)));
    }
    plot_->replot(QCustomPlot::rpImmediateRefresh); // lays out, so the bar's place is known
    const QString text = focusedBarText();
    // The bar's middle, or the GPU's row when it has no bar for this measure.
    const QPointF at = BarChartBuilder::barCentre(*plot_, *focusRow_, focusMetric_)
                           .value_or(QPointF(plot_->xAxis->coordToPixel(0),
                                             plot_->yAxis->coordToPixel(static_cast<double>(*focusRow_))));
    scroll_->ensureVisible(static_cast<int>(at.x()), static_cast<int>(at.y()), 20, 60);
    QToolTip::showText(plot_->mapToGlobal(at.toPoint()), text, plot_);
    plot_->setAccessibleDescription(text); // what a screen reader reads for the chart
    emit statusMessage(text.section(QLatin1Char('\n'), 0, 2).replace(QLatin1Char('\n'), QStringLiteral("; ")));
}

void ChartsPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        refresh();
    }
}

void ChartsPage::showTooltip(QMouseEvent* event) {
    if (const auto text = BarChartBuilder::tooltipAt(*plot_, data_, event->position())) {
        QToolTip::showText(event->globalPosition().toPoint(), *text, plot_);
    } else {
        QToolTip::hideText();
    }
}

void ChartsPage::exportTo(const QString& path) {
    const auto format = exportFormatFor(path);
    const QSize size(std::max(600, plot_->width()), 0); // the window's width, as tall as the chart needs
    // Files for reports use the light style whatever the window's theme.
    exportChart(data_, ChartStyle::light(), path, size, format == ExportFormat::Png ? 2.0 : 1.0);
}

void ChartsPage::exportWithDialog() {
    QSettings settings;
    const QString last = settings.value(QStringLiteral("charts/exportPath")).toString();
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), last.isEmpty() ? QStringLiteral("chart.png") : last,
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV numbers (*.csv)"), &selected);
    if (path.isEmpty()) {
        return;
    }
    QString target = path;
    if (!exportFormatFor(target)) { // no extension typed: take the chosen filter's
        const auto star = selected.indexOf(QLatin1String("*."));
        target += selected.mid(star + 1, 4);
    }
    try {
        exportTo(target);
        settings.setValue(QStringLiteral("charts/exportPath"), target);
        emit statusMessage(tr("Exported %1").arg(target));
    } catch (const AdvisorError& e) {
        QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
    }
}

} // namespace advisor::ui
