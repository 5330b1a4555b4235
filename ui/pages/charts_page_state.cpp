// The Charts page's choices set from outside (the Advisor page's "Show in charts") and kept
// between runs (QSettings group "charts").
#include "pages/charts_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>

namespace advisor::ui {

void ChartsPage::setKind(charts::ChartKind kind) {
    kind_->setCurrentIndex(kind_->findData(QString::fromLatin1(charts::toString(kind))));
}

void ChartsPage::setSortBy(perf::Metric metric) {
    sortBy_->setCurrentIndex(sortBy_->findData(QString::fromLatin1(perf::toString(metric))));
}

void ChartsPage::setMinimumMemory(double gb) {
    minMemory_->setValue(gb);
}

std::vector<std::pair<const char*, QComboBox*>> ChartsPage::savedChoices() const {
    return {{"kind", kind_},         {"sortBy", sortBy_},           {"workload", workload_},
            {"vendor", vendor_},     {"llmModel", llmModel_},       {"llmWeights", llmWeights_},
            {"llmEngine", llmEngine_}, {"llmSystemRam", llmSystemRam_}, {"llmSplit", llmSplit_}};
}

void ChartsPage::saveViewState() const {
    QSettings s;
    s.beginGroup(QStringLiteral("charts"));
    for (const auto& [key, box] : savedChoices()) {
        s.setValue(QLatin1String(key), box->currentData());
    }
    s.setValue(QStringLiteral("minMemory"), minMemory_->value());
    s.setValue(QStringLiteral("gpus"), gpus_->value());
    s.setValue(QStringLiteral("fp32"), fp32_->isChecked());
    s.setValue(QStringLiteral("onlyPriced"), onlyPriced_->isChecked());
    s.setValue(QStringLiteral("sparsity"), sparsity_->isChecked());
    s.setValue(QStringLiteral("llmContext"), llmContext_->value());
    s.setValue(QStringLiteral("llmSequences"), llmSequences_->value());
    s.setValue(QStringLiteral("llmSequenceSpeed"), llmSequenceSpeed_->value());
    s.setValue(QStringLiteral("llmMicroBatch"), llmMicroBatch_->value());
    s.setValue(QStringLiteral("splitter"), splitter_->saveState());
}

void ChartsPage::restoreViewState() {
    restoring_ = true;
    QSettings s;
    s.beginGroup(QStringLiteral("charts"));
    for (const auto& [key, box] : savedChoices()) { // a value this build does not offer keeps the default
        if (const int i = box->findData(s.value(QLatin1String(key))); i >= 0) {
            box->setCurrentIndex(i);
        }
    }
    llmContext_->setValue(s.value(QStringLiteral("llmContext"), 512).toInt());
    llmSequences_->setValue(s.value(QStringLiteral("llmSequences"), 1).toInt());
    llmSequenceSpeed_->setValue(s.value(QStringLiteral("llmSequenceSpeed"), 0.0).toDouble());
    llmMicroBatch_->setValue(s.value(QStringLiteral("llmMicroBatch"), perf::kDefaultMicroBatchTokens).toInt());
    minMemory_->setValue(s.value(QStringLiteral("minMemory"), 0.0).toDouble());
    gpus_->setValue(s.value(QStringLiteral("gpus"), 1).toInt());
    fp32_->setChecked(s.value(QStringLiteral("fp32"), false).toBool());
    onlyPriced_->setChecked(s.value(QStringLiteral("onlyPriced"), false).toBool());
    sparsity_->setChecked(s.value(QStringLiteral("sparsity"), false).toBool());
    splitter_->restoreState(s.value(QStringLiteral("splitter")).toByteArray());
    restoring_ = false;
}

} // namespace advisor::ui
