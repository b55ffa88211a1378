// SPDX-License-Identifier: MIT
// FusedLiteral: per chain, each step is written out as its passes over the work-group with literal weights
// and plane offsets, so the compiler sees straight-line code per work-item (PoCL vectorises the work-item
// loop over x) and no weight is loaded.
#include "fused_literal.hpp"

#include <sstream>

#include "fused_gpu.hpp"
#include "literal_taps.hpp"
#include "strategy_support.hpp"

namespace convolab {
namespace {

struct Shape {
  int cols, vec, wy, by, th;  // plane columns a work-group computes, floats per work-item, work-group rows,
                              // rows per work-item (register blocking), tile rows
};

// CPUs (PoCL runs a work-group as loops and does not vectorise this long straight-line body by itself): each
// work-item computes 16 consecutive columns as float16 in 4 rows, so a loaded vector serves up to 4 outputs;
// tiles of 128 columns × 64 rows keep the recomputed halo a small share. PoCL, two 7×7 steps at 1080p, two
// runs each (codegen step by step 20–27 ms beside them): 16×4 in 8×2 work-items 26.5/25.3 ms, 16×2 in 8×4
// 27.1/30.5, 16×8 in 8×1 29.1/24.0, 8×4 in 16×2 44.2/42.2; 192 columns or 32-row tiles no better. GPUs have
// their own generator (fused_gpu.cpp), except for the chains of kGpuSmallShape.
constexpr Shape kCpuShape{128, 16, 2, 4, 64};
// GPUs, chains whose steps reach one pixel in all (a Sobel magnitude): one column × 2 rows per work-item, 32
// × 8 work-groups over all three channels. H200, Sobel magnitude at 1080p: 20 µs, against 29 µs for
// fused_gpu.cpp's per-channel work-groups, which win where the halo is wide (two 7×7 steps: 57 against 109 µs
// here).
constexpr Shape kGpuSmallShape{32, 1, 8, 2, 16};

constexpr int kMaxLiteralTerms = 4000;  // generated multiply-adds: beyond this PoCL compiles for seconds

using StepCode = FusedStepCode;

StepCode codeOf(const ChainStep& s) {
  return fusedStepCode(s);
}

int terms(const StepCode& c) {
  return fusedTerms(c);
}

/// Text helpers for vectors of `vec` floats (vec 1: plain float).
struct Vec {
  int vec;
  std::string type() const { return vec == 1 ? "float" : "float" + std::to_string(vec); }
  std::string splat(float v) const { return vec == 1 ? literal(v) : "(" + type() + ")(" + literal(v) + ")"; }
  std::string load(int at) const {
    return vec == 1 ? "in[c + " + std::to_string(at) + "]"
                    : "FUSED_LOAD(in + c + " + std::to_string(at) + ")";
  }
};

std::string acc(const std::string& name, int q, int ch) {
  return name + std::to_string(q) + "_" + std::to_string(ch);
}

// Accumulators a<q>_<ch> (and b… for a magnitude's second filter) for `by` output rows starting at plane
// index c: offsets + Σ taps · in, taps in row-major order per output. Each input vector is loaded once and
// serves every output row it reaches.
void emitBlock(std::ostringstream& o, const StepCode& code, int rw, int plane, const Vec& v, int by) {
  const int k = code.taps[0].k, r = k / 2;
  const char* names[] = {"a", "b"};
  for (size_t f = 0; f < code.taps.size(); ++f)
    for (int q = 0; q < by; ++q)
      for (int ch = 0; ch < 3; ++ch)
        o << "    " << v.type() << " " << acc(names[f], q, ch) << " = " << v.splat(code.offsets[f].s[ch])
          << ";\n";
  for (int t = 0; t < by + k - 1; ++t) {
    // One basic block per input row (an opaque test, as codegen's CPU style does): LLVM then schedules
    // each row's loads beside their multiply-adds instead of hoisting them all and spilling.
    if (v.vec > 1) o << "    if (width != " << -1 - t << ") {\n";
    for (int i = 0; i < k; ++i)
      for (int ch = 0; ch < 3; ++ch) {
        std::ostringstream uses;
        for (size_t f = 0; f < code.taps.size(); ++f)
          for (int q = std::max(0, t - k + 1); q <= std::min(by - 1, t); ++q) {
            const float w = code.taps[f].tap(t - q, i)[static_cast<size_t>(ch)];
            if (w == 0.0f) continue;
            const std::string a = acc(names[f], q, ch);
            uses << "      " << a << " = fma(x, " << v.splat(w) << ", " << a << ");\n";
          }
        if (uses.str().empty()) continue;
        o << "    {\n      const " << v.type() << " x = " << v.load(ch * plane + (t - r) * rw + (i - r))
          << ";\n"
          << uses.str() << "    }\n";
      }
    if (v.vec > 1) o << "    }\n";
  }
  if (code.taps.size() > 1)
    for (int q = 0; q < by; ++q)
      for (int ch = 0; ch < 3; ++ch)
        o << "    " << acc("a", q, ch) << " = sqrt(" << acc("a", q, ch) << " * " << acc("a", q, ch) << " + "
          << acc("b", q, ch) << " * " << acc("b", q, ch) << ");\n";
}

// Byte j of three interleaved vectors of vec bytes named p0, p1, p2: "p<j / vec>.s<j % vec>" (hex).
std::string byteOf(const std::string& p, int j, int vec) {
  std::ostringstream o;
  o << p << j / vec << ".s" << std::hex << j % vec;
  return o.str();
}

// fused_fill_inside: three byte vectors per vec pixels, de-interleaved by swizzles into the planes.
void emitFillInside(std::ostringstream& o, int vec) {
  const std::string n = std::to_string(vec);
  o << "inline void fused_fill_inside(__local float* buf, __global const uchar* src, int width, int ox0, int "
       "oy0) {\n"
       "  for (int y = get_local_id(1); y < RH; y += WY)\n"
       "    for (int x = get_local_id(0) * FV; x < RW; x += WX * FV) {\n"
       "      __global const uchar* s = src + 3 * ((oy0 + y) * width + ox0 + x);\n"
       "      const uchar"
    << n
    << " p0 = FUSED_LOAD_BYTES(s), p1 = FUSED_LOAD_BYTES(s + FV), p2 = "
       "FUSED_LOAD_BYTES(s + 2 * FV);\n"
       "      const int c = y * RW + x;\n";
  for (int ch = 0; ch < 3; ++ch) {
    o << "      FUSED_STORE(convert_float" << n << "((uchar" << n << ")(";
    for (int i = 0; i < vec; ++i) o << (i ? ", " : "") << byteOf("p", 3 * i + ch, vec);
    o << ")), buf + " << ch << " * PL + c);\n";
  }
  o << "    }\n}\n\n";
}

// Row q of the block: rounded into the next step's plane, or (last step) stored as RGB, the tile's and the
// image's edges checked.
void emitStore(std::ostringstream& o, const Vec& v, int q, bool last, int plane, int h0, int tw) {
  const std::string n = v.vec == 1 ? "" : std::to_string(v.vec);
  if (!last) {
    for (int ch = 0; ch < 3; ++ch) {
      const std::string rounded = "FUSED_ROUND(" + acc("a", q, ch) + ")";
      if (v.vec == 1)
        o << "    out[c + " << ch * plane << " + " << q << " * RW] = " << rounded << ";\n";
      else
        o << "    FUSED_STORE(" << rounded << ", out + c + " << ch * plane << " + " << q << " * RW);\n";
    }
    return;
  }
  const std::string bits = "as_uint" + n + "(FUSED_ROUNDED_BITS(";
  o << "    {\n      const int gx = ox0 + " << h0 << " + tx * " << v.vec << ", gy = oy0 + y + " << q << ";\n"
    << "      const int lim = min(width - gx, " << tw << " - tx * " << v.vec << ");\n"
    << "      const uint" << n << " u0 = " << bits << acc("a", q, 0) << ")), u1 = " << bits << acc("a", q, 1)
    << ")), u2 = " << bits << acc("a", q, 2) << "));\n"
    << "      __global uchar* d = dst + 3 * (gy * width + gx);\n"
    << "      if (gy < height && lim > 0) {\n";
  if (v.vec == 1) {
    o << "        vstore3(convert_uchar3((uint3)(u0, u1, u2) & 0xFFu), 0, d);\n      }\n    }\n";
    return;
  }
  // The pixels interleaved by swizzles into three byte vectors, stored whole (or byte by byte at an edge).
  o << "        const uchar" << n << " b0 = convert_uchar" << n << "(u0), b1 = convert_uchar" << n
    << "(u1), b2 = convert_uchar" << n << "(u2);\n";
  for (int m = 0; m < 3; ++m) {
    o << "        const uchar" << n << " o" << m << " = (uchar" << n << ")(";
    for (int e = 0; e < v.vec; ++e) {
      const int j = m * v.vec + e;  // byte j: pixel j / 3, channel j % 3
      o << (e ? ", " : "") << "b" << j % 3 << ".s" << std::hex << j / 3 << std::dec;
    }
    o << ");\n";
  }
  o << "        if (lim >= " << v.vec << ") {\n";
  for (int m = 0; m < 3; ++m) o << "          FUSED_STORE_BYTES(o" << m << ", d + " << m * v.vec << ");\n";
  o << "        } else {\n"
    << "          uchar t[" << 3 * v.vec << "];\n";
  for (int m = 0; m < 3; ++m) o << "          vstore" << n << "(o" << m << ", " << m << ", t);\n";
  o << "          for (int e = 0; e < 3 * lim; ++e) d[e] = t[e];\n"
    << "        }\n      }\n    }\n";
}

struct LiteralGeometry {
  int n = 0, h0 = 0, tw = 0, rw = 0, rh = 0, total = 0;
  std::vector<int> radius, halo, passes;  // halo: Σ of the later steps' radii
};

// Step s computes plane rows [b, b + passes·WY·BY) and columns [b, b + cols), b = h0 − halo_s: the planes
// reach the furthest tap of the furthest of them.
LiteralGeometry geometryOf(const std::vector<ChainStep>& steps, const std::vector<StepCode>& code,
                           const Shape& sh) {
  LiteralGeometry g;
  g.n = static_cast<int>(steps.size());
  g.radius.resize(static_cast<size_t>(g.n));
  g.halo.assign(static_cast<size_t>(g.n), 0);
  g.passes.resize(static_cast<size_t>(g.n));
  for (int s = 0; s < g.n; ++s) g.radius[static_cast<size_t>(s)] = steps[static_cast<size_t>(s)].radius();
  for (int s = g.n - 2; s >= 0; --s)
    g.halo[static_cast<size_t>(s)] =
        g.halo[static_cast<size_t>(s + 1)] + g.radius[static_cast<size_t>(s + 1)];
  g.h0 = g.halo[0] + g.radius[0];
  g.tw = sh.cols - 2 * g.halo[0];
  const int rowsPerPass = sh.wy * sh.by;
  for (int s = 0; s < g.n; ++s) {
    const size_t i = static_cast<size_t>(s);
    const int b = g.h0 - g.halo[i], r = g.radius[i];
    g.passes[i] = (sh.th + 2 * g.halo[i] + rowsPerPass - 1) / rowsPerPass;
    g.rw = std::max(g.rw, b + sh.cols + r);
    g.rh = std::max(g.rh, b + g.passes[i] * rowsPerPass + r);
    g.total += sh.by * terms(code[i]);
  }
  g.rw = (g.rw + sh.vec - 1) / sh.vec * sh.vec;
  return g;
}

// Step s: its passes over the work-group's rows, then (not the last) the next border at the image edges.
void emitStep(std::ostringstream& o, const StepCode& code, const LiteralGeometry& g, const Shape& sh, int s) {
  const size_t i = static_cast<size_t>(s);
  const int ho = g.halo[i], b = g.h0 - ho, plane = g.rw * g.rh;
  const bool last = s == g.n - 1;
  const Vec v{sh.vec};
  o << "  {  // step " << s + 1 << ": radius " << g.radius[i] << "\n"
    << "  const __local float* in = buf" << s % 2 << ";\n";
  if (!last) o << "  __local float* out = buf" << (s + 1) % 2 << ";\n";
  o << "  for (int p = 0; p < " << g.passes[i] << "; ++p) {\n"
    << "    const int y = " << b << " + (p * WY + ty) * " << sh.by << ", c = y * RW + " << b << " + tx * "
    << sh.vec << ";\n";
  emitBlock(o, code, g.rw, plane, v, sh.by);
  for (int q = 0; q < sh.by; ++q) emitStore(o, v, q, last, plane, g.h0, g.tw);
  o << "  }\n";
  if (!last)
    o << "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      << "  if (!inside)\n"
      << "    fused_fill_border(out, width, height, ox0, oy0, " << b << ", " << g.tw + 2 * ho << ", "
      << sh.th + 2 * ho << ", " << ho << ", modes[" << s + 1 << "], borders[" << s + 1 << "].xyz);\n"
      << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  o << "  }\n";
}

}  // namespace

FusedStepCode fusedStepCode(const ChainStep& s) {
  const int k = 2 * s.radius() + 1;  // a magnitude's two filters padded to one K (zero rings add nothing)
  FusedStepCode c;
  auto add = [&](const FilterSet& f) {
    c.taps.push_back(literalTaps(f.resizedTo(k), 1 << 20, [](int, int, int) { return false; }));
    c.offsets.push_back(offsetsOf(f));
  };
  add(s.filter);
  if (s.other) add(*s.other);
  return c;
}

int fusedTerms(const FusedStepCode& c) {
  int n = 0;
  for (const LiteralTaps& t : c.taps)
    for (const Rgb& w : t.taps) n += (w[0] != 0.0f) + (w[1] != 0.0f) + (w[2] != 0.0f);
  return n;
}

std::optional<FusedLiteralPlan> planFusedLiteral(const std::vector<ChainStep>& steps, bool gpu,
                                                 std::uint64_t localLimit) {
  int reach = 0;
  for (const ChainStep& s : steps) reach += s.radius();
  if (gpu && reach > 1) return planFusedGpu(steps, localLimit);
  const Shape sh = gpu ? kGpuSmallShape : kCpuShape;
  std::vector<StepCode> code;
  for (const ChainStep& s : steps) code.push_back(codeOf(s));
  const LiteralGeometry g = geometryOf(steps, code, sh);
  if (sh.th % (sh.wy * sh.by) != 0) return std::nullopt;  // the last step's passes would pass the tile
  if (g.tw < sh.cols / 2) return std::nullopt;  // mostly halo: the generic kernel's linear passes waste less
  FusedLiteralPlan plan{
      {}, {}, sh.cols / sh.vec, sh.wy, g.tw, sh.th, 2 * 3 * sizeof(float) * static_cast<size_t>(g.rw * g.rh)};
  if (g.total > kMaxLiteralTerms || (localLimit > 0 && plan.localBytes > localLimit)) return std::nullopt;
  plan.options = "-DBORDER_MODE=BORDER_CONSTANT -DWX=" + std::to_string(plan.wx) +
                 " -DWY=" + std::to_string(sh.wy) + " -DRW=" + std::to_string(g.rw) +
                 " -DRH=" + std::to_string(g.rh) + " -DFV=" + std::to_string(sh.vec);
  std::ostringstream o;
  if (sh.vec > 1) emitFillInside(o, sh.vec);
  o << "__kernel __attribute__((reqd_work_group_size(WX, WY, 1))) void convolve_fused(\n"
       "    __global const uchar* src, __global uchar* dst, int width, int height,\n"
       "    __global const int* modes, __global const float4* borders) {\n"
       "  __local float buf0[3 * PL] __attribute__((aligned(16)));\n"
       "  __local float buf1[3 * PL] __attribute__((aligned(16)));\n"
       "  const int tx = get_local_id(0), ty = get_local_id(1);\n"
       "  const int ox0 = get_group_id(0) * "
    << g.tw << " - " << g.h0 << ", oy0 = get_group_id(1) * " << sh.th << " - " << g.h0
    << ";\n"
       "  const bool inside = ox0 >= 0 && oy0 >= 0 && ox0 + RW <= width && oy0 + RH <= height;\n"
    << (sh.vec > 1 ? "  if (inside)\n    fused_fill_inside(buf0, src, width, ox0, oy0);\n  else\n  " : "")
    << "  fused_fill_input(buf0, src, width, height, ox0, oy0, modes[0], borders[0].xyz, inside);\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  for (int s = 0; s < g.n; ++s) emitStep(o, code[static_cast<size_t>(s)], g, sh, s);
  o << "}\n";
  plan.source = o.str();
  return plan;
}

}  // namespace convolab
