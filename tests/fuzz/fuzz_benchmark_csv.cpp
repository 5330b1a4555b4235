// Fuzz target: the benchmark CSV reader used by eval-model and calibrate.
#include "common/errors.h"
#include "eval/benchmarks.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        for (const auto& row : eval::readBenchmarks(text, "fuzz.csv")) {
            // What a row measures, as evaluate and calibrate ask it.
            (void)row.metric();
            (void)row.networkClass();
            (void)row.perGpuBatch();
        }
    } catch (const InputError&) {
    }
    return 0;
}
