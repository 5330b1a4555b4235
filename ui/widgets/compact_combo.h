#pragma once
/// \file
/// Combo boxes that do not widen their column to their longest item: the box shows a few
/// characters' worth (the form stretches it where there is room) and its open list is as
/// wide as the longest item, so nothing is cut off where it is read.

class QComboBox;

namespace advisor::ui {

/// The box asks for room for `characters` characters, not for its longest item.
void makeCompact(QComboBox* box, int characters);

/// The open list is wide enough for every item; call again after the items change.
void fitPopupToItems(QComboBox* box);

} // namespace advisor::ui
