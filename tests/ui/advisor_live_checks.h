#pragma once
// Reading the Advisor page's live recommender in tests: its memory field, its one-line summary,
// the first card's reasons, and a walk to the chart's LLM-inference leaf.
#include "pages/advisor_page.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QtTest>

#include <algorithm>
#include <string>

namespace advisor::testing {

// A $3,000 budget and the chart's answers up to "run LLMs": an LLM-inference leaf.
inline void answerUpToRunningLlms(ui::AdvisorPage& page) {
    page.setBudget(3000);
    for (const char* a : {"no", "no", "yes"}) {
        QVERIFY(page.answer(QLatin1String(a)));
    }
}

// The live recommender's memory field (in GB).
inline QDoubleSpinBox* liveMemoryField(ui::AdvisorPage& page) {
    QDoubleSpinBox* memory = nullptr;
    for (auto* box : page.findChildren<QDoubleSpinBox*>()) {
        memory = box->suffix() == QStringLiteral(" GB") ? box : memory;
    }
    return memory;
}

// The live recommender's one-line summary ("... of memory ...").
inline QLabel* liveSummary(ui::AdvisorPage& page) {
    QLabel* summary = nullptr;
    for (auto* l : page.findChildren<QLabel*>()) {
        summary = l->text().contains(QStringLiteral("of memory")) ? l : summary;
    }
    return summary;
}

// Whether the live shortlist's first card has a reason that contains `text`.
inline bool firstReasonsSay(ui::AdvisorPage& page, const std::string& text) {
    const auto& shortlist = page.liveRecommendation().shortlist;
    if (shortlist.empty()) {
        return false;
    }
    const auto& reasons = shortlist.front().reasons;
    return std::any_of(reasons.begin(), reasons.end(),
                       [&](const std::string& r) { return r.find(text) != std::string::npos; });
}

} // namespace advisor::testing
