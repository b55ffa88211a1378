// SPDX-License-Identifier: MIT
// FusedGpu: the generated convolve_fused of a chain on a GPU (kernels/fused_gpu.cl has the fixed part and the
// plane's layout). Every step is straight-line code per channel with literal weights: a work-item's 4 columns
// × R rows in registers, each plane row it reads loaded as aligned float4s once and used for every output row
// of the block that reaches it.
#include "fused_gpu.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "literal_taps.hpp"

namespace convolab {
namespace {

// Generated multiply-adds over the three channels' code: beyond this the driver's compile takes long.
constexpr int kMaxGpuTerms = 60000;

std::mutex g_shapeMutex;
std::string g_shapesForTesting;  // guarded by g_shapeMutex

// Measured on the H200 (docs/BENCHMARKS.md, "Fused chains on the GPU"): the first that fits is taken.
const char* const kDefaultShapes = "32x8x4,32x8x2,16x16x2,16x8x4";

int ceil4(int v) {
  return (v + 3) / 4 * 4;
}

struct GpuGeometry {
  int n = 0, lx = 0, hy = 0, pw = 0, ph = 0, tw = 0, th = 0, total = 0;
  std::vector<int> radius, halo, left, chunks, rows;  // per step: r, Σ later r, aligned left reach A,
                                                      // float4 reach M each side, rows per work-item R
};

GpuGeometry geometryOf(const std::vector<ChainStep>& steps, const std::vector<FusedStepCode>& code,
                       const FusedGpuShape& sh) {
  GpuGeometry g;
  g.n = static_cast<int>(steps.size());
  const auto n = static_cast<size_t>(g.n);
  g.radius.resize(n);
  g.halo.assign(n, 0);
  g.left.resize(n);
  g.chunks.resize(n);
  g.rows.resize(n);
  for (size_t s = 0; s < n; ++s) g.radius[s] = steps[s].radius();
  for (int s = g.n - 2; s >= 0; --s)
    g.halo[static_cast<size_t>(s)] =
        g.halo[static_cast<size_t>(s + 1)] + g.radius[static_cast<size_t>(s + 1)];
  g.hy = g.halo[0] + g.radius[0];
  g.tw = 4 * sh.wx - 2 * ceil4(g.halo[0]);
  g.th = sh.wy * sh.rows;
  for (size_t s = 0; s < n; ++s) {
    g.left[s] = ceil4(g.halo[s]);
    g.chunks[s] = (g.radius[s] + 3) / 4;
    g.lx = std::max(g.lx, g.left[s] + 4 * g.chunks[s]);
    g.rows[s] = (g.th + 2 * g.halo[s] + sh.wy - 1) / sh.wy;
    g.total += g.rows[s] * 4 * fusedTerms(code[s]);
  }
  g.pw = 4 * sh.wx + 2 * g.lx;
  for (size_t s = 0; s < n; ++s) g.ph = std::max(g.ph, g.hy - g.halo[s] + sh.wy * g.rows[s] + g.radius[s]);
  return g;
}

std::string acc(char name, int q, int v) {
  return std::string(1, name) + std::to_string(q) + "_" + std::to_string(v);
}

const char* const kLane[] = {"x", "y", "z", "w"};

// Channel ch of step s: accumulators a<q>_<v> (b… for a magnitude's second filter) = offset + Σ taps · plane,
// reading the rows from `row` (the block's first input row, first float4 chunk).
void emitChannel(std::ostringstream& o, const FusedStepCode& code, const GpuGeometry& g, size_t s, int ch) {
  const int r = g.radius[s], k = 2 * r + 1, m = g.chunks[s], rows = g.rows[s];
  const char names[] = {'a', 'b'};
  for (size_t f = 0; f < code.taps.size(); ++f)
    for (int q = 0; q < rows; ++q)
      for (int v = 0; v < 4; ++v)
        o << "    " << acc(names[f], q, v) << " = " << literal(code.offsets[f].s[ch]) << ";\n";
  for (int t = 0; t < rows + k - 1; ++t) {
    std::ostringstream uses;
    for (int q = std::max(0, t - k + 1); q <= std::min(rows - 1, t); ++q)
      for (size_t f = 0; f < code.taps.size(); ++f)
        for (int v = 0; v < 4; ++v)
          for (int i = 0; i < k; ++i) {
            const float w = code.taps[f].tap(t - q, i)[static_cast<size_t>(ch)];
            if (w == 0.0f) continue;
            const int e = 4 * m + v + i - r;  // element of the row's chunks
            const std::string a = acc(names[f], q, v);
            uses << "      " << a << " = fma(x" << e / 4 << "." << kLane[e % 4] << ", " << literal(w) << ", "
                 << a << ");\n";
          }
    if (uses.str().empty()) continue;
    o << "    {\n";
    for (int c = 0; c <= 2 * m; ++c)
      o << "      const float4 x" << c << " = FUSED_ROW(row, " << t * g.pw + 4 * c << ");\n";
    o << uses.str() << "    }\n";
  }
  if (code.taps.size() > 1)
    for (int q = 0; q < rows; ++q)
      for (int v = 0; v < 4; ++v)
        o << "    " << acc('a', q, v) << " = sqrt(" << acc('a', q, v) << " * " << acc('a', q, v) << " + "
          << acc('b', q, v) << " * " << acc('b', q, v) << ");\n";
}

// Step s: the three channels' code (a uniform branch: the work-group's channel), a barrier, then the results
// written back over the plane with the next step's border filled in, or (last) stored to the image.
void emitStep(std::ostringstream& o, const std::vector<FusedStepCode>& code, const GpuGeometry& g,
              const FusedGpuShape& sh, size_t s) {
  const int rows = g.rows[s], ho = g.halo[s], a = g.left[s];
  const bool last = s + 1 == code.size();
  o << "  {  // step " << s + 1 << ": radius " << g.radius[s] << ", " << rows << " rows a work-item\n"
    << "    const __local float* row = plane + (" << g.hy - ho - g.radius[s] << " + ty * " << rows
    << ") * PW + " << g.lx - a - 4 * g.chunks[s] << " + 4 * tx;\n";
  o << "    float ";
  for (size_t f = 0; f < code[s].taps.size(); ++f)
    for (int q = 0; q < rows; ++q)
      for (int v = 0; v < 4; ++v) o << (f + q + v ? ", " : "") << acc(f ? 'b' : 'a', q, v);
  o << ";\n";
  for (int ch = 0; ch < 3; ++ch) {
    o << (ch == 0 ? "    if (ch == 0) {\n" : ch == 1 ? "    } else if (ch == 1) {\n" : "    } else {\n");
    emitChannel(o, code[s], g, s, ch);
  }
  o << "    }\n";
  if (last) {
    for (int q = 0; q < rows; ++q) {
      o << "    if (Y0 + ty * " << rows << " + " << q << " < height) {\n"
        << "      __global uchar* d = dst + 3 * ((Y0 + ty * " << rows << " + " << q
        << ") * width + X0) + ch;\n";
      for (int v = 0; v < 4; ++v)
        o << "      if (4 * tx + " << v << " < " << g.tw << " && X0 + 4 * tx + " << v
          << " < width) d[3 * (4 * tx + " << v << ")] = (uchar)(as_uint(FUSED_ROUNDED_BITS(" << acc('a', q, v)
          << ")) & 0xFFu);\n";
      o << "    }\n";
    }
    o << "  }\n";
    return;
  }
  o << "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    << "    __local float* out = plane + (" << g.hy - ho << " + ty * " << rows << ") * PW + " << g.lx - a
    << " + 4 * tx;\n";
  for (int q = 0; q < rows; ++q) {
    o << "    ";
    if ((sh.wy - 1) * rows + q >= g.th + 2 * ho)
      o << "if (ty * " << rows << " + " << q << " < " << g.th + 2 * ho << ") ";
    o << "*(__local float4*)(out + " << q * g.pw << ") = (float4)(";
    for (int v = 0; v < 4; ++v) o << (v ? ", " : "") << "FUSED_ROUND(" << acc('a', q, v) << ")";
    o << ");\n";
  }
  o << "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    << "    if (!inside)\n"
    << "      fused_gpu_fill_border(plane, width, height, x0, y0, " << ho << ", " << g.tw << ", " << g.th
    << ", modes[" << s + 1 << "], fused_gpu_channel(borders[" << s + 1 << "], ch));\n"
    << "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    << "  }\n";
}

std::vector<FusedGpuShape> shapesToTry() {
  std::string text = kDefaultShapes;
  {
    std::lock_guard lock(g_shapeMutex);
    if (!g_shapesForTesting.empty()) text = g_shapesForTesting;
  }
  if (const char* env = std::getenv("CONVOLAB_FUSED_GPU_SHAPE"); env && *env) text = env;
  if (auto shapes = parseFusedGpuShapes(text)) return *shapes;
  return *parseFusedGpuShapes(kDefaultShapes);
}

}  // namespace

