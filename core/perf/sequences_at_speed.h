#pragma once
/// \file
/// Token generation for a server that promises each request a speed (PerfQuery::
/// llmMinSequenceSpeed): of the sequences that fit in memory (perf/sequences_that_fit.h), as many
/// as each still generate at least that many tokens/s. A step's time grows with its sequences
/// (each one's KV cache read, each one's multiplies, the engine's time per step), so each one's
/// speed falls as more join: the answer is the largest count that keeps it, the number of users
/// a card serves at that speed.

#include "perf/model.h"

#include <string>

namespace advisor::perf {

/// The most sequences, from one to those that fit (llmSequencesThatFit; one when none fits), that
/// each generate at least q.llmMinSequenceSpeed tokens/s on q.gpus of `g`; one when not even one
/// alone does. q's own llmSequences is not read.
int llmSequencesAtSpeed(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c);

/// q as predicted, its sequences settled: with llmSequencesFillMemory, llmSequences set to those
/// that fit, or with llmMinSequenceSpeed to llmSequencesAtSpeed, and both cleared; otherwise q.
PerfQuery withSequencesResolved(const EffectiveSpecs& s, const Gpu& g, PerfQuery q, const ModelConstants& c);

/// Why a query with a speed per sequence ran `sequences`: the most that keep the speed (and what
/// one more would get), all that fit, or not even one.
std::string sequencesAtSpeedNote(const EffectiveSpecs& s, const Gpu& g, const PerfQuery& q, const ModelConstants& c,
                                 int sequences);

} // namespace advisor::perf
