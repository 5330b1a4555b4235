#pragma once
/// \file
/// The built-in model and a run's error, shared by the tests of TensorRT-LLM's full-load files
/// (the 1.0 release's, a later release's and the 1.0 rows never fitted).
#include "catalog/catalog.h"
#include "eval/full_load.h"

namespace advisor::eval {

inline const perf::PerfModel& fullLoadModel() {
    static const perf::PerfModel m(Catalog::builtin());
    return m;
}

/// The run's error in percent, predicted over measured less one, with constants k (the shipped ones).
inline double fullLoadErrorPct(const FullLoadRun& r, const perf::ServingConstants& k = {}) {
    return fullLoadErrorPct(fullLoadModel(), Catalog::builtin().require(r.gpu), r, k);
}

} // namespace advisor::eval
