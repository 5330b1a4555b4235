// The advisor page's live options beyond the memory: an LLM's weights, context, requests, engine,
// its split and system RAM, and how many cards one setup may have; and how they size the memory and the query.
#include "pages/advisor_page.h"

#include "advisor/model_memory.h"
#include "common/errors.h"
#include "perf/model.h"
#include "ui_text.h"
#include "widgets/model_choice.h"
#include "widgets/system_ram_choice.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

namespace advisor::ui {

namespace {

// A spin box that starts at its remembered value and remembers every change under `key`
// (connected first, so the value is saved before the page reacts to it).
QSpinBox* rememberedSpinBox(const QString& name, const QString& key, int min, int max, int fallback,
                            const QString& toolTip) {
    auto* box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(min, max);
    box->setKeyboardTracking(false);
    box->setToolTip(toolTip);
    box->setValue(QSettings().value(key, fallback).toInt());
    QObject::connect(box, &QSpinBox::valueChanged, box, [key](int v) { QSettings().setValue(key, v); });
    return box;
}

// Starts `box` (already filled) at its item remembered under `key`, else its first, and
// remembers every choice (connected first, so it is saved before the page reacts to it).
void rememberChoice(QComboBox* box, const QString& name, const QString& key) {
    box->setObjectName(name);
    box->setCurrentIndex(std::max(0, box->findData(QSettings().value(key).toString())));
    QObject::connect(box, &QComboBox::currentIndexChanged, box,
                     [box, key] { QSettings().setValue(key, box->currentData()); });
}

} // namespace

void AdvisorPage::createLiveOptionFields() {
    // LLM inference: the weights' precision, which sizes a model and sets how many bytes each
    // token reads (`recommend --precision`); the chart's 8-bit unless the user says.
    liveWeights_ = new QComboBox;
    liveWeights_->setObjectName(QStringLiteral("liveWeights"));
    fillLlmWeightsChoice(liveWeights_);
    liveWeights_->setToolTip(tr("LLM inference: the precision of the model's weights (the engine's quantized files); "
                                "the chart's answer assumes 8-bit"));
    // A stored value this version does not know (another program's) reads as the chart's 8-bit.
    const int stored = liveWeights_->findData(QSettings().value(QStringLiteral("advisor/llm_weights")));
    liveWeights_->setCurrentIndex(stored >= 0 ? stored : liveWeights_->findData(QStringLiteral("int8")));
    connect(liveWeights_, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(QStringLiteral("advisor/llm_weights"), liveWeights_->currentData());
        sizeLiveMemoryForModel();
        updateLive();
    });
    // LLM inference: the context each reply reads sizes the KV cache, in the memory and the speed
    // (`recommend --context`); for a model given by size or name, on an LLM-inference leaf.
    liveContext_ =
        rememberedSpinBox(QStringLiteral("liveContext"), QStringLiteral("advisor/context_tokens"), 0, 1048576, 0,
                          tr("LLM inference: the tokens of context each reply reads, which the KV cache "
                             "holds"));
    liveContext_->setSuffix(tr(" tokens"));
    liveContext_->setSpecialValueText(tr("default"));
    connect(liveContext_, &QSpinBox::valueChanged, this, [this] {
        sizeLiveMemoryForModel();
        updateLive();
    });
    // Requests served at once: each keeps its own KV cache, and they generate together
    // (`recommend --sequences`).
    // 0: as many as each card holds (`recommend --sequences max`).
    liveRequests_ = rememberedSpinBox(QStringLiteral("liveRequests"), QStringLiteral("advisor/sequences"), 0, 4096, 1,
                                      tr("LLM inference: the requests served at once. Each keeps its own KV cache "
                                         "in the memory needed, and the speed ranked is their tokens/s together. "
                                         "\"As many as fit\" gives each card as many as 90% of its memory holds "
                                         "beside the weights (vLLM's default): cards rank by what they serve at "
                                         "full load."));
    liveRequests_->setSpecialValueText(tr("as many as fit"));
    connect(liveRequests_, &QSpinBox::valueChanged, this, [this] {
        sizeLiveMemoryForModel();
        updateLive();
    });
    // Of as many as fit, as many as each still get this speed (`recommend --min-sequence-speed`).
    liveRequestSpeed_ = new QDoubleSpinBox;
    liveRequestSpeed_->setObjectName(QStringLiteral("liveRequestSpeed"));
    liveRequestSpeed_->setKeyboardTracking(false);
    describeLlmSequenceSpeedField(liveRequestSpeed_);
    liveRequestSpeed_->setValue(QSettings().value(QStringLiteral("advisor/sequence_speed"), 0.0).toDouble());
    connect(liveRequestSpeed_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        QSettings().setValue(QStringLiteral("advisor/sequence_speed"), v);
        sizeLiveMemoryForModel();
        updateLive();
    });
    // The software serving the model (`recommend --engine`): llama.cpp's kernels or a serving
    // engine's, which runs everything on the GPUs (no system RAM).
    liveEngine_ = new QComboBox;
    fillLlmEngineChoice(liveEngine_);
    rememberChoice(liveEngine_, QStringLiteral("liveEngine"), QStringLiteral("advisor/llm_engine"));
    // How the serving engine splits a model over a setup's cards (`recommend --split`).
    liveSplit_ = new QComboBox;
    fillLlmSplitChoice(liveSplit_);
    liveSplit_->addItem(tr("whichever is fastest"), QStringLiteral("fastest")); // as `recommend --split fastest`
    liveSplit_->setItemData(liveSplit_->count() - 1,
                            tr("Each setup of several cards ranked at the fastest of the splits (by experts only a "
                               "mixture of experts); its caveats say which"),
                            Qt::ToolTipRole);
    rememberChoice(liveSplit_, QStringLiteral("liveSplit"), QStringLiteral("advisor/llm_split"));
    // The most cards one setup may have (`recommend --gpus`): the leaf's own (one for a person,
    // eight for an organisation) unless the user says.
    liveGpus_ = rememberedSpinBox(QStringLiteral("liveGpus"), QStringLiteral("advisor/max_gpus"), 0, 16, 0,
                                  tr("The most GPUs in one setup: memory you need beyond one card is split over up "
                                     "to this many (with system RAM, as many as the budget buys and the rest in RAM)"));
    // Sized for the longest "N, the chart's" (updateResult writes the leaf's N in it).
    liveGpus_->setSpecialValueText(tr("%1, the chart's").arg(16));
    connect(liveGpus_, &QSpinBox::valueChanged, this, [this] { updateResult(); });
    // LLM inference: cards too small for the model ranked with the rest in this RAM
    // (`recommend --system-ram`).
    liveSystemRam_ = new QComboBox;
    fillSystemRamChoice(liveSystemRam_);
    rememberChoice(liveSystemRam_, QStringLiteral("liveSystemRam"), QStringLiteral("advisor/system_ram"));
    // Each of them sizes the memory (the engine's files) and the live query.
    for (QComboBox* box : {liveEngine_, liveSplit_, liveSystemRam_}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            sizeLiveMemoryForModel();
            updateLive();
        });
    }
}

