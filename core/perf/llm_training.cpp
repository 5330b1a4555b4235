#include "perf/llm_training.h"

#include <algorithm>

namespace advisor::perf {

const WorkloadProfile& llmTrainingProfile() {
    static const WorkloadProfile profile = [] {
        WorkloadProfile p;
        p.workloadClass = WorkloadClass::Transformer;
        p.shares.compute = 1.0 - kLlmMemoryShare;
        p.shares.memory = kLlmMemoryShare;
        p.shares.vector = 0.0;
        p.shares.overhead = 0.0;
        p.shares.hostStep = 0.0;
        p.batchGainPerDoubling = 0.0;
        return p;
    }();
    return profile;
}

double llmDataParallelEfficiency(double singleSpeedVsReference, int gpus, const Link& link, Metric m,
                                 const ModelConstants& c) {
    if (gpus <= 1 || !isTraining(m)) {
        return 1.0; // inference replicas do not synchronise
    }
    const double n = gpus;
    const double gradientBytesPerParam = m == Metric::Fp32Training ? 4.0 : 2.0;
    const double commSecondsPerParam =
        2.0 * (n - 1.0) / n * gradientBytesPerParam / (std::max(link.gbPerSecond, 1e-6) * 1e9);
    const double computeSecondsPerParam =
        kLlmTokensPerGpuStep * 6.0 / (c.referenceComputeTflops * 1e12 * std::max(singleSpeedVsReference, 1e-9));
    return 1.0 / (1.0 + commSecondsPerParam / computeSecondsPerParam);
}

} // namespace advisor::perf
