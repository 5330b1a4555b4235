#pragma once
/// \file
/// Every price and cloud offer carries the address it was read from: a right click (or the
/// Menu key) on its row copies that address, to paste into a browser. The program itself
/// opens nothing from the network (tests/hygiene/source_rules.sh): the addresses come from
/// imported files, which may be hostile.

#include <QString>

#include <functional>

class QAbstractItemView;
class QModelIndex;

namespace advisor::ui {

/// The context menu of `view`'s rows: "Copy Source Link" for the address `urlOf` gives for
/// the current row (disabled when it has none).
void addSourceLinkMenu(QAbstractItemView* view, std::function<QString(const QModelIndex&)> urlOf);

/// Puts `url` on the clipboard; false (clipboard unchanged) when it is empty.
bool copySourceLink(const QString& url);

} // namespace advisor::ui
