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
    // The ranges are the ones `settings set` accepts, so the fields can show any stored value.
    using L = SettingLimits;
    electricity_ = spinBox(0, L::kMaxElectricityUsdPerKwh, 3, 0.01, tr(" $/kWh"),
                           tr("What you pay per kWh (the seed's charts: $0.175)"));
    utilization_ = spinBox(0, 100, 0, 5, tr(" %"),
                           tr("How much of the time the GPUs compute (seed: 15% for a PhD student's desktop)"));
    years_ = spinBox(0.1, L::kMaxYears, 1, 0.5, tr(" years"), tr("How long you use the GPUs (seed: 5 years)"));
    desktopCost_ = spinBox(0, L::kMaxDesktopBaseCostUsd, 0, 50, QString(), tr("The rest of the desktop without its GPUs"));
    desktopCost_->setPrefix(QStringLiteral("$")); // "$700", as the Advisor's budget
    desktopCost_->setGroupSeparatorShown(true);
    cpuWatts_ = spinBox(0, L::kMaxCpuWatts, 0, 10, tr(" W"), tr("CPU and the rest of the system under load"));
    grid_ = spinBox(0, L::kMaxGridKgCo2ePerKwh, 3, 0.01, tr(" kg CO₂e/kWh"), tr("Carbon intensity of your electricity (world 2023: 0.481)"));
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

    // Each field changes only its own setting: the others keep their stored values even
    // where a field shows them rounded (a utilization of 15.5% set on the command line).
    const auto onNumber = [this](QDoubleSpinBox* box, const QString& what, double Settings::*member, double scale) {
        connect(box, &QDoubleSpinBox::valueChanged, this,
                [this, what, member, scale](double v) { commit(what, [&](Settings& s) { s.*member = v * scale; }); });
    };
    onNumber(electricity_, tr("Change electricity price"), &Settings::electricityUsdPerKwh, 1);
    onNumber(utilization_, tr("Change utilization"), &Settings::utilization, 0.01);
    onNumber(years_, tr("Change years of use"), &Settings::years, 1);
    onNumber(desktopCost_, tr("Change desktop cost"), &Settings::desktopBaseCostUsd, 1);
    onNumber(cpuWatts_, tr("Change CPU power"), &Settings::cpuWatts, 1);
    onNumber(grid_, tr("Change grid carbon intensity"), &Settings::gridKgCo2ePerKwh, 1);
    connect(reference_, &QComboBox::currentIndexChanged, this, [this] {
        commit(tr("Change reference GPU"), [this](Settings& s) { s.referenceGpu = reference_->currentData().toString().toStdString(); });
    });
    connect(priceRule_, &QComboBox::currentIndexChanged, this, [this] {
        commit(tr("Change price basis"), [this](Settings& s) {
            s.priceRule = parsePriceRule(priceRule_->currentData().toString().toStdString()).value_or(s.priceRule);
        });
    });
    connect(currency_, &QComboBox::currentIndexChanged, this, [this] {
        commit(tr("Change currency"), [this](Settings& s) { s.currency = currency_->currentText().toStdString(); });
    });
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

void SettingsPanel::commit(const QString& description, const std::function<void(Settings&)>& change) {
    if (loading_ || !session_.isOpen()) {
        return;
    }
    Settings s = session_.settings();
    change(s);
    session_.changeSettings(s, description);
}

} // namespace advisor::ui
