#pragma once
/// \file
/// Summary statistics for model errors.

#include <vector>

namespace advisor::eval {

/// Median of the values (average of the middle two for an even count); 0 when empty.
double median(std::vector<double> v);
/// Percentile p in [0, 100] with linear interpolation between closest ranks; 0 when empty.
double percentile(std::vector<double> v, double p);
/// Spearman rank correlation (ties get average ranks); 0 when fewer than 2 pairs or no variance.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

} // namespace advisor::eval
