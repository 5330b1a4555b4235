#pragma once
/// \file
/// A choice of the published models whose size and shape the memory calculator knows
/// (resources/presets/model_shapes.json), after a first entry for "any size". Used by the
/// Memory needs tab and the Advisor's live recommender, so both list the same models alike.

class QComboBox;
class QString;

namespace advisor::calc {
struct ModelShape;
}

namespace advisor::ui {

/// Fills `box` with `anyLabel` (no model) and then each published model, its source as a tooltip.
void fillModelChoice(QComboBox* box, const QString& anyLabel);

/// The chosen published model, or nullptr for the "any size" entry.
const calc::ModelShape* chosenModel(const QComboBox* box);

/// Chooses the model with this id (the "any size" entry for an empty or unknown id).
void chooseModel(QComboBox* box, const QString& id);

} // namespace advisor::ui
