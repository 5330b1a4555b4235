// The advisor page's result view: the chart's recommendation with its GPUs, and the live
// shortlist the recommender computes from the user's needs, prices and settings.
#include "pages/advisor_page.h"

#include "advisor/buyer_value.h"
#include "advisor/chart_path_input.h"
#include "calc/model_shapes.h"
#include "common/errors.h"
#include "common/format.h"
#include "session.h"
#include "ui_text.h"
#include "widgets/model_choice.h"
#include "widgets/table_rows.h"
#include "widgets/vertical_scroll.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace advisor::ui {

namespace {

// "run LLMs", not the command line's "inference llm".
QString workPhrase(advice::Task task, advice::Domain domain) {
    QString what;
    switch (domain) {
    case advice::Domain::Transformers:
        what = AdvisorPage::tr("transformers");
        break;
    case advice::Domain::Cnn:
        what = AdvisorPage::tr("CNNs");
        break;
    case advice::Domain::Llm:
        what = AdvisorPage::tr("LLMs");
        break;
    case advice::Domain::ImageGeneration:
        what = AdvisorPage::tr("image generation models");
        break;
    }
    switch (task) {
    case advice::Task::Train:
        return AdvisorPage::tr("train %1").arg(what);
    case advice::Task::FineTune:
        return AdvisorPage::tr("fine-tune %1").arg(what);
    case advice::Task::Inference:
        break;
    }
    return AdvisorPage::tr("run %1").arg(what);
}

QTableWidget* table(const QStringList& headers) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->verticalHeader()->setVisible(false);
    useContentWidthColumns(t);
    useSingleLineRows(t);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells) {
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(cells[c]); // the whole text of a cut-off cell
        t->setItem(row, c, item);
    }
}

} // namespace

