// SPDX-License-Identifier: MIT
// CustomKernel: validation, the wrapper source, and compiler messages mapped to the user's lines.
#include "convolab/custom_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>
#include <sstream>

#include "kernel_source.hpp"

namespace convolab {
namespace {

/// Names a parameter may not take: the helpers and values the wrapper gives the code, and the words of OpenCL
/// C a declaration `const float NAME` cannot use.
const std::set<std::string, std::less<>>& reservedNames() {
  static const std::set<std::string, std::less<>> names{
      "x",           "y",        "width",    "height",   "time",     "pixel",   "pixel_at", "luma",
      "pixel_value", "float",    "int",      "uint",     "char",     "uchar",   "short",    "ushort",
      "long",        "ulong",    "half",     "double",   "bool",     "void",    "const",    "if",
      "else",        "for",      "while",    "do",       "return",   "switch",  "case",     "default",
      "break",       "continue", "struct",   "union",    "enum",     "typedef", "static",   "inline",
      "sizeof",      "goto",     "volatile", "restrict", "kernel",   "global",  "local",    "constant",
      "private",     "signed",   "unsigned", "extern",   "register", "auto",    "true",     "false",
      "size_t",      "float2",   "float3",   "float4",   "float8",   "float16", "int2",     "int3",
      "int4"};
  return names;
}

bool isIdentifier(const std::string& s) {
  static const std::regex re("[A-Za-z_][A-Za-z0-9_]{0,31}");
  return std::regex_match(s, re);
}

[[noreturn]] void refuse(const std::string& what) {
  throw Error(ErrorKind::BadInput, "custom OpenCL: " + what);
}

void validateParam(const CustomParam& p, int index) {
  const std::string where = "parameter " + std::to_string(index + 1);
  if (!isIdentifier(p.name))
    refuse(
        where + ": name '" + p.name +
        "' is not a C identifier of at most 32 characters (letters, digits, '_', not starting with a digit)");
  if (reservedNames().count(p.name) || p.name.rfind("convolab_", 0) == 0 || p.name.rfind("__", 0) == 0)
    refuse(where + ": name '" + p.name + "' is taken by OpenCL C or by ConvoLab's helpers");
  if (!std::isfinite(p.min) || !std::isfinite(p.max) || !std::isfinite(p.value))
    refuse("parameter '" + p.name + "': min, max and value must be finite numbers");
  if (!(p.min < p.max))
    refuse("parameter '" + p.name + "': min (" + std::to_string(p.min) + ") must be below max (" +
           std::to_string(p.max) + ")");
  if (p.value < p.min || p.value > p.max)
    refuse("parameter '" + p.name + "': value " + std::to_string(p.value) + " is outside " +
           std::to_string(p.min) + " … " + std::to_string(p.max));
}

}  // namespace

CustomKernel CustomKernel::make(std::string code, std::vector<CustomParam> params) {
  if (code.find_first_not_of(" \t\r\n") == std::string::npos) refuse("the code is empty");
  if (code.size() > kMaxCustomCodeBytes)
    refuse("the code has " + std::to_string(code.size()) + " bytes; at most " +
           std::to_string(kMaxCustomCodeBytes) + " are accepted");
  if (code.find('\0') != std::string::npos) refuse("the code holds a NUL byte");
  if (static_cast<int>(params.size()) > kMaxCustomParams)
    refuse(std::to_string(params.size()) + " parameters; at most " + std::to_string(kMaxCustomParams));
  std::set<std::string> seen;
  for (size_t i = 0; i < params.size(); ++i) {
    validateParam(params[i], static_cast<int>(i));
    if (!seen.insert(params[i].name).second) refuse("two parameters are named '" + params[i].name + "'");
  }
  return CustomKernel{std::move(code), std::move(params)};
}

std::string wrapCustomKernelSource(const CustomKernel& kernel) {
  std::ostringstream s;
  s << composeKernelSource("custom") << "\n"
    << "#define pixel(dx, dy) load_rgb(convolab_src, x + (int)(dx), y + (int)(dy), width, height, "
       "convolab_border)\n"
    << "#define pixel_at(px, py) load_rgb(convolab_src, (int)(px), (int)(py), width, height, "
       "convolab_border)\n"
    << "float3 pixel_value(__global const uchar* convolab_src, const int x, const int y, const int width,\n"
       "                   const int height, const float time, const float3 convolab_border,\n"
       "                   const float8 convolab_params) {\n";
  static const char* const lanes[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
  for (size_t i = 0; i < kernel.params.size(); ++i)
    s << "  const float " << kernel.params[i].name << " = convolab_params." << lanes[i] << ";\n";
  s << "#line 1 \"" << kCustomCodeFile << "\"\n" << kernel.code;
  if (kernel.code.empty() || kernel.code.back() != '\n') s << "\n";
  s << "#line 1 \"wrapper\"\n}\n";
  return s.str();
}

CustomCodeSpan customCodeSpan(const CustomKernel& kernel) {
  const std::string source = wrapCustomKernelSource(kernel);
  const std::string marker = "#line 1 \"" + std::string(kCustomCodeFile) + "\"\n";
  const size_t at = source.find(marker);
  if (at == std::string::npos) return {};
  const int before =
      static_cast<int>(std::count(source.begin(), source.begin() + static_cast<long>(at), '\n'));
  const int lines = static_cast<int>(std::count(kernel.code.begin(), kernel.code.end(), '\n')) +
                    (kernel.code.empty() || kernel.code.back() != '\n' ? 1 : 0);
  return {before + 2, lines};  // the marker is line before + 1; the code starts on the next
}

std::vector<KernelDiagnostic> parseBuildDiagnostics(const std::string& log, const CustomCodeSpan& span) {
  // clang: `user:3:5: error: text`; EDG: `"user", line 3: error: text`. The file may be another name for
  // messages about the wrapper, which then get line 0.
  static const std::regex clang(
      R"re(^\s*("?)([^\s:"]*)\1:(\d+):(?:(\d+):)?\s*(fatal error|error|warning):\s*(.*)$)re");
  static const std::regex pocl(
      R"re(^\s*(fatal error|error|warning):\s*("?)([^\s:"]*)\2:(\d+):(?:(\d+):)?\s*(.*)$)re");
  static const std::regex edg(R"re(^\s*"([^"]*)", line (\d+):\s*(error|warning)[^:]*:\s*(.*)$)re");
  std::vector<KernelDiagnostic> out;
  std::istringstream lines(log);
  std::string firstLine;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (firstLine.empty() && line.find_first_not_of(" \t") != std::string::npos) firstLine = line;
    std::smatch m;
    KernelDiagnostic d;
    std::string file;
    if (std::regex_match(line, m, clang)) {
      file = m[2];
      d.line = std::stoi(m[3]);
      d.column = m[4].matched ? std::stoi(m[4]) : 0;
      d.isError = m[5] != "warning";
      d.message = m[6];
    } else if (std::regex_match(line, m, pocl)) {  // PoCL: `error: user:3:5: text`
      file = m[3];
      d.line = std::stoi(m[4]);
      d.column = m[5].matched ? std::stoi(m[5]) : 0;
      d.isError = m[1] != "warning";
      d.message = m[6];
    } else if (std::regex_match(line, m, edg)) {
      file = m[1];
      d.line = std::stoi(m[2]);
      d.isError = m[3] != "warning";
      d.message = m[4];
    } else {
      continue;
    }
    if (file != kCustomCodeFile) {
      if (span.firstLine > 0 && d.line >= span.firstLine && d.line < span.firstLine + span.lineCount)
        d.line = d.line - span.firstLine + 1;
      else
        d.line = d.column = 0;
    }
    out.push_back(std::move(d));
  }
  if (out.empty())
    out.push_back({0, 0, true, firstLine.empty() ? "the build failed without a message" : firstLine});
  return out;
}

std::string describeDiagnostic(const KernelDiagnostic& d) {
  std::string where = d.line > 0 ? "line " + std::to_string(d.line) : std::string("wrapper");
  if (d.line > 0 && d.column > 0) where += ":" + std::to_string(d.column);
  return where + ": " + (d.isError ? "error: " : "warning: ") + d.message;
}

namespace {
std::string errorMessage(const std::vector<KernelDiagnostic>& diagnostics) {
  std::string text = "custom OpenCL does not compile";
  int shown = 0;
  for (const KernelDiagnostic& d : diagnostics)
    if (d.isError && shown++ < 5) text += "\n  " + describeDiagnostic(d);
  if (shown == 0 && !diagnostics.empty()) text += "\n  " + describeDiagnostic(diagnostics.front());
  return text;
}
}  // namespace

CustomKernelError::CustomKernelError(std::vector<KernelDiagnostic> diagnostics, std::string log)
    : Error(ErrorKind::Usage, errorMessage(diagnostics)),
      m_diagnostics(std::move(diagnostics)),
      m_log(std::move(log)) {}

}  // namespace convolab
