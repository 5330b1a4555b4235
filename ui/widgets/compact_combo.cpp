#include "widgets/compact_combo.h"

#include <QAbstractItemView>
#include <QComboBox>

#include <algorithm>

namespace advisor::ui {

void makeCompact(QComboBox* box, int characters) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(characters);
    fitPopupToItems(box);
}

void fitPopupToItems(QComboBox* box) {
    int widest = 0;
    for (int i = 0; i < box->count(); ++i) {
        widest = std::max(widest, box->view()->fontMetrics().horizontalAdvance(box->itemText(i)));
    }
    box->view()->setMinimumWidth(widest + 32); // text plus the list's margins and scroll bar
}

} // namespace advisor::ui
