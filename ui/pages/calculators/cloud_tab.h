#pragma once
/// \file
/// Cloud vs desktop: both cumulative costs over the years of use and the day buying breaks even
/// (seed: a $2,200 RTX 3090 desktop against AWS at $2.14/h breaks even after ~300 days at 15%).

#include "pages/calculators/calculator_tab.h"
#ifndef Q_MOC_RUN // moc cannot parse <compare>, which date.h needs; it needs no core type here
#include "common/date.h"
#endif

class QCheckBox;
class QCustomPlot;

namespace advisor::ui {

class CloudTab : public CalculatorTab {
    Q_OBJECT

public:
    explicit CloudTab(Session& session, QWidget* parent = nullptr);
    QSpinBox* countField() const { return count_; }
    QDoubleSpinBox* desktopCostField() const { return desktopCost_; }
    QDoubleSpinBox* hourlyField() const { return hourly_; }
    QComboBox* offerField() const { return offer_; }
    QCheckBox* spotField() const { return spot_; }
    QComboBox* cloudGpuField() const { return cloudGpu_; }
    QSpinBox* cloudCountField() const { return cloudCount_; }
    QString resultText() const;
    QCustomPlot* plot() const { return plot_; }

protected:
    void compute() override;
    void refillFromData() override { fillDesktopCost(); }

private:
    void fillOffers();
    void fillDesktopCost();
    /// The chosen offer's GPU, GPU count and price into their fields.
    void takeOffer();
    /// The chosen offer's on-demand or (when asked and offered) spot price into the price field.
    void takeOfferPrice();

    QComboBox* gpu_ = nullptr;
    QSpinBox* count_ = nullptr;
    QDoubleSpinBox* desktopCost_ = nullptr;
    QComboBox* offer_ = nullptr;
    QCheckBox* spot_ = nullptr;
    QComboBox* cloudGpu_ = nullptr; ///< nullptr item: the desktop's GPU
    QSpinBox* cloudCount_ = nullptr;
    QString offerAssumption_;       ///< how the chosen offer's GPU name was read, if it was
    QString offerAge_;              ///< said when the chosen offer is over a year older than the newest
    QString offerChoice_;           ///< which offer "Cheapest for this desktop" chose, and why
    Date newestOffer_;              ///< of the offers listed
    QDoubleSpinBox* hourly_ = nullptr;
    QLabel* result_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};

} // namespace advisor::ui
