// The Charts page's LLM inference, offscreen on a real database: tokens/s for the GPUs that hold
// the model, its size, the sequences generating together (or as many as each card holds) and a
// prompt's micro-batch; system RAM bringing back the cards that run it with the rest there; and a
// serving engine instead of llama.cpp.
#include "charts/bar_chart_builder.h"
#include "charts_page_checks.h"
#include "pages/charts_page.h"
#include "perf/serving_engine.h"
#include "private_session.h"
#include "session.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace advisor;
using testing::workloadBox;

class ChartsPageLlmTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    std::string dbPath() const { return dir_.filePath(QStringLiteral("prices.sqlite")).toStdString(); }

    // Whether one of the chart's notes says `text`.
    static bool saysNote(const charts::ChartData& d, const std::string& text) {
        return std::any_of(d.notes.begin(), d.notes.end(),
                           [&](const std::string& n) { return n.find(text) != std::string::npos; });
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("gpu-advisor-test"));
        QCoreApplication::setApplicationName(QStringLiteral("ui-charts-page-llm-test"));
        testing::usePrivateSettings(dir_);
        QSettings().clear();
    }

    void llmInferenceIsChartedInTokensPerSecondForTheGpusThatHoldTheModel() {
        ui::Session session;
        session.open(dbPath());
        {
            ui::ChartsPage page(session);
            page.setKind(charts::ChartKind::RawPerformance);
            QVERIFY(!page.llmModelField()->isEnabled()); // training and inference measures first
            QComboBox* workload = workloadBox(page);
            QVERIFY(workload != nullptr);
            workload->setCurrentIndex(workload->findData(QStringLiteral("llm"))); // training a language model
            page.setSortBy(perf::Metric::LlmDecode);
            // An inference bar says inference's typical error, not the training profile's caveat.
            const QString bar = ui::BarChartBuilder::barText(page.data(), 0, 0);
            QVERIFY2(bar.contains(QStringLiteral("token generation: ")) &&
                         bar.contains(QStringLiteral("Typical error of such estimates")) &&
                         !bar.contains(QStringLiteral("Language-model profile")),
                     qPrintable(bar));
            workload->setCurrentIndex(0);
            QCOMPARE(page.data().metrics, charts::llmChartMetrics());
            QCOMPARE(page.data().title,
                     std::string("Relative LLM inference speed (8B parameters, int4 weights, 512 tokens of context)"));
            QVERIFY(page.llmModelField()->isEnabled());
            for (auto* box : page.findChildren<QComboBox*>()) {
                if (box->findData(QStringLiteral("llm")) >= 0) {
                    QVERIFY(!box->isEnabled()); // the workload belongs to the other measures
                }
            }
            const size_t small = page.data().rows.size();
            // Llama 3.1 70B in 4 bits: 42.6 GB of weights and cache; the 24 GB cards drop out.
            page.llmModelField()->setCurrentIndex(page.llmModelField()->findData(QStringLiteral("llama-3.1-70b")));
            QVERIFY(page.data().rows.size() < small);
            for (const auto& r : page.data().rows) {
                QVERIFY2(r.gpu->memoryGb >= 42.6, r.gpu->name.c_str());
            }
            QVERIFY(page.data().title.find("70B parameters") != std::string::npos);
            QVERIFY(saysNote(page.data(), "left out: too little memory for the model's 42.6 GB"));
            // Eight sequences generating together hold eight caches: 42.4 GB of weights and 8 x 0.17 GB.
            QVERIFY(page.llmSequencesField()->isEnabled());
            page.llmSequencesField()->setValue(8);
            QCOMPARE(page.options().llm.llmSequences, 8);
            QVERIFY2(page.data().title.find("8 sequences generating together") != std::string::npos,
                     page.data().title.c_str());
            QVERIFY(saysNote(page.data(), "left out: too little memory for the model's 43.8 GB"));
            // Down to "as many as fit": each card its own count, which its bar's explanation gives.
            page.llmSequencesField()->setValue(0);
            QCOMPARE(page.llmSequencesField()->text(), QStringLiteral("as many as fit"));
            QVERIFY(page.options().llm.llmSequencesFillMemory);
            QVERIFY2(page.data().title.find("as many sequences generating together as the memory holds") !=
                         std::string::npos,
                     page.data().title.c_str());
            std::set<std::string> counts;
            for (const auto& r : page.data().rows) {
                for (const auto& why : r.why) {
                    if (const auto at = why.find(" sequences at once x"); at != std::string::npos) {
                        counts.insert(why.substr(why.rfind(' ', at - 1) + 1, at - why.rfind(' ', at - 1) - 1));
                    }
                }
            }
            QVERIFY2(counts.size() >= 3, qPrintable(QString::number(counts.size()))); // 48, 80, 96, 141 GB, ...
            page.llmSequencesField()->setValue(8);
            QVERIFY(!page.options().llm.llmSequencesFillMemory);
            // A prompt's micro-batch: gpt-oss-120b's prompt waits on its reads at 512 on Strix Halo and the
            // reference RTX 4090 (by more on the 4090), not at 2,048: the chart follows the field.
            page.llmModelField()->setCurrentIndex(page.llmModelField()->findData(QStringLiteral("gpt-oss-120b")));
            page.llmContextField()->setValue(2048);
            const auto strixPrompt = [&page] { // llmChartMetrics(): token generation, then prompts
                for (const auto& r : page.data().rows) {
                    if (r.gpu->id == "ryzen-ai-max-395") {
                        return r.values.at(1).value_or(0.0);
                    }
                }
                return 0.0;
            };
            QVERIFY(page.llmMicroBatchField()->isEnabled());
            const double at512 = strixPrompt();
            page.llmMicroBatchField()->setValue(2048);
            QCOMPARE(page.options().llm.llmMicroBatchTokens, 2048);
            QVERIFY2(page.data().title.find("prompts in micro-batches of 2,048") != std::string::npos,
                     page.data().title.c_str());
            QVERIFY2(at512 > 0 && std::abs(strixPrompt() / at512 - 1.0) > 0.1,
                     qPrintable(QString::number(strixPrompt() / at512)));
        }
        ui::ChartsPage again(session); // remembered with the page's other choices
        QCOMPARE(again.options().sortBy, perf::Metric::LlmDecode);
        QCOMPARE(again.llmModelField()->currentData().toString(), QStringLiteral("gpt-oss-120b"));
        QCOMPARE(again.llmSequencesField()->value(), 8);
        QCOMPARE(again.llmMicroBatchField()->value(), 2048);
        again.llmSequencesField()->setValue(1);
        again.llmMicroBatchField()->setValue(512);
        again.llmContextField()->setValue(512);
        again.llmModelField()->setCurrentIndex(0); // later tests expect the defaults
        again.setSortBy(perf::Metric::Fp16Training);
        QCOMPARE(again.data().metrics, charts::defaultChartMetrics(false));
    }

    // "As many as fit", each at a speed: every card's bar is for the most sequences that each still
    // get it (perf --min-sequence-speed), fewer than fit where the speed stops it first.
    void aSpeedForEachSequenceChartsWhatEachCardServesAtIt() {
        ui::Session session;
        session.open(dbPath());
        {
            ui::ChartsPage page(session);
            page.setKind(charts::ChartKind::RawPerformance);
            page.setSortBy(perf::Metric::LlmDecode);
            page.llmModelField()->setCurrentIndex(page.llmModelField()->findData(QStringLiteral("llama-3.1-8b")));
            page.llmContextField()->setValue(2048);
            QVERIFY(!page.llmSequenceSpeedField()->isEnabled()); // one sequence: nothing to limit
            page.llmSequencesField()->setValue(0);
            QVERIFY(page.llmSequenceSpeedField()->isEnabled());
            QCOMPARE(page.llmSequenceSpeedField()->text(), QStringLiteral("any"));
            QVERIFY(!page.options().llm.llmMinSequenceSpeed);
            std::map<std::string, int> fit;
            for (const auto& r : page.data().rows) {
                fit[r.gpu->id] = r.llmSequences;
            }
            page.llmSequenceSpeedField()->setValue(30);
            perf::PerfQuery q = page.options().llm;
            QCOMPARE(*q.llmMinSequenceSpeed, 30.0);
            q.metric = perf::Metric::LlmDecode; // the chart's token generation bars
            QVERIFY2(page.data().title.find("each get 30 tokens/s") != std::string::npos, page.data().title.c_str());
            int fewer = 0;
            for (const auto& r : page.data().rows) {
                QCOMPARE(r.llmSequences, session.model().sequencesRun(*r.gpu, q));
                QVERIFY2(r.llmSequences <= fit[r.gpu->id], r.gpu->name.c_str());
                fewer += r.llmSequences < fit[r.gpu->id];
            }
            QVERIFY2(fewer >= 10, qPrintable(QString::number(fewer)));
            // A count of sequences is what it is: the speed is off and not applied.
            page.llmSequencesField()->setValue(8);
            QVERIFY(!page.llmSequenceSpeedField()->isEnabled());
            QVERIFY(!page.options().llm.llmMinSequenceSpeed);
            page.llmSequencesField()->setValue(0);
        }
        ui::ChartsPage again(session); // remembered with the page's other choices
        QCOMPARE(again.llmSequenceSpeedField()->value(), 30.0);
        QCOMPARE(*again.options().llm.llmMinSequenceSpeed, 30.0);
        again.llmSequenceSpeedField()->setValue(0); // later tests expect the defaults
        again.llmSequencesField()->setValue(1);
        again.llmContextField()->setValue(512);
        again.llmModelField()->setCurrentIndex(0);
        again.setSortBy(perf::Metric::Fp16Training);
    }

    void systemRamBringsBackTheCardsThatRunTheModelWithTheRestInRam() {
        ui::Session session;
        session.open(dbPath());
        {
            ui::ChartsPage page(session);
            page.setKind(charts::ChartKind::RawPerformance);
            page.setSortBy(perf::Metric::LlmDecode);
            page.llmModelField()->setCurrentIndex(page.llmModelField()->findData(QStringLiteral("llama-3.1-70b")));
            const size_t holding = page.data().rows.size(); // 42.6 GB: the 48 GB cards and up
            QVERIFY(page.llmSystemRamField()->isEnabled());
            QCOMPARE(page.llmSystemRamField()->currentData().toString(), QString()); // GPU memory only
            page.llmSystemRamField()->setCurrentIndex(page.llmSystemRamField()->findData(QStringLiteral("ddr5-5600")));
            QCOMPARE(*page.options().llm.systemRamGbs, 89.6);
            const charts::ChartData& d = page.data();
            QVERIFY(d.rows.size() > holding);
            const size_t decode = d.metricIndex(perf::Metric::LlmDecode);
            const size_t prefill = d.metricIndex(perf::Metric::LlmPrefill);
            int checked = 0;
            for (const auto& r : d.rows) {
                if (r.gpu->id == "rtx-4090") { // the reference, with 20 GB of the model in RAM
                    QVERIFY(r.partlyInRam);
                    QCOMPARE(*r.values[decode], 1.0);
                    QCOMPARE(*r.values[prefill], 1.0); // its prompts copy the 20 GB over PCIe each step
                    QVERIFY(ui::BarChartBuilder::rowLabel(r).endsWith(QStringLiteral("RTX 4090 (+RAM)")));
                    ++checked;
                } else if (r.gpu->id == "rtx-pro-6000-blackwell") { // 96 GB: all of it on the card
                    QVERIFY(!r.partlyInRam);
                    QVERIFY(*r.values[decode] > 5.0); // several times the RTX 4090 with half in RAM
                    QVERIFY(*r.values[prefill] > 1.5); // it copies nothing
                    ++checked;
                }
            }
            QCOMPARE(checked, 2);
            QVERIFY2(d.title.find("system RAM of 89.6 GB/s") != std::string::npos, d.title.c_str());
            QVERIFY(saysNote(d, "run the model with part of it in system RAM of 89.6 GB/s, marked (+RAM)"));
        }
        ui::ChartsPage again(session); // remembered with the page's other choices
        QCOMPARE(again.llmSystemRamField()->currentData().toString(), QStringLiteral("ddr5-5600"));
        again.llmSystemRamField()->setCurrentIndex(0); // later tests expect the defaults
        again.llmModelField()->setCurrentIndex(0);
        again.setSortBy(perf::Metric::Fp16Training);
    }

    void aServingEngineChartsItsOwnSpeedWithoutLlamaCppsOptions() {
        ui::Session session;
        session.open(dbPath());
        {
            ui::ChartsPage page(session);
            page.setKind(charts::ChartKind::RawPerformance);
            page.setSortBy(perf::Metric::LlmDecode);
            page.llmSequencesField()->setValue(64);
            QCOMPARE(page.llmEngineField()->currentData().toString(), QStringLiteral("llama.cpp"));
            QVERIFY(page.llmMicroBatchField()->isEnabled() && page.llmSystemRamField()->isEnabled());
            // The weights are named after the engine's own files, whose bytes the model reads.
            const auto weightsText = [&page](const char* data) {
                return page.llmWeightsField()->itemText(page.llmWeightsField()->findData(QString::fromLatin1(data)));
            };
            QCOMPARE(weightsText("fp4"), QStringLiteral("4-bit float (MXFP4)"));
            page.llmEngineField()->setCurrentIndex(page.llmEngineField()->findData(QStringLiteral("tensorrt-llm")));
            QCOMPARE(page.options().llm.llmEngine, perf::LlmEngine::TensorRtLlm);
            QCOMPARE(weightsText("int8"), QStringLiteral("8-bit (FP8 or INT8)"));
            QCOMPARE(weightsText("int4"), QStringLiteral("4-bit (INT4 AWQ)"));
            QCOMPARE(weightsText("fp4"), QStringLiteral("4-bit float (NVFP4)"));
            // It runs whole prompts and keeps the whole model on the GPUs: llama.cpp's two fields go grey.
            QVERIFY(!page.llmMicroBatchField()->isEnabled() && !page.llmSystemRamField()->isEnabled());
            const charts::ChartData& d = page.data();
            QVERIFY2(d.title.find("64 sequences generating together, in TensorRT-LLM") != std::string::npos,
                     d.title.c_str());
            QVERIFY2(d.subtitle.rfind("Modelled TensorRT-LLM tokens/s per GPU", 0) == 0, d.subtitle.c_str());
            // A bar gives the engine's own error (eval-serving's full-load check of grouped-query
            // models: 8%), not llama.cpp's.
            const QString bar = ui::BarChartBuilder::barText(d, 0, 0);
            QVERIFY2(bar.contains(QStringLiteral("Typical error of such estimates: 8% (1 in 10 off by 17% or more)")),
                     qPrintable(bar));
            // The H100's bar over the L40S's is the engine's ratio of their tokens/s, not llama.cpp's.
            const auto value = [&d](const char* id) {
                for (const auto& r : d.rows) {
                    if (r.gpu->id == id) {
                        return r.values.at(d.metricIndex(perf::Metric::LlmDecode)).value_or(0.0);
                    }
                }
                return 0.0;
            };
            perf::PerfQuery q = page.options().llm;
            q.metric = perf::Metric::LlmDecode;
            const auto tokens = [&](const char* name) {
                return session.model().throughput(session.catalog().require(name), q);
            };
            const double ratio = tokens("H100 SXM5") / tokens("L40S");
            QVERIFY2(std::abs(value("h100-sxm5") / value("l40s") / ratio - 1.0) < 1e-9,
                     qPrintable(QString::number(value("h100-sxm5") / value("l40s"))));
            const double serving = tokens("H100 SXM5");
            q.llmEngine = perf::LlmEngine::LlamaCpp;
            QVERIFY(serving > 1.2 * tokens("H100 SXM5"));
            // Several GPUs per setup: the engine's split comes free, by layers a pipeline of them.
            auto* gpus = page.findChild<QSpinBox*>(QStringLiteral("gpusPerSetup"));
            QVERIFY(gpus != nullptr && !page.llmSplitField()->isEnabled());
            gpus->setValue(4);
            QVERIFY(page.llmSplitField()->isEnabled());
            page.llmSplitField()->setCurrentIndex(page.llmSplitField()->findData(QStringLiteral("layers")));
            QCOMPARE(page.options().llm.llmSplit, perf::LlmSplit::Layers);
            QVERIFY2(page.data().title.find("in TensorRT-LLM split by layers") != std::string::npos,
                     page.data().title.c_str());
            // The pipeline's band, not the split by tensors'.
            const QString band = QStringLiteral("Typical error of such estimates: %1% (1 in 10 off by %2% or more)")
                                     .arg(std::lround(perf::kServingPipelineAccuracy.medianPct))
                                     .arg(std::lround(perf::kServingPipelineAccuracy.p90Pct));
            QVERIFY2(ui::BarChartBuilder::barText(page.data(), 0, 0).contains(band),
                     qPrintable(ui::BarChartBuilder::barText(page.data(), 0, 0)));
            page.llmSplitField()->setCurrentIndex(0); // later tests expect the defaults
            gpus->setValue(1);
            // A mixture of experts in the engine: the band of a later release's mixtures, each model
            // held out, not the dense models' 8%.
            const int dense = page.llmModelField()->currentIndex();
            page.llmModelField()->setCurrentIndex(page.llmModelField()->findData(QStringLiteral("qwen3-30b-a3b")));
            QCOMPARE(page.options().llm.llmExperts, 128);
            const QString mixture = QStringLiteral("Typical error of such estimates: %1% (1 in 10 off by %2% or more)")
                                        .arg(std::lround(perf::kServingMixtureOfExpertsAccuracy.medianPct))
                                        .arg(std::lround(perf::kServingMixtureOfExpertsAccuracy.p90Pct));
            QVERIFY2(ui::BarChartBuilder::barText(page.data(), 0, 0).contains(mixture),
                     qPrintable(ui::BarChartBuilder::barText(page.data(), 0, 0)));
            page.llmModelField()->setCurrentIndex(dense);
        }
        ui::ChartsPage again(session); // remembered with the page's other choices
        QCOMPARE(again.llmEngineField()->currentData().toString(), QStringLiteral("tensorrt-llm"));
        again.llmEngineField()->setCurrentIndex(0); // later tests expect the defaults
        QCOMPARE(again.llmWeightsField()->itemText(again.llmWeightsField()->findData(QStringLiteral("int8"))),
                 QStringLiteral("8-bit (Q8_0)"));
        again.llmSequencesField()->setValue(1);
        again.setSortBy(perf::Metric::Fp16Training);
    }
};

QTEST_MAIN(ChartsPageLlmTest)
#include "charts_page_llm_test.moc"
