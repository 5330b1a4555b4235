// Fuzz target: the flowchart loader. Bad charts raise InputError; a chart that loads can be
// walked to a leaf with any answers (it has no cycles and every branch ends).
#include "advisor/flowchart.h"
#include "catalog/catalog.h"
#include "common/errors.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace advisor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto chart = advice::Flowchart::fromJson(text, "fuzz.json", Catalog::builtin());
        advice::FlowchartSession walk(chart, [](const std::string&, std::optional<Condition>) { return 1000.0; }, 1500.0);
        std::size_t steps = 0;
        for (std::size_t i = 0; !walk.finished(); ++i) {
            walk.answerAutomatically();
            if (walk.finished()) {
                break;
            }
            const auto& answers = walk.current().answers;
            walk.answer(answers[(size > 0 ? data[i % size] : 0) % answers.size()].first);
            if (++steps > chart.nodes().size()) {
                std::abort(); // validation promised no cycles
            }
        }
    } catch (const InputError&) {
    }
    return 0;
}
