#include "common/format.h"
#include "perf/model.h"

#include <algorithm>
#include <cmath>

namespace advisor::perf {

std::string explanationSummary(const Prediction& p, size_t maxFactors) {
    // The bound is the largest share (PerfModel::explain).
    const double share = std::max({p.computeShare, p.memoryShare, p.vectorShare, p.latencyShare, p.overheadShare});
    std::string text = "bound by " + p.bound + " (" + format::percent(share, 0) + " of the time)";
    std::vector<const Factor*> order;
    for (const auto& f : p.factors) {
        order.push_back(&f);
    }
    std::stable_sort(order.begin(), order.end(), [](const Factor* a, const Factor* b) {
        return std::fabs(std::log(a->effect)) > std::fabs(std::log(b->effect));
    });
    for (size_t i = 0; i < order.size() && i < maxFactors; ++i) {
        text += (i == 0 ? "; " : ", ") + order[i]->name + " x" + format::number(order[i]->effect, 2);
    }
    return text;
}

} // namespace advisor::perf
