#include "widgets/model_choice.h"

#include "calc/model_query.h"
#include "calc/model_shapes.h"
#include "perf/model.h"
#include "ui_text.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>

namespace advisor::ui {

void fillModelChoice(QComboBox* box, const QString& anyLabel) {
    box->clear();
    box->addItem(anyLabel, QString());
    for (const auto& m : calc::modelShapes()) {
        box->addItem(qs(m.label), qs(m.id));
        box->setItemData(box->count() - 1, QObject::tr("Published shape - %1").arg(qs(m.source)), Qt::ToolTipRole);
    }
}

const calc::ModelShape* chosenModel(const QComboBox* box) {
    const QString id = box->currentData().toString();
    return id.isEmpty() ? nullptr : calc::findModelShape(id.toStdString());
}

void chooseModel(QComboBox* box, const QString& id) {
    box->setCurrentIndex(std::max(0, box->findData(id)));
}

void fillLlmWeightsChoice(QComboBox* box) {
    box->clear();
    box->addItem(QString(), QStringLiteral("int4"));
    box->addItem(QString(), QStringLiteral("fp4"));
    box->addItem(QString(), QStringLiteral("int8"));
    box->addItem(QObject::tr("16-bit"), QStringLiteral("fp16"));
    nameLlmWeightsForEngine(box, perf::LlmEngine::LlamaCpp);
}

void nameLlmWeightsForEngine(QComboBox* box, perf::LlmEngine engine) {
    // The files each engine reads, whose bytes per weight the model takes (perf::llmBitsPerWeight).
    const auto format = [engine](perf::Precision p) { return QString::fromLatin1(perf::llmFileFormat(p, engine)); };
    box->setItemText(box->findData(QStringLiteral("int4")),
                     QObject::tr("4-bit (%1)").arg(format(perf::Precision::Int4)));
    box->setItemText(box->findData(QStringLiteral("fp4")),
                     QObject::tr("4-bit float (%1)").arg(format(perf::Precision::Fp4)));
    box->setItemText(box->findData(QStringLiteral("int8")),
                     QObject::tr("8-bit (%1)").arg(format(perf::Precision::Int8)));
}

namespace {

// An item whose data is `data` (the name perf's option takes) and whose tooltip says what it is.
void addExplainedItem(QComboBox* box, const QString& text, const char* data, const QString& what) {
    box->addItem(text, QString::fromLatin1(data));
    box->setItemData(box->count() - 1, what, Qt::ToolTipRole);
}

} // namespace

void fillLlmEngineChoice(QComboBox* box) {
    box->clear();
    addExplainedItem(box, QStringLiteral("llama.cpp"), perf::toString(perf::LlmEngine::LlamaCpp),
                     QObject::tr("llama.cpp's kernels, as the calibration measured them: one machine, models split "
                                 "by layers, the rest in system RAM when they do not fit"));
    addExplainedItem(box, QStringLiteral("TensorRT-LLM"), perf::toString(perf::LlmEngine::TensorRtLlm),
                     QObject::tr("A serving engine (NVIDIA's): the memory read at its full rate, a batch's tokens "
                                 "multiplied as one matmul, models split over the GPUs by tensors, layers or experts; "
                                 "fitted on its published throughput"));
}

perf::LlmEngine chosenLlmEngine(const QComboBox* box) {
    return perf::parseLlmEngine(box->currentData().toString().toStdString()).value_or(perf::LlmEngine::LlamaCpp);
}

void fillLlmSplitChoice(QComboBox* box) {
    box->clear();
    addExplainedItem(box, QObject::tr("by tensors"), perf::toString(perf::LlmSplit::Tensors),
                     QObject::tr("Each card a share of every layer, summing their outputs after each (tensor "
                                 "parallel): fast over NVLink, waits on PCIe"));
    addExplainedItem(box, QObject::tr("by layers"), perf::toString(perf::LlmSplit::Layers),
                     QObject::tr("Each card whole layers, the sequences in micro-batches handed from card to card "
                                 "(pipeline parallel): no sums to wait on, so PCIe cards keep up; one prompt "
                                 "takes as long as on one card"));
    addExplainedItem(box, QObject::tr("by experts"), perf::toString(perf::LlmSplit::Experts),
                     QObject::tr("A mixture of experts: each card serves its own requests with every weight but the "
                                 "routed experts whole, and holds a share of the experts, the tokens exchanged in "
                                 "each mixture layer (attention data parallel with expert parallelism); a dense "
                                 "model is copied whole on each card"));
}

perf::LlmSplit chosenLlmSplit(const QComboBox* box) {
    return perf::parseLlmSplit(box->currentData().toString().toStdString()).value_or(perf::LlmSplit::Tensors);
}

void describeLlmSequencesField(QSpinBox* box) {
    box->setRange(0, 4096); // 0: as many as each card holds
    box->setSpecialValueText(QObject::tr("as many as fit"));
    box->setValue(1);
    box->setToolTip(QObject::tr("Token generation for this many sequences at once (a server's concurrent "
                                "requests): each step reads the weights once for all and each one's KV cache; "
                                "the chart shows their tokens together. Prompt processing is per token either way. "
                                "Down to \"as many as fit\": each card its own count, as many as 90% of its memory "
                                "holds beside the weights (vLLM's default), a server's full load."));
}

void describeLlmSequenceSpeedField(QDoubleSpinBox* box) {
    box->setRange(0, 1000); // 0: no speed asked of each
    box->setDecimals(0);
    box->setSingleStep(5);
    box->setSuffix(QObject::tr(" tokens/s"));
    box->setSpecialValueText(QObject::tr("any"));
    box->setToolTip(QObject::tr("With \"as many as fit\": of those, only as many as each still generate this many "
                                "tokens/s (a reading speed promised to each request; each step takes longer the more "
                                "sequences share it), so each card shows what it serves at that speed. \"any\": "
                                "all that fit."));
}

void applyLlmSequences(perf::PerfQuery& q, const QSpinBox* sequences, const QDoubleSpinBox* speed) {
    q.llmSequencesFillMemory = sequences->value() == 0;
    q.llmSequences = std::max(1, sequences->value());
    q.llmMinSequenceSpeed.reset();
    if (q.llmSequencesFillMemory && speed->value() > 0) {
        q.llmMinSequenceSpeed = speed->value();
    }
}

void describeLlmContextField(QSpinBox* box) {
    box->setSuffix(QObject::tr(" tokens"));
    box->setToolTip(QObject::tr("Token generation: the context each token reads; prompt processing: the prompt's "
                                "length"));
}

void applyLlmChoices(perf::PerfQuery& q, const QComboBox* model, const QComboBox* weights, const QSpinBox* context) {
    q.llmWeights =
        perf::parsePrecision(weights->currentData().toString().toStdString()).value_or(perf::Precision::Int4);
    q.llmContextTokens = context->value();
    if (const calc::ModelShape* shape = chosenModel(model)) {
        calc::applyModelShape(q, *shape);
    }
}

} // namespace advisor::ui
