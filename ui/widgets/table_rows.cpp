#include "widgets/table_rows.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

namespace advisor::ui {

void useSingleLineRows(QTableView* view) {
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8); // text plus padding
}

void useContentWidthColumns(QTableView* view) {
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void fitHeightToRows(QTableView* view) {
    const QHeaderView* header = view->horizontalHeader();
    int height = 2 * view->frameWidth() + (header->isHidden() ? 0 : header->sizeHint().height()) +
                 view->verticalHeader()->length();
    // Width can change after this call, so room for the scroll bar is kept whenever it may show.
    if (view->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff) {
        height += view->horizontalScrollBar()->sizeHint().height();
    }
    view->setMaximumHeight(height);
}

} // namespace advisor::ui
