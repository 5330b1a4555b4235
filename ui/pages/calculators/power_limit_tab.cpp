#include "pages/calculators/power_limit_tab.h"

#include "calc/power_limit.h"
#include "calc/power_sweeps.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/model_choice.h"
#include "widgets/plot_labels.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

namespace advisor::ui {

PowerLimitTab::PowerLimitTab(Session& session, QWidget* parent) : CalculatorTab(session, parent) {
    gpu_ = addGpuPicker(tr("&GPU:"), "rtx-3090");
    count_ = addCount(tr("&Number of GPUs:"), 1, 64, 4);
    limit_ = addNumber(tr("Power &limit per GPU:"), 50, 2000, 300, 0, tr(" W"));
    limit_->setToolTip(tr("nvidia-smi -pl WATTS; the range is 30% of the TDP up to the TDP"));
    workload_ = new QComboBox;
    workload_->addItem(tr("Transformers"), QStringLiteral("transformer"));
    workload_->addItem(tr("CNNs"), QStringLiteral("cnn"));
    // LLM inference (llama.cpp-style), of the model, weights and context below.
    workload_->addItem(tr("LLM token generation"), QStringLiteral("llm-decode"));
    workload_->addItem(tr("LLM prompt processing"), QStringLiteral("llm-prefill"));
    inputs()->addRow(tr("&Work:"), workload_);
    watch(workload_);
    llmModel_ = new QComboBox;
    fillModelChoice(llmModel_, tr("8B (Llama-like)"));
    inputs()->addRow(tr("LLM m&odel:"), llmModel_);
    watch(llmModel_);
    llmWeights_ = new QComboBox;
    fillLlmWeightsChoice(llmWeights_);
    inputs()->addRow(tr("LLM weigh&ts:"), llmWeights_);
    watch(llmWeights_);
    llmContext_ = addCount(tr("LLM conte&xt:"), 1, 1048576, 512);
    describeLlmContextField(llmContext_);
    result_ = addResultLabel();
    plot_ = new QCustomPlot;
    plot_->setMinimumHeight(280);
    plot_->xAxis->setLabel(tr("Power limit per GPU (W)"));
    plot_->yAxis->setLabel(tr("Speed relative to the full TDP"));
    results()->addWidget(plot_, 1);
    ready();
}

QString PowerLimitTab::resultText() const {
    return result_->text();
}

namespace {

// The card's measured sweeps, one sentence per sweep: "llmgarage-2026 (llm-prefill, ...): 94.3% at
// 300 W, ...". Empty when the card has none for this kind of work.
QString measuredText(const perf::PerfModel& model, const Catalog& catalog, const Gpu& g,
                     const std::vector<const calc::MeasuredPowerLimit*>& measured) {
    QStringList sweeps;
    QString current;
    QStringList points;
    const auto flush = [&] {
        if (!points.isEmpty()) {
            sweeps << current + QStringLiteral(": ") + points.join(QStringLiteral(", "));
        }
        points.clear();
    };
    for (const auto* m : measured) {
        const QString sweep =
            qs(calc::sweepSource(*m, g)) + QStringLiteral(" (") + qs(calc::describeSweepWork(*m)) + QLatin1Char(')');
        if (sweep != current) {
            flush();
            current = sweep;
        }
        points << QObject::tr("%1 at %2 W (calculator %3)")
                      .arg(qs(format::percent(m->measuredRelative, 1)), qs(format::number(m->limitWatts, 0)),
                           qs(format::percent(calc::calculatorFigure(model, catalog, *m), 1)));
    }
    flush();
    if (sweeps.isEmpty()) {
        return {};
    }
    return QObject::tr("<p>Measured on this card (the diamonds; its own work, not necessarily this one), with "
                       "what the calculator gives for that work: %1.</p>")
        .arg(sweeps.join(QStringLiteral("; ")));
}

} // namespace

void PowerLimitTab::compute() {
    const Gpu* g = gpuOf(gpu_);
    if (g == nullptr) {
        return;
    }
    const auto range = calc::powerLimitRange(*g);
    if (lastGpu_ != gpu_->currentData().toString()) { // a new GPU: its own range, its TDP as the start
        lastGpu_ = gpu_->currentData().toString();
        // Not blocked: the new limit is saved with the inputs (recompute is not re-entered).
        limit_->setRange(range.minimumWatts, range.maximumWatts);
        limit_->setValue(std::max(range.minimumWatts, range.maximumWatts - 50));
    }
    const Settings s = session().settings();
    perf::PerfQuery q;
    const std::string work = workload_->currentData().toString().toStdString();
    const auto llm = perf::parseMetric(work);
    const bool llmWork = llm && perf::isLlm(*llm);
    for (QWidget* w : std::initializer_list<QWidget*>{llmModel_, llmWeights_, llmContext_}) {
        w->setEnabled(llmWork);
    }
    if (llmWork) {
        q.metric = *llm;
        applyLlmChoices(q, llmModel_, llmWeights_, llmContext_);
    } else {
        q.workload = perf::parseWorkloadClass(work).value_or(perf::WorkloadClass::Transformer);
    }
    calc::PowerLimitInput in;
    in.limitWatts = limit_->value();
    in.count = count_->value();
    in.clockBoundShare = calc::clockBoundShare(session().model(), *g, q);
    in.utilization = s.utilization;
    in.kwhPriceUsd = s.electricityUsdPerKwh;
    const auto r = calc::powerLimit(*g, in);
    const auto measured = calc::sweepsOn(session().catalog(), *g, q.metric);
    const auto lowPower = calc::lowPowerPart(session().model(), *g);
    QString caution = lowPower ? tr("<p><i>Caution:</i> %1.</p>")
                                     .arg(qs(calc::describeLowPowerPart(*g, *lowPower)).toHtmlEscaped())
                               : QString();
    if (const auto miss = calc::notableMissNear(session().model(), session().catalog(), measured, in.limitWatts)) {
        caution += tr("<p><i>Caution:</i> %1.</p>").arg(qs(calc::describeMiss(*miss, *g)).toHtmlEscaped());
    }
    result_->setText(
        tr("<p style='font-size:large'><b>%1 of full speed</b> at %2 W (%3 slower)</p>"
           "<p>Worst case, fully clock-bound work: %4 (the seed measured about -7% for -50 W). "
           "%5 of this work's time scales with the clock; the rest (waiting on memory, time the GPU does not "
           "set) does not.%13</p>"
           "<p>Saves %6 W for %7: %8 kWh and %9 a year at %10 utilization and %11/kWh. "
           "Performance per watt: %12 of running at the TDP.</p>%14")
            .arg(qs(format::percent(r.relativePerformance, 1)), qs(format::number(in.limitWatts, 0)),
                 qs(format::percent(r.slowdownPct / 100.0, 1)), qs(format::percent(r.worstCaseRelativePerformance, 1)),
                 qs(format::percent(in.clockBoundShare, 0)), qs(format::number(r.savedWatts, 0)))
            .arg(qs(in.count == 1 ? "the GPU" : "the " + format::count(in.count, "GPU")))
            .arg(qs(format::number(r.savedKwhPerYear, 0)), qs(format::money(r.savedUsdPerYear)),
                 qs(format::percent(in.utilization, 0)), qs(format::money(in.kwhPriceUsd)),
                 qs(format::ratio(r.perfPerWattGain)))
            .arg(r.belowVoltageFloor ? tr(" Below 2/3 of the TDP the voltage is at its floor, so the clock falls "
                                          "faster than the power's cube root: speed drops steeply from here.")
                                     : QString())
            .arg(measuredText(session().model(), session().catalog(), *g, measured) + caution));
    plot_->clearGraphs();
    plot_->clearItems();
    QVector<double> xs, ys;
    for (const auto& p : calc::powerCurve(*g, in.clockBoundShare, 40)) {
        xs << p.watts;
        ys << p.relativePerformance;
    }
    QCPGraph* curve = plot_->addGraph();
    curve->setData(xs, ys);
    curve->setPen(QPen(QColor(0, 114, 178), 2));
    QCPGraph* point = plot_->addGraph();
    point->setData({in.limitWatts}, {r.relativePerformance});
    point->setLineStyle(QCPGraph::lsNone);
    point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(213, 94, 0), QColor(213, 94, 0), 10));
    double lowest = ys.isEmpty() ? 0.0 : ys.front();
    if (!measured.empty()) { // the card's own measured sweeps: hollow diamonds
        QVector<double> mx, my;
        for (const auto* m : measured) {
            mx << m->limitWatts;
            my << m->measuredRelative;
            lowest = std::min(lowest, m->measuredRelative);
        }
        QCPGraph* dots = plot_->addGraph();
        dots->setName(tr("measured on this card"));
        dots->setData(mx, my);
        dots->setLineStyle(QCPGraph::lsNone);
        dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(0, 158, 115), 2), Qt::white, 9));
    }
    plot_->xAxis->setRange(range.minimumWatts - 10, range.maximumWatts + 10);
    // Room above 100% for a label above a point near the TDP.
    plot_->yAxis->setRange(std::max(0.0, lowest - 0.05), 1.06);
    // The curve rises to the right: below-right of the point is clear of it, and so is
    // above-left, where the label goes when it would leave the plot on the right.
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(in.limitWatts, r.relativePerformance);
    if (labelGoesLeftOf(in.limitWatts, plot_->xAxis->range())) {
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setPadding(QMargins(0, 0, 8, 4));
        const QCPRange y = plot_->yAxis->range();
        const double labelPixels = QFontMetrics(label->font()).height() + 4 + 2; // text, padding, a margin
        plot_->yAxis->setRangeUpper(
            axisTopLeavingRoom(r.relativePerformance, y.lower, y.upper, labelPixels, plot_->axisRect()->height()));
    } else {
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(8, 4, 0, 0));
    }
    label->setText(QStringLiteral("%1 W: %2").arg(in.limitWatts, 0, 'f', 0).arg(qs(format::percent(r.relativePerformance, 1))));
    plot_->replot();
}

} // namespace advisor::ui
