#pragma once
/// \file
/// Inputs that keep their size in a short window: they scroll up and down, never sideways
/// (their rows wrap instead), so no field is squeezed below its height.

class QScrollArea;
class QWidget;

namespace advisor::ui {

/// A frameless scroll area holding `content`, as wide as it is given.
QScrollArea* scrollVertically(QWidget* content);

} // namespace advisor::ui
