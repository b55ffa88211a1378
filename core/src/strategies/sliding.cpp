// SPDX-License-Identifier: MIT
// sliding: a register sliding-window kernel generated for the current filter. Each work-item walks down a
// strip, loads every input row once into registers and pushes it into the K open output rows; literal
// coefficients, zero taps left out, a single fused pass for rank-1 filters.
#include <sstream>

#include "../kernel_source.hpp"
#include "../literal_baker.hpp"
#include "../literal_taps.hpp"
#include "../sliding_shape.hpp"
#include "../strategy_support.hpp"
#include "convolab/analysis.hpp"
#include "convolab/error.hpp"
#include "convolab/program_cache.hpp"

namespace convolab {

/// Tests and tools: the generated kernel text (what follows common.cl and sliding.cl) for `filter` on the
/// default GPU- or CPU-style shape.
std::string generateSlidingSource(const FilterSet& filter, bool gpuStyle);

namespace {

/// What the generator needs to know about the filter (tap table, rank-1 factors: literal_taps.hpp).
using SlidingPlan = LiteralTaps;

SlidingPlan planFilter(const FilterSet& filter) {
  // The rank-1 form is one fused pass in registers: it pays whenever it has fewer FMAs than the taps.
  return literalTaps(filter, 3,
                     [](int nzRow, int nzCol, int nonzeroTaps) { return nzRow + nzCol < nonzeroTaps; });
}

std::string acc(int slot, int v) {
  return "a" + std::to_string(slot) + "_" + std::to_string(v);
}

/// FMAs of tap row j (dense) into slot j, from the row in registers `in`.
void emitDenseSlot(std::ostringstream& o, const SlidingPlan& p, int bx, int j, const std::string& indent) {
  for (int i = 0; i < p.k; ++i) {
    if (isZero(p.tap(j, i))) continue;
    for (int v = 0; v < 3; ++v)
      o << indent << acc(j, v) << " = fma(VLOAD(0, in + " << 3 * i + bx * v << "), "
        << vectorLiteral(p.tap(j, i), bx, v) << ", " << acc(j, v) << ");\n";
  }
}

/// The strip's set-up: signature, whether its loads stay inside the frame, its columns, and the K open output
/// rows (slots), each starting at the offsets.
void emitPrologue(std::ostringstream& o, const SlidingPlan& p) {
  const int k = p.k;
  o << "// convolve_sliding: " << (p.separable ? "rank-1 single pass" : "dense") << ", " << p.nonzeroTaps
    << " of " << k * k << " taps non-zero\n";
  o << "__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void convolve_sliding(\n"
       "    __global const uchar* src, __global uchar* dst, int width, int height, float4 offset, float4 "
       "border_value) {\n"
       "  const int x0 = get_global_id(0) * BX, y0 = get_global_id(1) * SH;\n"
       "  if (x0 >= width || y0 >= height) return;\n"
       "  const int rowb = width * 3;\n"
       "  const int rows = min(SH, height - y0);  // output rows of this strip\n"
       "  bool inside = x0 >= RADIUS && x0 + BX + RADIUS <= width;\n"
       "#if !CPU_STYLE\n"
       "  // whole-word loads may reach a few bytes past the strip: never past the frame\n"
       "  inside = inside && ((((height - 1) * rowb + 3 * (x0 - RADIUS)) & ~3) + 4 * NW <= rowb * height);\n"
       "#endif\n"
       "  int col[NCOLS];\n"
       "  strip_columns(x0, width, col);\n"
       "  const VEC off0 = offset_chunk(offset, 0), off1 = offset_chunk(offset, 1), off2 = "
       "offset_chunk(offset, 2);\n";
  for (int j = 0; j < k; ++j)
    o << "  VEC " << acc(j, 0) << " = off0, " << acc(j, 1) << " = off1, " << acc(j, 2) << " = off2;\n";
}

/// The loop over input rows and the load of row t into registers.
void emitRowLoad(std::ostringstream& o, const SlidingShape& s) {
  // One row at a time: fetching the next row's words one iteration ahead (software pipelining) was
  // measured on an H100 and made it slower (68 -> 78 us at 1080p, more registers, fewer warps). Unrolling
  // (variant "-u7") lets the compiler rename the K open rows instead of moving them, at K times the code:
  // measured slower too (1080p dense 7x7: s4x16 33.2 -> 38.3 us, s4x32 41.0 -> 61.4 us), so no default uses
  // it.
  o << "#pragma unroll " << s.unroll
    << "\n"
       "  for (int t = 0; t < rows + (KSIZE - 1); ++t) {\n"
       "    float in[NBP];\n"
       "    const int by = strip_border_index(y0 - RADIUS + t, height);\n"
       "    if (inside && by >= 0)\n"
       "      load_row_inside(src, by * rowb + 3 * (x0 - RADIUS), in);\n"
       "    else\n"
       "      load_row_edge(src, rowb, by, col, border_value, in);\n";
}

/// Slot j holds output row t - j and takes tap row j; it exists only while 0 <= t - j < rows.
std::string slotGuard(int j) {
  return "if ((uint)(t - " + std::to_string(j) + ") < (uint)rows) ";
}

/// Rank 1: the row's horizontal pass once, then each slot takes it times its column factor.
void emitSeparableRow(std::ostringstream& o, const SlidingPlan& p, int bx) {
  const int k = p.k;
  o << "    VEC h0 = (VEC)(0.0f), h1 = (VEC)(0.0f), h2 = (VEC)(0.0f);\n";
  for (int i = 0; i < k; ++i) {
    const Rgb& f = p.rowFactor[static_cast<size_t>(i)];
    if (isZero(f)) continue;
    for (int v = 0; v < 3; ++v)
      o << "    h" << v << " = fma(VLOAD(0, in + " << 3 * i + bx * v << "), " << vectorLiteral(f, bx, v)
        << ", h" << v << ");\n";
  }
  for (int j = 0; j < k; ++j) {
    const Rgb& f = p.colFactor[static_cast<size_t>(j)];
    if (isZero(f)) continue;
    o << "    " << slotGuard(j) << "{\n";
    for (int v = 0; v < 3; ++v)
      o << "      " << acc(j, v) << " = fma(h" << v << ", " << vectorLiteral(f, bx, v) << ", " << acc(j, v)
        << ");\n";
    o << "    }\n";
  }
}

bool tapRowUsed(const SlidingPlan& p, int j) {
  for (int i = 0; i < p.k; ++i)
    if (!isZero(p.tap(j, i))) return true;
  return false;
}

/// Each slot with a non-zero tap row, behind its guard.
void emitGuardedSlots(std::ostringstream& o, const SlidingPlan& p, int bx, const std::string& indent) {
  for (int j = 0; j < p.k; ++j) {
    if (!tapRowUsed(p, j)) continue;
    o << indent << slotGuard(j) << "{\n";
    emitDenseSlot(o, p, bx, j, indent + "  ");
    o << indent << "}\n";
  }
}

/// CPUs: full rows (every slot open) without per-slot tests, windows loaded once for all slots; the ramp
/// rows at the strip's top and bottom take the guarded path.
void emitDenseRowCpu(std::ostringstream& o, const SlidingPlan& p, int bx) {
  const int k = p.k;
  o << "    if (t >= KSIZE - 1 && t < rows) {\n";
  for (int i = 0; i < k; ++i) {
    bool used = false;
    for (int j = 0; j < k; ++j) used = used || !isZero(p.tap(j, i));
    if (!used) continue;
    for (int v = 0; v < 3; ++v) {
      o << "      {\n        const VEC w = VLOAD(0, in + " << 3 * i + bx * v << ");\n";
      for (int j = 0; j < k; ++j)
        if (!isZero(p.tap(j, i)))
          o << "        " << acc(j, v) << " = fma(w, " << vectorLiteral(p.tap(j, i), bx, v) << ", "
            << acc(j, v) << ");\n";
      o << "      }\n";
    }
  }
  o << "    } else {\n";
  emitGuardedSlots(o, p, bx, "      ");
  o << "    }\n";
}

/// The oldest slot is complete: store it, then every slot moves down one and a new row opens.
void emitStoreAndShift(std::ostringstream& o, int k) {
  o << "    if (t >= KSIZE - 1) store_row(dst, rowb, width, x0, y0 + t - (KSIZE - 1), " << acc(k - 1, 0)
    << ", " << acc(k - 1, 1) << ", " << acc(k - 1, 2) << ");\n";
  for (int j = k - 1; j > 0; --j)
    for (int v = 0; v < 3; ++v) o << "    " << acc(j, v) << " = " << acc(j - 1, v) << ";\n";
  o << "    a0_0 = off0;\n    a0_1 = off1;\n    a0_2 = off2;\n  }\n}\n";
}

/// Generated kernel text for one plan on one shape (follows common.cl + the #defines + sliding.cl).
std::string generateKernel(const SlidingPlan& p, const SlidingShape& s) {
  std::ostringstream o;
  emitPrologue(o, p);
  emitRowLoad(o, s);
  if (p.separable)
    emitSeparableRow(o, p, s.bx);
  else if (s.cpuStyle)
    emitDenseRowCpu(o, p, s.bx);
  else
    emitGuardedSlots(o, p, s.bx, "    ");
  emitStoreAndShift(o, p.k);
  return o.str();
}

std::string shapeDefines(const SlidingShape& s) {
  std::ostringstream o;
  o << "#define BX " << s.bx << "\n#define SH " << s.sh << "\n#define WGX " << s.wgx << "\n#define WGY "
    << s.wgy << "\n#define CPU_STYLE " << (s.cpuStyle ? 1 : 0) << "\n";
  return o.str();
}

/// Everything one build needs, and what identifies it.
struct Request {
  std::uint64_t key = 0;  ///< hash of source + options
  std::string source, options;
  SlidingShape shape;
  cl_float4 offset{}, border{};
};

Request makeRequest(const FilterSet& filter, const SlidingShape& shape) {
  Request r;
  r.shape = shape;
  r.source = std::string(kernelSource("common")) + "\n" + shapeDefines(shape) +
             expandKernelIncludes("sliding") + "\n" + generateKernel(planFilter(filter), shape);
  r.options = baseBuildOptions(filter);
  r.key = fnv1a64(r.options, fnv1a64(r.source));
  r.offset = offsetsOf(filter);
  r.border = borderValuesOf(filter);
  return r;
}

class SlidingStrategy final : public Strategy {
 public:
  std::string name() const override { return "sliding"; }

