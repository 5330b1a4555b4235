#include "pages/calculators/memory_tab.h"

#include "calc/memory.h"
#include "calc/model_shapes.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/model_choice.h"
#include "widgets/plot_fit.h"
#include "widgets/table_rows.h"

#include <qcustomplot.h>

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace advisor::ui {

MemoryTab::MemoryTab(Session& session, QWidget* parent) : CalculatorTab(session, parent) {
    // A published model brings its size and shape (KV heads above all); "Any size" takes a size.
    model_ = new QComboBox;
    fillModelChoice(model_, tr("Any size (Llama-like shape)"));
    inputs()->addRow(tr("Model:"), model_); // no Alt key left: M, o, d, e and l are taken on this screen
    connect(model_, &QComboBox::currentIndexChanged, this, &MemoryTab::followModel);
    watch(model_);
    params_ = addNumber(tr("P&arameters:"), 0.01, 2000, 7, 2, tr(" billion"));
    mode_ = new QComboBox;
    for (const auto& [mode, label] : {std::pair{calc::MemoryMode::Inference, tr("Inference")},
                                      std::pair{calc::MemoryMode::Lora, tr("LoRA fine-tuning")},
                                      std::pair{calc::MemoryMode::Qlora, tr("QLoRA fine-tuning")},
                                      std::pair{calc::MemoryMode::FullTraining, tr("Full training")}}) {
        mode_->addItem(label, QString::fromLatin1(calc::toString(mode)));
    }
    inputs()->addRow(tr("&Work:"), mode_);
    weights_ = new QComboBox;
    weights_->addItem(tr("16-bit (fp16/bf16)"), QStringLiteral("fp16"));
    weights_->addItem(tr("8-bit"), QStringLiteral("int8"));
    weights_->addItem(QString(), QStringLiteral("int4"));
    weights_->addItem(QString(), QStringLiteral("fp4"));
    inputs()->addRow(tr("Wei&ghts:"), weights_);
    labelField("precision", tr("Weights"));
    // Inference: the engine whose own files hold the weights, at the bits perf reads for it
    // (`memory --engine`); none in particular keeps the generic sizes.
    engine_ = new QComboBox;
    engine_->setObjectName(QStringLiteral("memoryEngine"));
    fillLlmEngineChoice(engine_);
    engine_->insertItem(0, tr("None in particular"), QString());
    engine_->setItemData(0,
                         tr("8-bit weights at 1.02 bytes each, 4-bit at Q4_K_M's 4.85 bits, 4-bit floats at "
                            "NVFP4's 4.5"),
                         Qt::ToolTipRole);
    engine_->setCurrentIndex(0);
    engine_->setToolTip(tr("Inference: the engine whose own files hold the weights, and so their bits per weight"));
    inputs()->addRow(tr("Engine's files:"), engine_); // no Alt key left on this screen
    connect(engine_, &QComboBox::currentIndexChanged, this, &MemoryTab::nameWeightsForEngine);
    nameWeightsForEngine();
    // QLoRA trains on 4-bit weights, full training on 16-bit: follow the work, then recompute.
    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        const QString mode = mode_->currentData().toString(); // weights_ signals: its new value is saved
        if (mode == QLatin1String("qlora")) {
            weights_->setCurrentIndex(weights_->findData(QStringLiteral("int4")));
        } else if (mode == QLatin1String("full-training") || mode == QLatin1String("lora")) {
            weights_->setCurrentIndex(weights_->findData(QStringLiteral("fp16")));
        }
    });
    watch(mode_);
    watch(weights_);
    watch(engine_);
    context_ = addCount(tr("&Context:"), 0, 1048576, 0);
    context_->setSpecialValueText(tr("default"));
    context_->setSuffix(tr(" tokens"));
    batch_ = addCount(tr("Ba&tch:"), 1, 4096, 1);
    // How inference stores its KV cache (llama.cpp --cache-type-k/-v, vLLM --kv-cache-dtype).
    kvCache_ = new QComboBox;
    for (const auto& [type, label] : {std::pair{perf::KvCacheType::F16, tr("16-bit (f16)")},
                                      std::pair{perf::KvCacheType::Fp8, tr("8-bit float (fp8)")},
                                      std::pair{perf::KvCacheType::Q8_0, tr("8-bit blocks (q8_0)")},
                                      std::pair{perf::KvCacheType::Q4_0, tr("4-bit blocks (q4_0)")}}) {
        kvCache_->addItem(label, QString::fromLatin1(perf::toString(type)));
    }
    kvCache_->setToolTip(tr("How inference stores the keys and values of every token of context"));
    inputs()->addRow(tr("KV cache &quantization:"), kvCache_);
    watch(kvCache_);
    // How many prompt tokens inference reads at once: the activations are held for those.
    // No Alt key: every letter of "prompt chunk" is taken on this screen (Tab reaches it).
    prefillChunk_ = addCount(tr("Prompt chunk:"), 0, 1048576, 0);
    prefillChunk_->setSpecialValueText(tr("whole prompt"));
    prefillChunk_->setSuffix(tr(" tokens"));
    prefillChunk_->setToolTip(tr("Prompt tokens read at once: llama.cpp's micro-batch (512), vLLM's chunked prefill; "
                                 "whole prompt as Hugging Face transformers reads it"));
    labelField("prefill_chunk", tr("Prompt chunk"));
    optimizer_ = new QComboBox;
    optimizer_->addItem(tr("Adam"), QStringLiteral("adam"));
    optimizer_->addItem(tr("8-bit Adam"), QStringLiteral("adam8bit"));
    optimizer_->addItem(tr("SGD with momentum"), QStringLiteral("sgd"));
    inputs()->addRow(tr("&Optimizer:"), optimizer_);
    watch(optimizer_);
    checkpointing_ = new QComboBox;
    checkpointing_->addItem(tr("Default for the work"), QString());
    checkpointing_->addItem(tr("On"), QStringLiteral("on"));
    checkpointing_->addItem(tr("Off"), QStringLiteral("off"));
    inputs()->addRow(tr("Gradient checkpo&inting:"), checkpointing_);
    watch(checkpointing_);
    shards_ = addCount(tr("&Shard over GPUs:"), 1, 1024, 1);
    shards_->setToolTip(tr("FSDP / ZeRO-3: weights, gradients and optimizer states split over this many GPUs"));
    // How TensorRT-LLM splits a model over those GPUs for inference (`memory --split`): the
    // busiest card's share of the weights and cache. No Alt key left (Tab reaches it).
    split_ = new QComboBox;
    split_->setObjectName(QStringLiteral("memorySplit"));
    fillLlmSplitChoice(split_);
    inputs()->addRow(tr("Split over GPUs:"), split_);
    labelField("split", tr("Split over GPUs"));
    watch(split_);
    offload_ = new QCheckBox(tr("Optimizer states in CPU &RAM"));
    inputs()->addRow(QString(), offload_);
    watch(offload_);
    loraRank_ = addCount(tr("&LoRA rank:"), 1, 4096, 16);
    loraRank_->setToolTip(tr("Rank of the adapters (LoRA and QLoRA); the trainable parameters grow with it"));
    labelField("lora_rank", tr("LoRA rank"));
    flashAttention_ = new QCheckBox(tr("Flash attention (scores not stored)"));
    flashAttention_->setChecked(true);
    inputs()->addRow(QString(), flashAttention_);
    watch(flashAttention_);
    // The model's shape: automatic is Llama-like for the size, and shows what it chose.
    layers_ = addCount(tr("La&yers:"), 0, 1000, 0);
    hidden_ = addCount(tr("Hidde&n size:"), 0, 1000000, 0);
    hidden_->setSingleStep(128);
    kvHeads_ = addCount(tr("&KV heads:"), 0, 1024, 0);
    headDim_ = addCount(tr("Head si&ze:"), 0, 1024, 0);
    headDim_->setToolTip(tr("Width of one attention head (128 in most models; Gemma 3: 256, gpt-oss: 64)"));
    for (QSpinBox* box : {layers_, hidden_, kvHeads_, headDim_}) {
        box->setSpecialValueText(tr("automatic"));
    }
    labelField("layers", tr("Layers"));
    labelField("hidden", tr("Hidden size"));
    labelField("kv_heads", tr("KV heads"));
    labelField("head_dim", tr("Head size"));
    result_ = addResultLabel();
    plot_ = new QCustomPlot;
    plot_->yAxis->setVisible(false);
    plot_->xAxis->setLabel(tr("GB per GPU"));
    plot_->legend->setVisible(true);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    // Below the axes the legend fills its row, so a border would run along the plot's edges
    // (cut off on the right and bottom); the other plots' legends have none either.
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    // The legend wraps to the plot's width (fitLegendToPlot), so it must not set the tab's
    // minimum width: in one row, full training's items needed over 1,000 px.
    plot_->setMinimumWidth(280); // the widest legend item alone, "CUDA context and workspace 1 GB"
    callOnResize(plot_, [this] {
        fitLegendToPlot();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    results()->addWidget(plot_);
    fits_ = new QTableWidget(0, 4);
    // The card's own size beside what is left, so a tight fit reads at a glance.
    fits_->setHorizontalHeaderLabels({tr("GPU"), tr("Memory"), tr("Cards"), tr("Free per card")});
    useSingleLineRows(fits_);
    fits_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    useContentWidthColumns(fits_);
    fits_->horizontalHeaderItem(3)->setToolTip(
        tr("Memory left per card after the model, of the %1% a model can count on (the rest is lost to fragmentation)")
            .arg(calc::kUsableMemoryFraction * 100));
    results()->addWidget(fits_, 1);
    ready();
}

void MemoryTab::nameWeightsForEngine() {
    // An engine's own formats (Q4_K_M, INT4 AWQ, ...); none in particular, the generic sizes.
    if (engine_->currentData().toString().isEmpty()) {
        weights_->setItemText(weights_->findData(QStringLiteral("int8")), tr("8-bit"));
        weights_->setItemText(weights_->findData(QStringLiteral("int4")), tr("4-bit"));
        weights_->setItemText(weights_->findData(QStringLiteral("fp4")), tr("4-bit float"));
    } else {
        nameLlmWeightsForEngine(weights_, chosenLlmEngine(engine_));
    }
}

void MemoryTab::followModel() {
    const calc::ModelShape* m = chosenModel(model_);
    params_->setEnabled(m == nullptr);
    params_->setToolTip(m != nullptr ? tr("The size of %1; choose \"Any size\" to enter one").arg(qs(m->label)) : QString());
    if (m != nullptr) {
        params_->setValue(m->paramsBillion);
    }
}

QString MemoryTab::resultText() const {
    return result_->text();
}

void MemoryTab::compute() {
    calc::MemoryInput in;
    in.model = chosenModel(model_);
    in.paramsBillion = params_->value();
    in.mode = calc::parseMemoryMode(mode_->currentData().toString().toStdString()).value_or(calc::MemoryMode::Inference);
    in.weights = perf::parsePrecision(weights_->currentData().toString().toStdString()).value_or(perf::Precision::Fp16);
    if (context_->value() > 0) {
        in.contextTokens = context_->value();
    }
    in.batch = batch_->value();
    in.optimizer = calc::parseOptimizer(optimizer_->currentData().toString().toStdString()).value_or(calc::Optimizer::Adam);
    const QString cp = checkpointing_->currentData().toString();
    if (!cp.isEmpty()) {
        in.gradientCheckpointing = cp == QLatin1String("on");
    }
    in.shardGpus = shards_->value();
    in.cpuOffload = offload_->isChecked();
    in.loraRank = loraRank_->value();
    in.flashAttention = flashAttention_->isChecked();
    const auto given = [](const QSpinBox* box) { return box->value() > 0 ? std::optional<int>(box->value()) : std::nullopt; };
    in.layers = given(layers_);
    in.hidden = given(hidden_);
    in.kvHeads = given(kvHeads_);
    in.headDim = given(headDim_);
    in.kvCache = perf::parseKvCacheType(kvCache_->currentData().toString().toStdString()).value_or(perf::KvCacheType::F16);
    if (in.mode == calc::MemoryMode::Inference) {
        in.prefillChunkTokens = given(prefillChunk_);
        if (!engine_->currentData().toString().isEmpty()) {
            in.engine = chosenLlmEngine(engine_);
        }
        if (in.engine == perf::LlmEngine::TensorRtLlm) {
            in.split = chosenLlmSplit(split_); // llama.cpp splits by layers, other engines evenly
        }
    }
    const auto m = calc::estimateMemory(in);
    // "automatic (32)": the shape the estimate used, where the user left it to the size or model.
    const QString shapeFrom = in.model != nullptr ? tr("the model's (%1)") : tr("automatic (%1)");
    layers_->setSpecialValueText(shapeFrom.arg(m.layers));
    hidden_->setSpecialValueText(shapeFrom.arg(m.hidden));
    kvHeads_->setSpecialValueText(shapeFrom.arg(m.kvHeads));
    headDim_->setSpecialValueText(shapeFrom.arg(m.headDim));
    loraRank_->setEnabled(in.mode == calc::MemoryMode::Lora || in.mode == calc::MemoryMode::Qlora);
    kvCache_->setEnabled(in.mode == calc::MemoryMode::Inference); // training keeps no KV cache
    engine_->setEnabled(in.mode == calc::MemoryMode::Inference); // training keeps the weights as given
    prefillChunk_->setEnabled(in.mode == calc::MemoryMode::Inference); // training holds every token
    split_->setEnabled(in.split.has_value());
    split_->setToolTip(in.split ? tr("How TensorRT-LLM splits the model over the GPUs; each card's share is the "
                                     "busiest's")
                                : tr("How TensorRT-LLM splits a model for inference: choose it as the engine"));
    QStringList notes;
    for (const auto& n : m.notes) {
        notes << qs(n).toHtmlEscaped();
    }
    QString basis = qs(m.shapeBasis);
    basis[0] = basis[0].toUpper();
    result_->setText(tr("<p style='font-size:large'><b>%1 per GPU</b>%2</p><p>%9: %3 layers, hidden size %4, %5 KV heads "
                        "of %10, %6 tokens of context.%7</p>%8")
                         .arg(qs(format::gigabytes(m.perGpuGb)),
                              in.shardGpus > 1 ? tr(" (%1 on all %2 GPUs)").arg(qs(format::gigabytes(m.totalGb))).arg(in.shardGpus)
                                               : QString())
                         .arg(m.layers)
                         .arg(m.hidden)
                         .arg(m.kvHeads)
                         .arg(m.contextTokens)
                         .arg(m.cpuRamGb > 0 ? tr(" %1 of CPU RAM for offloaded states.").arg(qs(format::gigabytes(m.cpuRamGb)))
                                             : QString(),
                              notes.isEmpty() ? QString() : QStringLiteral("<ul><li>") + notes.join(QStringLiteral("</li><li>")) +
                                                                QStringLiteral("</li></ul>"))
                         .arg(basis.toHtmlEscaped())
                         .arg(m.headDim));
    // One stacked bar: weights, gradients, optimizer states, activations, KV cache, overhead.
    plot_->clearPlottables();
    const QColor palette[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(213, 94, 0),
                              QColor(204, 121, 167), QColor(86, 180, 233), QColor(240, 228, 66), QColor(120, 120, 120)};
    QCPBars* below = nullptr;
    int i = 0;
    for (const auto& item : m.items) {
        if (item.gb <= 0) {
            continue;
        }
        auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);
        bars->setName(QStringLiteral("%1 %2").arg(qs(item.name), qs(format::gigabytes(item.gb))));
        const QColor c = palette[i++ % 8];
        bars->setBrush(c);
        bars->setPen(QPen(c.darker(130)));
        bars->setWidth(0.6);
        bars->setData({1.0}, {item.gb});
        if (below != nullptr) {
            bars->moveAbove(below);
        }
        below = bars;
    }
    plot_->yAxis->setRange(0.4, 1.6);
    plot_->xAxis->setRange(0, std::max(1.0, m.perGpuGb * 1.05));
    fitLegendToPlot();
    plot_->replot();

    fits_->setRowCount(0);
    for (const auto& f : calc::gpusThatFit(session().catalog(), in)) {
        const int row = fits_->rowCount();
        fits_->insertRow(row);
        fits_->setItem(row, 0, new QTableWidgetItem(qs(f.gpu->name)));
        fits_->setItem(row, 1, new QTableWidgetItem(qs(format::gigabytes(f.gpu->memoryGb))));
        fits_->setItem(row, 2, new QTableWidgetItem(QString::number(f.gpusNeeded)));
        fits_->setItem(row, 3, new QTableWidgetItem(qs(format::gigabytes(f.headroomGb))));
    }
}

void MemoryTab::fitLegendToPlot() {
    QCPLegend* legend = plot_->legend;
    wrapLegendToWidth(*legend, plot_->width() - 20); // the plot layout's side margins
    // The bar and its axis keep their height; the plot grows by the legend's rows.
    const int legendHeight = legend->minimumOuterSizeHint().height();
    plot_->setMinimumHeight(110 + legendHeight);
    plot_->setMaximumHeight(190 + legendHeight);
}

} // namespace advisor::ui
