#pragma once
/// \file
/// A choice of the system RAM token generation may run what does not fit the GPUs from
/// (perf/llm_offload.h): none, or a desktop's or workstation's channels of DDR4 or DDR5. Used by
/// the Charts page; the same kinds `--system-ram` takes.

#include <optional>

class QComboBox;

namespace advisor::ui {

/// Fills `box` with "GPU memory only" and common RAM (dual-channel DDR4-3200 ... eight-channel
/// DDR5-4800), each with its bandwidth; each item's data is its --system-ram kind ("" for none).
void fillSystemRamChoice(QComboBox* box);

/// The chosen RAM's bandwidth in GB/s; nullopt for "GPU memory only".
std::optional<double> chosenSystemRamGbs(const QComboBox* box);

} // namespace advisor::ui
