#pragma once
/// \file
/// Where a label beside a marked point goes so that the plot does not cut it off.

#include <qcustomplot.h>

namespace advisor::ui {

/// A label reads to the right of its point, unless the point is in the right 40% of the axis:
/// then it goes to the left, where it has room (a limit near the TDP, a late break-even).
inline bool labelGoesLeftOf(double x, const QCPRange& axis) {
    return x > axis.lower + 0.6 * axis.size();
}

} // namespace advisor::ui