void AdvisorPage::buildResultView(QWidget* page) {
    leaf_ = headingLabel();
    leafWhy_ = new QLabel;
    leafWhy_->setWordWrap(true);
    leafWhy_->setOpenExternalLinks(true);
    chartGpus_ = table({tr("GPU"), tr("Memory"), tr("Price"), tr("Perf/$"), tr("Power")});
    chartGpus_->setObjectName(QStringLiteral("chartGpus"));
    // As tall as its few rows; the caveats follow in full below it. In a sixth column they
    // were cut to "3-slot card: a second card lat…" and, at 1,024 px, scrolled out of sight.
    chartCaveats_ = new QLabel;
    chartCaveats_->setObjectName(QStringLiteral("chartCaveats"));
    chartCaveats_->setWordWrap(true);
    showChart_ = new QPushButton(tr("Show in &charts"));
    showChart_->setObjectName(QStringLiteral("showChartPicks"));
    connect(showChart_, &QPushButton::clicked, this, [this] { emit showInCharts(chartGpuIds()); });

    auto* chartBox = new QGroupBox(tr("The 2023 chart says"));
    auto* chartLayout = new QVBoxLayout(chartBox);
    chartLayout->addWidget(leaf_);
    chartLayout->addWidget(leafWhy_);
    chartLayout->addWidget(chartGpus_);
    chartLayout->addWidget(chartCaveats_);
    chartLayout->addStretch(1);
    chartLayout->addWidget(showChart_, 0, Qt::AlignLeft);

    liveSummary_ = new QLabel;
    liveSummary_->setWordWrap(true);
    liveMemory_ = new QDoubleSpinBox;
    liveMemory_->setRange(1, 4096);
    liveMemory_->setDecimals(1);
    liveMemory_->setSuffix(tr(" GB"));
    liveMemory_->setKeyboardTracking(false);
    // Or the memory a model of so many parameters needs, sized as `recommend --params-billion`
    // sizes it (the task decides the mode); entering gigabytes again sets the size aside.
    liveParams_ = new QDoubleSpinBox;
    liveParams_->setObjectName(QStringLiteral("liveModelSize"));
    liveParams_->setRange(0, 100000);
    liveParams_->setDecimals(1);
    liveParams_->setSuffix(tr(" B parameters"));
    liveParams_->setSpecialValueText(tr("none: the memory above"));
    liveParams_->setKeyboardTracking(false);
    const QString paramsTip = tr("The model you will run: the memory calculator sizes it for the task (inference; "
                                 "fine-tuning as QLoRA; training as full training)");
    liveParams_->setToolTip(paramsTip);
    liveParams_->setValue(QSettings().value(QStringLiteral("advisor/model_params_billion"), 0.0).toDouble());
    // Or a published model: its size (the field follows and locks) and its shape, whose KV
    // heads decide the cache (Llama 2 7B keeps all 32).
    liveModel_ = new QComboBox;
    liveModel_->setObjectName(QStringLiteral("liveModel"));
    fillModelChoice(liveModel_, tr("Any: the size below"));
    chooseModel(liveModel_, QSettings().value(QStringLiteral("advisor/model_id")).toString());
    const auto followModel = [this, paramsTip] {
        const calc::ModelShape* m = chosenModel(liveModel_);
        liveParams_->setEnabled(m == nullptr);
        liveParams_->setToolTip(m != nullptr ? tr("The size of %1; choose \"Any\" above to enter one").arg(qs(m->label))
                                             : paramsTip);
        if (m != nullptr) {
            const QSignalBlocker block(liveParams_);
            liveParams_->setValue(m->paramsBillion);
        }
    };
    followModel();
    connect(liveMemory_, &QDoubleSpinBox::valueChanged, this, [this, followModel] {
        {
            const QSignalBlocker blockModel(liveModel_);
            const QSignalBlocker blockSize(liveParams_);
            liveModel_->setCurrentIndex(0);
            liveParams_->setValue(0);
        }
        followModel();
        QSettings().setValue(QStringLiteral("advisor/model_id"), QString());
        QSettings().setValue(QStringLiteral("advisor/model_params_billion"), 0.0);
        sizeLiveMemoryForModel();
        liveInput_.memoryGb = liveMemory_->value();
        updateLive();
    });
    connect(liveModel_, &QComboBox::currentIndexChanged, this, [this, followModel] {
        followModel();
        QSettings().setValue(QStringLiteral("advisor/model_id"), liveModel_->currentData().toString());
        QSettings().setValue(QStringLiteral("advisor/model_params_billion"), liveParams_->value());
        sizeLiveMemoryForModel();
        updateLive();
    });
    createLiveOptionFields();
    connect(liveParams_, &QDoubleSpinBox::valueChanged, this, [this] {
        QSettings().setValue(QStringLiteral("advisor/model_params_billion"), liveParams_->value());
        sizeLiveMemoryForModel();
        updateLive();
    });
    shortlist_ = table({tr("#"), tr("GPU"), tr("Condition"), tr("Price"), tr("Perf/$"), tr("Speed"), tr("Spare"),
                        tr("Power")});
    shortlist_->setObjectName(QStringLiteral("shortlist"));
    shortlist_->horizontalHeaderItem(6)->setToolTip(tr("Memory per GPU beyond what you need"));
    reasons_ = new QTextBrowser;
    reasons_->setOpenExternalLinks(false);
    reasons_->setObjectName(QStringLiteral("liveReasons"));
    cloud_ = new QLabel;
    cloud_->setWordWrap(true);
    cloud_->setObjectName(QStringLiteral("cloudVerdict"));
    connect(shortlist_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row < 0 || row >= static_cast<int>(live_.shortlist.size())) {
            return;
        }
        const auto& c = live_.shortlist[static_cast<size_t>(row)];
        QString html = QStringLiteral("<b>%1</b><ul>").arg(qs(c.gpu->name).toHtmlEscaped());
        for (const auto& r : c.reasons) {
            html += QStringLiteral("<li>%1</li>").arg(qs(r).toHtmlEscaped());
        }
        for (const auto& cv : c.caveats) {
            html += QStringLiteral("<li><i>%1</i></li>").arg(qs(cv).toHtmlEscaped());
        }
        html += QStringLiteral("</ul>");
        reasons_->setHtml(html + liveNotesHtml());
    });
    showLive_ = new QPushButton(tr("Show &today's picks in charts"));
    showLive_->setObjectName(QStringLiteral("showLivePicks"));
    connect(showLive_, &QPushButton::clicked, this, [this] {
        QStringList ids;
        for (const auto& c : live_.shortlist) {
            ids << qs(c.gpu->id);
        }
        emit showInCharts(ids);
    });
    auto* memoryRow = new QFormLayout;
    memoryRow->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint); // a number, not a full-width bar
    memoryRow->addRow(tr("&Memory you need:"), liveMemory_);
    memoryRow->addRow(tr("Or a mo&del:"), liveModel_);
    memoryRow->addRow(tr("Or a model si&ze of:"), liveParams_);
    memoryRow->addRow(tr("LLM &weights:"), liveWeights_);
    memoryRow->setRowVisible(liveWeights_, false);
    memoryRow->addRow(tr("LLM conte&xt:"), liveContext_);
    // Shown on an LLM-inference leaf only, so other leaves keep the shortlist's height.
    memoryRow->addRow(tr("Re&quests at once:"), liveRequests_);
    memoryRow->setRowVisible(liveRequests_, false);
    memoryRow->addRow(tr("Speed of each:"), liveRequestSpeed_); // no Alt key free, as for the engine
    memoryRow->setRowVisible(liveRequestSpeed_, false);
    memoryRow->addRow(tr("LLM engine:"), liveEngine_); // no Alt key free on this screen
    memoryRow->setRowVisible(liveEngine_, false);
    memoryRow->addRow(tr("LLM split over GPUs:"), liveSplit_); // nor for this one
    memoryRow->setRowVisible(liveSplit_, false);
    memoryRow->addRow(tr("&System RAM:"), liveSystemRam_);
    memoryRow->setRowVisible(liveSystemRam_, false);
    memoryRow->addRow(tr("&GPUs at most:"), liveGpus_);
    liveMemoryForm_ = memoryRow;
    auto* liveBox = new QGroupBox(tr("Today, from your prices (live recommender)"));
    auto* liveLayout = new QVBoxLayout(liveBox);
    liveLayout->addWidget(liveSummary_);
    liveLayout->addLayout(memoryRow);
    liveLayout->addWidget(shortlist_); // as tall as its rows: the reasons get the rest
    liveLayout->addWidget(reasons_, 1);
    liveLayout->addWidget(cloud_);
    liveLayout->addWidget(showLive_, 0, Qt::AlignLeft);

    // In a short window the live side scrolls rather than squeezing its fields below their
    // height (at 1,024 x 640 they were cut to half a line).
    QScrollArea* liveScroll = scrollVertically(liveBox);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(chartBox);
    splitter->addWidget(liveScroll);
    // Both views hold a table; give the chart's picks room for their price and perf/$ columns.
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* nav = navigationRow(new QPushButton(tr("Back")));
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(splitter, 1);
    layout->addLayout(nav);
}

