#pragma once
/// \file
/// Every price and cloud offer carries the address it was read from: a right click (or the
/// Menu key) on its row opens that page in the browser or copies the address.

#include <QString>

#include <functional>

class QAbstractItemView;
class QModelIndex;

namespace advisor::ui {

/// Opens `url` in the desktop's browser when it is an http or https address; false (and
/// nothing opened) for anything else, such as an empty source or a local path.
bool openSourceLink(const QString& url);

/// The context menu of `view`'s rows: "Open Source Link" and "Copy Source Link" for the
/// address `urlOf` gives for the current row (both disabled when it has none).
void addSourceLinkMenu(QAbstractItemView* view, std::function<QString(const QModelIndex&)> urlOf);

} // namespace advisor::ui
