#pragma once
/// \file
/// The memory a recommendation needs when the user names a model size instead of gigabytes:
/// the memory calculator, in the mode the task implies. One rule for the command line
/// (`recommend --params-billion`) and the Advisor page's model-size field.

#include "advisor/recommender.h"
#include "calc/memory.h"

#include <string>

namespace advisor::advice {

/// The memory calculator's input for a model of `paramsBillion` for `in`'s task: inference
/// with the task's weights (int4/int8/fp16); fine-tuning as QLoRA on 4-bit weights (the QLoRA
/// paper's NF4; 8-bit when `in.eightBit`); training as full mixed-precision training.
/// With `model`, its own size and shape (paramsBillion is then ignored).
calc::MemoryInput memoryInputFor(const RecommendInput& in, double paramsBillion,
                                 const calc::ModelShape* model = nullptr);

/// Sets `in.memoryGb` (per GPU), `in.llmParamsBillion` and, for a mixture of experts,
/// `in.llmActiveParamsBillion` from a model of `paramsBillion`, and
/// returns the calculator's input, which says how the figure was reached. Throws InputError
/// naming the field for a size <= 0.
calc::MemoryInput sizeMemoryForModel(RecommendInput& in, double paramsBillion,
                                     const calc::ModelShape* model = nullptr);

/// "13B parameters, qlora with int4 weights"; "Llama 3.1 70B: 70B parameters, inference with
/// int4 weights" for a published model.
std::string describeMemoryBasis(const calc::MemoryInput& m);

} // namespace advisor::advice
