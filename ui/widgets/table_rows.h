#pragma once
/// \file
/// One line of text per table row, as the Prices table has: the style's default row height
/// (30 px offscreen and in Fusion) shows a third fewer rows than the text needs.

class QTableView;

namespace advisor::ui {

/// Rows one text line high, without row numbers.
void useSingleLineRows(QTableView* view);

/// Columns as wide as their contents, following every change. A stretched last column
/// never got narrower than QHeaderView's default section (100 px for "350 W"), so small
/// tables scrolled sideways in a narrow window.
void useContentWidthColumns(QTableView* view);

/// At most as tall as the header and the rows it holds now (and a horizontal scroll bar when
/// shown), so a short table leaves the space below it to what follows. Call after filling.
void fitHeightToRows(QTableView* view);

} // namespace advisor::ui
