#pragma once
/// \file
/// Where a label beside a marked point goes so that the plot does not cut it off.

#include <qcustomplot.h>

#include <algorithm>

namespace advisor::ui {

/// A label reads to the right of its point, unless the point is in the right 40% of the axis:
/// then it goes to the left, where it has room (a limit near the TDP, a late break-even).
inline bool labelGoesLeftOf(double x, const QCPRange& axis) {
    return x > axis.lower + 0.6 * axis.size();
}

/// The top of a value axis that leaves `pixels` above `value` for a label, on an axis rect
/// `rectHeight` pixels high whose range starts at `lower`: at least `upper`, raised when the plot is
/// short (a narrow window wraps the text above it). With v the value, H the height, h the label,
/// (top - v) / (top - lower) x H >= h gives top >= (v H - lower h) / (H - h).
inline double axisTopLeavingRoom(double value, double lower, double upper, double pixels, double rectHeight) {
    if (rectHeight <= pixels) {
        return upper; // not laid out yet, or too small for any label
    }
    return std::max(upper, (value * rectHeight - lower * pixels) / (rectHeight - pixels));
}

} // namespace advisor::ui
