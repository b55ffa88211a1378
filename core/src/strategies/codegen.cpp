// codegen: OpenCL source generated for the current filter (literal coefficients, zero taps left out, a fused
// single pass for rank-1 filters); coefficient edits run a generic kernel until the literals are baked in the
// background once edits pause.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <future>
#include <map>
#include <sstream>
#include <thread>

#include "../kernel_source.hpp"
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
/// Tests only: how long coefficient edits must pause before their literals are baked (default 1000 ms).
void setCodegenQuietPeriodForTesting(int milliseconds);
/// The generated kernel text (what follows common.cl and codegen.cl) for `filter` on a GPU- or CPU-style
/// shape.
std::string generateCodegenSource(const FilterSet& filter, bool gpuStyle);

namespace {

std::atomic<int> g_buildDelayMs{0};
std::atomic<int> g_quietMs{1000};

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

/// Generated kernel text for one filter plan on one geometry (follows common.cl + the #defines + codegen.cl).
std::string generateKernel(const FilterPlan& p, const TileGeometry& g) {
  const TileShape& s = g.shape;
  const int k = p.k, bx = s.bx, by = s.by;
  std::ostringstream o;
  o << "// convolve_codegen: " << (p.separable ? "separable" : "dense") << ", " << p.nonzeroTaps << " of "
    << k * k << " taps non-zero, " << (p.sharedWeights ? "shared weights" : "per-channel weights") << "\n";
  o << "__kernel __attribute__((reqd_work_group_size(WGX, WGY, 1))) void convolve_codegen(\n"
       "    __global const uchar* src, __global uchar* dst, int width, int height, float4 offset, float4 "
       "border_value) {\n"
       "  const int lx = get_local_id(0), ly = get_local_id(1);\n"
       "  const int gx0 = get_group_id(0) * TW, gy0 = get_group_id(1) * TH;\n"
       "  const int x0 = gx0 + lx * BX, y0 = gy0 + ly * BY;\n";
  auto accName = [](int row, int v) { return "a" + std::to_string(row) + "_" + std::to_string(v); };
  auto declareAccumulators = [&] {
    o << "  const VEC off0 = offset_chunk(offset, 0), off1 = offset_chunk(offset, 1), off2 = "
         "offset_chunk(offset, 2);\n";
    for (int r = 0; r < by; ++r)
      o << "  VEC " << accName(r, 0) << " = off0, " << accName(r, 1) << " = off1, " << accName(r, 2)
        << " = off2;\n";
  };
  auto storeRows = [&] {
    for (int r = 0; r < by; ++r)
      o << "  if (y0 + " << r << " < height) store_row(dst, width, x0, y0 + " << r << ", " << accName(r, 0)
        << ", " << accName(r, 1) << ", " << accName(r, 2) << ");\n";
    o << "}\n";
  };
  // Loads (if segLoad) the aligned segment of local row `rowExpr` into s[]; returns how windows are read.
  auto openRow = [&](const std::string& base, const std::string& rowExpr) {
    o << "    const __local float* r = " << base << " + " << rowExpr << ";\n";
    if (!s.segLoad) return std::string("r");
    o << "    float s[SEGLEN];\n";
    for (int q = 0; q < g.segLen / 4; ++q) o << "    vstore4(vload4(" << q << ", r), " << q << ", s);\n";
    return std::string("s");
  };

  if (p.nonzeroTaps == 0) {  // nothing to convolve: every output is the offset
    o << "  if (x0 >= width || y0 >= height) return;\n";
    declareAccumulators();
    storeRows();
    return o.str();
  }

  o << "  __local float tile[TROWS * TSTRIDE] __attribute__((aligned(16)));\n";
  if (p.separable) o << "  __local float hbuf[TROWS * HSTRIDE] __attribute__((aligned(16)));\n";
  o << "  fill_tile(tile, src, width, height, gx0 - RADIUS, gy0 - RADIUS, lx, ly, border_value);\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n";

  if (p.separable) {
    // Horizontal pass over every tile row (halo included) into hbuf, then the vertical pass from hbuf.
    o << "  for (int rr = ly; rr < TROWS; rr += WGY) {\n";
    const std::string w = openRow("tile + lx * (3 * BX)", "rr * TSTRIDE");
    o << "    VEC h0 = (VEC)(0.0f), h1 = (VEC)(0.0f), h2 = (VEC)(0.0f);\n";
    for (int i = 0; i < k; ++i) {
      const Rgb& f = p.rowFactor[static_cast<size_t>(i)];
      if (isZero(f)) continue;
      for (int v = 0; v < 3; ++v)
        o << "    h" << v << " = fma(VLOAD(0, " << w << " + " << 3 * i + bx * v << "), "
          << vectorLiteral(f, bx, v) << ", h" << v << ");\n";
    }
    o << "    __local float* hr = hbuf + rr * HSTRIDE + lx * (3 * BX);\n"
         "    VSTORE(h0, 0, hr);\n    VSTORE(h1, 0, hr + BX);\n    VSTORE(h2, 0, hr + 2 * BX);\n  }\n"
         "  barrier(CLK_LOCAL_MEM_FENCE);\n"
         "  if (x0 >= width || y0 >= height) return;\n";
    declareAccumulators();
    o << "  const __local float* hb = hbuf + ly * (BY * HSTRIDE) + lx * (3 * BX);\n";
    for (int rr = 0; rr < by + k - 1; ++rr) {
      bool any = false;
      for (int r = 0; r < by; ++r) {
        const int j = rr - r;
        any = any || (j >= 0 && j < k && !isZero(p.colFactor[static_cast<size_t>(j)]));
      }
      if (!any) continue;
      o << (s.cpuStyle ? "  if (width != " + std::to_string(-1 - rr) + ") {" : std::string("  {"))
        << "\n    const VEC h0 = VLOAD(0, hb + " << rr << " * HSTRIDE), h1 = VLOAD(0, hb + " << rr
        << " * HSTRIDE + BX), h2 = VLOAD(0, hb + " << rr << " * HSTRIDE + 2 * BX);\n";
      for (int r = 0; r < by; ++r) {
        const int j = rr - r;
        if (j < 0 || j >= k || isZero(p.colFactor[static_cast<size_t>(j)])) continue;
        for (int v = 0; v < 3; ++v)
          o << "    " << accName(r, v) << " = fma(h" << v << ", "
            << vectorLiteral(p.colFactor[static_cast<size_t>(j)], bx, v) << ", " << accName(r, v) << ");\n";
      }
      o << "  }\n";
    }
    storeRows();
    return o.str();
  }

  o << "  if (x0 >= width || y0 >= height) return;\n";
  declareAccumulators();
  o << "  const __local float* t = tile + ly * (BY * TSTRIDE) + lx * (3 * BX);\n";
  auto tap = [&](int j, int i) -> const Rgb& { return p.taps[static_cast<size_t>(j * k + i)]; };
  // Input-row order: each row's windows are loaded once and serve every output row of the block.
  for (int rr = 0; rr < by + k - 1; ++rr) {
    bool any = false;
    for (int r = 0; r < by && !any; ++r)
      for (int i = 0; i < k && !any; ++i) any = rr - r >= 0 && rr - r < k && !isZero(tap(rr - r, i));
    if (!any) continue;
    // CPUs: a branch the compiler cannot resolve (width is never negative) ends each row's basic block; in
    // one huge block LLVM's x86 scheduler hoists every window load to the top and spills them all (2×
    // slower).
    if (s.cpuStyle)
      o << "  if (width != " << -1 - rr << ") {  // input row " << rr << "\n";
    else
      o << "  {  // input row " << rr << "\n";
    const std::string w = openRow("t", std::to_string(rr) + " * TSTRIDE");
    for (int i = 0; i < k; ++i) {
      bool used = false;
      for (int r = 0; r < by; ++r) used = used || (rr - r >= 0 && rr - r < k && !isZero(tap(rr - r, i)));
      if (!used) continue;
      for (int v = 0; v < 3; ++v) {
        o << "    {\n      const VEC w = VLOAD(0, " << w << " + " << 3 * i + bx * v << ");\n";
        for (int r = 0; r < by; ++r) {
          const int j = rr - r;
          if (j < 0 || j >= k || isZero(tap(j, i))) continue;
          o << "      " << accName(r, v) << " = fma(w, " << vectorLiteral(tap(j, i), bx, v) << ", "
            << accName(r, v) << ");\n";
        }
        o << "    }\n";
      }
    }
    o << "  }\n";
  }
  storeRows();
  return o.str();
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

struct Built {
  std::uint64_t key = 0;
  cl::Kernel kernel;
  TileGeometry geometry;
};

/// Builds `r`; when the compiled kernel allows fewer work-items per group than its geometry launches
/// (registers), plans and builds again under that limit. The result stays filed under r's key.
Built build(Context& ctx, const Request& r) {
  Request current = r;
  for (;;) {
    cl::Kernel kernel(ctx.buildProgram(current.source, current.options, "codegen"), "convolve_codegen");
    const auto limit = workGroupRefit(kernel, ctx.clDevice(), current.geometry.shape.groupSize());
    if (!limit) return {r.key, kernel, current.geometry};
    auto smaller = makeRequest(ctx.device(), *r.filter, r.shape, *limit);
    if (!smaller)
      throw Error(ErrorKind::Device, "codegen: no tile for K=" + std::to_string(r.filter->size()) + " fits " +
                                         std::to_string(*limit) + " work-items");
    current = std::move(*smaller);
  }
}

class CodegenStrategy final : public Strategy {
 public:
  ~CodegenStrategy() override {
    // A background build still running uses the context: wait for it (never throws).
    if (m_building.valid()) m_building.wait();
  }

  std::string name() const override { return "codegen"; }

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

  void prepare(Context& ctx, const FilterSet& filter, int, int) override {
    auto req = makeRequest(ctx.device(), filter, shapeFor(ctx.device()), ctx.device().maxWorkGroupSize);
    if (!req)
      throw Error(ErrorKind::Device, "codegen: no tile for K=" + std::to_string(filter.size()) + " fits");
    poll(ctx, false);
    if (m_active && m_active->key == req->key) {  // same program: offsets and border values are arguments
      m_active->offset = req->offset;
      m_active->border = req->border;
      m_target.reset();
      m_provisionalActive = false;
      return;
    }
    if (auto it = m_cache.find(req->key); it != m_cache.end()) {  // built before: switch at once
      activate(*req, it->second);
      m_target.reset();
      return;
    }
    const bool sameStructure = m_active && m_active->shapeKey == req->shapeKey;
    m_lastEdit = std::chrono::steady_clock::now();
    if (sameStructure && !backgroundBuilds() && prepareProvisional(ctx, filter)) {
      // A coefficient edit: run the generic kernel (weights as an argument) until edits pause, then bake the
      // literals once. Every program built costs driver memory that PoCL 3.1 never returns, so typing must
      // not build one program per keystroke.
      m_target = std::move(*req);
      m_provisionalActive = true;
      poll(ctx, false);
      return;
    }
    if (!sameStructure || !backgroundBuilds()) {
      if (m_building.valid() && m_buildingKey == req->key) {
        poll(ctx, true);  // the same program is already building: wait for it instead of building twice
      } else {
        remember(build(ctx, *req));
      }
      activate(*req, m_cache.at(req->key));
      m_target.reset();
      return;
    }
    m_target = std::move(*req);  // keep running the current kernel until this one is built
    poll(ctx, false);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    poll(ctx, false);
    if (m_provisionalActive) {
      Provisional& p = *m_provisional;
      setArgs(p.kernel, frame.input, frame.output, frame.width, frame.height, p.weights, p.offset, p.border);
      return {launch2d(ctx, p.kernel, "convolve_codegen", p.geometry.globalRange(frame.width, frame.height),
                       p.geometry.localRange(), waitFor)};
    }
    if (!m_active) throw Error(ErrorKind::Device, "codegen: enqueue before prepare");
    Active& a = *m_active;
    setArgs(a.kernel, frame.input, frame.output, frame.width, frame.height, a.offset, a.border);
    const cl::NDRange global = a.geometry.globalRange(frame.width, frame.height);
    const cl::NDRange local = a.geometry.localRange();
    return {launch2d(ctx, a.kernel, "convolve_codegen", global, local, waitFor)};
  }

 private:
  /// The generic kernel of this K, border and shape: tiled.cl on the same TileShape, weights in a buffer.
  struct Provisional {
    std::string key;  ///< K, border and requested shape
    cl::Kernel kernel;
    TileGeometry geometry;
    cl::Buffer weights;
    cl_float4 offset{}, border{};
  };

  /// Readies the generic kernel for `filter` (built once per K, border and shape, then only new weights);
  /// false when it does not fit (then the literal program is built at once, as before).
  bool prepareProvisional(Context& ctx, const FilterSet& filter) {
    const DeviceInfo& dev = ctx.device();
    std::size_t maxGroup = dev.maxWorkGroupSize;
    const std::string key = baseBuildOptions(filter) + "|" + shapeFor(dev).str();
    if (m_provisional && m_provisional->key != key) m_provisional.reset();
    while (!m_provisional) {
      const auto g = fitTile(shapeFor(dev), filter.size(), dev, maxGroup);
      if (!g || g->patternWeightBytes() > dev.constantBufferBytes) return false;
      const std::string options = baseBuildOptions(filter) + g->buildOptions();
      cl::Kernel kernel(ctx.buildKernelProgram("tiled", options), "convolve_tiled");
      if (const auto limit = workGroupRefit(kernel, ctx.clDevice(), g->shape.groupSize())) {
        maxGroup = *limit;
        continue;
      }
      m_provisional = Provisional{key, kernel, *g, {}, {}, {}};
    }
    uploadFloats(ctx, m_provisional->weights, chunkPatternWeights(filter, m_provisional->geometry.shape.bx));
    m_provisional->offset = offsetsOf(filter);
    m_provisional->border = borderValuesOf(filter);
    return true;
  }

  struct Active {
    std::uint64_t key = 0;
    std::string shapeKey;
    cl::Kernel kernel;
    TileGeometry geometry;
    cl_float4 offset{}, border{};
  };

  TileShape shapeFor(const DeviceInfo& dev) const {
    const TileShape d = defaultShape(dev.isGpu);
    return TileShape::parse(m_variant, d).value_or(d);
  }

  void activate(const Request& r, const Built& b) {
    m_active = Active{r.key, r.shapeKey, b.kernel, b.geometry, r.offset, r.border};
    m_provisionalActive = false;
  }

  /// Keeps a built kernel in memory so returning to an earlier filter is instant (bounded: live editing makes
  /// many).
  void remember(Built b) {
    static constexpr std::size_t kMaxKernels = 32;
    if (m_cache.emplace(b.key, b).second) m_order.push_back(b.key);
    while (m_order.size() > kMaxKernels) {
      const std::uint64_t oldest = m_order.front();
      m_order.pop_front();
      if (m_active && m_active->key == oldest)
        m_order.push_back(oldest);  // the running kernel stays
      else
        m_cache.erase(oldest);
    }
  }

  /// Collects a finished background build (waiting for it when `wait`), switches to it when it is still
  /// what was asked for last, and starts building the newest request when nothing is building.
  void poll(Context& ctx, bool wait) {
    if (m_building.valid() &&
        (wait || m_building.wait_for(std::chrono::seconds(0)) == std::future_status::ready)) {
      Built b = m_building.get();  // rethrows a build failure
      remember(b);
      if (m_target && m_target->key == b.key) {
        activate(*m_target, m_cache.at(b.key));
        m_target.reset();
      }
    }
    if (!m_target || m_building.valid()) return;
    // Bake (or build in the background) only once edits have paused: one program per pause, not per edit.
    if (std::chrono::steady_clock::now() - m_lastEdit < std::chrono::milliseconds(g_quietMs.load())) return;
    if (auto it = m_cache.find(m_target->key); it != m_cache.end()) {
      activate(*m_target, it->second);
      m_target.reset();
      return;
    }
    m_buildingKey = m_target->key;
    const int delay = g_buildDelayMs.load();
    m_building = std::async(std::launch::async, [&ctx, req = *m_target, delay] {
      if (delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      return build(ctx, req);
    });
  }

  std::string m_variant;  ///< set by setTuningVariant
  std::optional<Active> m_active;
  std::optional<Request>
      m_target;  ///< newest filter whose kernel is not built yet (background or provisional)
  std::optional<Provisional> m_provisional;
  bool m_provisionalActive = false;  ///< enqueue runs m_provisional until m_target's literals are built
  std::chrono::steady_clock::time_point m_lastEdit;
  std::future<Built> m_building;
  std::uint64_t m_buildingKey = 0;
  std::map<std::uint64_t, Built> m_cache;
  std::deque<std::uint64_t> m_order;
};

}  // namespace

void setCodegenBuildDelayForTesting(int milliseconds) {
  g_buildDelayMs = milliseconds;
}
void setCodegenQuietPeriodForTesting(int milliseconds) {
  g_quietMs = milliseconds;
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
