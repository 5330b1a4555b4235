#pragma once
/// \file
/// JSON form of a Gpu, shared by the shipped catalog and user-defined GPUs.

#include "catalog/gpu.h"
#include "common/errors.h"

#include <nlohmann/json.hpp>

namespace advisor {

/// Reads and validates one catalog entry. Throws InputError naming `where` and the field.
Gpu gpuFromJson(const nlohmann::json& j, const InputLocation& where);

/// The entry's JSON form; gpuFromJson(gpuToJson(g)) == g for every valid g.
nlohmann::json gpuToJson(const Gpu& g);

} // namespace advisor
