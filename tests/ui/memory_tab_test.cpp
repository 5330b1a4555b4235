// The Memory needs tab offscreen on a real database: its estimate is core's for the work, the
// weights (and the engine whose files hold them), the model's shape and the KV cache's format;
// it lists the GPUs that hold it and draws the breakdown with a legend that fits the tab.
#include "calculator_checks.h"
#include "calc/memory.h"
#include "calc/model_shapes.h"
#include "common/format.h"
#include "pages/calculators/memory_tab.h"
#include "private_session.h"
#include "session.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace advisor;

using advisor::testing::pick;
using advisor::testing::q;

class MemoryTabTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

private slots:
    void initTestCase() {
        session_ = testing::openPrivateSession(dir_); // remembered inputs go to dir_, not the user's
    }

    void memoryMatchesCoreAndListsTheGpusThatFit() {
        ui::MemoryTab tab(*session_);
        tab.paramsField()->setValue(7);
        pick(tab.modeField(), "full-training");
        calc::MemoryInput in;
        in.paramsBillion = 7;
        in.mode = calc::MemoryMode::FullTraining;
        const auto m = calc::estimateMemory(in);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(m.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        const auto fits = calc::gpusThatFit(session_->catalog(), in);
        QCOMPARE(tab.fits()->rowCount(), static_cast<int>(fits.size()));
        // Each row: the card, its memory, how many cards, what is left on each.
        QCOMPARE(tab.fits()->item(0, 0)->text(), q(fits.front().gpu->name));
        QCOMPARE(tab.fits()->item(0, 1)->text(), q(format::gigabytes(fits.front().gpu->memoryGb)));
        QCOMPARE(tab.fits()->item(0, 2)->text(), QString::number(fits.front().gpusNeeded));
        QCOMPARE(tab.fits()->item(0, 3)->text(), q(format::gigabytes(fits.front().headroomGb)));
        // One text line per row, as in the Prices table (the style's default was 30 px).
        QVERIFY(tab.fits()->rowHeight(0) <= tab.fits()->fontMetrics().height() + 10);
        QVERIFY(tab.plot()->plottableCount() >= 3); // weights, gradients, optimizer states, ...
        pick(tab.modeField(), "qlora"); // switches the weights to 4-bit
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
        // QLoRA with 8-bit weights is refused, naming the input as the tab labels it.
        pick(tab.weightsField(), "int8");
        QCOMPARE(tab.error(), QStringLiteral("Weights: QLoRA keeps the base model in 4-bit; use int4"));
        pick(tab.weightsField(), "int4");
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
    }

    void memoryTakesTheModelsShapeLoraRankAndFlashAttention() {
        ui::MemoryTab tab(*session_);
        tab.paramsField()->setValue(7);
        calc::MemoryInput in;
        in.paramsBillion = 7;
        const auto automatic = calc::estimateMemory(in);
        // Left automatic, each field shows the shape the estimate chose for the size.
        QCOMPARE(tab.layersField()->specialValueText(), QStringLiteral("automatic (%1)").arg(automatic.layers));
        QCOMPARE(tab.hiddenField()->text(), QStringLiteral("automatic (%1)").arg(automatic.hidden));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Llama-like shape for the size")), qPrintable(tab.resultText()));
        // Llama 2 7B's own shape: 32 layers, hidden 4096, 32 KV heads (no grouped-query attention).
        tab.layersField()->setValue(32);
        tab.hiddenField()->setValue(4096);
        tab.kvHeadsField()->setValue(32);
        in.layers = 32;
        in.hidden = 4096;
        in.kvHeads = 32;
        const auto llama2 = calc::estimateMemory(in);
        QVERIFY(llama2.perGpuGb > automatic.perGpuGb); // 4x the KV cache of 8 KV heads
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(llama2.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Given shape: 32 layers, hidden size 4096, 32 KV heads")),
                 qPrintable(tab.resultText()));
        // LoRA rank counts only for LoRA and QLoRA, and moves the estimate as core says.
        QVERIFY(!tab.loraRankField()->isEnabled());
        pick(tab.modeField(), "lora");
        QVERIFY(tab.loraRankField()->isEnabled());
        tab.loraRankField()->setValue(256);
        in.mode = calc::MemoryMode::Lora;
        in.loraRank = 256;
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(calc::estimateMemory(in).perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        // Without flash attention the scores are stored: full training at a long context needs more.
        pick(tab.modeField(), "full-training");
        in.mode = calc::MemoryMode::FullTraining;
        in.flashAttention = false;
        tab.flashAttentionField()->setChecked(false);
        const auto noFlash = calc::estimateMemory(in);
        in.flashAttention = true;
        QVERIFY(noFlash.perGpuGb > calc::estimateMemory(in).perGpuGb);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(noFlash.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
    }

    void memoryTakesAPublishedModelsSizeAndShape() {
        ui::MemoryTab tab(*session_);
        QVERIFY(tab.modelField()->count() >= 10); // "Any size" and the shipped models
        pick(tab.modelField(), "llama-2-7b");
        QVERIFY(!tab.paramsField()->isEnabled()); // the model's own size
        QCOMPARE(tab.paramsField()->value(), 6.7);
        QCOMPARE(tab.kvHeadsField()->text(), QStringLiteral("the model's (32)"));
        calc::MemoryInput in;
        in.model = calc::findModelShape("llama-2-7b");
        const auto llama2 = calc::estimateMemory(in);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(llama2.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        QVERIFY2(tab.resultText().contains(QStringLiteral("Llama 2 7B's published shape: 32 layers, hidden size 4096, "
                                                          "32 KV heads of 128, 4096 tokens of context")),
                 qPrintable(tab.resultText()));
        QVERIFY(!tab.modelField()->itemData(tab.modelField()->currentIndex(), Qt::ToolTipRole).toString().isEmpty());
        // Back to any size: the size is the user's again, and the shape a guess from it.
        pick(tab.modelField(), "");
        QVERIFY(tab.paramsField()->isEnabled());
        tab.paramsField()->setValue(7);
        QVERIFY2(tab.resultText().contains(QStringLiteral("Llama-like shape for the size")), qPrintable(tab.resultText()));
        QCOMPARE(tab.kvHeadsField()->text(), QStringLiteral("automatic (8)"));
    }

    void memoryKvCacheFollowsTheModelsAttentionAndTheChosenFormat() {
        ui::MemoryTab tab(*session_);
        pick(tab.modelField(), "gemma-3-12b");
        QCOMPARE(tab.headDimField()->text(), QStringLiteral("the model's (256)"));
        calc::MemoryInput in;
        in.model = calc::findModelShape("gemma-3-12b");
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(calc::estimateMemory(in).perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        // A 4-bit cache: what the core gives for it, and less than the 16-bit one.
        pick(tab.kvCacheField(), "q4_0");
        in.kvCache = perf::KvCacheType::Q4_0;
        const auto q4 = calc::estimateMemory(in);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(q4.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        // A head width given by hand is the shape's; training keeps no KV cache to quantize.
        tab.headDimField()->setValue(128);
        QVERIFY2(tab.resultText().contains(QStringLiteral("KV heads of 128")), qPrintable(tab.resultText()));
        QVERIFY(tab.kvCacheField()->isEnabled());
        pick(tab.modeField(), "lora");
        QVERIFY(!tab.kvCacheField()->isEnabled());
    }

    void memorySizesTheWeightsAsAnEnginesOwnFilesHoldThem() {
        // As `memory --engine`: Llama 3.1 70B's 4-bit weights in TensorRT-LLM's INT4 AWQ files.
        ui::MemoryTab tab(*session_);
        pick(tab.modelField(), "llama-3.1-70b");
        pick(tab.weightsField(), "int4");
        calc::MemoryInput in;
        in.model = calc::findModelShape("llama-3.1-70b");
        in.weights = perf::Precision::Int4;
        const auto generic = calc::estimateMemory(in);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(generic.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        QCOMPARE(tab.weightsField()->currentText(), QStringLiteral("4-bit"));
        pick(tab.engineField(), "tensorrt-llm");
        in.engine = perf::LlmEngine::TensorRtLlm;
        const auto awq = calc::estimateMemory(in);
        QVERIFY(generic.perGpuGb - awq.perGpuGb > 6.0); // 4.85 against 4.125 bits of 70B weights
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(awq.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        QCOMPARE(tab.weightsField()->currentText(), QStringLiteral("4-bit (INT4 AWQ)"));
        pick(tab.weightsField(), "fp4"); // NVFP4 in the engine's files
        in.weights = perf::Precision::Fp4;
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(calc::estimateMemory(in).perGpuGb)) +
                                           QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        pick(tab.engineField(), "");
        QCOMPARE(tab.weightsField()->currentText(), QStringLiteral("4-bit float"));
        // Training keeps the weights as given: the field is off.
        QVERIFY(tab.engineField()->isEnabled());
        pick(tab.modeField(), "lora");
        QVERIFY(!tab.engineField()->isEnabled());
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
    }

    void memorySplitsAMixtureOverGpusAsTensorRtLlmDoes() {
        // As `memory --split experts`: Qwen3 235B-A22B in FP8 over 8 GPUs, each holding the shared
        // part whole beside an eighth of the routed experts.
        ui::MemoryTab tab(*session_);
        pick(tab.modeField(), "inference");
        pick(tab.modelField(), "qwen3-235b-a22b");
        pick(tab.weightsField(), "int8");
        pick(tab.engineField(), "");
        tab.shardsField()->setValue(8);
        QVERIFY(!tab.splitField()->isEnabled()); // only TensorRT-LLM's split is chosen
        pick(tab.engineField(), "tensorrt-llm");
        QVERIFY(tab.splitField()->isEnabled());
        calc::MemoryInput in;
        in.model = calc::findModelShape("qwen3-235b-a22b");
        in.weights = perf::Precision::Int8;
        in.engine = perf::LlmEngine::TensorRtLlm;
        in.shardGpus = 8;
        for (const auto split : {perf::LlmSplit::Tensors, perf::LlmSplit::Layers, perf::LlmSplit::Experts}) {
            pick(tab.splitField(), perf::toString(split));
            in.split = split;
            const auto m = calc::estimateMemory(in);
            QVERIFY2(tab.resultText().contains(q(format::gigabytes(m.perGpuGb)) + QStringLiteral(" per GPU")),
                     qPrintable(tab.resultText()));
            QVERIFY2(
                tab.resultText().contains(QStringLiteral("split by ") + QString::fromLatin1(perf::toString(split))),
                qPrintable(tab.resultText()));
            QCOMPARE(tab.fits()->item(0, 2)->text(), QStringLiteral("8"));
        }
        in.split = perf::LlmSplit::Tensors;
        QVERIFY(calc::estimateMemory(in).perGpuGb + 5 < calc::estimateMemory([&] {
                                                            auto experts = in;
                                                            experts.split = perf::LlmSplit::Experts;
                                                            return experts;
                                                        }())
                                                            .perGpuGb); // the shared 7.8 GB held on every card
        pick(tab.modeField(), "lora"); // training shards with ZeRO-3: no split to choose
        QVERIFY(!tab.splitField()->isEnabled());
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
        tab.shardsField()->setValue(1); // the remembered inputs back as the other tests expect them
        pick(tab.splitField(), "tensors");
        pick(tab.engineField(), "");
        pick(tab.modelField(), "");
    }

    void memoryReadsThePromptInChunksAsAsked() {
        ui::MemoryTab tab(*session_);
        pick(tab.modelField(), "llama-3.1-8b");
        tab.contextField()->setValue(131072);
        QCOMPARE(tab.prefillChunkField()->text(), QStringLiteral("whole prompt"));
        tab.prefillChunkField()->setValue(512);
        calc::MemoryInput in;
        in.model = calc::findModelShape("llama-3.1-8b");
        in.contextTokens = 131072;
        const auto whole = calc::estimateMemory(in);
        in.prefillChunkTokens = 512;
        const auto chunked = calc::estimateMemory(in);
        QVERIFY(chunked.perGpuGb < whole.perGpuGb - 4.0);
        QVERIFY2(tab.resultText().contains(q(format::gigabytes(chunked.perGpuGb)) + QStringLiteral(" per GPU")),
                 qPrintable(tab.resultText()));
        // Training holds every token's activations: the field is off and ignored, not an error.
        QVERIFY(tab.prefillChunkField()->isEnabled());
        pick(tab.modeField(), "lora");
        QVERIFY(!tab.prefillChunkField()->isEnabled());
        QVERIFY2(tab.error().isEmpty(), qPrintable(tab.error()));
    }

    void memoryLegendWrapsToANarrowTab() {
        ui::MemoryTab tab(*session_);
        tab.paramsField()->setValue(7);
        pick(tab.modeField(), "full-training"); // five items: the widest legend
        tab.show();
        tab.resize(tab.minimumSizeHint().width(), 600); // as narrow as the tab goes
        QVERIFY(QTest::qWaitForWindowExposed(&tab));
        QCustomPlot* plot = tab.plot();
        plot->replot();
        QVERIFY(plot->width() < 420);
        QVERIFY(plot->legend->itemCount() >= 5);
        QVERIFY2(plot->legend->rowCount() > 1, "the legend should wrap onto more rows");
        // The legend fills its row edge to edge, so a frame would be cut off at the plot's edges.
        QCOMPARE(plot->legend->borderPen().style(), Qt::NoPen);
        const auto verifyItemsWhole = [plot] {
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                QCPAbstractLegendItem* item = plot->legend->item(i);
                const QRect r = item->outerRect();
                QVERIFY2(r.left() >= 0 && r.right() <= plot->width() && r.width() >= item->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("item %1 spans %2..%3 (needs %4 px) in a %5 px plot")
                                        .arg(i)
                                        .arg(r.left())
                                        .arg(r.right())
                                        .arg(item->minimumOuterSizeHint().width())
                                        .arg(plot->width())));
            }
        };
        verifyItemsWhole();
        pick(tab.modeField(), "inference"); // its items include the longest, the CUDA context
        plot->replot();
        verifyItemsWhole();
        pick(tab.modeField(), "full-training");
        // Wide again: one row.
        tab.resize(1800, 600);
        QCoreApplication::processEvents();
        plot->replot();
        QCOMPARE(plot->legend->rowCount(), 1);
    }
};

QTEST_MAIN(MemoryTabTest)
#include "memory_tab_test.moc"
