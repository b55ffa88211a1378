// SPDX-License-Identifier: MIT
// The "custom" object of a chain step: code as lines, parameters with their ranges.
#include "custom_kernel_json.hpp"

#include <cmath>

#include "convolab/error.hpp"

namespace convolab {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& field, const std::string& what) {
  throw Error(ErrorKind::Usage,
              where + ": field 'custom" + (field.empty() ? "" : "." + field) + "': " + what);
}

void onlyKeys(const json& obj, std::initializer_list<const char*> keys, const std::string& where,
              const std::string& field) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    if (!known) {
      std::string list;
      for (const char* k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
      fail(where, field, "unknown key '" + it.key() + "'; expected " + list);
    }
  }
}

std::string parseCode(const json& code, const std::string& where) {
  if (code.is_string()) return code.get<std::string>();
  if (!code.is_array()) fail(where, "code", "expected a string, or an array of strings (one per line)");
  std::string text;
  for (size_t i = 0; i < code.size(); ++i) {
    if (!code[i].is_string()) fail(where, "code", "line " + std::to_string(i + 1) + " is not a string");
    if (i) text += '\n';
    text += code[i].get<std::string>();
  }
  return text;
}

double number(const json& p, const char* key, const std::string& where, const std::string& field) {
  if (!p.contains(key)) fail(where, field, std::string("missing '") + key + "'");
  const json& v = p[key];
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    fail(where, field + "." + key, "expected a finite number");
  return v.get<double>();
}

std::vector<CustomParam> parseParams(const json& params, const std::string& where) {
  if (!params.is_array())
    fail(where, "params", "expected an array of {\"name\", \"min\", \"max\", \"value\"}");
  std::vector<CustomParam> out;
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string field = "params[" + std::to_string(i) + "]";
    const json& p = params[i];
    if (!p.is_object()) fail(where, field, "expected {\"name\", \"min\", \"max\", \"value\"}");
    onlyKeys(p, {"name", "min", "max", "value"}, where, field);
    if (!p.contains("name") || !p["name"].is_string()) fail(where, field + ".name", "expected a string");
    out.push_back({p["name"].get<std::string>(), number(p, "min", where, field),
                   number(p, "max", where, field), number(p, "value", where, field)});
  }
  return out;
}

}  // namespace

CustomKernel parseCustomKernelJson(const json& value, const std::string& where) {
  if (!value.is_object()) fail(where, "", "expected {\"code\": ..., \"params\": [...]}");
  onlyKeys(value, {"code", "params"}, where, "");
  if (!value.contains("code")) fail(where, "code", "missing: the body of the per-pixel function");
  std::string code = parseCode(value["code"], where);
  std::vector<CustomParam> params =
      value.contains("params") ? parseParams(value["params"], where) : std::vector<CustomParam>{};
  try {
    return CustomKernel::make(std::move(code), std::move(params));
  } catch (const Error& e) {
    throw Error(ErrorKind::Usage, where + ": " + e.what());
  }
}

json customKernelJson(const CustomKernel& kernel) {
  json lines = json::array();
  for (size_t start = 0;;) {
    const size_t eol = kernel.code.find('\n', start);
    lines.push_back(kernel.code.substr(start, eol == std::string::npos ? std::string::npos : eol - start));
    if (eol == std::string::npos) break;
    start = eol + 1;
  }
  json params = json::array();
  for (const CustomParam& p : kernel.params)
    params.push_back({{"name", p.name}, {"min", p.min}, {"max", p.max}, {"value", p.value}});
  json out = {{"code", lines}};
  if (!params.empty()) out["params"] = params;
  return out;
}

}  // namespace convolab
