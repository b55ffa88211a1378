// SPDX-License-Identifier: MIT
// A filter file's "generator" object (docs/FILTER_FORMAT.md, "Generators") to and from GeneratorParams.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "convolab/generator_params.hpp"

namespace convolab {

/// Parses `value` (the "generator" field of `source`) for a filter of size k. Throws Error(BadInput)
/// "<source>: field 'generator.<key>': ..." for an unknown kind or key, or a parameter that is not a number.
GeneratorParams parseGeneratorJson(const nlohmann::json& value, int k, std::string_view source);

/// {"kind": ..., and the parameters the kind uses}.
nlohmann::json generatorJson(const GeneratorParams& params);

}  // namespace convolab
