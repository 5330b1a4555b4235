#include "widgets/table_rows.h"

#include <QHeaderView>
#include <QTableView>

namespace advisor::ui {

void useSingleLineRows(QTableView* view) {
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8); // text plus padding
}

} // namespace advisor::ui
