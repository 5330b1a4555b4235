#include "pages/calculators/calculator_tab.h"

#include "common/errors.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/compact_combo.h"
#include "widgets/remembered_inputs.h"
#include "widgets/vertical_scroll.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace advisor::ui {

CalculatorTab::CalculatorTab(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* inputBox = new QWidget;
    inputs_ = new QFormLayout(inputBox);
    QScrollArea* inputScroll = scrollVertically(inputBox);
    inputScroll->setMaximumWidth(460);
    inputScroll_ = inputScroll;
    auto* resultBox = new QWidget;
    results_ = new QVBoxLayout(resultBox);
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    error_->hide();
    results_->addWidget(error_);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(inputScroll);
    layout->addWidget(resultBox, 1);
    connect(&session_, &Session::catalogChanged, this, &CalculatorTab::refillPickers);
    connect(&session_, &Session::opened, this, &CalculatorTab::refillPickers);
    connect(&session_, &Session::settingsChanged, this, &CalculatorTab::recompute);
}

void CalculatorTab::ready() {
    // All inputs are in: the column is as wide as they need (plus a scroll bar).
    inputScroll_->setMinimumWidth(
        std::min(inputScroll_->widget()->sizeHint().width() + 20, inputScroll_->maximumWidth()));
    ready_ = true;
    recompute();
}

void CalculatorTab::recompute() {
    if (computing_ || !ready_ || !session_.isOpen()) {
        return;
    }
    computing_ = true;
    try {
        compute();
        error_->hide();
        error_->clear();
    } catch (const InputError& e) {
        error_->setText(describeProblems(e, QStringLiteral("\n"), [this](const std::string& field) {
            const auto it = fieldLabels_.find(field);
            return it != fieldLabels_.end() ? it->second : qs(field);
        }));
        error_->show();
    } catch (const AdvisorError& e) {
        error_->setText(QString::fromUtf8(e.what()));
        error_->show();
    }
    computing_ = false;
}

void CalculatorTab::labelField(const std::string& field, const QString& label) {
    fieldLabels_[field] = label;
}

QString CalculatorTab::error() const {
    return error_->isHidden() ? QString() : error_->text();
}

QComboBox* CalculatorTab::addGpuPicker(const QString& label, const char* defaultGpuId, const QString& noneText) {
    auto* picker = new QComboBox;
    // The longest catalog name before the RTX PRO 6000 Server Edition ("RTX PRO 6000 Blackwell
    // Max-Q"): a longer one (or a long name of the user's own GPU) must not narrow the plots.
    makeCompact(picker, 22);
    picker->setProperty("defaultGpu", QString::fromLatin1(defaultGpuId));
    picker->setProperty("noneText", noneText);
    pickers_ << picker;
    inputs_->addRow(label, picker);
    refillPickers();
    watch(picker);
    return picker;
}

void CalculatorTab::offerCardsOnly(QComboBox* picker) {
    picker->setProperty("cardsOnly", true);
    refillPickers();
}

void CalculatorTab::refillPickers() {
    std::vector<const Gpu*> gpus;
    for (const auto& g : session_.catalog().gpus()) {
        gpus.push_back(&g);
    }
    std::sort(gpus.begin(), gpus.end(), [](const Gpu* a, const Gpu* b) { return a->name < b->name; });
    for (QComboBox* picker : pickers_) {
        const QString current = picker->count() > 0 ? picker->currentData().toString()
                                                    : picker->property("defaultGpu").toString();
        const QSignalBlocker block(picker);
        picker->clear();
        if (const QString none = picker->property("noneText").toString(); !none.isEmpty()) {
            picker->addItem(none, QString());
        }
        const bool cardsOnly = picker->property("cardsOnly").toBool();
        for (const Gpu* g : gpus) {
            if (!cardsOnly || !g->isCompleteSystem()) {
                picker->addItem(qs(g->name), qs(g->id));
            }
        }
        const int i = picker->findData(current);
        picker->setCurrentIndex(i >= 0 ? i : 0);
        fitPopupToItems(picker);
    }
    recompute();
}

const Gpu* CalculatorTab::gpuOf(QComboBox* picker) const {
    return session_.catalog().findById(picker->currentData().toString().toStdString());
}

QSpinBox* CalculatorTab::addCount(const QString& label, int min, int max, int value) {
    auto* box = new QSpinBox;
    box->setRange(min, max);
    box->setValue(value);
    inputs_->addRow(label, box);
    watch(box);
    return box;
}

QDoubleSpinBox* CalculatorTab::addNumber(const QString& label, double min, double max, double value, int decimals,
                                         const QString& suffix, const QString& zeroText) {
    auto* box = new QDoubleSpinBox;
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setValue(value);
    box->setSuffix(suffix);
    if (!zeroText.isEmpty()) {
        box->setSpecialValueText(zeroText);
    }
    inputs_->addRow(label, box);
    watch(box);
    return box;
}

void CalculatorTab::rememberInputs(const QString& group) {
    std::vector<RememberedInputs::Input> inputs;
    for (QWidget* w : watched_) {
        // Named by the label the user sees ("Number of GPUs"), or a check box's own text.
        QString name;
        if (auto* label = qobject_cast<QLabel*>(inputs_->labelForField(w)); label != nullptr && !label->text().isEmpty()) {
            name = label->text();
        } else if (auto* box = qobject_cast<QCheckBox*>(w)) {
            name = box->text();
        }
        name.remove(QLatin1Char('&'));
        name.remove(QLatin1Char(':'));
        if (!name.isEmpty()) {
            inputs.push_back({name, w});
        }
    }
    remembered_ = new RememberedInputs(group, std::move(inputs), this);
    // Connected after the tab's own handlers of `opened` (which fill costs and lists), so it
    // runs after them; once, as a later reopening (a restored backup) must not undo edits.
    if (!session_.isOpen()) {
        connect(&session_, &Session::opened, remembered_, &RememberedInputs::reapplySaved, Qt::SingleShotConnection);
    }
    auto* reset = new QPushButton(tr("Reset to defaults"));
    reset->setToolTip(tr("Put this calculator's inputs back to how they start"));
    connect(reset, &QPushButton::clicked, this, &CalculatorTab::resetInputs);
    inputs_->addRow(QString(), reset);
}

void CalculatorTab::resetInputs() {
    if (remembered_ != nullptr) {
        remembered_->resetToDefaults();
        refillFromData();
    }
}

void CalculatorTab::watch(QWidget* w) {
    watched_ << w;
    if (auto* s = qobject_cast<QSpinBox*>(w)) {
        connect(s, &QSpinBox::valueChanged, this, &CalculatorTab::recompute);
    } else if (auto* d = qobject_cast<QDoubleSpinBox*>(w)) {
        connect(d, &QDoubleSpinBox::valueChanged, this, &CalculatorTab::recompute);
    } else if (auto* c = qobject_cast<QComboBox*>(w)) {
        connect(c, &QComboBox::currentIndexChanged, this, &CalculatorTab::recompute);
    } else if (auto* b = qobject_cast<QCheckBox*>(w)) {
        connect(b, &QCheckBox::toggled, this, &CalculatorTab::recompute);
    }
}

QLabel* CalculatorTab::addResultLabel() {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results_->addWidget(label);
    return label;
}

} // namespace advisor::ui
