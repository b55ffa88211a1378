// SPDX-License-Identifier: MIT
// The "generator" object of filter files: see generator_json.hpp.
#include "generator_json.hpp"

#include <algorithm>
#include <cmath>

#include "convolab/error.hpp"
#include "convolab/generators.hpp"

namespace convolab {
namespace {

struct Field {
  const char* key;
  double GeneratorParams::*member;
};
constexpr Field kFields[] = {{"sigma", &GeneratorParams::sigma},
                             {"radius", &GeneratorParams::radius},
                             {"length", &GeneratorParams::length},
                             {"angle", &GeneratorParams::angle},
                             {"lambda", &GeneratorParams::lambda}};

[[noreturn]] void failAt(std::string_view source, const std::string& key, const std::string& what) {
  throw Error(ErrorKind::BadInput,
              std::string(source) + ": field 'generator" + (key.empty() ? "" : "." + key) + "': " + what);
}

}  // namespace

GeneratorParams parseGeneratorJson(const nlohmann::json& value, int k, std::string_view source) {
  if (!value.is_object()) failAt(source, "", "expected an object with a \"kind\"");
  GeneratorParams p;
  p.size = k;
  for (const auto& item : value.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture one in a lambda
    const nlohmann::json& v = item.value();
    if (key == "kind") {
      const auto& kinds = generatorKinds();
      if (!v.is_string() || std::find(kinds.begin(), kinds.end(), v.get<std::string>()) == kinds.end())
        failAt(source, key, "expected one of gaussian, disk, motion, log, gabor");
      p.kind = v.get<std::string>();
      continue;
    }
    const auto field =
        std::find_if(std::begin(kFields), std::end(kFields), [&](const Field& f) { return key == f.key; });
    if (field == std::end(kFields))
      failAt(source, key, "unknown key; expected kind, sigma, radius, length, angle or lambda");
    if (!v.is_number() || !std::isfinite(v.get<double>())) failAt(source, key, "expected a finite number");
    p.*(field->member) = v.get<double>();
  }
  if (p.kind.empty()) failAt(source, "kind", "missing");
  return p;
}

nlohmann::json generatorJson(const GeneratorParams& params) {
  nlohmann::json out = {{"kind", params.kind}};
  for (const Field& f : kFields)
    if (params.*(f.member) != 0) out[f.key] = params.*(f.member);
  return out;
}

}  // namespace convolab
