// Fuzz target: the GPU catalog loader. Bad catalogs raise InputError; a catalog that loads
// can resolve names and feed the performance model without crashing.
#include "catalog/catalog.h"
#include "common/errors.h"
#include "perf/model.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const Catalog catalog = Catalog::fromJson(text, "fuzz.json");
        const perf::PerfModel model(catalog);
        for (const auto& g : catalog.gpus()) {
            (void)catalog.resolve(g.name);
            perf::PerfQuery q;
            q.gpus = 4;
            (void)model.throughput(g, q);
        }
    } catch (const InputError&) {
    } catch (const AdvisorError&) {
    }
    return 0;
}
