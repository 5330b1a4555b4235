#include "pages/calculators/build_tab.h"

#include "calc/build_check.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace advisor::ui {

BuildTab::BuildTab(Session& session, QWidget* parent) : CalculatorTab(session, parent) {
    gpu_ = addGpuPicker(tr("&GPU:"), "rtx-4090");
    count_ = addCount(tr("&Number of GPUs:"), 1, 16, 4);
    // A second GPU type in the same machine: the slowest card paces data-parallel training.
    extraGpu_ = addGpuPicker(tr("Second GPU t&ype:"), "", tr("none"));
    extraCount_ = addCount(tr("Second GPU &count:"), 1, 15, 1);
    extraCount_->setEnabled(false); // counts only once a second type is chosen
    connect(extraGpu_, &QComboBox::currentIndexChanged, this,
            [this] { extraCount_->setEnabled(!extraGpu_->currentData().toString().isEmpty()); });
    lanes_ = new QComboBox;
    lanes_->addItem(tr("automatic"), 0);
    lanes_->setToolTip(tr("Lanes each GPU's slot has; automatic: x16 for 1-2 GPUs, x8 for more"));
    for (const int lanes : {16, 8, 4, 2, 1}) {
        lanes_->addItem(QStringLiteral("x%1").arg(lanes), lanes);
    }
    inputs()->addRow(tr("PC&Ie lanes per GPU:"), lanes_);
    watch(lanes_);
    spacing_ = addCount(tr("&Slot spacing:"), 0, 6, 0);
    spacing_->setSpecialValueText(tr("automatic"));
    spacing_->setSuffix(tr(" slots"));
    spacing_->setToolTip(tr("Slots from one GPU slot to the next on the board; automatic: 2 for 3+ GPUs, 3 for 2"));
    blower_ = new QCheckBox(tr("Blower or &water cooled"));
    extenders_ = new QCheckBox(tr("PCIe e&xtenders / risers"));
    inputs()->addRow(QString(), blower_);
    inputs()->addRow(QString(), extenders_);
    watch(blower_);
    watch(extenders_);
    threads_ = addCount(tr("CPU &threads:"), 0, 512, 0);
    threads_->setSpecialValueText(tr("not given"));
    ram_ = addNumber(tr("&RAM:"), 0, 8192, 0, 0, tr(" GB"), tr("not given"));
    limit_ = addNumber(tr("GPU power &limit:"), 0, 2000, 0, 0, tr(" W"), tr("none (TDP)"));
    psu_ = addNumber(tr("PSU y&ou have:"), 0, 10000, 0, 0, tr(" W"), tr("not chosen"));
    machines_ = addCount(tr("M&achines:"), 1, 1024, 1);
    network_ = addNumber(tr("Networ&k between machines:"), 0, 3200, 0, 0, tr(" Gbit/s"), tr("not given"));
    labelField("count", tr("Number of GPUs"));
    labelField("extra_count", tr("Second GPU count"));
    labelField("pcie_lanes", tr("PCIe lanes per GPU"));
    labelField("slot_spacing", tr("Slot spacing"));
    labelField("ram_gb", tr("RAM"));
    labelField("limit_watts", tr("GPU power limit"));
    labelField("psu_watts", tr("PSU you have"));
    labelField("network_gbps", tr("Network between machines"));
    summary_ = addResultLabel();
    findings_ = new QTextBrowser;
    findings_->setOpenLinks(false);
    results()->addWidget(findings_, 1);
    ready();
}

QString BuildTab::findingsText() const {
    return findings_->toPlainText();
}

QString BuildTab::resultText() const {
    return summary_->text();
}

void BuildTab::compute() {
    const Gpu* g = gpuOf(gpu_);
    if (g == nullptr) {
        return;
    }
    calc::BuildInput in;
    in.gpu = g;
    in.count = count_->value();
    in.extraGpu = gpuOf(extraGpu_);
    in.extraCount = in.extraGpu != nullptr ? extraCount_->value() : 0;
    in.pcieLanesPerGpu = lanes_->currentData().toInt();
    in.slotSpacing = spacing_->value();
    in.blowerOrWaterCooled = blower_->isChecked();
    in.extenders = extenders_->isChecked();
    in.cpuThreads = threads_->value() > 0 ? std::optional<int>(threads_->value()) : std::nullopt;
    in.ramGb = ram_->value() > 0 ? std::optional<double>(ram_->value()) : std::nullopt;
    in.powerLimitWatts = limit_->value() > 0 ? std::optional<double>(limit_->value()) : std::nullopt;
    in.psuWatts = psu_->value() > 0 ? std::optional<double>(psu_->value()) : std::nullopt;
    in.machines = machines_->value();
    in.networkGbps = network_->value() > 0 ? std::optional<double>(network_->value()) : std::nullopt;
    in.cpuWatts = session().settings().cpuWatts;
    in.reference = session().catalog().findById(session().settings().referenceGpu);
    const auto r = calc::checkBuild(in, session().model());
    int critical = 0, warnings = 0;
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='4' width='100%'>");
    for (const auto& f : r.findings) {
        const bool isCritical = f.severity == calc::Severity::Critical;
        const bool isWarning = f.severity == calc::Severity::Warning;
        critical += isCritical ? 1 : 0;
        warnings += isWarning ? 1 : 0;
        const QString colour = isCritical ? QStringLiteral("#c0392b") : isWarning ? QStringLiteral("#b9770e")
                                                                                  : QStringLiteral("#2471a3");
        html += QStringLiteral("<tr><td valign='top' style='color:%1'><b>%2</b></td><td valign='top'>%3<br><small>%4</small></td></tr>")
                    .arg(colour, isCritical ? tr("critical") : isWarning ? tr("warning") : tr("info"),
                         qs(f.message).toHtmlEscaped(), qs(f.reason).toHtmlEscaped());
    }
    findings_->setHtml(html + QStringLiteral("</table>"));
    findingCount_ = static_cast<int>(r.findings.size());
    summary_->setText(tr("<p style='font-size:large'><b>%1</b></p><p>%2 critical, %3 warnings. Modelled speed: %4; "
                         "power supply: %5.</p>")
                          .arg(critical > 0   ? tr("This build needs changes")
                               : warnings > 0 ? tr("Workable, with care")
                                              : tr("Looks good"))
                          .arg(critical)
                          .arg(warnings)
                          .arg(qs(calc::describeSpeed(in, r)).toHtmlEscaped(),
                               in.gpu->isCompleteSystem() ? tr("its own")
                               : r.psu.recommendedPsuWatts > 0
                                   ? tr("%1 W").arg(qs(format::number(r.psu.recommendedPsuWatts, 0)))
                                   : tr("more than one PSU")));
}

} // namespace advisor::ui
