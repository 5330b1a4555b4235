#pragma once
/// \file
/// The Advisor page: Dettmers' 2023 chart as a wizard - one question at a time with why it is
/// asked, Back, Restart and a breadcrumb whose steps can be revisited - with budget questions
/// answered from the user's prices, and at the end the chart's GPUs beside what the live
/// recommender picks today from the same answers.

#include "advisor/flowchart.h"
#include "advisor/recommender.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QTextBrowser;
class QHBoxLayout;

namespace advisor::ui {

class Session;

class AdvisorPage : public QWidget {
    Q_OBJECT

public:
    explicit AdvisorPage(Session& session, QWidget* parent = nullptr);

    /// Answers the current question (as a click on its button would). False if not a choice.
    bool answer(const QString& choice);
    void back();
    void restart();
    /// Revisits the question of breadcrumb step `step` (0-based): its answer and later ones go.
    void revisit(int step);
    void setBudget(std::optional<double> usd);

    const advice::FlowchartSession& walk() const { return *session_; }
    /// The live recommendation for the current leaf (empty before a leaf is reached).
    const advice::Recommendation& liveRecommendation() const { return live_; }

signals:
    /// The user asked to see these GPUs highlighted in the charts.
    void showInCharts(const QStringList& gpuIds);

private:
    void buildQuestionView(QWidget* page);
    void buildResultView(QWidget* page);
    /// The large bold line that heads both views (the question, the chart's answer).
    static QLabel* headingLabel();
    /// Back (the given button) and Restart, wired to back() and restart(), as both views show them.
    QHBoxLayout* navigationRow(QPushButton* back);
    void resetWalk();
    void replay();
    /// A fresh walk through the user's answers (node id, answer), in order, with the budget's
    /// answers in between; stops where an answer no longer fits.
    void walk(const std::vector<std::pair<std::string, std::string>>& given);
    void afterAnswer();
    void updateView();
    void updateBreadcrumb();
    void updateQuestion();
    void updateResult();
    void updateLive();
    QString liveNotesHtml() const; ///< the recommender's notes, for the reasons view
    /// The live side's LLM fields (weights, context, requests, system RAM) and its GPU count.
    void createLiveOptionFields();
    /// With a model size: the memory it needs for the leaf's task, into the input and the field;
    /// on an LLM-inference leaf, the weights, context, requests and RAM chosen, into the input.
    void sizeLiveMemoryForModel();
    /// The walk outlives the window: the budget, its check box and the answers the user gave.
    void saveWalk() const;
    void restoreWalk();
    QStringList chartGpuIds() const;

    Session& uiSession_;
    std::unique_ptr<advice::Flowchart> chart_;
    std::unique_ptr<advice::FlowchartSession> session_;
    advice::Recommendation live_;
    advice::RecommendInput liveInput_;

    QLabel* breadcrumb_ = nullptr;
    QDoubleSpinBox* budget_ = nullptr;
    QCheckBox* useBudget_ = nullptr;
    QStackedWidget* views_ = nullptr;
    // question view
    QLabel* question_ = nullptr;
    QLabel* why_ = nullptr;
    QLabel* suggestion_ = nullptr;
    QWidget* answers_ = nullptr;
    QHBoxLayout* answersLayout_ = nullptr;
    QPushButton* backButton_ = nullptr;
    // result view
    QLabel* leaf_ = nullptr;
    QLabel* leafWhy_ = nullptr;
    QTableWidget* chartGpus_ = nullptr;
    QLabel* chartCaveats_ = nullptr; ///< each chart GPU's hardware caveats, in full
    QLabel* liveSummary_ = nullptr;
    QDoubleSpinBox* liveMemory_ = nullptr;
    QComboBox* liveModel_ = nullptr;       ///< a published model (its size and shape), or any size
    QDoubleSpinBox* liveParams_ = nullptr; ///< a model size instead of gigabytes; 0 = none
    QComboBox* liveWeights_ = nullptr;     ///< LLM inference: the weights' precision
    QSpinBox* liveContext_ = nullptr;      ///< LLM inference: tokens of context; 0 = the default
    QSpinBox* liveRequests_ = nullptr;     ///< LLM inference: requests served at once
    QDoubleSpinBox* liveRequestSpeed_ = nullptr; ///< with "as many as fit": tokens/s each must still get
    QComboBox* liveEngine_ = nullptr;      ///< LLM inference: llama.cpp or a serving engine
    QComboBox* liveSplit_ = nullptr;       ///< the serving engine's split over several cards
    QComboBox* liveSystemRam_ = nullptr;   ///< LLM inference: RAM a card too small may use
    QSpinBox* liveGpus_ = nullptr;         ///< most cards in one setup (0: the chart leaf's)
    QFormLayout* liveMemoryForm_ = nullptr; ///< the memory rows; requests and RAM show for LLM inference
    QString liveMemoryBasis_;              ///< how the model size became gigabytes
    QTableWidget* shortlist_ = nullptr;
    QTextBrowser* reasons_ = nullptr;
    QLabel* cloud_ = nullptr;
    QPushButton* showChart_ = nullptr; ///< the chart's GPUs in the charts
    QPushButton* showLive_ = nullptr;  ///< today's picks in the charts
};

} // namespace advisor::ui
