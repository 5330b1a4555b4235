#pragma once
/// \file
/// One line of text per table row, as the Prices table has: the style's default row height
/// (30 px offscreen and in Fusion) shows a third fewer rows than the text needs.

class QTableView;

namespace advisor::ui {

/// Rows one text line high, without row numbers.
void useSingleLineRows(QTableView* view);

} // namespace advisor::ui
