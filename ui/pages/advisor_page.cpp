// The advisor page: walking the 2023 chart question by question, with back, restart and
// budget answers from the price database (the result view is in advisor_page_result.cpp).
#include "pages/advisor_page.h"

#include "common/errors.h"
#include "session.h"
#include "ui_text.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace advisor::ui {

namespace {

QString capitalised(const std::string& s) {
    QString t = qs(s);
    return t.isEmpty() ? t : t.left(1).toUpper() + t.mid(1);
}

} // namespace

AdvisorPage::AdvisorPage(Session& session, QWidget* parent) : QWidget(parent), uiSession_(session) {
    breadcrumb_ = new QLabel;
    breadcrumb_->setWordWrap(true);
    breadcrumb_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    breadcrumb_->setAccessibleName(tr("Answers so far"));
    connect(breadcrumb_, &QLabel::linkActivated, this, [this](const QString& link) {
        revisit(link.mid(QStringLiteral("step:").size()).toInt());
    });
    budget_ = new QDoubleSpinBox;
    budget_->setRange(0, 1e7);
    budget_->setDecimals(0);
    budget_->setSingleStep(100);
    budget_->setPrefix(QStringLiteral("$"));
    budget_->setGroupSeparatorShown(true);
    budget_->setSpecialValueText(tr("No budget"));
    budget_->setKeyboardTracking(false);
    budget_->setToolTip(tr("What you can spend on GPUs. Budget questions are then answered from your prices."));
    useBudget_ = new QCheckBox(tr("&Answer budget questions from my prices"));
    useBudget_->setChecked(true);
    auto* budgetRow = new QHBoxLayout;
    auto* budgetLabel = new QLabel(tr("&Budget for GPUs:"));
    budgetLabel->setBuddy(budget_);
    budgetRow->addWidget(budgetLabel);
    budgetRow->addWidget(budget_);
    budgetRow->addWidget(useBudget_);
    budgetRow->addStretch(1);

    views_ = new QStackedWidget;
    auto* questionView = new QWidget;
    auto* resultView = new QWidget;
    buildQuestionView(questionView);
    buildResultView(resultView);
    views_->addWidget(questionView);
    views_->addWidget(resultView);

    auto* title = new QLabel(tr("<b>Which GPU(s) to get for deep learning</b> - Tim Dettmers' 2023 recommendation "
                                "chart, answered with your prices"));
    title->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addLayout(budgetRow);
    layout->addWidget(breadcrumb_);
    layout->addWidget(views_, 1);

    connect(budget_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        setBudget(v > 0 ? std::optional<double>(v) : std::nullopt);
    });
    connect(useBudget_, &QCheckBox::toggled, this, &AdvisorPage::replay);
    auto* backShortcut = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_Left), this);
    backShortcut->setWhatsThis(tr("Back to the previous question"));
    connect(backShortcut, &QShortcut::activated, this, &AdvisorPage::back);
    auto* restartShortcut = new QShortcut(QKeySequence(tr("Ctrl+R")), this);
    restartShortcut->setWhatsThis(tr("Start the chart over"));
    connect(restartShortcut, &QShortcut::activated, this, &AdvisorPage::restart);
    for (auto signal : {&Session::opened, &Session::pricesChanged, &Session::settingsChanged, &Session::catalogChanged}) {
        connect(&uiSession_, signal, this, &AdvisorPage::replay);
    }
    restoreWalk();
}

void AdvisorPage::saveWalk() const {
    QStringList answers; // "node=answer"; automatic answers follow the prices and are not kept
    for (const auto& step : session_->path()) {
        if (!step.automatic) {
            answers << qs(step.nodeId) + QLatin1Char('=') + qs(step.answer);
        }
    }
    QSettings s;
    s.setValue(QStringLiteral("advisor/answers"), answers);
    s.setValue(QStringLiteral("advisor/budget"), budget_->value());
    s.setValue(QStringLiteral("advisor/use_budget"), useBudget_->isChecked());
}

