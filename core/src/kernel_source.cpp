// SPDX-License-Identifier: MIT
// Kernel fragments: `#include "x.cl"` resolved from the embedded table (as CLBlast composes xconvgemm).
#include "kernel_source.hpp"

#include <regex>
#include <set>
#include <sstream>

#include "convolab/context.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

void expandInto(std::string& out, std::string_view name, std::set<std::string, std::less<>>& seen) {
  static const std::regex include(R"(^\s*#\s*include\s+"([A-Za-z0-9_]+)\.cl".*$)");
  seen.emplace(name);
  std::istringstream in{std::string(kernelSource(name))};
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, include)) {
      const std::string fragment = m[1];
      if (seen.count(fragment)) continue;
      out += "// ---- " + fragment + ".cl (included by " + std::string(name) + ".cl)\n";
      expandInto(out, fragment, seen);
      out += "// ---- back in " + std::string(name) + ".cl\n";
      continue;
    }
    out += line;
    out += '\n';
  }
}

}  // namespace

std::string expandKernelIncludes(std::string_view name) {
  std::string out;
  std::set<std::string, std::less<>> seen{"common"};  // common.cl is always first (composeKernelSource)
  expandInto(out, name, seen);
  return out;
}

std::string composeKernelSource(std::string_view name) {
  std::string source(kernelSource("common"));
  source += "\n";
  source += expandKernelIncludes(name);
  return source;
}

}  // namespace convolab
