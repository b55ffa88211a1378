// SPDX-License-Identifier: MIT
// CustomKernel: a chain step whose per-pixel function the user writes in OpenCL C (issue 36), with up to 8
// named parameters; the wrapper around it, and the compiler's messages mapped back to the user's lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "convolab/error.hpp"

namespace convolab {

inline constexpr int kMaxCustomParams = 8;
/// Longer code is refused (a filter file is not the place for a program of its own).
inline constexpr std::size_t kMaxCustomCodeBytes = 64 * 1024;
/// The file name the wrapper gives the user's code (`#line 1 "user"`): compiler messages about the user's
/// lines carry it.
inline constexpr std::string_view kCustomCodeFile = "user";

/// One named parameter: a float the code reads by its name, shown as a slider from `min` to `max`.
struct CustomParam {
  std::string name;
  double min = 0, max = 1, value = 0;
  bool operator==(const CustomParam&) const = default;
};

/// The user's code: the body of
///   float3 pixel_value(int x, int y, int width, int height, float time, <const float for each parameter>)
/// that returns the output pixel as RGB in 0..255 (rounded to nearest even and saturated, as every step's
/// store). Helpers: pixel(dx, dy) reads the input at (x + dx, y + dy) with the step's border, pixel_at(px,
/// py) at an absolute position, luma(rgb) is BT.601's 0.299 R + 0.587 G + 0.114 B (docs/FILTER_FORMAT.md).
struct CustomKernel {
  std::string code;
  std::vector<CustomParam> params;

  /// Validates (code non-blank and ≤ kMaxCustomCodeBytes; ≤ 8 parameters, each named by a C identifier that
  /// is not a helper's or a keyword, names distinct, min < max, min ≤ value ≤ max, all finite) and builds.
  /// Throws Error(BadInput) naming the parameter.
  static CustomKernel make(std::string code, std::vector<CustomParam> params = {});
  bool operator==(const CustomKernel&) const = default;
};

/// The OpenCL source a custom step runs: common.cl, kernels/custom.cl, then the user's function with
/// `#line 1 "user"` before the code so the compiler numbers its lines as the user sees them.
std::string wrapCustomKernelSource(const CustomKernel& kernel);

/// Where the user's code sits in wrapCustomKernelSource's text: its first line (1-based) and how many lines
/// it has. For compilers that ignore `#line` (NVIDIA's reports `<kernel>:111:12`), messages are mapped with
/// it.
struct CustomCodeSpan {
  int firstLine = 0;
  int lineCount = 0;
};
CustomCodeSpan customCodeSpan(const CustomKernel& kernel);

/// One compiler message about the user's code.
struct KernelDiagnostic {
  int line = 0;         ///< 1-based line of the user's code; 0 when the message is about the wrapper
  int column = 0;       ///< 1-based; 0 when unknown
  bool isError = true;  ///< error (or fatal error); false for a warning
  std::string message;  ///< the compiler's text, without the file:line:col prefix
  bool operator==(const KernelDiagnostic&) const = default;
};

/// The errors and warnings of a build log, in order. Reads clang's `file:line:col: error: text` (NVIDIA, most
/// drivers), PoCL's `error: file:line:col: text` and EDG's `"file", line N: error: text`; notes and lines of
/// context are skipped. A log with no recognisable message gives one diagnostic at line 0 with the log's
/// first non-empty line. A message in the file `user` keeps its line; one in another file is mapped through
/// `span` when its line falls inside the user's code (a compiler that ignored `#line`), else gets line 0 (the
/// wrapper's).
std::vector<KernelDiagnostic> parseBuildDiagnostics(const std::string& log, const CustomCodeSpan& span = {});

/// A custom step's code did not build. Usage kind: the CLI exits 2 (docs/CLI.md), as for any bad filter file.
/// The message names the first error's line: "custom OpenCL, line 3: use of undeclared identifier 'q'".
class CustomKernelError : public Error {
 public:
  CustomKernelError(std::vector<KernelDiagnostic> diagnostics, std::string log);
  const std::vector<KernelDiagnostic>& diagnostics() const { return m_diagnostics; }
  const std::string& log() const { return m_log; }

 private:
  std::vector<KernelDiagnostic> m_diagnostics;
  std::string m_log;
};

/// "line 3:5: error: use of undeclared identifier 'q'" (or "wrapper: ..." for line 0).
std::string describeDiagnostic(const KernelDiagnostic& d);

}  // namespace convolab