void AdvisorPage::restoreWalk() {
    const QSettings s;
    const QStringList saved = s.value(QStringLiteral("advisor/answers")).toStringList();
    {
        const QSignalBlocker blockBudget(budget_);
        const QSignalBlocker blockUse(useBudget_);
        budget_->setValue(s.value(QStringLiteral("advisor/budget"), 0.0).toDouble());
        useBudget_->setChecked(s.value(QStringLiteral("advisor/use_budget"), true).toBool());
    }
    std::vector<std::pair<std::string, std::string>> given;
    for (const QString& entry : saved) {
        given.emplace_back(entry.section(QLatin1Char('='), 0, 0).toStdString(),
                           entry.section(QLatin1Char('='), 1).toStdString());
    }
    walk(given);
}

QLabel* AdvisorPage::headingLabel() {
    auto* label = new QLabel;
    label->setWordWrap(true);
    QFont big = label->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    label->setFont(big);
    return label;
}

QHBoxLayout* AdvisorPage::navigationRow(QPushButton* back) {
    back->setToolTip(tr("Back to the previous question (Alt+Left)"));
    auto* restartButton = new QPushButton(tr("Restart"));
    restartButton->setToolTip(tr("Start over (Ctrl+R)"));
    connect(back, &QPushButton::clicked, this, &AdvisorPage::back);
    connect(restartButton, &QPushButton::clicked, this, &AdvisorPage::restart);
    auto* nav = new QHBoxLayout;
    nav->addWidget(back);
    nav->addWidget(restartButton);
    nav->addStretch(1);
    return nav;
}

void AdvisorPage::buildQuestionView(QWidget* page) {
    question_ = headingLabel();
    why_ = new QLabel;
    why_->setWordWrap(true);
    suggestion_ = new QLabel;
    suggestion_->setWordWrap(true);
    answers_ = new QWidget;
    answersLayout_ = new QHBoxLayout(answers_);
    answersLayout_->setContentsMargins(0, 0, 0, 0);
    backButton_ = new QPushButton(tr("Back"));
    auto* nav = navigationRow(backButton_);
    auto* layout = new QVBoxLayout(page);
    layout->addSpacing(12);
    layout->addWidget(question_);
    layout->addWidget(answers_);
    layout->addWidget(suggestion_);
    layout->addSpacing(8);
    layout->addWidget(why_);
    layout->addStretch(1);
    layout->addLayout(nav);
}

void AdvisorPage::resetWalk() {
    const Catalog& catalog = uiSession_.catalog();
    chart_ = std::make_unique<advice::Flowchart>(advice::Flowchart::dettmers2023(catalog));
    advice::PriceLookup lookup;
    if (uiSession_.isOpen()) {
        lookup = advice::priceLookupFrom(uiSession_.prices(), uiSession_.settings().priceRule);
    }
    session_ = std::make_unique<advice::FlowchartSession>(*chart_, lookup, std::nullopt);
    updateView();
}

bool AdvisorPage::answer(const QString& choice) {
    try {
        session_->answer(choice.toStdString());
    } catch (const InputError&) {
        return false;
    }
    afterAnswer();
    return true;
}

void AdvisorPage::afterAnswer() {
    if (useBudget_->isChecked()) {
        session_->answerAutomatically();
    }
    updateView();
}

void AdvisorPage::back() {
    session_->back();
    updateView();
}

void AdvisorPage::restart() {
    session_->restart();
    if (useBudget_->isChecked()) {
        session_->answerAutomatically();
    }
    updateView();
}

void AdvisorPage::revisit(int step) {
    if (step >= 0 && session_->rewindTo(static_cast<size_t>(step))) {
        updateView(); // no automatic answer here: the user is overriding it
    }
}

void AdvisorPage::setBudget(std::optional<double> usd) {
    {
        const QSignalBlocker block(budget_);
        budget_->setValue(usd.value_or(0));
    }
    replay();
}

