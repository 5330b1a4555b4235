// Fuzz target: the partial-offload runs reader used by eval-offload, and the offload plan and
// speed of each run it accepts (any size, layers, placement and RAM the reader lets through).
#include "catalog/catalog.h"
#include "common/errors.h"
#include "eval/offload_fit.h"
#include "perf/llm_offload.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const perf::PerfModel model(Catalog::builtin());
    try {
        for (const auto& run : eval::readOffloadRuns(text, "fuzz.csv")) {
            const Gpu& g = Catalog::builtin().require(run.gpu, "gpu");
            const perf::OffloadSplit split = perf::planOffload(g, run.query);
            const perf::Prediction p = model.explain(g, run.query);
            // Every byte somewhere once, and a finite, positive speed.
            if (!(split.ramBytesPerStep >= 0 && split.gpuBytesPerStep >= 0 && std::isfinite(p.throughput) &&
                  p.throughput > 0)) {
                std::abort();
            }
        }
    } catch (const InputError&) {
    }
    return 0;
}
