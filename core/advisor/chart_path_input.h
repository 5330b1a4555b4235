#pragma once
/// \file
/// What a walk through Dettmers' 2023 chart tells the live recommender: the task, the kind of
/// model, the memory needed, and whether the buyer is an organisation - so the Advisor page
/// can show today's answer beside the chart's, and the cross-check can compare them.

#include "advisor/flowchart.h"
#include "advisor/recommender.h"

#include <vector>

namespace advisor::advice {

/// The recommender's input for the answers given so far (node ids of the 2023 chart).
/// The budget is left at 0: the caller decides it (the user's, or the chart pick's price).
/// Seed figures: >= 24 GB for transformers and LLMs, 10 GB otherwise; organisations up to 8
/// GPUs at 60% utilization (company cluster), "large LLMs" = full training of 13B parameters.
RecommendInput recommendInputForDettmers2023(const std::vector<Step>& path, const Settings& settings);

} // namespace advisor::advice
