#include "catalog/gpu.h"

namespace advisor {

bool Gpu::hasTensorCores() const {
    const auto& t = tensor;
    return t.fp16Fp32Acc || t.fp16Fp16Acc || t.bf16 || t.tf32 || t.fp8 || t.int8 || t.fp4;
}

const char* toString(Segment s) {
    switch (s) {
    case Segment::Consumer:
        return "consumer";
    case Segment::Workstation:
        return "workstation";
    case Segment::Datacenter:
        return "datacenter";
    }
    return "consumer";
}

const char* toString(FormFactor f) {
    switch (f) {
    case FormFactor::Pcie:
        return "pcie";
    case FormFactor::Sxm:
        return "sxm";
    case FormFactor::Oam:
        return "oam";
    case FormFactor::Superchip:
        return "superchip";
    case FormFactor::System:
        return "system";
    }
    return "pcie";
}

const char* toString(InterconnectType t) {
    switch (t) {
    case InterconnectType::None:
        return "none";
    case InterconnectType::NvLink:
        return "nvlink";
    case InterconnectType::InfinityFabric:
        return "infinity-fabric";
    }
    return "none";
}

} // namespace advisor