std::optional<std::vector<FusedGpuShape>> parseFusedGpuShapes(const std::string& text) {
  std::vector<FusedGpuShape> shapes;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    FusedGpuShape sh;
    char x1 = 0, x2 = 0;
    std::istringstream one(item);
    if (!(one >> sh.wx >> x1 >> sh.wy >> x2 >> sh.rows) || x1 != 'x' || x2 != 'x' || !one.eof()) return {};
    if (sh.wx < 1 || sh.wy < 1 || sh.rows < 1 || sh.wx * sh.wy > 1024 || sh.rows > 32) return {};
    shapes.push_back(sh);
  }
  if (shapes.empty()) return {};
  return shapes;
}

void setFusedGpuShapeForTesting(const std::string& shapes) {
  std::lock_guard lock(g_shapeMutex);
  g_shapesForTesting = shapes;
}

std::optional<FusedLiteralPlan> planFusedGpu(const std::vector<ChainStep>& steps, std::uint64_t localLimit) {
  std::vector<FusedStepCode> code;
  for (const ChainStep& s : steps) code.push_back(fusedStepCode(s));
  for (const FusedGpuShape& sh : shapesToTry()) {
    const GpuGeometry g = geometryOf(steps, code, sh);
    const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(g.pw) * static_cast<std::size_t>(g.ph);
    if (g.tw < 2 * sh.wx || g.total > kMaxGpuTerms || (localLimit > 0 && bytes > localLimit)) continue;
    FusedLiteralPlan plan{{}, {}, sh.wx, sh.wy, g.tw, g.th, bytes, "fused_gpu", 3};
    plan.options = "-DBORDER_MODE=BORDER_CONSTANT -DWX=" + std::to_string(sh.wx) +
                   " -DWY=" + std::to_string(sh.wy) + " -DPW=" + std::to_string(g.pw) +
                   " -DPH=" + std::to_string(g.ph) + " -DLX=" + std::to_string(g.lx) +
                   " -DHY=" + std::to_string(g.hy);
    // CONVOLAB_FUSED_GPU_OPTIONS: more build options (a measurement knob: NVIDIA's -cl-nv-maxrregcount=N).
    if (const char* more = std::getenv("CONVOLAB_FUSED_GPU_OPTIONS"); more && *more)
      plan.options += std::string(" ") + more;
    std::ostringstream o;
    o << "__kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void convolve_fused(\n"
         "    __global const uchar* src, __global uchar* dst, int width, int height,\n"
         "    __global const int* modes, __global const float4* borders) {\n"
         "  __local float plane[PW * PH] __attribute__((aligned(16)));\n"
         "  const int tx = get_local_id(0), ty = get_local_id(1), ch = get_group_id(2);\n"
      << "  const int X0 = get_group_id(0) * " << g.tw << ", Y0 = get_group_id(1) * " << g.th << ";\n"
      << "  const int x0 = X0 - LX, y0 = Y0 - HY;\n"
         "  const bool inside = x0 >= 0 && y0 >= 0 && x0 + PW <= width && y0 + PH <= height;\n"
         "  fused_gpu_fill_input(plane, src, width, height, x0, y0, ch, modes[0], "
         "fused_gpu_channel(borders[0], ch), inside);\n"
         "  barrier(CLK_LOCAL_MEM_FENCE);\n";
    for (size_t s = 0; s < code.size(); ++s) emitStep(o, code, g, sh, s);
    o << "}\n";
    plan.source = o.str();
    return plan;
  }
  return std::nullopt;
}

}  // namespace convolab
