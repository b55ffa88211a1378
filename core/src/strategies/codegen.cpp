// SPDX-License-Identifier: MIT
// codegen: OpenCL source generated for the current filter (literal coefficients, zero taps left out, a fused
// single pass for rank-1 filters); coefficient edits run a generic kernel until the literals are baked in the
// background once edits pause.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "../kernel_source.hpp"
#include "../literal_baker.hpp"
#include "../literal_taps.hpp"
#include "../strategy_support.hpp"
#include "../tile_shape.hpp"
#include "convolab/analysis.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/program_cache.hpp"

namespace convolab {

// Test hooks (declared where used; there is deliberately no public header for them).
/// Tests only: every background build sleeps this long first, so "still the old kernel" is observable.
void setCodegenBuildDelayForTesting(int milliseconds);
/// The generated kernel text (what follows common.cl and codegen.cl) for `filter` on a GPU- or CPU-style
/// shape.
std::string generateCodegenSource(const FilterSet& filter, bool gpuStyle);

namespace {

/// Background builds for coefficient edits: the previous literal kernel keeps running until the new one is
/// built. Off by default (the generic kernel runs the edit at once, so output always matches the filter);
/// CoreConfig::codegenAsync (CONVOLAB_CODEGEN_ASYNC=1) turns it on.
bool backgroundBuilds() {
  return coreConfig().codegenAsync;
}

/// Block and launch shape (TileShape; cpuStyle here: one basic block per input row and FAST_STORE, see
/// below).
TileShape defaultShape(bool gpu) {
  // GPUs: small 4×2 blocks in 32×4 work-groups measured fastest on an H100 (26.4 µs vs 28.0 µs in 16×8 and
  // 67.6 µs for 4×8 in 16×4 at 1080p, dense 7×7; docs/BENCHMARKS.md): more work-items hide latency better;
  // auto tries the others.
  if (gpu) return {4, 2, 32, 4, 1, true, false};
  return {8, 4, 16, 8, 8, false, true};  // 8-wide: as fast as 16 on Zen 4, compiles in half the time
}

/// What the generator needs to know about the filter (tap table, rank-1 factors: literal_taps.hpp).
using FilterPlan = LiteralTaps;

FilterPlan planFilter(const FilterSet& filter, int tileHeight) {
  // FMAs per output: the horizontal pass also covers the halo rows; +2 for the extra local-memory pass.
  return literalTaps(filter, 5, [tileHeight, k = filter.size()](int nzRow, int nzCol, int nonzeroTaps) {
    const double sepCost = nzRow * static_cast<double>(tileHeight + k - 1) / tileHeight + nzCol + 2;
    return sepCost < nonzeroTaps;
  });
}

/// Writes convolve_codegen for one filter plan on one geometry: the signature, the accumulators (a block of
/// by rows × three chunks, starting at the offsets), the body of the plan's kind, and the stores.
class CodegenWriter {
 public:
  CodegenWriter(const FilterPlan& p, const TileGeometry& g) : m_p(p), m_g(g), m_s(g.shape) {}

  std::string write() {
    writeSignature();
    if (m_p.nonzeroTaps == 0) {  // nothing to convolve: every output is the offset
      m_o << "  if (x0 >= width || y0 >= height) return;\n";
      declareAccumulators();
    } else {
      writeTileFill();
      if (m_p.separable)
        writeSeparable();
      else
        writeDense();
    }
    storeRows();
    return m_o.str();
  }

 private:
  static std::string accName(int row, int v) { return "a" + std::to_string(row) + "_" + std::to_string(v); }
  const Rgb& tap(int j, int i) const { return m_p.taps[static_cast<size_t>(j * m_p.k + i)]; }
  bool colFactorUsed(int j) const {
    return j >= 0 && j < m_p.k && !isZero(m_p.colFactor[static_cast<size_t>(j)]);
  }
  bool tapUsed(int j, int i) const { return j >= 0 && j < m_p.k && !isZero(tap(j, i)); }

  void writeSignature() {
    const int k = m_p.k;
    m_o << "// convolve_codegen: " << (m_p.separable ? "separable" : "dense") << ", " << m_p.nonzeroTaps
        << " of " << k * k << " taps non-zero, "
        << (m_p.sharedWeights ? "shared weights" : "per-channel weights") << "\n";
    m_o << "__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void convolve_codegen(\n"
           "    __global const uchar* src, __global uchar* dst, int width, int height, float4 offset, float4 "
           "border_value) {\n"
           "  const int lx = get_local_id(0), ly = get_local_id(1);\n"
           "  const int gx0 = get_group_id(0) * TW, gy0 = get_group_id(1) * TH;\n"
           "  const int x0 = gx0 + lx * BX, y0 = gy0 + ly * BY;\n";
  }

