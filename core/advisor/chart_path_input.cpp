#include "advisor/chart_path_input.h"

#include "calc/memory.h"

namespace advisor::advice {

RecommendInput recommendInputForDettmers2023(const std::vector<Step>& path, const Settings& settings) {
    const auto answered = [&](const char* node, const char* answer) {
        for (const auto& s : path) {
            if (s.nodeId == node) {
                return s.answer == answer;
            }
        }
        return false;
    };
    RecommendInput in;
    in.settings = settings;
    in.organization = answered("organization", "yes");
    if (in.organization) {
        in.task = Task::Train;
        in.maxGpus = 8;
        in.settings.utilization = 0.6; // seed: a company-wide cluster runs at > 60%
        const bool rich = answered("org_llm_rich", "yes") || answered("org_rich", "yes");
        in.rankBy = rich ? RankBy::Speed : RankBy::PerfPerDollar;
        if (answered("org_large_llm", "yes")) {
            in.domain = Domain::Llm;
            calc::MemoryInput m; // "13B parameters or more", full training with Adam, sharded
            m.paramsBillion = 13;
            m.mode = calc::MemoryMode::FullTraining;
            m.shardGpus = 8;
            in.memoryGb = calc::estimateMemory(m).totalGb;
        } else {
            in.domain = Domain::Transformers;
            in.memoryGb = 48; // a research server: the seed's server picks all have >= 48 GB
        }
    } else if (answered("train_models", "yes")) {
        in.task = Task::Train;
        in.domain = answered("train_transformers", "yes") ? Domain::Transformers : Domain::Cnn;
        in.memoryGb = in.domain == Domain::Transformers ? 24 : 10;
    } else {
        in.task = Task::Inference;
        in.eightBit = true;
        in.domain = answered("use_llms", "yes") ? Domain::Llm : Domain::Cnn;
        in.memoryGb = in.domain == Domain::Llm ? 24 : 10;
    }
    return in;
}

} // namespace advisor::advice
