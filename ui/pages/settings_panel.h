#pragma once
/// \file
/// The settings that change results - electricity price, utilization, years of use, desktop
/// cost, reference GPU, price basis, CPU power and grid carbon - as one form. Each edit is
/// saved at once as an undoable step, and every page recomputes.

#include "prices/settings.h"

#include <QWidget>

#include <functional>

class QComboBox;
class QDoubleSpinBox;

namespace advisor::ui {

class Session;

class SettingsPanel : public QWidget {
    Q_OBJECT

public:
    explicit SettingsPanel(Session& session, QWidget* parent = nullptr);

private:
    void reload();
    void commit(const QString& description, const std::function<void(Settings&)>& change);

    Session& session_;
    bool loading_ = false;
    QDoubleSpinBox* electricity_ = nullptr;
    QDoubleSpinBox* utilization_ = nullptr;
    QDoubleSpinBox* years_ = nullptr;
    QDoubleSpinBox* desktopCost_ = nullptr;
    QDoubleSpinBox* cpuWatts_ = nullptr;
    QDoubleSpinBox* grid_ = nullptr;
    QComboBox* reference_ = nullptr;
    QComboBox* priceRule_ = nullptr;
    QComboBox* currency_ = nullptr;
};

} // namespace advisor::ui
