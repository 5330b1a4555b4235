#include "pages/calculators/psu_tab.h"

#include "calc/psu.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/table_rows.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace advisor::ui {

PsuTab::PsuTab(Session& session, QWidget* parent) : CalculatorTab(session, parent) {
    gpu_ = addGpuPicker(tr("&GPU:"), "rtx-4090");
    count_ = addCount(tr("&Number of GPUs:"), 1, 16, 2);
    cpu_ = addNumber(tr("&CPU power:"), 0, 1000, 150, 0, tr(" W"));
    limit_ = addNumber(tr("GPU power &limit:"), 0, 2000, 0, 0, tr(" W"), tr("none (TDP)"));
    result_ = addResultLabel();
    circuits_ = new QTableWidget(0, 4);
    circuits_->setHorizontalHeaderLabels({tr("Circuit"), tr("Continuous"), tr("Wall draw"), tr("Enough?")});
    useSingleLineRows(circuits_);
    circuits_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    circuits_->horizontalHeader()->setStretchLastSection(true);
    results()->addWidget(circuits_, 1);
    // The CPU's watts start at the cpu_watts setting (as in the build check and the command
    // line) and follow it when it changes; the field can still be edited for this build.
    const auto followSetting = [this] {
        if (this->session().isOpen()) {
            cpu_->setValue(this->session().settings().cpuWatts);
        }
    };
    connect(&session, &Session::opened, this, followSetting);
    connect(&session, &Session::settingsChanged, this, followSetting);
    followSetting();
    ready();
}

QString PsuTab::resultText() const {
    return result_->text();
}

void PsuTab::compute() {
    const Gpu* g = gpuOf(gpu_);
    if (g == nullptr) {
        return;
    }
    calc::PsuInput in;
    in.gpu = g;
    in.gpuWatts = limit_->value() > 0 ? limit_->value() : g->tdpW;
    in.gpuCount = count_->value();
    in.cpuWatts = cpu_->value();
    const auto r = calc::sizePsu(in);
    QStringList cables;
    if (r.connectors.pcie8Pin > 0) {
        cables << tr("%1 x PCIe 8-pin").arg(r.connectors.pcie8Pin);
    }
    if (r.connectors.hpwr16Pin > 0) {
        cables << tr("%1 x 12VHPWR/12V-2x6").arg(r.connectors.hpwr16Pin);
    }
    if (r.connectors.eps8Pin > 0) {
        cables << tr("%1 x EPS 8-pin").arg(r.connectors.eps8Pin);
    }
    QStringList notes;
    for (const auto& n : r.notes) {
        notes << qs(n).toHtmlEscaped();
    }
    for (const auto& n : r.connectors.notes) {
        notes << qs(n).toHtmlEscaped();
    }
    result_->setText(
        tr("<p style='font-size:large'><b>%1</b></p><p>Load %2 W (GPUs %3 W, CPU %4 W, rest 100 W); with 10% "
           "buffer %5 W.</p><p>GPU cables: %6</p>%7")
            .arg(r.recommendedPsuWatts > 0 ? tr("A %1 W power supply").arg(r.recommendedPsuWatts, 0, 'f', 0)
                                           : tr("More than one power supply (or a server PSU)"),
                 qs(format::number(r.requiredWatts, 0)), qs(format::number(in.gpuWatts * in.gpuCount, 0)),
                 qs(format::number(in.cpuWatts, 0)), qs(format::number(r.withBufferWatts, 0)),
                 cables.isEmpty() ? tr("none") : cables.join(QStringLiteral(", ")),
                 notes.isEmpty() ? QString() : QStringLiteral("<ul><li>") + notes.join(QStringLiteral("</li><li>")) +
                                                   QStringLiteral("</li></ul>")));
    circuits_->setRowCount(0);
    for (const auto& c : r.circuits) {
        const int row = circuits_->rowCount();
        circuits_->insertRow(row);
        circuits_->setItem(row, 0, new QTableWidgetItem(qs(c.name)));
        circuits_->setItem(row, 1, new QTableWidgetItem(qs(format::number(c.continuousWatts, 0)) + QStringLiteral(" W")));
        circuits_->setItem(row, 2, new QTableWidgetItem(qs(format::number(c.wallDrawWatts, 0)) + QStringLiteral(" W")));
        circuits_->setItem(row, 3, new QTableWidgetItem(c.fits ? tr("yes") : tr("no: split over circuits or limit power")));
    }
    circuits_->resizeColumnsToContents();
}

} // namespace advisor::ui
