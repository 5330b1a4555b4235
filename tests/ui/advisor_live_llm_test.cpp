// The Advisor page's live recommender for LLMs, offscreen on a real database: a model's size or a
// published model sizes the memory for the leaf's task, and an LLM's context, the requests served
// at once (or as many as each card holds), system RAM for what does not fit and the engine serving
// it, with its split over several cards, reach the shortlist.
#include "advisor_live_checks.h"
#include "mnemonics.h"
#include "pages/advisor_page.h"
#include "private_session.h"
#include "session.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <memory>

using namespace advisor;
using testing::answerUpToRunningLlms;
using testing::firstReasonsSay;
using testing::liveMemoryField;
using testing::liveSummary;

class AdvisorLiveLlmTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::Session> session_;

private slots:
    void initTestCase() {
        session_ = testing::openPrivateSession(dir_); // remembered inputs go to dir_, not the user's
    }

    void init() {
        QSettings().clear(); // each test starts from a fresh walk
    }

    void aModelSizeSizesTheMemoryForTheLeafsTask() {
        // As `recommend --params-billion`: the page only took gigabytes.
        ui::AdvisorPage page(*session_);
        page.setBudget(1500);
        for (const char* a : {"no", "yes", "yes"}) { // train transformers
            QVERIFY(page.answer(QLatin1String(a)));
        }
        auto* size = page.findChild<QDoubleSpinBox*>(QStringLiteral("liveModelSize"));
        QVERIFY(size != nullptr);
        QDoubleSpinBox* memory = liveMemoryField(page);
        QVERIFY(memory != nullptr);
        QCOMPARE(memory->value(), 24.0); // the chart's 24 GB for transformers
        size->setValue(1);
        // Full training with Adam: 16 bytes per parameter before activations.
        QVERIFY2(memory->value() > 16 && memory->value() < 30, qPrintable(QString::number(memory->value())));
        auto* summary = page.findChildren<QLabel*>().front();
        for (auto* l : page.findChildren<QLabel*>()) {
            summary = l->text().contains(QStringLiteral("of memory")) ? l : summary;
        }
        QVERIFY2(summary->text().contains(QStringLiteral("of memory (1B parameters, full-training with fp16 weights)")),
                 qPrintable(summary->text()));
        {
            ui::AdvisorPage again(*session_); // kept between sessions
            QCOMPARE(again.findChild<QDoubleSpinBox*>(QStringLiteral("liveModelSize"))->value(), 1.0);
        }
        // Entering gigabytes sets the size aside.
        memory->setValue(40);
        QCOMPARE(size->value(), 0.0);
        QCOMPARE(size->text(), QStringLiteral("none: the memory above"));
        QVERIFY2(!summary->text().contains(QStringLiteral("parameters")), qPrintable(summary->text()));
        QVERIFY2(summary->text().startsWith(QStringLiteral("40 GB of memory")), qPrintable(summary->text()));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QDoubleSpinBox*>(QStringLiteral("liveModelSize"))->value(), 0.0);
    }

    void aPublishedModelSizesTheMemoryWithItsOwnShape() {
        ui::AdvisorPage page(*session_);
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* size = page.findChild<QDoubleSpinBox*>(QStringLiteral("liveModelSize"));
        QVERIFY(model != nullptr && size != nullptr);
        QDoubleSpinBox* memory = liveMemoryField(page);
        QVERIFY(memory != nullptr);
        size->setValue(7); // any 7B model: a Llama-like shape with 8 KV heads is assumed
        const double anySeven = memory->value();
        model->setCurrentIndex(model->findData(QStringLiteral("llama-2-7b")));
        QCOMPARE(size->value(), 6.7); // the model card's size
        QVERIFY(!size->isEnabled()); // the model's size, until "Any" is chosen again
        // Llama 2 7B keeps all 32 KV heads: four times the assumed cache, so more memory.
        QVERIFY2(memory->value() > anySeven + 1.0,
                 qPrintable(QStringLiteral("%1 GB against %2 GB").arg(memory->value()).arg(anySeven)));
        QLabel* summary = liveSummary(page);
        QVERIFY(summary != nullptr);
        QVERIFY2(summary->text().contains(QStringLiteral("(Llama 2 7B: 6.7B parameters, inference")),
                 qPrintable(summary->text()));
        {
            ui::AdvisorPage again(*session_); // kept between sessions
            QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("liveModel"))->currentData().toString(),
                     QStringLiteral("llama-2-7b"));
            QVERIFY(!again.findChild<QDoubleSpinBox*>(QStringLiteral("liveModelSize"))->isEnabled());
        }
        // Entering gigabytes sets the model aside too.
        memory->setValue(40);
        QCOMPARE(model->currentIndex(), 0);
        QVERIFY(size->isEnabled());
        QCOMPARE(size->value(), 0.0);
        QVERIFY2(summary->text().startsWith(QStringLiteral("40 GB of memory")), qPrintable(summary->text()));
        // The work in words, not the command line's "inference llm".
        QVERIFY2(summary->text().contains(QStringLiteral(", run LLMs, ranked by")), qPrintable(summary->text()));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveModel"))->currentIndex(), 0);
    }

    void anLlmsContextSizesItsKvCacheInTheLiveRecommendation() {
        ui::AdvisorPage page(*session_);
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* context = page.findChild<QSpinBox*>(QStringLiteral("liveContext"));
        QVERIFY(model != nullptr && context != nullptr);
        QVERIFY(!context->isEnabled()); // no model yet: the memory is given in gigabytes
        QDoubleSpinBox* memory = liveMemoryField(page);
        QVERIFY(memory != nullptr);
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-8b")));
        QVERIFY(context->isEnabled());
        const double atDefault = memory->value();
        // 128K tokens instead of the memory calculator's 4,096: 128 KiB of KV cache and 32 KiB of
        // whole-prompt activations per token more, 20.8 GB (the field shows one decimal).
        context->setValue(131072);
        QVERIFY2(std::fabs(memory->value() - atDefault - (131072.0 - 4096) * (131072 + 8 * 4096) / 1e9) < 0.06,
                 qPrintable(QStringLiteral("%1 GB against %2 GB").arg(memory->value()).arg(atDefault)));
        QLabel* summary = liveSummary(page);
        QVERIFY(summary != nullptr);
        QVERIFY2(summary->text().contains(QStringLiteral("131,072 tokens of context")), qPrintable(summary->text()));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QSpinBox*>(QStringLiteral("liveContext"))->value(), 131072);
        context->setValue(0); // later tests expect the defaults
        model->setCurrentIndex(0);
    }

    void requestsServedAtOnceEachKeepTheirCache() {
        ui::AdvisorPage page(*session_);
        page.show();
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* requests = page.findChild<QSpinBox*>(QStringLiteral("liveRequests"));
        QVERIFY(model != nullptr && requests != nullptr);
        QVERIFY(!requests->isVisible()); // no model yet: the memory is given in gigabytes
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-8b")));
        QVERIFY(requests->isVisible());
        QDoubleSpinBox* memory = liveMemoryField(page);
        const double one = memory->value();
        // Eight requests at the calculator's 4,096 tokens: seven more caches of 0.54 GB, and
        // their activations.
        requests->setValue(8);
        QVERIFY2(memory->value() - one > 7 * 65536.0 * 4096 * 2 / 1e9,
                 qPrintable(QStringLiteral("%1 GB against %2 GB").arg(memory->value()).arg(one)));
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("8 requests at once")),
                 qPrintable(liveSummary(page)->text()));
        QVERIFY(firstReasonsSay(page, "8 requests together"));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QSpinBox*>(QStringLiteral("liveRequests"))->value(), 8);
        // Down to "as many as fit": the memory needed is one request's, and each card is ranked at
        // as many as its memory holds, which its reasons say.
        requests->setValue(0);
        QCOMPARE(requests->text(), QStringLiteral("as many as fit"));
        QCOMPARE(memory->value(), one);
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("as many requests at once as each card holds")),
                 qPrintable(liveSummary(page)->text()));
        QVERIFY(firstReasonsSay(page, " requests together (as many as fit)"));
        requests->setValue(1); // later tests expect the defaults
        model->setCurrentIndex(0);
    }

    void aSpeedForEachRequestRanksWhatEachCardServesAtIt() {
        ui::AdvisorPage page(*session_);
        page.show();
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* requests = page.findChild<QSpinBox*>(QStringLiteral("liveRequests"));
        auto* speed = page.findChild<QDoubleSpinBox*>(QStringLiteral("liveRequestSpeed"));
        QVERIFY(model != nullptr && requests != nullptr && speed != nullptr);
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-8b")));
        QVERIFY(!speed->isVisible()); // one request: nothing to limit
        requests->setValue(0);
        QVERIFY(speed->isVisible());
        QCOMPARE(speed->text(), QStringLiteral("any"));
        speed->setValue(30);
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("each get 30 tokens/s")),
                 qPrintable(liveSummary(page)->text()));
        // "speed X tokens/s (llm-decode, N requests together (as many as fit and each get 30 tokens/s): Y each)"
        const auto& shortlist = page.liveRecommendation().shortlist;
        QVERIFY(!shortlist.empty());
        int checked = 0;
        for (const auto& c : shortlist) {
            for (const auto& r : c.reasons) {
                const auto at = r.find(" requests together (as many as fit and each get 30 tokens/s): ");
                if (at != std::string::npos) {
                    const double each = std::stod(r.substr(r.find("): ", at) + 3));
                    QVERIFY2(each >= 29.5, r.c_str()); // rounded to whole tokens/s
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 1);
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QDoubleSpinBox*>(QStringLiteral("liveRequestSpeed"))->value(),
                 30.0);
        requests->setValue(8); // a count is what it is: the speed is hidden and not applied
        QVERIFY(!speed->isVisible());
        QVERIFY(!liveSummary(page)->text().contains(QStringLiteral("tokens/s")));
        speed->setValue(0); // later tests expect the defaults
        requests->setValue(1);
        model->setCurrentIndex(0);
    }

    void systemRamLetsCardsTooSmallForTheModelInWithTheRestInRam() {
        ui::AdvisorPage page(*session_);
        page.show();
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* ram = page.findChild<QComboBox*>(QStringLiteral("liveSystemRam"));
        QVERIFY(model != nullptr && ram != nullptr);
        QVERIFY(!ram->isVisible()); // no model yet: the memory is given in gigabytes
        model->setCurrentIndex(model->findData(QStringLiteral("gpt-oss-120b")));
        QVERIFY(ram->isVisible());
        // The chart's 8-bit sizes gpt-oss-120b at 120 GB; its 4-bit file needs 64.6 (remembered).
        auto* weights = page.findChild<QComboBox*>(QStringLiteral("liveWeights"));
        QVERIFY(weights != nullptr && weights->isVisible());
        QCOMPARE(weights->currentData(), QVariant(QStringLiteral("int8")));
        QVERIFY(liveMemoryField(page)->value() > 115);
        weights->setCurrentIndex(weights->findData(QStringLiteral("int4")));
        QCOMPARE(liveMemoryField(page)->value(), 64.6);
        QVERIFY(liveSummary(page)->text().contains(QStringLiteral("int4 weights")));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveWeights"))->currentData(),
                 QVariant(QStringLiteral("int4")));
        const QStringList clashes = testing::clashingMnemonics(&page); // its Alt key is its own
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        for (const auto& c : page.liveRecommendation().shortlist) {
            QVERIFY2(c.gpu->memoryGb * c.count >= liveMemoryField(page)->value(), c.gpu->name.c_str());
        }
        ram->setCurrentIndex(ram->findData(QStringLiteral("ddr5-5600")));
        const auto& rec = page.liveRecommendation();
        QVERIFY(!rec.shortlist.empty());
        int inRam = 0;
        for (const auto& c : rec.shortlist) {
            inRam += c.partlyInRam ? 1 : 0;
        }
        QVERIFY(inRam > 0);
        auto* table = page.findChild<QTableWidget*>(QStringLiteral("shortlist"));
        QVERIFY(table != nullptr);
        bool marked = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->item(row, 1)->text().endsWith(QStringLiteral(" + RAM"))) {
                marked = true;
                QCOMPARE(table->item(row, 6)->text(), QStringLiteral("rest in RAM"));
            }
        }
        QVERIFY(marked);
        // Two cards at most: each card too small comes as a pair where the budget buys two.
        auto* gpus = page.findChild<QSpinBox*>(QStringLiteral("liveGpus"));
        QVERIFY(gpus != nullptr && gpus->isVisible());
        QCOMPARE(gpus->text(), QStringLiteral("1, the chart's"));
        QVERIFY(gpus->width() > gpus->fontMetrics().horizontalAdvance(gpus->text())); // not cut to "rt's"
        gpus->setValue(2);
        bool pair = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            pair |= table->item(row, 1)->text().startsWith(QStringLiteral("2 x "));
        }
        QVERIFY(pair);
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QSpinBox*>(QStringLiteral("liveGpus"))->value(), 2);
        gpus->setValue(0);
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveSystemRam"))->currentData(),
                 QVariant(QStringLiteral("ddr5-5600")));
        ram->setCurrentIndex(0); // later tests expect the defaults
        QSettings().setValue(QStringLiteral("advisor/llm_weights"), QStringLiteral("int3")); // another program's
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveWeights"))->currentData(),
                 QVariant(QStringLiteral("int8"))); // the chart's, as later tests expect
        model->setCurrentIndex(0);
    }

    void aServingEngineRanksAtItsSpeedAndKeepsTheModelOnTheGpus() {
        ui::AdvisorPage page(*session_);
        page.show();
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* engine = page.findChild<QComboBox*>(QStringLiteral("liveEngine"));
        auto* ram = page.findChild<QComboBox*>(QStringLiteral("liveSystemRam"));
        QVERIFY(model != nullptr && engine != nullptr && ram != nullptr);
        QVERIFY(!engine->isVisible()); // no model yet
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-8b")));
        QVERIFY(engine->isVisible() && ram->isVisible());
        QCOMPARE(engine->currentData().toString(), QStringLiteral("llama.cpp"));
        QVERIFY(!page.liveRecommendation().shortlist.empty());
        const std::string card = page.liveRecommendation().shortlist.front().gpu->id;
        const double llamaCpp = page.liveRecommendation().shortlist.front().throughput;
        auto* weights = page.findChild<QComboBox*>(QStringLiteral("liveWeights"));
        QVERIFY(weights != nullptr);
        QCOMPARE(weights->itemText(weights->findData(QStringLiteral("int8"))), QStringLiteral("8-bit (Q8_0)"));
        engine->setCurrentIndex(engine->findData(QStringLiteral("tensorrt-llm")));
        QCOMPARE(weights->itemText(weights->findData(QStringLiteral("int8"))), QStringLiteral("8-bit (FP8 or INT8)"));
        QVERIFY(!ram->isVisible()); // TensorRT-LLM keeps the whole model on the GPUs
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("served by TensorRT-LLM")),
                 qPrintable(liveSummary(page)->text()));
        // The same card is ranked at the engine's tokens/s, not llama.cpp's.
        bool found = false;
        for (const auto& c : page.liveRecommendation().shortlist) {
            if (c.gpu->id == card && c.count == 1) {
                found = true;
                QVERIFY2(std::abs(c.throughput / llamaCpp - 1.0) > 1e-6, qPrintable(QString::number(c.throughput)));
            }
        }
        QVERIFY2(found, card.c_str());
        const QStringList clashes = testing::clashingMnemonics(&page); // the new row takes no Alt key
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveEngine"))->currentData(),
                 QVariant(QStringLiteral("tensorrt-llm")));
        engine->setCurrentIndex(0); // later tests expect the defaults
        model->setCurrentIndex(0);
    }

    void theServingEnginesSplitReachesSetupsOfSeveralCards() {
        // As `recommend --split layers`: Llama 3.1 70B in 4 bits on up to four cards.
        ui::AdvisorPage page(*session_);
        page.show();
        answerUpToRunningLlms(page);
        auto* model = page.findChild<QComboBox*>(QStringLiteral("liveModel"));
        auto* engine = page.findChild<QComboBox*>(QStringLiteral("liveEngine"));
        auto* split = page.findChild<QComboBox*>(QStringLiteral("liveSplit"));
        auto* weights = page.findChild<QComboBox*>(QStringLiteral("liveWeights"));
        auto* gpus = page.findChild<QSpinBox*>(QStringLiteral("liveGpus"));
        QVERIFY(model != nullptr && engine != nullptr && split != nullptr && weights != nullptr && gpus != nullptr);
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-70b")));
        weights->setCurrentIndex(weights->findData(QStringLiteral("int4")));
        QVERIFY(!split->isVisible()); // llama.cpp splits by layers whatever the box says
        engine->setCurrentIndex(engine->findData(QStringLiteral("tensorrt-llm")));
        QVERIFY(split->isVisible());
        QVERIFY(!split->isEnabled()); // a person's leaf: one card, nothing to split
        gpus->setValue(4);
        QVERIFY(split->isEnabled());
        QCOMPARE(split->currentData().toString(), QStringLiteral("tensors"));
        // Each setup of several cards, at the split by tensors.
        std::map<std::string, double> byTensors;
        for (const auto& c : page.liveRecommendation().shortlist) {
            if (c.count > 1) {
                byTensors[c.gpu->id + " x" + std::to_string(c.count)] = c.throughput;
            }
        }
        QVERIFY(!byTensors.empty());
        split->setCurrentIndex(split->findData(QStringLiteral("layers")));
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("served by TensorRT-LLM, several cards split by "
                                                                   "layers")),
                 qPrintable(liveSummary(page)->text()));
        // One request crosses the cards in turn: no faster than the split by tensors.
        int compared = 0;
        for (const auto& c : page.liveRecommendation().shortlist) {
            const auto before = byTensors.find(c.gpu->id + " x" + std::to_string(c.count));
            if (before != byTensors.end()) {
                ++compared;
                QVERIFY2(c.throughput < 0.9 * before->second, c.gpu->id.c_str());
            }
        }
        QVERIFY(compared > 0);
        // Whichever is faster: each setup of several cards at the faster of the two.
        split->setCurrentIndex(split->findData(QStringLiteral("fastest")));
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("split whichever way is faster")),
                 qPrintable(liveSummary(page)->text()));
        int comparedAgain = 0;
        for (const auto& c : page.liveRecommendation().shortlist) {
            QCOMPARE(c.llmSplit.has_value(), c.count > 1);
            const auto before = byTensors.find(c.gpu->id + " x" + std::to_string(c.count));
            if (before != byTensors.end()) {
                ++comparedAgain;
                QVERIFY2(c.throughput >= before->second * (1 - 1e-12), c.gpu->id.c_str()); // tensors, here
                QCOMPARE(*c.llmSplit, perf::LlmSplit::Tensors);
            }
        }
        QVERIFY(comparedAgain > 0);
        // A mixture of experts split by its experts: each setup of several cards at perf's figure for it.
        page.setBudget(60000); // four cards of Qwen3 235B-A22B's 4-bit weights
        model->setCurrentIndex(model->findData(QStringLiteral("qwen3-235b-a22b")));
        QVERIFY(model->currentIndex() >= 0);
        split->setCurrentIndex(split->findData(QStringLiteral("experts")));
        QVERIFY2(liveSummary(page)->text().contains(QStringLiteral("several cards split by experts")),
                 qPrintable(liveSummary(page)->text()));
        int byExperts = 0;
        for (const auto& c : page.liveRecommendation().shortlist) {
            if (c.count > 1) {
                ++byExperts;
                QCOMPARE(*c.llmSplit, perf::LlmSplit::Experts);
            }
        }
        QVERIFY(byExperts > 0);
        model->setCurrentIndex(model->findData(QStringLiteral("llama-3.1-70b")));
        split->setCurrentIndex(split->findData(QStringLiteral("layers")));
        const QStringList clashes = testing::clashingMnemonics(&page); // the new row takes no Alt key
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        QCOMPARE(ui::AdvisorPage(*session_).findChild<QComboBox*>(QStringLiteral("liveSplit"))->currentData(),
                 QVariant(QStringLiteral("layers")));
        engine->setCurrentIndex(0); // llama.cpp: the row hides again
        QVERIFY(!split->isVisible());
        QVERIFY2(!liveSummary(page)->text().contains(QStringLiteral("split by layers")),
                 qPrintable(liveSummary(page)->text()));
        model->setCurrentIndex(0); // later tests expect the defaults
    }
};

QTEST_MAIN(AdvisorLiveLlmTest)
#include "advisor_live_llm_test.moc"
