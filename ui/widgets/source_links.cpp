#include "widgets/source_links.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QMenu>

namespace advisor::ui {

bool copySourceLink(const QString& url) {
    if (url.trimmed().isEmpty()) {
        return false;
    }
    QApplication::clipboard()->setText(url.trimmed());
    return true;
}

void addSourceLinkMenu(QAbstractItemView* view, std::function<QString(const QModelIndex&)> urlOf) {
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, urlOf = std::move(urlOf)](const QPoint& at) {
        // A right click makes its row current, and the Menu key opens on the current row.
        const QModelIndex index = view->currentIndex();
        const QString url = index.isValid() ? urlOf(index) : QString();
        QMenu menu(view);
        QAction* copy = menu.addAction(QObject::tr("&Copy Source Link"), [url] { copySourceLink(url); });
        copy->setEnabled(!url.trimmed().isEmpty());
        menu.exec(view->viewport()->mapToGlobal(at));
    });
}

} // namespace advisor::ui
