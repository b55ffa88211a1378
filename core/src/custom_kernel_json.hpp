// SPDX-License-Identifier: MIT
// A chain step's "custom" object (docs/FILTER_FORMAT.md, "Custom OpenCL steps") to and from CustomKernel.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "convolab/custom_kernel.hpp"

namespace convolab {

/// Parses {"code": "..." or ["line", ...], "params": [{"name", "min", "max", "value"}, ...]}. Throws
/// Error(Usage) "<where>: field 'custom.<key>': ..." (a bad chain exits 2, as every chain error).
CustomKernel parseCustomKernelJson(const nlohmann::json& value, const std::string& where);

/// {"code": [one string per line], "params": [...]}: lines, so a diff of a filter file reads as a diff of
/// code.
nlohmann::json customKernelJson(const CustomKernel& kernel);

}  // namespace convolab
