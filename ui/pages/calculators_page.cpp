#include "pages/calculators_page.h"

#include "pages/calculators/build_tab.h"
#include "pages/calculators/cloud_tab.h"
#include "pages/calculators/memory_tab.h"
#include "pages/calculators/power_limit_tab.h"
#include "pages/calculators/psu_tab.h"

#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>

namespace advisor::ui {

CalculatorsPage::CalculatorsPage(Session& session, QWidget* parent) : QWidget(parent) {
    tabs_ = new QTabWidget;
    const auto add = [this](CalculatorTab* tab, const QString& key, const QString& title) {
        tab->setObjectName(key);
        tab->rememberInputs(QStringLiteral("calculators/") + key);
        tabs_->addTab(tab, title);
    };
    add(new PowerLimitTab(session), QStringLiteral("power"), tr("&Power limit"));
    add(new PsuTab(session), QStringLiteral("psu"), tr("PS&U and circuit"));
    add(new BuildTab(session), QStringLiteral("build"), tr("&Build check"));
    add(new MemoryTab(session), QStringLiteral("memory"), tr("&Memory needs"));
    add(new CloudTab(session), QStringLiteral("cloud"), tr("Cloud vs &desktop"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_);
    // The calculator last used opens again.
    showTab(QSettings().value(QStringLiteral("calculators/tab")).toString());
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int i) { QSettings().setValue(QStringLiteral("calculators/tab"), tabs_->widget(i)->objectName()); });
}

bool CalculatorsPage::showTab(const QString& key) {
    for (int i = 0; i < tabs_->count(); ++i) {
        if (tabs_->widget(i)->objectName() == key) {
            tabs_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

} // namespace advisor::ui
