#include "widgets/source_links.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QMenu>
#include <QUrl>

namespace advisor::ui {
namespace {

bool isWebAddress(const QString& url) {
    const QUrl u(url.trimmed(), QUrl::StrictMode);
    return u.isValid() && (u.scheme() == QLatin1String("http") || u.scheme() == QLatin1String("https")) &&
           !u.host().isEmpty();
}

} // namespace

bool openSourceLink(const QString& url) {
    return isWebAddress(url) && QDesktopServices::openUrl(QUrl(url.trimmed()));
}

void addSourceLinkMenu(QAbstractItemView* view, std::function<QString(const QModelIndex&)> urlOf) {
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, urlOf = std::move(urlOf)](const QPoint& at) {
        // A right click makes its row current, and the Menu key opens on the current row.
        const QModelIndex index = view->currentIndex();
        const QString url = index.isValid() ? urlOf(index).trimmed() : QString();
        QMenu menu(view);
        QAction* open = menu.addAction(QObject::tr("&Open Source Link"), [url] { openSourceLink(url); });
        QAction* copy = menu.addAction(QObject::tr("&Copy Source Link"), [url] { QApplication::clipboard()->setText(url); });
        open->setEnabled(isWebAddress(url));
        copy->setEnabled(!url.isEmpty());
        menu.exec(view->viewport()->mapToGlobal(at));
    });
}

} // namespace advisor::ui
