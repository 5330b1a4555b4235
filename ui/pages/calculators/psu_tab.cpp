#include "pages/calculators/psu_tab.h"

#include "calc/power_limit.h"
#include "calc/psu.h"
#include "common/errors.h"
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
    offerCardsOnly(gpu_); // a complete computer (DGX Spark) has its own power supply
    count_ = addCount(tr("&Number of GPUs:"), 1, 16, 2);
    cpu_ = addNumber(tr("&CPU power:"), 0, SettingLimits::kMaxCpuWatts, 150, 0, tr(" W")); // takes any cpu_watts setting
    limit_ = addNumber(tr("GPU power &limit:"), 0, 2000, 0, 0, tr(" W"), tr("none (TDP)"));
    other_ = addNumber(tr("&Other parts:"), 0, 2000, 100, 0, tr(" W"));
    other_->setToolTip(tr("Motherboard, RAM, drives and fans (the hardware guide: 100 W)"));
    buffer_ = addNumber(tr("Buffe&r:"), 0, 100, 10, 0, tr(" %"));
    buffer_->setToolTip(tr("Headroom on top of the load (the hardware guide: 10%)"));
    psu_ = addNumber(tr("PSU &you have:"), 0, 20000, 0, 0, tr(" W"), tr("not chosen"));
    labelField("limit_watts", tr("GPU power limit"));
    labelField("other_watts", tr("Other parts"));
    labelField("buffer_pct", tr("Buffer"));
    result_ = addResultLabel();
    circuits_ = new QTableWidget(0, 4);
    circuits_->setHorizontalHeaderLabels({tr("Circuit"), tr("Continuous"), tr("Wall draw"), tr("Enough?")});
    useSingleLineRows(circuits_);
    circuits_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    useContentWidthColumns(circuits_);
    results()->addWidget(circuits_);
    results()->addStretch(1); // the table is as tall as its three circuits
    // The CPU's watts start at the cpu_watts setting (as in the build check and the command
    // line) and follow it when it changes; the field can still be edited for this build.
    connect(&session, &Session::opened, this, &PsuTab::followCpuSetting);
    connect(&session, &Session::settingsChanged, this, &PsuTab::followCpuSetting);
    followCpuSetting();
    ready();
}

void PsuTab::followCpuSetting() {
    if (session().isOpen()) {
        cpu_->setValue(session().settings().cpuWatts);
    }
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
    if (limit_->value() > 0) { // refused as the power-limit calculator and the command line refuse it
        if (const auto problem = calc::powerLimitProblem(*g, limit_->value())) {
            throw InputError({"", 0, "", "limit_watts"}, *problem);
        }
    }
    in.gpuWatts = limit_->value() > 0 ? limit_->value() : g->tdpW;
    in.gpuCount = count_->value();
    in.cpuWatts = cpu_->value();
    in.otherWatts = other_->value();
    in.bufferPct = buffer_->value();
    const auto r = calc::sizePsu(in);
    QString yours;
    if (psu_->value() > 0) { // the same test as `gpu-advisor psu --psu-watts`
        const auto verdict = calc::judgePsu(in, r, psu_->value());
        yours = (verdict.sufficient ? tr("<p>Your %1 W PSU: %2.</p>") : tr("<p style='color:#c0392b'><b>Your %1 W PSU: %2.</b></p>"))
                    .arg(qs(format::number(psu_->value(), 0)), qs(verdict.text).toHtmlEscaped());
    }
    const QString cables = qs(calc::describeCables(r.connectors));
    QStringList notes;
    for (const auto& n : r.notes) {
        notes << qs(n).toHtmlEscaped();
    }
    for (const auto& n : r.connectors.notes) {
        notes << qs(n).toHtmlEscaped();
    }
    result_->setText(
        tr("<p style='font-size:large'><b>%1</b></p>%8<p>Load %2 W (GPUs %3 W, CPU %4 W, other parts %9 W); with "
           "a %10 buffer %5 W.</p><p>GPU cables: %6</p>%7")
            .arg(r.recommendedPsuWatts > 0 ? tr("A %1 W power supply").arg(qs(format::number(r.recommendedPsuWatts, 0)))
                                           : tr("More than one power supply (or a server PSU)"),
                 qs(format::number(r.requiredWatts, 0)), qs(format::number(in.gpuWatts * in.gpuCount, 0)),
                 qs(format::number(in.cpuWatts, 0)), qs(format::number(r.withBufferWatts, 0)),
                 cables.isEmpty() ? tr("none") : cables.toHtmlEscaped(),
                 notes.isEmpty() ? QString() : QStringLiteral("<ul><li>") + notes.join(QStringLiteral("</li><li>")) +
                                                   QStringLiteral("</li></ul>"))
            .arg(yours, qs(format::number(in.otherWatts, 0)), qs(format::percent(in.bufferPct / 100.0, 0))));
    circuits_->setRowCount(0);
    for (const auto& c : r.circuits) {
        const int row = circuits_->rowCount();
        circuits_->insertRow(row);
        circuits_->setItem(row, 0, new QTableWidgetItem(qs(c.name)));
        circuits_->setItem(row, 1, new QTableWidgetItem(qs(format::number(c.continuousWatts, 0)) + QStringLiteral(" W")));
        circuits_->setItem(row, 2, new QTableWidgetItem(qs(format::number(c.wallDrawWatts, 0)) + QStringLiteral(" W")));
        circuits_->setItem(row, 3, new QTableWidgetItem(c.fits ? tr("yes") : tr("no: split over circuits or limit power")));
    }
    fitHeightToRows(circuits_);
}

} // namespace advisor::ui