QStringList AdvisorPage::chartGpuIds() const {
    QStringList ids;
    for (const auto& g : session_->current().gpus) {
        ids << qs(g.gpuId);
    }
    return ids;
}

void AdvisorPage::updateResult() {
    const auto& node = session_->current();
    leaf_->setText(qs(node.text));
    QString why = qs(node.why).toHtmlEscaped();
    if (!node.advice.empty()) {
        why += QStringLiteral("<p>") + qs(node.advice).toHtmlEscaped() + QStringLiteral("</p>");
    }
    if (!node.cloud.empty()) {
        why += QStringLiteral("<p>") + tr("Rent: %1").arg(qs(node.cloud).toHtmlEscaped()) + QStringLiteral("</p>");
    }
    leafWhy_->setText(why);
    liveInput_ = advice::recommendInputForDettmers2023(session_->path(), uiSession_.settings());
    liveGpus_->setSpecialValueText(tr("%1, the chart's").arg(liveInput_.maxGpus));
    if (liveGpus_->value() > 0) {
        liveInput_.maxGpus = liveGpus_->value();
    }
    {
        const QSignalBlocker block(liveMemory_);
        liveMemory_->setValue(liveInput_.memoryGb);
    }
    sizeLiveMemoryForModel(); // for this leaf's task
    chartGpus_->setRowCount(0);
    QString caveatsHtml;
    if (uiSession_.isOpen()) {
        const auto lookup = advice::priceLookupFrom(uiSession_.prices(), uiSession_.settings().priceRule);
        // The shortlist's scale, so one GPU at one price has one perf/$ figure on this page.
        const auto anchor = advice::perDollarAnchor(uiSession_.catalog(), uiSession_.model(),
                                                    advice::pricesByGpu(uiSession_.prices()), liveInput_);
        chartGpus_->horizontalHeaderItem(3)->setToolTip(tr("Performance per dollar over %1 years (%2)")
                                                            .arg(liveInput_.settings.years)
                                                            .arg(qs(anchor.label())));
        for (const auto& choice : node.gpus) {
            const Gpu* g = uiSession_.catalog().findById(choice.gpuId);
            if (g == nullptr) {
                continue;
            }
            const auto price = lookup(choice.gpuId, choice.condition);
            const auto ppd =
                price ? advice::perfPerDollarOf(anchor, uiSession_.model(), liveInput_, *g, *price) : std::nullopt;
            const QString name =
                qs(g->name) + (choice.condition ? QStringLiteral(" (%1)").arg(qs(toString(*choice.condition))) : QString());
            QStringList caveats;
            for (const auto& c : advice::hardwareCaveats(*g, uiSession_.model().specs(*g), 1, liveInput_)) {
                caveats << qs(c).toHtmlEscaped();
            }
            if (!caveats.isEmpty()) {
                caveatsHtml += QStringLiteral("<li><b>%1</b>: %2</li>")
                                   .arg(name.toHtmlEscaped(), caveats.join(QStringLiteral("; ")));
            }
            const int row = chartGpus_->rowCount();
            chartGpus_->insertRow(row);
            setRow(chartGpus_, row,
                   {name, qs(format::gigabytes(g->memoryGb)), price ? qs(format::money(*price)) : tr("no price"),
                    ppd ? qs(format::number(*ppd, 2)) : tr("-"), qs(format::number(g->tdpW, 0)) + QStringLiteral(" W")});
            if (!budget_->value() && price) { // no budget given: today's picks for the chart pick's money
                liveInput_.budgetUsd = std::max(liveInput_.budgetUsd, *price);
            }
        }
    }
    fitHeightToRows(chartGpus_);
    // A leaf without GPUs ("Sorry", "rent") has nothing to list or show in the charts.
    chartGpus_->setVisible(!node.gpus.empty());
    showChart_->setEnabled(!node.gpus.empty());
    chartCaveats_->setText(caveatsHtml.isEmpty() ? QString()
                                                 : tr("Caveats:") + QStringLiteral("<ul style='margin-left:-20px'>") +
                                                       caveatsHtml + QStringLiteral("</ul>"));
    chartCaveats_->setVisible(!caveatsHtml.isEmpty());
    if (budget_->value() > 0) {
        liveInput_.budgetUsd = budget_->value();
    }
    uiSession_.setHighlighted(chartGpuIds()); // the current recommendation, marked in the charts
    updateLive();
}

