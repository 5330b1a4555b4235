#pragma once
/// \file
/// A choice of the published models whose size and shape the memory calculator knows
/// (resources/presets/model_shapes.json), after a first entry for "any size". Used by the
/// Memory needs tab, the Advisor's live recommender, the Charts page and the power-limit tab, so
/// all list the same models alike; and the choice of an LLM's weights.

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QString;

namespace advisor::calc {
struct ModelShape;
}
namespace advisor::perf {
struct PerfQuery;
enum class LlmEngine;
enum class LlmSplit;
}

namespace advisor::ui {

/// Fills `box` with `anyLabel` (no model) and then each published model, its source as a tooltip.
void fillModelChoice(QComboBox* box, const QString& anyLabel);

/// The chosen published model, or nullptr for the "any size" entry.
const calc::ModelShape* chosenModel(const QComboBox* box);

/// Chooses the model with this id (the "any size" entry for an empty or unknown id).
void chooseModel(QComboBox* box, const QString& id);

/// Fills `box` with the LLM weights' precisions llama.cpp runs (4-bit Q4_K_M first, 8-bit, 16-bit),
/// each item's data the precision's name ("int4"); the Charts page and the power-limit tab.
void fillLlmWeightsChoice(QComboBox* box);

/// Names the 4- and 8-bit entries of a box fillLlmWeightsChoice filled after the files `engine`
/// reads: llama.cpp's Q4_K_M and Q8_0, TensorRT-LLM's INT4 AWQ and FP8 or INT8.
void nameLlmWeightsForEngine(QComboBox* box, perf::LlmEngine engine);

/// Fills `box` with the software that runs the LLM: llama.cpp (the calibration's) and TensorRT-LLM
/// (a serving engine), each item's data the engine's name for perf --engine, the whys as tooltips.
void fillLlmEngineChoice(QComboBox* box);

/// The chosen engine (llama.cpp when none).
perf::LlmEngine chosenLlmEngine(const QComboBox* box);

/// Fills `box` with how the serving engine splits a model over several GPUs: by tensors (tensor
/// parallel) or by layers (pipeline parallel), each item's data the name perf --split takes.
void fillLlmSplitChoice(QComboBox* box);

/// The chosen split (by tensors when none).
perf::LlmSplit chosenLlmSplit(const QComboBox* box);

/// Sets up a field of sequences generating together: 0 is "as many as fit", the rest a count.
void describeLlmSequencesField(QSpinBox* box);

/// Sets up a field of the tokens/s each sequence must still get (perf --min-sequence-speed): 0 is
/// "any", the rest a speed that limits "as many as fit" to those that each keep it.
void describeLlmSequenceSpeedField(QDoubleSpinBox* box);

/// The sequences fields into q: a count, as many as fit, or of those as many as each keep the speed.
void applyLlmSequences(perf::PerfQuery& q, const QSpinBox* sequences, const QDoubleSpinBox* speed);

/// Sets up a context field for LLM work: tokens as the unit, what the count means as its tooltip.
void describeLlmContextField(QSpinBox* box);

/// The chosen LLM into q, as perf --model --weights --context take it: the weights' precision, the
/// context, and a published model's size and shape (none: q's own size, a Llama-like shape).
void applyLlmChoices(perf::PerfQuery& q, const QComboBox* model, const QComboBox* weights, const QSpinBox* context);

} // namespace advisor::ui