  StrategyId activeId() const override { return m_baker.activeId(name()); }

  bool preparesWithoutBuild(const Context&, const FilterSet& next) const override {
    return m_baker.preparesWithoutBuild(next);
  }
  bool changePending() const override { return m_baker.changePending(); }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet& filter) const override {
    if (ctx.device().isGpu) {
      if (filter.size() > 9)
        return {
            "", "s2x16-wg32x2", "s2x4-wg64x2", "s4x8-wg32x2", "s2x16-wg64x1", "s4x4-wg64x2", "s2x32-wg32x1"};
      return {"",
              "s4x8-wg32x2",
              "s4x16-wg32x4",
              "s4x32-wg32x2",
              "s2x16-wg64x1",
              "s2x32-wg64x1",
              "s4x4-wg32x4",
              "s2x8-wg64x2"};
    }
    if (filter.size() > 9) return {"", "s4x32-wg4x1", "s16x32-wg4x1", "s8x64-wg4x1"};
    return {"", "s8x32-wg4x1", "s16x16-wg4x1", "s16x64-wg4x1", "s16x32-wg4x1"};
  }

  /// A SlidingShape's text ("s<BX>x<SH>-wg<WGX>x<WGY>[-c<cpuStyle>][-u<rows per iteration>]"); anything else
  /// keeps the default shape.
  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet&) const override {
    const SlidingShape s = shapeFor(ctx.device(), 1);
    if (static_cast<std::size_t>(s.wgx * s.wgy) > ctx.device().maxWorkGroupSize)
      return "the work-group of " + std::to_string(s.wgx * s.wgy) + " exceeds the device's limit";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    auto req = std::make_shared<const Request>(makeRequest(filter, shapeFor(ctx.device(), filter.size())));
    BakeRequest bake{
        req->key, std::to_string(filter.size()) + "|" + std::string(borderName(filter.border())), req->offset,
        req->border, [req](Context& c) {
          cl::Kernel kernel(c.buildProgram(req->source, req->options, "sliding"), "convolve_sliding");
          const SlidingShape s = req->shape;
          const cl::NDRange local(static_cast<std::size_t>(s.wgx), static_cast<std::size_t>(s.wgy));
          return BakedKernel{req->key,
                             kernel,
                             local,
                             [s, local](int width, int height) {
                               const std::size_t strips = (static_cast<std::size_t>(width) + s.bx - 1) / s.bx;
                               const std::size_t bands = (static_cast<std::size_t>(height) + s.sh - 1) / s.sh;
                               return cl::NDRange(roundUp(strips, local[0]), roundUp(bands, local[1]));
                             },
                             {},
                             {}};
        }};
    // A coefficient edit runs the generic kernel (dynamic.cl: no compile) until edits pause, then
    // bakes the literals once: one program per pause, not per edit (literal_baker.hpp).
    m_baker.prepare(ctx, filter, std::move(bake), width, height);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    return m_baker.enqueue(ctx, frame, waitFor);
  }

 private:
  SlidingShape shapeFor(const DeviceInfo& dev, int k) const {
    const SlidingShape defaults = defaultSlidingShape(dev.isGpu, k);
    return SlidingShape::parse(m_variant, defaults).value_or(defaults);
  }

  std::string m_variant;                         ///< set by setTuningVariant
  LiteralBaker m_baker{"convolve_sliding", 16};  ///< the last 16 kernels: returning to a filter is instant
};

}  // namespace

std::string generateSlidingSource(const FilterSet& filter, bool gpuStyle) {
  return generateKernel(planFilter(filter), defaultSlidingShape(gpuStyle, filter.size()));
}

std::unique_ptr<Strategy> makeSlidingStrategy() {
  return std::make_unique<SlidingStrategy>();
}

}  // namespace convolab