  void declareAccumulators() {
    m_o << "  const VEC off0 = offset_chunk(offset, 0), off1 = offset_chunk(offset, 1), off2 = "
           "offset_chunk(offset, 2);\n";
    for (int r = 0; r < m_s.by; ++r)
      m_o << "  VEC " << accName(r, 0) << " = off0, " << accName(r, 1) << " = off1, " << accName(r, 2)
          << " = off2;\n";
  }

  void storeRows() {
    for (int r = 0; r < m_s.by; ++r)
      m_o << "  if (y0 + " << r << " < height) store_row(dst, width, x0, y0 + " << r << ", " << accName(r, 0)
          << ", " << accName(r, 1) << ", " << accName(r, 2) << ");\n";
    m_o << "}\n";
  }

  /// The local tile (and, separable, the buffer of the horizontal pass), filled from the frame.
  void writeTileFill() {
    m_o << "  __local float tile[TROWS * TSTRIDE] __attribute__((aligned(16)));\n";
    if (m_p.separable) m_o << "  __local float hbuf[TROWS * HSTRIDE] __attribute__((aligned(16)));\n";
    m_o << "  fill_tile(tile, src, width, height, gx0 - RADIUS, gy0 - RADIUS, lx, ly, border_value);\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }

  /// Loads (if segLoad) the aligned segment of local row `rowExpr` into s[]; returns how windows are read.
  std::string openRow(const std::string& base, const std::string& rowExpr) {
    m_o << "    const __local float* r = " << base << " + " << rowExpr << ";\n";
    if (!m_s.segLoad) return std::string("r");
    m_o << "    float s[SEGLEN];\n";
    for (int q = 0; q < m_g.segLen / 4; ++q) m_o << "    vstore4(vload4(" << q << ", r), " << q << ", s);\n";
    return std::string("s");
  }

  /// Opens input row `rr`'s block. CPUs: a branch the compiler cannot resolve (width is never negative) ends
  /// each row's basic block; in one huge block LLVM's x86 scheduler hoists every window load to the top and
  /// spills them all (2× slower).
  void openInputRow(int rr, bool withComment) {
    if (m_s.cpuStyle)
      m_o << "  if (width != " << -1 - rr << ") {";
    else
      m_o << "  {";
    if (withComment) m_o << "  // input row " << rr;
    m_o << "\n";
  }

  /// Rank 1: the horizontal pass over every tile row (halo included) into hbuf, then the vertical pass from
  /// hbuf.
  void writeSeparable() {
    const int k = m_p.k, bx = m_s.bx, by = m_s.by;
    m_o << "  for (int rr = ly; rr < TROWS; rr += WGY) {\n";
    const std::string w = openRow("tile + lx * (3 * BX)", "rr * TSTRIDE");
    m_o << "    VEC h0 = (VEC)(0.0f), h1 = (VEC)(0.0f), h2 = (VEC)(0.0f);\n";
    for (int i = 0; i < k; ++i) {
      const Rgb& f = m_p.rowFactor[static_cast<size_t>(i)];
      if (isZero(f)) continue;
      for (int v = 0; v < 3; ++v)
        m_o << "    h" << v << " = fma(VLOAD(0, " << w << " + " << 3 * i + bx * v << "), "
            << vectorLiteral(f, bx, v) << ", h" << v << ");\n";
    }
    m_o << "    __local float* hr = hbuf + rr * HSTRIDE + lx * (3 * BX);\n"
           "    VSTORE(h0, 0, hr);\n    VSTORE(h1, 0, hr + BX);\n    VSTORE(h2, 0, hr + 2 * BX);\n  }\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  if (x0 >= width || y0 >= height) return;\n";
    declareAccumulators();
    m_o << "  const __local float* hb = hbuf + ly * (BY * HSTRIDE) + lx * (3 * BX);\n";
    for (int rr = 0; rr < by + k - 1; ++rr) {
      bool any = false;
      for (int r = 0; r < by; ++r) any = any || colFactorUsed(rr - r);
      if (!any) continue;
      openInputRow(rr, false);
      m_o << "    const VEC h0 = VLOAD(0, hb + " << rr << " * HSTRIDE), h1 = VLOAD(0, hb + " << rr
          << " * HSTRIDE + BX), h2 = VLOAD(0, hb + " << rr << " * HSTRIDE + 2 * BX);\n";
      for (int r = 0; r < by; ++r) {
        if (!colFactorUsed(rr - r)) continue;
        for (int v = 0; v < 3; ++v)
          m_o << "    " << accName(r, v) << " = fma(h" << v << ", "
              << vectorLiteral(m_p.colFactor[static_cast<size_t>(rr - r)], bx, v) << ", " << accName(r, v)
              << ");\n";
      }
      m_o << "  }\n";
    }
  }

  /// Every tap, in input-row order: each row's windows are loaded once and serve every output row of the
  /// block.
  void writeDense() {
    const int k = m_p.k, by = m_s.by;
    m_o << "  if (x0 >= width || y0 >= height) return;\n";
    declareAccumulators();
    m_o << "  const __local float* t = tile + ly * (BY * TSTRIDE) + lx * (3 * BX);\n";
    for (int rr = 0; rr < by + k - 1; ++rr) {
      bool any = false;
      for (int r = 0; r < by && !any; ++r)
        for (int i = 0; i < k && !any; ++i) any = tapUsed(rr - r, i);
      if (!any) continue;
      openInputRow(rr, true);
      const std::string w = openRow("t", std::to_string(rr) + " * TSTRIDE");
      for (int i = 0; i < k; ++i) writeDenseColumn(rr, i, w);
      m_o << "  }\n";
    }
  }

  /// Column i of input row rr: one window load per chunk, multiplied into every output row that uses it.
  void writeDenseColumn(int rr, int i, const std::string& w) {
    const int bx = m_s.bx, by = m_s.by;
    bool used = false;
    for (int r = 0; r < by; ++r) used = used || tapUsed(rr - r, i);
    if (!used) return;
    for (int v = 0; v < 3; ++v) {
      m_o << "    {\n      const VEC w = VLOAD(0, " << w << " + " << 3 * i + bx * v << ");\n";
      for (int r = 0; r < by; ++r) {
        if (!tapUsed(rr - r, i)) continue;
        m_o << "      " << accName(r, v) << " = fma(w, " << vectorLiteral(tap(rr - r, i), bx, v) << ", "
            << accName(r, v) << ");\n";
      }
      m_o << "    }\n";
    }
  }

  const FilterPlan& m_p;
  const TileGeometry& m_g;
  const TileShape& m_s;
  std::ostringstream m_o;
};

/// Generated kernel text for one filter plan on one geometry (follows common.cl + the #defines + codegen.cl).
std::string generateKernel(const FilterPlan& p, const TileGeometry& g) {
  return CodegenWriter(p, g).write();
}

/// Everything one build needs, and what identifies it.
struct Request {
  std::uint64_t key = 0;  ///< hash of source + options
  std::string shapeKey;   ///< K and border: a change here never runs the old kernel
  std::string source, options;
  TileGeometry geometry;
  cl_float4 offset{}, border{};
  std::shared_ptr<const FilterSet> filter;  ///< to plan again under a smaller work-group limit
  TileShape shape;
};

/// The plan for `filter` and the geometry it runs on. The plan's cost model needs the tile height, which
/// depends on whether the plan is separable (its tile needs more memory): plan on the dense fit, then re-fit.
std::optional<std::pair<FilterPlan, TileGeometry>> planAndFit(const DeviceInfo& dev, const FilterSet& filter,
                                                              const TileShape& shape, std::size_t maxGroup) {
  const auto dense = fitTile(shape, filter.size(), dev, maxGroup);
  if (!dense) return std::nullopt;
  FilterPlan plan = planFilter(filter, dense->tileHeight());
  if (plan.separable) {
    if (auto sep = fitTile(shape, filter.size(), dev, maxGroup, true))
      return std::pair{std::move(plan), *sep};
    plan.separable = false;
  }
  return std::pair{std::move(plan), *dense};
}

std::optional<Request> makeRequest(const DeviceInfo& dev, const FilterSet& filter, const TileShape& shape,
                                   std::size_t maxGroup) {
  const auto fit = planAndFit(dev, filter, shape, maxGroup);
  if (!fit) return std::nullopt;
  const auto& [plan, g] = *fit;
  Request r;
  r.geometry = g;
  r.source = std::string(kernelSource("common")) + "\n" + g.defines() + expandKernelIncludes("codegen") +
             "\n" + generateKernel(plan, g);
  r.options = baseBuildOptions(filter);
  r.key = fnv1a64(r.options, fnv1a64(r.source));
  r.shapeKey = std::to_string(filter.size()) + "|" + std::string(borderName(filter.border()));
  r.offset = offsetsOf(filter);
  r.border = borderValuesOf(filter);
  r.filter = std::make_shared<const FilterSet>(filter);
  r.shape = shape;
  return r;
}

/// Builds `r`; when the compiled kernel allows fewer work-items per group than its geometry launches
/// (registers), plans and builds again under that limit. The result stays filed under r's key.
BakedKernel build(Context& ctx, const Request& r) {
  Request current = r;
  for (;;) {
    cl::Kernel kernel(ctx.buildProgram(current.source, current.options, "codegen"), "convolve_codegen");
    const auto limit = workGroupRefit(kernel, ctx.clDevice(), current.geometry.shape.groupSize());
    if (!limit) {
      const TileGeometry g = current.geometry;
      return {r.key, kernel, g.localRange(), [g](int w, int h) { return g.globalRange(w, h); }, {}, {}};
    }
    auto smaller = makeRequest(ctx.device(), *r.filter, r.shape, *limit);
    if (!smaller)
      throw Error(ErrorKind::Device, "codegen: no tile for K=" + std::to_string(r.filter->size()) + " fits " +
                                         std::to_string(*limit) + " work-items");
    current = std::move(*smaller);
  }
}

class CodegenStrategy final : public Strategy {
 public:
  std::string name() const override { return "codegen"; }