void AdvisorPage::sizeLiveMemoryForModel() {
    liveMemoryBasis_.clear();
    liveInput_.llmParamsBillion.reset();
    liveInput_.llmActiveParamsBillion.reset();
    liveInput_.llmContextTokens.reset();
    liveInput_.llmSequences = 1;
    liveInput_.llmSequencesFillMemory = false;
    liveInput_.llmMinSequenceSpeed.reset();
    liveInput_.systemRamGbs.reset();
    liveInput_.llmEngine = perf::LlmEngine::LlamaCpp;
    liveInput_.llmSplit = perf::LlmSplit::Tensors;
    liveInput_.llmSplitFastest = false;
    const calc::ModelShape* model = chosenModel(liveModel_);
    const double params = model != nullptr ? model->paramsBillion : liveParams_->value(); // not the field's rounding
    const bool llmInference = liveInput_.task == advice::Task::Inference && liveInput_.domain == advice::Domain::Llm;
    liveContext_->setEnabled(llmInference && params > 0);
    liveMemoryForm_->setRowVisible(liveRequests_, llmInference && params > 0);
    liveMemoryForm_->setRowVisible(liveRequestSpeed_, llmInference && params > 0 && liveRequests_->value() == 0);
    const bool llamaCpp = chosenLlmEngine(liveEngine_) == perf::LlmEngine::LlamaCpp;
    nameLlmWeightsForEngine(liveWeights_, chosenLlmEngine(liveEngine_));
    liveMemoryForm_->setRowVisible(liveEngine_, llmInference && params > 0);
    liveMemoryForm_->setRowVisible(liveSplit_, llmInference && params > 0 && !llamaCpp);
    liveSplit_->setEnabled(liveInput_.maxGpus > 1); // one card is not split
    liveMemoryForm_->setRowVisible(liveSystemRam_, llmInference && params > 0 && llamaCpp);
    liveMemoryForm_->setRowVisible(liveWeights_, llmInference);
    if (llmInference) {
        // As `recommend --precision`: 8-bit is the chart's 8-bit inference, 4 and 16 bits are not.
        const auto weights = perf::parsePrecision(liveWeights_->currentData().toString().toStdString());
        liveInput_.llmWeights = weights.value_or(perf::Precision::Int8);
        liveInput_.eightBit = liveInput_.llmWeights == perf::Precision::Int8;
    }
    if (params <= 0) {
        return;
    }
    if (llmInference && liveContext_->value() > 0) {
        liveInput_.llmContextTokens = liveContext_->value();
    }
    if (llmInference) {
        perf::PerfQuery served;
        applyLlmSequences(served, liveRequests_, liveRequestSpeed_);
        liveInput_.llmSequencesFillMemory = served.llmSequencesFillMemory;
        liveInput_.llmSequences = served.llmSequences;
        liveInput_.llmMinSequenceSpeed = served.llmMinSequenceSpeed;
        liveInput_.llmEngine = chosenLlmEngine(liveEngine_);
        if (llamaCpp) { // a serving engine keeps the whole model on the GPUs
            liveInput_.systemRamGbs = chosenSystemRamGbs(liveSystemRam_);
        } else {
            liveInput_.llmSplit = chosenLlmSplit(liveSplit_);
            liveInput_.llmSplitFastest = liveSplit_->currentData() == QStringLiteral("fastest");
        }
    }
    try {
        const auto mem = advice::sizeMemoryForModel(liveInput_, params, model);
        liveMemoryBasis_ = qs(advice::describeMemoryBasis(mem));
        if (liveInput_.llmMinSequenceSpeed) {
            liveMemoryBasis_ += tr("; as many requests at once as each card holds and each get %1 tokens/s")
                                    .arg(*liveInput_.llmMinSequenceSpeed);
        } else if (liveInput_.llmSequencesFillMemory) {
            liveMemoryBasis_ += tr("; as many requests at once as each card holds");
        }
        if (liveInput_.llmEngine == perf::LlmEngine::TensorRtLlm) {
            liveMemoryBasis_ += liveInput_.llmSplitFastest ? tr("; served by TensorRT-LLM, several cards split "
                                                                "whichever way is faster")
                                : liveInput_.llmSplit == perf::LlmSplit::Layers
                                    ? tr("; served by TensorRT-LLM, several cards split by layers")
                                : liveInput_.llmSplit == perf::LlmSplit::Experts
                                    ? tr("; served by TensorRT-LLM, several cards split by experts")
                                    : tr("; served by TensorRT-LLM");
        }
    } catch (const AdvisorError& e) {
        liveMemoryBasis_ = QString::fromUtf8(e.what());
        return;
    }
    const QSignalBlocker block(liveMemory_);
    liveMemory_->setValue(liveInput_.memoryGb);
}

} // namespace advisor::ui