void AdvisorPage::updateLive() {
    shortlist_->setRowCount(0);
    reasons_->clear();
    showLive_->setEnabled(false);
    live_ = {};
    if (!uiSession_.isOpen()) {
        liveSummary_->setText(tr("Opening the price database…"));
        return;
    }
    if (liveInput_.budgetUsd <= 0) {
        liveSummary_->setText(tr("Set a budget above to see what it buys today."));
        cloud_->clear();
        return;
    }
    try {
        live_ = advice::recommend(uiSession_.catalog(), uiSession_.model(), uiSession_.prices(),
                                  uiSession_.db().cloudOffers(), liveInput_);
    } catch (const AdvisorError& e) {
        liveSummary_->setText(QString::fromUtf8(e.what()));
        return;
    }
    liveSummary_->setText(
        tr("%1 of memory%5, budget %2, %3, ranked by %4.")
            .arg(qs(format::gigabytes(liveInput_.memoryGb)), qs(format::money(liveInput_.budgetUsd)),
                 workPhrase(liveInput_.task, liveInput_.domain),
                 liveInput_.rankBy == advice::RankBy::Speed
                     ? tr("speed")
                     : tr("performance per dollar (%1)").arg(qs(live_.perDollarAnchor)),
                 liveMemoryBasis_.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(liveMemoryBasis_)));
    int rank = 0;
    for (const auto& c : live_.shortlist) {
        const int row = shortlist_->rowCount();
        shortlist_->insertRow(row);
        setRow(shortlist_, row,
               {QString::number(++rank),
                (c.count > 1 ? QStringLiteral("%1 x ").arg(c.count) : QString()) + qs(c.gpu->name) +
                    (c.partlyInRam ? tr(" + RAM") : QString()),
                qs(toString(c.condition)), qs(format::money(c.unitPriceUsd)), qs(format::number(c.perfPerDollar, 2)),
                qs(format::ratio(c.relativePerformance)),
                c.partlyInRam ? tr("rest in RAM") : qs(format::gigabytes(std::max(0.0, c.memoryHeadroomGb))),
                qs(format::number(c.gpu->tdpW * c.count, 0)) + QStringLiteral(" W")});
    }
    fitHeightToRows(shortlist_);
    if (!live_.shortlist.empty()) {
        shortlist_->selectRow(0);
    }
    showLive_->setEnabled(!live_.shortlist.empty());
    // The reason ends in its verdict (": rent", ": buy ..."); a "rent - " before it said it twice.
    QString cloud = live_.cloud.reason.empty()
                        ? QString()
                        : tr("<b>Cloud:</b> %1").arg(qs(live_.cloud.reason).toHtmlEscaped());
    if (!cloud.isEmpty() && !live_.cloud.offer.empty()) {
        cloud += QStringLiteral(" [") + qs(live_.cloud.offer).toHtmlEscaped() + QStringLiteral("]");
    }
    QStringList alternatives;
    for (const auto& a : live_.alternatives) {
        alternatives << qs(a.reasons.front()).toHtmlEscaped();
    }
    if (!alternatives.isEmpty()) {
        cloud += (cloud.isEmpty() ? QString() : QStringLiteral("<br>")) + QStringLiteral("<b>") +
                 tr("For the same money:") + QStringLiteral("</b> ") + alternatives.join(QStringLiteral("; "));
    }
    cloud_->setText(cloud);
    if (live_.shortlist.empty()) {
        reasons_->setHtml(liveNotesHtml()); // why nothing is listed
    }
}

QString AdvisorPage::liveNotesHtml() const {
    // The command line's "note:" lines: what the recommender left out and why.
    QString html;
    for (const auto& n : live_.notes) {
        html += QStringLiteral("<li>%1</li>").arg(qs(n).toHtmlEscaped());
    }
    return html.isEmpty() ? html : QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Notes")) + html + QStringLiteral("</ul>");
}

} // namespace advisor::ui
