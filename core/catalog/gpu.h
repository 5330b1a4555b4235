#pragma once
/// \file
/// One GPU's specification as the performance model and calculators need it.
/// Throughput figures are dense (no 2:4 sparsity); a missing figure is nullopt,
/// never zero, so "not published" and "not supported" are not mistaken for "slow".

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace advisor {

enum class Segment { Consumer, Workstation, Datacenter };
/// System: a complete computer around its GPU (DGX Spark): its own CPU, memory, power supply and
/// network ports; bought whole, never put in a desktop.
enum class FormFactor { Pcie, Sxm, Oam, Superchip, System };
enum class InterconnectType { None, NvLink, InfinityFabric };

/// Dense tensor-core (matrix unit) throughput in TFLOPS (TOPS for int8).
struct TensorThroughput {
    std::optional<double> fp16Fp32Acc; ///< FP16 inputs, FP32 accumulate (mixed-precision training)
    std::optional<double> fp16Fp16Acc; ///< FP16 inputs, FP16 accumulate (GeForce: 2x the above)
    std::optional<double> bf16;
    std::optional<double> tf32;
    std::optional<double> fp8;  ///< FP32 accumulate
    std::optional<double> int8; ///< TOPS
    std::optional<double> fp4;
};

/// Auxiliary power inputs on the board (PSU cables needed per card).
struct PowerConnectors {
    int pcie6Pin = 0;
    int pcie8Pin = 0;
    int nv12Pin = 0;  ///< NVIDIA's 12-pin on RTX 30 Founders Edition (fed by 2x 8-pin)
    int hpwr16Pin = 0; ///< 12VHPWR / 12V-2x6
    int eps8Pin = 0;  ///< CPU-style 8-pin on workstation/data-center boards
    std::string label; ///< as published, e.g. "1x 16-pin (12VHPWR)"
};

struct Gpu {
    std::string id;   ///< stable slug, e.g. "rtx-4090"
    std::string name; ///< display name, e.g. "RTX 4090"
    std::string vendor; ///< "NVIDIA", "AMD", "Intel"
    std::string brand;  ///< "GeForce", "Quadro", "Data Center", "Radeon", "Instinct", ...
    Segment segment = Segment::Consumer;
    std::string architecture; ///< "Ada", "Hopper", "CDNA 3", ...
    std::string chip;         ///< "AD102"
    int launchYear = 0;
    std::optional<double> launchMsrpUsd;

    double memoryGb = 0;
    std::string memoryType;
    std::optional<int> memoryBusBits;
    double memoryBandwidthGbs = 0;

    std::optional<int> computeUnits; ///< SMs (NVIDIA), CUs (AMD), Xe-cores (Intel)
    std::string computeUnitName;
    std::string tensorCoreGeneration; ///< "none" for GPUs without matrix units
    std::optional<double> fp32Tflops;
    TensorThroughput tensor;
    /// Id of a shipped GPU on another chip with the same kind of SM: its board power per SM
    /// anchors this GPU's sustained clock as a card of the same chip would (the DGX Spark's GB10
    /// runs the RTX 5070's 48 SMs; Strix Halo's 40 RDNA 3.5 CUs are compared with the RX 7900
    /// XTX's 96 RDNA 3 CUs). Empty for most GPUs.
    std::string configurationPeer;
    /// Why this card's board power per SM must not anchor its chip's sustained clock, when it
    /// must not (most of the RTX 3070 Ti's extra power feeds GDDR6X, not SMs); empty for most
    /// GPUs. The card's own clock is still derived against the chip's other cards.
    std::string notAClockAnchor;
    /// What measurements of this GPU, read after its entry was written and never fitted, said
    /// about the model's figure for a metric, by metric name ("llm-prefill": "llama.cpp runs ...:
    /// the model is 27-70% above ..."); shown with every prediction of that metric. Empty for most GPUs.
    std::map<std::string, std::string> modelChecks;

    std::optional<double> l2CacheMb;
    std::optional<double> sharedMemPerSmKb;

    double tdpW = 0;
    PowerConnectors connectors;

    FormFactor form = FormFactor::Pcie;
    std::string formCode;  ///< "pcie", "sxm2", "sxm4", "sxm5", "sxm", "oam", "superchip", "system"
    std::string formLabel; ///< as published, e.g. "PCIe (low-profile)"
    std::optional<int> slotWidth; ///< nullopt for modules (SXM/OAM) and complete systems
    int pcieGen = 3;
    int pcieLanes = 16;

    InterconnectType interconnect = InterconnectType::None;
    std::optional<double> interconnectGbs; ///< total GPU-to-GPU bandwidth when published
    std::string interconnectLabel;

    bool asyncCopy = false; ///< Ampere+ asynchronous global->shared copies
    bool tma = false;       ///< Hopper+ Tensor Memory Accelerator
    /// Tensor cores fed by asynchronous MMA issued for a warpgroup or from tensor memory (Hopper's
    /// wgmma, sm_90a; datacenter Blackwell's tcgen05, sm_100a), which their dense peak needs; the
    /// other cards' (RTX 50, RTX PRO Blackwell, Ada, Ampere) take warp-level mma.
    bool warpgroupMma = false;
    bool sparsity24 = false;

    std::vector<std::string> aliases;
    std::string confidence;
    std::string derivedFields;
    std::vector<std::string> sources;
    std::string notes;
    bool custom = false; ///< defined by the user in the price database, not the shipped catalog

    /// True when the GPU has matrix units with at least one published throughput figure.
    bool hasTensorCores() const;
    /// True when the hardware runs FP8 matrix math (Ada, Hopper, Blackwell, CDNA 3).
    bool hasFp8() const { return tensor.fp8.has_value(); }
    /// True for a complete computer (FormFactor::System): no desktop is bought around it.
    bool isCompleteSystem() const { return form == FormFactor::System; }
};

const char* toString(Segment s);
const char* toString(FormFactor f);
const char* toString(InterconnectType t);

} // namespace advisor
