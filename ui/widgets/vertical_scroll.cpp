#include "widgets/vertical_scroll.h"

#include <QScrollArea>

namespace advisor::ui {

QScrollArea* scrollVertically(QWidget* content) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

} // namespace advisor::ui