void AdvisorPage::replay() {
    // New prices, settings or budget: walk the user's own answers again; automatic ones follow
    // the new prices. An answer the user gave to a budget question (an override) is kept.
    std::vector<std::pair<std::string, std::string>> given;
    for (const auto& step : session_->path()) {
        if (!step.automatic) {
            given.emplace_back(step.nodeId, step.answer);
        }
    }
    walk(given);
}

void AdvisorPage::walk(const std::vector<std::pair<std::string, std::string>>& given) {
    resetWalk();
    const bool automatic = useBudget_->isChecked() && budget_->value() > 0;
    session_->setBudget(automatic ? std::optional<double>(budget_->value()) : std::nullopt);
    for (const auto& [node, choice] : given) {
        while (automatic && !session_->finished() && session_->current().id != node && session_->answerSuggestion()) {
        }
        if (session_->finished() || session_->current().id != node) {
            break; // the chart or the prices now lead elsewhere
        }
        try {
            session_->answer(choice);
        } catch (const InputError&) {
            break; // a saved answer the chart no longer offers
        }
    }
    if (automatic) {
        session_->answerAutomatically();
    }
    updateView();
}

void AdvisorPage::updateView() {
    saveWalk();
    updateBreadcrumb();
    if (session_->finished()) {
        updateResult();
        views_->setCurrentIndex(1);
    } else {
        updateQuestion();
        views_->setCurrentIndex(0);
    }
}

void AdvisorPage::updateBreadcrumb() {
    QStringList parts;
    const auto& path = session_->path();
    for (size_t i = 0; i < path.size(); ++i) {
        const auto& s = path[i];
        parts << QStringLiteral("%1 <a href=\"step:%2\">%3</a>%4")
                     .arg(qs(s.question).toHtmlEscaped())
                     .arg(i)
                     .arg(capitalised(s.answer).toHtmlEscaped())
                     .arg(s.automatic ? QStringLiteral(" <i>(") + tr("budget: %1").arg(qs(s.reason).toHtmlEscaped()) +
                                            QStringLiteral(")</i>")
                                      : QString());
    }
    breadcrumb_->setText(parts.isEmpty() ? tr("Answer the questions below; click an answer here to change it.")
                                         : parts.join(QStringLiteral(" &rsaquo; ")));
}

void AdvisorPage::updateQuestion() {
    const auto& node = session_->current();
    question_->setText(qs(node.text));
    why_->setText(tr("<b>Why this question:</b> %1").arg(qs(node.why).toHtmlEscaped()));
    while (QLayoutItem* item = answersLayout_->takeAt(0)) {
        if (QWidget* w = item->widget()) { // may be the button being clicked: delete it later
            w->hide();
            w->setObjectName(QString());
            w->deleteLater();
        }
        delete item;
    }
    const auto suggestion = session_->suggestion();
    for (const auto& [choice, target] : node.answers) {
        auto* button = new QPushButton(QStringLiteral("&") + capitalised(choice));
        button->setObjectName(QStringLiteral("answer_") + qs(choice));
        button->setMinimumWidth(110);
        const std::string c = choice;
        connect(button, &QPushButton::clicked, this, [this, c] { answer(qs(c)); });
        if (suggestion && suggestion->answer == choice) {
            button->setDefault(true);
            button->setFocus();
        }
        answersLayout_->addWidget(button);
        button->show();
    }
    answersLayout_->addStretch(1);
    if (suggestion) {
        suggestion_->setText(tr("Your budget suggests <b>%1</b>: %2")
                                 .arg(capitalised(suggestion->answer), qs(suggestion->reason).toHtmlEscaped()));
    } else if (node.budgetQuestion && uiSession_.isOpen()) {
        suggestion_->setText(session_->budget() ? tr("No price for these GPUs in your database: answer yourself.")
                                                : tr("Set a budget above to answer this from your prices."));
    } else {
        suggestion_->clear();
    }
    backButton_->setEnabled(!session_->path().empty());
}

} // namespace advisor::ui
