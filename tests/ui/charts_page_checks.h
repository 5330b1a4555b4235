#pragma once
// Reading the Charts page in tests: its workload field.
#include "pages/charts_page.h"

#include <QComboBox>

namespace advisor::testing {

// The page's workload field: the combo box that offers "llm" (and "cnn").
inline QComboBox* workloadBox(ui::ChartsPage& page) {
    for (auto* box : page.findChildren<QComboBox*>()) {
        if (box->findData(QStringLiteral("llm")) >= 0) {
            return box;
        }
    }
    return nullptr;
}

} // namespace advisor::testing
