#pragma once
/// \file
/// Where token generation finds an LLM that does not fit its GPUs: what llama.cpp keeps on them
/// and what it leaves in system RAM for the CPU to read (perf/llm_offload.h plans it).

namespace advisor::perf {

struct OffloadSplit {
    double gpuCapacityBytes = 0; ///< what the GPUs give to weights and KV cache (less the runtime's reserve)
    double heldBytes = 0;        ///< every weight and KV cache (llmBytesHeld)
    double ramHeldBytes = 0;     ///< of them, what stays in system RAM
    double gpuBytesPerStep = 0;  ///< what one step of token generation reads from GPU memory
    double ramBytesPerStep = 0;  ///< and from system RAM, on the CPU
    int layers = 0;              ///< the model's (given or Llama-like)
    /// Layers on the GPUs (llama.cpp's -ngl); all of them when a mixture of experts leaves only
    /// routed experts in RAM.
    int gpuLayers = 0;
    int cpuMoeLayers = 0;      ///< layers whose routed experts stay in RAM (--n-cpu-moe); 0: none
    int moeLayerStep = 1;      ///< every how many layers hold experts (PerfQuery::llmMoeLayerStep)
    bool headInRam = false;    ///< the output head on the CPU (not every layer on the GPUs)
    bool expertsInRam = false; ///< a mixture of experts' routed experts, not whole layers, in RAM
    /// The layers whose work the CPU does for each token (each costs a fixed time besides its reads).
    int cpuLayersRun = 0;
    /// The placement was given (-ngl, --n-cpu-moe) and puts more on the GPUs than they hold.
    bool overCapacity = false;
};

} // namespace advisor::perf
