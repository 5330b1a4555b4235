#include "pages/settings_panel.h"

#include "prices/currency.h"
#include "session.h"
#include "widgets/compact_combo.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

#include <algorithm>

namespace advisor::ui {

namespace {

QDoubleSpinBox* spinBox(double min, double max, int decimals, double step, const QString& suffix, const QString& tip) {
    auto* box = new QDoubleSpinBox;
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    box->setSuffix(suffix);
    box->setToolTip(tip);
    box->setKeyboardTracking(false); // commit on Enter, focus change or arrow steps, not per keystroke
    return box;
}

} // namespace

SettingsPanel::SettingsPanel(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* form = new QFormLayout(this);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // a narrow column puts labels above fields
    electricity_ = spinBox(0, 5, 3, 0.01, tr(" $/kWh"), tr("What you pay per kWh (the seed's charts: $0.175)"));
    utilization_ = spinBox(1, 100, 0, 5, tr(" %"),
                           tr("How much of the time the GPUs compute (seed: 15% for a PhD student's desktop)"));
    years_ = spinBox(0.5, 15, 1, 0.5, tr(" years"), tr("How long you use the GPUs (seed: 5 years)"));
    desktopCost_ = spinBox(0, 50000, 0, 50, QString(), tr("The rest of the desktop without its GPUs"));
    desktopCost_->setPrefix(QStringLiteral("$")); // "$700", as the Advisor's budget
    desktopCost_->setGroupSeparatorShown(true);
    cpuWatts_ = spinBox(0, 1000, 0, 10, tr(" W"), tr("CPU and the rest of the system under load"));
    grid_ = spinBox(0, 2, 3, 0.01, tr(" kg CO₂e/kWh"), tr("Carbon intensity of your electricity (world 2023: 0.481)"));
    reference_ = new QComboBox;
    reference_->setToolTip(tr("Charts and perf/$ are relative to this GPU (1.0)"));
    priceRule_ = new QComboBox;
    priceRule_->setToolTip(tr("Which price a GPU costs: new, used, their average, or the cheaper"));
    for (const auto& [rule, label] :
         {std::pair{PriceRule::Average, tr("New/used average")},
          std::pair{PriceRule::NewestNew, tr("Newest new price")}, std::pair{PriceRule::NewestUsed, tr("Newest used price")},
          std::pair{PriceRule::Cheapest, tr("Cheaper of new/used")}}) {
        priceRule_->addItem(label, QString::fromLatin1(toString(rule)));
    }
    currency_ = new QComboBox;
    for (const auto c : knownCurrencies()) {
        currency_->addItem(QString::fromLatin1(c.data(), static_cast<int>(c.size())));
    }
    currency_->setToolTip(tr("The currency new prices are entered in. Charts and perf/$ use USD prices: "
                             "no exchange rates are kept, so other currencies are stored but not compared."));
    // Long GPU names and price rules must not widen the panel (it sits beside the chart).
    makeCompact(reference_, 12);
    makeCompact(priceRule_, 12);
    form->addRow(tr("E&lectricity:"), electricity_);
    form->addRow(tr("&Utilization:"), utilization_);
    form->addRow(tr("Years &of use:"), years_);
    form->addRow(tr("Rest of des&ktop:"), desktopCost_); // the desktop without its GPUs (tooltip)
    form->addRow(tr("CPU and sys&tem:"), cpuWatts_);
    form->addRow(tr("Grid car&bon:"), grid_);
    form->addRow(tr("&Reference GPU:"), reference_);
    form->addRow(tr("&Price basis:"), priceRule_);
    form->addRow(tr("Currenc&y:"), currency_);

    const auto onNumber = [this](QDoubleSpinBox* box, const QString& what) {
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, what] { commit(what); });
    };
    onNumber(electricity_, tr("Change electricity price"));
    onNumber(utilization_, tr("Change utilization"));
    onNumber(years_, tr("Change years of use"));
    onNumber(desktopCost_, tr("Change desktop cost"));
    onNumber(cpuWatts_, tr("Change CPU power"));
    onNumber(grid_, tr("Change grid carbon intensity"));
    connect(reference_, &QComboBox::currentIndexChanged, this, [this] { commit(tr("Change reference GPU")); });
    connect(priceRule_, &QComboBox::currentIndexChanged, this, [this] { commit(tr("Change price basis")); });
    connect(currency_, &QComboBox::currentIndexChanged, this, [this] { commit(tr("Change currency")); });
    connect(&session_, &Session::settingsChanged, this, &SettingsPanel::reload);
    connect(&session_, &Session::opened, this, &SettingsPanel::reload);
    connect(&session_, &Session::catalogChanged, this, &SettingsPanel::reload);
    setEnabled(session_.isOpen());
    reload();
}

void SettingsPanel::reload() {
    loading_ = true;
    setEnabled(session_.isOpen());
    const Settings s = session_.settings();
    electricity_->setValue(s.electricityUsdPerKwh);
    utilization_->setValue(s.utilization * 100);
    years_->setValue(s.years);
    desktopCost_->setValue(s.desktopBaseCostUsd);
    cpuWatts_->setValue(s.cpuWatts);
    grid_->setValue(s.gridKgCo2ePerKwh);
    reference_->clear();
    std::vector<const Gpu*> gpus;
    for (const auto& g : session_.catalog().gpus()) {
        gpus.push_back(&g);
    }
    std::sort(gpus.begin(), gpus.end(), [](const Gpu* a, const Gpu* b) { return a->name < b->name; });
    for (const Gpu* g : gpus) {
        reference_->addItem(QString::fromStdString(g->name), QString::fromStdString(g->id));
    }
    fitPopupToItems(reference_);
    reference_->setCurrentIndex(reference_->findData(QString::fromStdString(s.referenceGpu)));
    priceRule_->setCurrentIndex(priceRule_->findData(QString::fromLatin1(toString(s.priceRule))));
    currency_->setCurrentText(QString::fromStdString(s.currency));
    loading_ = false;
}

void SettingsPanel::commit(const QString& description) {
    if (loading_ || !session_.isOpen()) {
        return;
    }
    Settings s = session_.settings();
    s.electricityUsdPerKwh = electricity_->value();
    s.utilization = utilization_->value() / 100.0;
    s.years = years_->value();
    s.desktopBaseCostUsd = desktopCost_->value();
    s.cpuWatts = cpuWatts_->value();
    s.gridKgCo2ePerKwh = grid_->value();
    s.referenceGpu = reference_->currentData().toString().toStdString();
    s.currency = currency_->currentText().toStdString();
    if (const auto rule = parsePriceRule(priceRule_->currentData().toString().toStdString())) {
        s.priceRule = *rule;
    }
    session_.changeSettings(s, description);
}

} // namespace advisor::ui
