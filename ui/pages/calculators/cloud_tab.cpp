#include "pages/calculators/cloud_tab.h"

#include "advisor/cheapest_offer.h"
#include "calc/cloud_vs_desktop.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"
#include "value/gpu_price.h"
#include "widgets/compact_combo.h"
#include "widgets/plot_fit.h"
#include "widgets/plot_labels.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace advisor::ui {
namespace {

/// The offer choice that follows the desktop: the offer doing its work for least per hour.
const QString kCheapest = QStringLiteral("cheapest");

QString offerLabel(const CloudOffer& o) {
    return QStringLiteral("%1 %2 (%3 x%4, %5/h, %6)")
        .arg(qs(o.provider), qs(o.instance), qs(o.gpuName))
        .arg(o.gpuCount)
        .arg(qs(format::money(o.onDemandUsdPerHour)), qs(o.observed.toString()));
}

} // namespace

CloudTab::CloudTab(Session& session, QWidget* parent) : CalculatorTab(session, parent) {
    gpu_ = addGpuPicker(tr("Desktop &GPU:"), "rtx-3090");
    count_ = addCount(tr("&Number of GPUs:"), 1, 16, 1);
    desktopCost_ = addNumber(tr("Desktop &cost:"), 0, 10000000, 2200, 0, QString());
    desktopCost_->setPrefix(QStringLiteral("$")); // "$2,200", as the Advisor's budget
    desktopCost_->setGroupSeparatorShown(true);
    desktopCost_->setToolTip(tr("Filled from the GPU's price and your desktop base cost; edit it freely"));
    offer_ = new QComboBox;
    offer_->setToolTip(tr("Cloud offers in your database (newest observation of each)"));
    // Offers are long ("AWS p4d.24xlarge (A100 40GB SXM x8, ...)"): the box keeps the input
    // column narrow and the open list is as wide as its longest entry (fillOffers).
    makeCompact(offer_, 24);
    inputs()->addRow(tr("Cloud &offer:"), offer_);
    spot_ = new QCheckBox(tr("Use the &spot price"));
    spot_->setToolTip(tr("Spot instances cost less but can be taken back at short notice; only offers with a "
                         "spot price have one"));
    spot_->setEnabled(false);
    inputs()->addRow(QString(), spot_);
    // The instance's GPUs: the model converts hours between them and the desktop's. An offer
    // fills both; before, an offer whose GPU name is not one catalog GPU ("A100 40GB") was
    // taken to do the desktop's work per hour, whatever its GPUs and their number.
    cloudGpu_ = addGpuPicker(tr("C&loud GPU:"), "", tr("Same as the desktop"));
    cloudGpu_->setToolTip(tr("The GPU of the cloud instance; an offer fills it in"));
    makeCompact(cloudGpu_, 24);
    cloudCount_ = addCount(tr("Cloud GPU coun&t:"), 1, 64, 1);
    hourly_ = addNumber(tr("Cloud p&rice:"), 0.01, 1000, 2.14, 3, tr(" $/h"));
    result_ = addResultLabel();
    plot_ = new QCustomPlot;
    plot_->setMinimumHeight(280);
    plot_->xAxis->setLabel(tr("Days of ownership"));
    plot_->yAxis->setLabel(tr("Cumulative cost (USD)"));
    plot_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates)); // "12,500" as in the text above
    // The legend sits in a row above the axes: inside them it covered the cloud's line
    // wherever that climbed through the legend's corner.
    plot_->legend->setVisible(true);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->setMinimumWidth(200);
    callOnResize(plot_, [this] {
        wrapLegendToWidth(*plot_->legend, plot_->width() - 20); // the plot layout's side margins
        fitTickCountToWidth(*plot_->xAxis, plot_->width());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    results()->addWidget(plot_, 1);
    connect(gpu_, &QComboBox::currentIndexChanged, this, &CloudTab::fillDesktopCost);
    connect(count_, &QSpinBox::valueChanged, this, &CloudTab::fillDesktopCost);
    // The cheapest offer depends on the desktop it does the work of.
    const auto rechoose = [this] {
        if (offer_->currentData().toString() == kCheapest) {
            takeOffer();
        }
    };
    connect(gpu_, &QComboBox::currentIndexChanged, this, rechoose);
    connect(count_, &QSpinBox::valueChanged, this, rechoose);
    connect(offer_, &QComboBox::currentIndexChanged, this, &CloudTab::takeOffer);
    connect(spot_, &QCheckBox::toggled, this, &CloudTab::takeOfferPrice);
    connect(cloudGpu_, &QComboBox::currentIndexChanged, this, [this] { // chosen, no longer assumed
        offerAssumption_.clear();
        recompute();
    });
    connect(&session, &Session::opened, this, &CloudTab::fillOffers);
    connect(&session, &Session::cloudOffersChanged, this, &CloudTab::fillOffers);
    connect(&session, &Session::opened, this, &CloudTab::fillDesktopCost);
    connect(&session, &Session::pricesChanged, this, &CloudTab::fillDesktopCost);
    fillOffers();
    ready();
    fillDesktopCost();
}

QString CloudTab::resultText() const {
    return result_->text();
}

void CloudTab::fillOffers() {
    if (!session().isOpen()) {
        return;
    }
    const QVariant chosen = offer_->currentData(); // kept across a refill, when still offered
    QSignalBlocker block(offer_);
    offer_->clear();
    offer_->addItem(tr("Enter a price"), QString());
    offer_->addItem(tr("Cheapest for this desktop's work"), kCheapest);
    offer_->setItemData(1,
                        tr("The offer that does the desktop's fp16 training for least per hour and holds its GPU "
                           "memory, among offers seen within a year of the newest (as the Advisor)"),
                        Qt::ToolTipRole);
    const auto offers = currentOffers(session().db().cloudOffers());
    newestOffer_ = newestObservation(offers);
    for (const auto& o : offers) {
        offer_->addItem(offerLabel(o), QVariant::fromValue<qlonglong>(o.id));
        offer_->setItemData(offer_->count() - 1, o.onDemandUsdPerHour, Qt::UserRole + 1);
        offer_->setItemData(offer_->count() - 1, o.spotUsdPerHour.value_or(0.0), Qt::UserRole + 3);
        offer_->setItemData(offer_->count() - 1, offer_->itemText(offer_->count() - 1), Qt::ToolTipRole);
    }
    fitPopupToItems(offer_);
    const int kept = offer_->findData(chosen);
    offer_->setCurrentIndex(std::max(0, kept));
    block.unblock();
    // The chosen offer is gone (removed, or its adding undone): forget what it said, as choosing
    // "Enter a price" does. The cheapest may now be another offer.
    if ((chosen.isValid() && kept < 0) || offer_->currentData().toString() == kCheapest) {
        takeOffer();
    }
}

void CloudTab::takeOffer() {
    offerAssumption_.clear();
    offerAge_.clear();
    offerChoice_.clear();
    std::optional<CloudOffer> offer;
    const Gpu* desktop = gpuOf(gpu_);
    if (!session().isOpen()) {
        // nothing to look up yet
    } else if (offer_->currentData().toString() == kCheapest) {
        if (desktop != nullptr) {
            const double memoryGb = desktop->memoryGb * count_->value();
            const auto choice = advice::cheapestCloudFor(session().catalog(), session().model(),
                                                         session().db().cloudOffers(), perf::PerfQuery{}, memoryGb);
            offer = choice.offer;
            offerChoice_ = offer ? tr("chosen: %1, the offer that does this work for least per hour")
                                       .arg(offerLabel(*offer))
                                 : tr("no cloud offer holds the desktop's %1: enter a price")
                                       .arg(qs(format::gigabytes(memoryGb)));
            // Its prices where the listed offers keep theirs, for the price and spot fields.
            offer_->setItemData(1, offer ? offer->onDemandUsdPerHour : 0.0, Qt::UserRole + 1);
            offer_->setItemData(1, offer ? offer->spotUsdPerHour.value_or(0.0) : 0.0, Qt::UserRole + 3);
        }
    } else if (offer_->currentIndex() > 0) {
        offer = session().db().cloudOffer(offer_->currentData().toLongLong());
    }
    if (offer) {
        const OfferGpu og = offerGpu(*offer, session().catalog());
        offerAssumption_ = qs(og.assumption);
        if (og.gpu == nullptr) {
            offerAssumption_ += tr(": its speed is taken as the desktop GPU's; choose the closest under Cloud GPU");
        }
        const QSignalBlocker blockGpu(cloudGpu_);
        const QSignalBlocker blockCount(cloudCount_);
        cloudGpu_->setCurrentIndex(std::max(0, cloudGpu_->findData(og.gpu != nullptr ? qs(og.gpu->id) : QString())));
        cloudCount_->setValue(offer->gpuCount);
        offerAge_ = qs(offerAgeNote(*offer, newestOffer_));
    }
    takeOfferPrice();
    recompute();
}

void CloudTab::takeOfferPrice() {
    const double spot = offer_->currentData(Qt::UserRole + 3).toDouble();
    spot_->setEnabled(spot > 0);
    if (spot <= 0 && spot_->isChecked()) {
        const QSignalBlocker block(spot_);
        spot_->setChecked(false);
    }
    const double hourly = spot_->isChecked() ? spot : offer_->currentData(Qt::UserRole + 1).toDouble();
    if (hourly > 0) {
        hourly_->setValue(hourly); // recomputes
    }
}

void CloudTab::fillDesktopCost() {
    const Gpu* g = gpuOf(gpu_);
    if (g == nullptr || !session().isOpen()) {
        return;
    }
    const auto priced =
        value::priceDesktop(*g, value::pricesOf(session().prices(), g->id), session().settings(), count_->value());
    if (priced) {
        desktopCost_->setToolTip(tr("Filled from your prices: %1; edit it freely").arg(qs(priced->basis())));
        desktopCost_->setValue(priced->usd); // recomputes
    }
}

void CloudTab::compute() {
    const Gpu* g = gpuOf(gpu_);
    if (g == nullptr) {
        return;
    }
    const Settings s = session().settings();
    calc::CloudVsDesktopInput in;
    in.desktopCostUsd = desktopCost_->value();
    in.gpuWatts = g->tdpW * count_->value();
    in.cpuWatts = value::cpuWattsFor(*g, s.cpuWatts);
    in.utilization = s.utilization;
    in.kwhPriceUsd = s.electricityUsdPerKwh;
    in.cloudHourlyUsd = hourly_->value();
    in.years = s.years;
    in.gridKgCo2PerKwh = s.gridKgCo2ePerKwh;
    const Gpu* cloudGpu = gpuOf(cloudGpu_);
    in.workRatio = calc::workRatio(session().model(), *g, count_->value(), cloudGpu != nullptr ? *cloudGpu : *g,
                                   cloudCount_->value(), {});
    QString speed = in.workRatio == 1.0 ? tr("an instance as fast as the desktop")
                                        : tr("the desktop does %1x the work of the instance per hour (performance model)")
                                              .arg(qs(format::trimmed(in.workRatio, 2)));
    for (const QString& aside : {offerChoice_, offerAssumption_, offerAge_}) {
        if (!aside.isEmpty()) {
            speed += QStringLiteral("; ") + aside.toHtmlEscaped();
        }
    }
    const auto r = calc::compareCloudAndDesktop(in);
    result_->setText(
        tr("<p style='font-size:large'><b>%1</b></p><p>Desktop: %2 kWh and %3 of electricity a year (%4 kg CO₂e); "
           "the cloud costs %5 a day for the same work (%6). Over %7 years: desktop %8, cloud %9.</p>")
            .arg(r.breakEvenDays ? tr("Buying pays off after %1 days").arg(qs(format::number(*r.breakEvenDays, 0)))
                                 : tr("Buying never pays off: %1").arg(qs(r.neverReason)),
                 qs(format::number(r.desktopKwhPerYear, 0)), qs(format::money(r.desktopElectricityPerYearUsd)),
                 qs(format::number(r.desktopKgCo2PerYear, 0)),
                 qs(format::money(r.cloudPerDayUsd)) + (spot_->isChecked() ? tr(" at the spot price") : QString()), speed,
                 qs(format::trimmed(in.years, 2)),
                 qs(format::money(r.overYears.desktopUsd)), qs(format::money(r.overYears.cloudUsd))));
    plot_->clearGraphs();
    plot_->clearItems();
    QVector<double> days, desktop, cloud;
    for (const auto& p : r.curve) {
        days << p.day;
        desktop << p.desktopUsd;
        cloud << p.cloudUsd;
    }
    QCPGraph* d = plot_->addGraph();
    d->setName(tr("Desktop (purchase + electricity)"));
    d->setData(days, desktop);
    d->setPen(QPen(QColor(0, 114, 178), 2));
    QCPGraph* c = plot_->addGraph();
    c->setName(tr("Cloud"));
    c->setData(days, cloud);
    c->setPen(QPen(QColor(230, 159, 0), 2));
    QCPItemText* breakEven = nullptr;
    if (r.breakEvenDays) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(*r.breakEvenDays, 0);
        line->point2->setCoords(*r.breakEvenDays, 1);
        line->setPen(QPen(QColor(213, 94, 0), 1, Qt::DashLine));
        breakEven = new QCPItemText(plot_);
        breakEven->position->setType(QCPItemPosition::ptPlotCoords);
        breakEven->position->setCoords(*r.breakEvenDays, 0);
        breakEven->setText(tr("break-even: day %1").arg(qs(format::number(*r.breakEvenDays, 0))));
    }
    plot_->rescaleAxes();
    plot_->yAxis->setRangeLower(0);
    if (breakEven != nullptr) { // beside the line, on the side with room
        const bool left = labelGoesLeftOf(*r.breakEvenDays, plot_->xAxis->range());
        breakEven->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
        breakEven->setPadding(left ? QMargins(0, 0, 6, 6) : QMargins(6, 0, 0, 6));
    }
    plot_->replot();
}

} // namespace advisor::ui
