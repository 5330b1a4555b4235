#pragma once
/// \file
/// How GPU names are compared. A name is reduced to its model tokens plus optional
/// variant tokens, ignoring case, spacing, punctuation and vendor/brand words:
///   "NVIDIA H100 80GB SXM5" -> model {h, 100}, memory 80 GB, form sxm5
///   "GeForce RTX4090"       -> model {rtx, 4090}
/// Variant tokens (memory size, form, memory type, "NVLink") select among variants
/// of one model; model tokens must match exactly. A PCIe generation ("Gen5") and a
/// benchmark table's host prefix ("LambdaCloud") are ignored; a trailing S after a GeForce
/// number is "Super" ("RTX 4080S").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advisor {

struct NameKey {
    std::vector<std::string> model; ///< sorted
    std::optional<int> memoryGb;
    std::optional<std::string> form;       ///< "pcie", "sxm", "sxm5", "oam"
    std::optional<std::string> memoryType; ///< "hbm3", "gddr6x"
    bool nvlink = false;                   ///< "... NVLink": a bridged multi-GPU setup

    bool operator==(const NameKey&) const = default;
};

/// Vendor and brand words that may be left out of a name.
bool isOptionalBrandWord(std::string_view lowerWord);

NameKey parseNameKey(std::string_view name);

/// True for a GeForce model number written without its series: "4090", "3080 Ti 12GB",
/// "4070 Ti Super" (as in llama.cpp benchmark tables), "4090D" (China's D editions).
bool isBareGeForceNumber(const NameKey& key);

} // namespace advisor
