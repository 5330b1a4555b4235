#pragma once
/// \file
/// What a published model brings to an LLM inference query, so that `perf --model` and
/// eval-model's rows that name a model predict it alike.

#include "calc/model_shapes.h"
#include "perf/model.h"

namespace advisor::calc {

/// Sets q's size from `m` (a mixture of experts' active parameters too), its layers and output
/// head (where llama.cpp splits a model that does not fit), its KV cache and a
/// prompt's attention FLOPs from m's attention at q's llmContextTokens and llmDepthTokens, and,
/// for 4-bit weights, the bits of m's own 4-bit file and of the weights every token reads where
/// that file keeps them apart (gpt-oss: MXFP4 experts, Q8_0 beside them). Set q's weights,
/// context and depth first.
void applyModelShape(perf::PerfQuery& q, const ModelShape& m);

} // namespace advisor::calc