  StrategyId activeId() const override { return m_baker.activeId(name()); }

  bool preparesWithoutBuild(const Context&, const FilterSet& next) const override {
    return m_baker.preparesWithoutBuild(next);
  }
  bool changePending() const override { return m_baker.changePending(); }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    if (ctx.device().isGpu)
      return {"",
              "b4x8-wg16x4",
              "b4x4-wg16x8",
              "b4x2-wg16x8",
              "b4x2-wg32x8",
              "b4x2-wg64x2",
              "b4x1-wg32x8",
              "b4x1-wg64x4",
              "b4x1-wg32x4",
              "b4x1-wg16x16",
              "b4x4-wg32x4",
              "b8x2-wg16x8"};
    return {"", "b16x4-wg8x8", "b8x8-wg16x4", "b8x2-wg16x16"};
  }

  /// TileShape's grammar; the short form "b<BX>x<BY>-wg<WGX>x<WGY>" takes the device type's defaults for the
  /// rest. Anything else keeps the default shape.
  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const auto g =
        fitTile(shapeFor(ctx.device()), filter.size(), ctx.device(), ctx.device().maxWorkGroupSize);
    if (!g)
      return "the smallest tile for K=" + std::to_string(filter.size()) + " does not fit in local memory";
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    auto req = makeRequest(ctx.device(), filter, shapeFor(ctx.device()), ctx.device().maxWorkGroupSize);
    if (!req)
      throw Error(ErrorKind::Device, "codegen: no tile for K=" + std::to_string(filter.size()) + " fits");
    BakeRequest bake{
        req->key, req->shapeKey, req->offset, req->border,
        [r = std::make_shared<const Request>(std::move(*req))](Context& c) { return build(c, *r); }};
    // A coefficient edit runs the generic kernel (dynamic.cl: no compile) until edits pause, then
    // bakes the literals once (literal_baker.hpp).
    m_baker.prepare(ctx, filter, std::move(bake), width, height, backgroundBuilds());
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    return m_baker.enqueue(ctx, frame, waitFor);
  }

 private:
  TileShape shapeFor(const DeviceInfo& dev) const {
    const TileShape d = defaultShape(dev.isGpu);
    return TileShape::parse(m_variant, d).value_or(d);
  }

  std::string m_variant;                         ///< set by setTuningVariant
  LiteralBaker m_baker{"convolve_codegen", 32};  ///< the last 32 kernels: returning to a filter is instant
};

}  // namespace

void setCodegenBuildDelayForTesting(int milliseconds) {
  setLiteralBakeBuildDelayForTesting(milliseconds);
}

std::string generateCodegenSource(const FilterSet& filter, bool gpuStyle) {
  DeviceInfo dev;
  dev.isGpu = gpuStyle;
  dev.localMemBytes = 48 * 1024;
  dev.maxWorkGroupSize = 1024;
  const auto fit = planAndFit(dev, filter, defaultShape(gpuStyle), dev.maxWorkGroupSize);
  return fit ? generateKernel(fit->first, fit->second) : std::string();
}

std::unique_ptr<Strategy> makeCodegenStrategy() {
  return std::make_unique<CodegenStrategy>();
}

}  // namespace convolab
