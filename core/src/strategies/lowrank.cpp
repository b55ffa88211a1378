// SPDX-License-Identifier: MIT
// lowrank and separable: the filter as a sum of r separable terms (SVD), fused into one launch: row passes
// into local memory, column passes from there (kernels/lowrank.cl). `separable` is the same class with r
// fixed to 1 and its own accept rule.
#include <algorithm>

#include "../shape_variant.hpp"
#include "../strategy_support.hpp"
#include "../tile_shape.hpp"
#include "convolab/analysis.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

constexpr const char* kChannelNames[] = {"R", "G", "B"};

/// Terms used: the largest channel rank, at least 1 (an all-zero filter runs as one zero term).
int termsOf(const FilterAnalysis& analysis) {
  return std::max(1, analysis.maxRank());
}

/// lowrank's rule: the 2·r·K taps of r separable terms must stay within two thirds of the K² dense taps
/// (3·r ≤ K); the remaining third pays for the tile's halo rows in the row pass and the pass through local
/// memory. K = 7 takes r ≤ 2, K = 15 r ≤ 5; K ≤ 2 never (a single tap is already cheapest dense).
std::optional<std::string> lowrankRule(const FilterSet& filter, const FilterAnalysis& analysis) {
  const int terms = termsOf(analysis);
  const int k = filter.size();
  if (3 * terms <= k) return std::nullopt;
  return "rank " + std::to_string(terms) + " is not cheap enough for K = " + std::to_string(k) + ": " +
         std::to_string(2 * terms * k) + " separable taps vs " + std::to_string(k * k) +
         " dense (lowrank needs 3*rank <= K)";
}

/// separable's rule: every channel of rank at most 1, any K.
std::optional<std::string> separableRule(const FilterSet&, const FilterAnalysis& analysis) {
  for (int c = 0; c < kChannels; ++c) {
    const int rank = analysis.channels[static_cast<size_t>(c)].rank;
    if (rank > 1)
      return "filter is not separable (rank " + std::to_string(rank) + " in channel " + kChannelNames[c] +
             ")";
  }
  return std::nullopt;
}

/// What distinguishes the two registry rows: the name (events, messages) and the accept rule.
struct TwoPassConfig {
  const char* name;
  std::optional<std::string> (*reject)(const FilterSet&, const FilterAnalysis&);
};

/// Launch shape of lowrank.cl, in the ShapeVariant grammar "f<PX>x<BY>-wg<WGX>x<WGY>": a work-item owns PX
/// pixels (4 or 8) of BY output rows; a work-group is WGX×WGY work-items.
struct FusedShape {
  int px = 4, by = 2, wgx = 32, wgy = 8;

  std::string str() const { return ShapeVariant{'f', px, by, wgx, wgy, {}}.str(); }
  static std::optional<FusedShape> parse(const std::string& text) {
    const auto v = ShapeVariant::parse(text, 'f', "");
    if (!v || (v->a != 4 && v->a != 8) || v->b < 1 || v->b > 16 || v->wgx < 1 || v->wgy < 1)
      return std::nullopt;
    return FusedShape{v->a, v->b, v->wgx, v->wgy};
  }
  /// Bytes of local memory the intermediate takes: `terms` planes of (TH + K − 1) rows × 3·TW floats.
  std::size_t localBytes(int terms, int k) const {
    return static_cast<std::size_t>(terms) * static_cast<std::size_t>(wgy * by + k - 1) *
           static_cast<std::size_t>(3 * wgx * px) * sizeof(float);
  }
  std::string buildOptions() const {
    return " -DPX=" + std::to_string(px) + " -DBY=" + std::to_string(by) + " -DWGX=" + std::to_string(wgx) +
           " -DWGY=" + std::to_string(wgy);
  }
};

/// GPUs: 4 pixels × 2 rows per work-item in 16×16 work-groups (64×32 outputs, 29 KiB of local memory for one
/// term at K = 7): 16.6 µs at 1080p and 45.5 µs at 4K on an H200, Gaussian 7×7, against 18.6/48.6 for 32×8
/// and 42-127 µs for taller blocks (more registers, fewer work-groups per SM). CPUs (PoCL): 8 pixels × 8 rows
/// in 8×4.
FusedShape defaultFusedShape(const DeviceInfo& dev) {
  if (dev.isGpu) return {4, 2, 16, 16};
  return {8, 8, 8, 4};
}

/// Shrinks `s` until its intermediate fits the device's local memory and its group maxGroup work-items: the
/// block height first, then the work-group's height, then its width. nullopt when nothing fits.
std::optional<FusedShape> fitShape(FusedShape s, int terms, int k, const DeviceInfo& dev,
                                   std::size_t maxGroup) {
  const std::uint64_t local = dev.localMemBytes ? dev.localMemBytes : 16384;
  for (;;) {
    if (s.localBytes(terms, k) <= local && static_cast<std::size_t>(s.wgx * s.wgy) <= maxGroup) return s;
    if (s.by > 1)
      s.by /= 2;
    else if (s.wgy > 1)
      s.wgy /= 2;
    else if (s.wgx > 1)
      s.wgx /= 2;
    else
      return std::nullopt;
  }
}

/// Weights as lowrank.cl reads them: row factors, then column factors, [term][channel][K].
std::vector<float> lowrankWeights(const FilterSet& filter, const FilterAnalysis& analysis, int terms) {
  const int k = filter.size();
  const auto block = static_cast<size_t>(3 * terms * k);
  std::vector<float> w(2 * block, 0.0f);
  for (int c = 0; c < kChannels; ++c) {
    const ChannelAnalysis& a = analysis.channels[static_cast<size_t>(c)];
    for (int t = 0; t < static_cast<int>(a.terms.size()) && t < terms; ++t)
      for (int n = 0; n < k; ++n) {
        const auto at = static_cast<size_t>((t * 3 + c) * k + n);
        w[at] = static_cast<float>(a.terms[static_cast<size_t>(t)].row[static_cast<size_t>(n)]);
        w[block + at] = static_cast<float>(a.terms[static_cast<size_t>(t)].column[static_cast<size_t>(n)]);
      }
  }
  return w;
}

class TwoPassStrategy final : public Strategy {
 public:
  explicit TwoPassStrategy(TwoPassConfig config) : m_config(config) {}

  std::string name() const override { return m_config.name; }

  std::vector<std::string> tuningVariants(const Context& ctx, const FilterSet&) const override {
    std::vector<FusedShape> v{defaultFusedShape(ctx.device())};
    if (ctx.device().isGpu) {
      v.push_back({4, 2, 32, 8});
      v.push_back({4, 3, 16, 8});
      v.push_back({4, 1, 16, 32});
    } else {
      v.push_back({8, 4, 8, 8});
      v.push_back({4, 4, 16, 8});
    }
    std::vector<std::string> names;
    for (const auto& s : v) names.push_back(s.str());
    return names;
  }

  void setTuningVariant(const std::string& variant) override { m_variant = variant; }

  std::optional<std::string> unsupportedReason(const Context& ctx, const FilterSet& filter) const override {
    const FilterAnalysis analysis = analyzeFilter(filter);
    if (auto reason = m_config.reject(filter, analysis)) return reason;
    const DeviceInfo& dev = ctx.device();
    if (!fitShape(requestedShape(dev), termsOf(analysis), filter.size(), dev, dev.maxWorkGroupSize))
      return "the intermediate of " + std::to_string(termsOf(analysis)) +
             " terms for K=" + std::to_string(filter.size()) + " does not fit in " +
             std::to_string(dev.localMemBytes) + " bytes of local memory";
    return std::nullopt;
  }

  /// Both rows build lowrank.cl with the same RANK and shape for a given filter: on rank-1 filters they are
  /// one program.
  std::string kernelIdentity(const Context& ctx, const FilterSet& filter) const override {
    return "lowrank/RANK=" + std::to_string(termsOf(analyzeFilter(filter))) + "/" +
           requestedShape(ctx.device()).str();
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int) override {
    m_filter = filter;
    m_rowWords = rowWords(width);
    const FilterAnalysis analysis = analyzeFilter(filter);
    const int terms = termsOf(analysis);
    const DeviceInfo& dev = ctx.device();
    m_factors = lowrankWeights(filter, analysis, terms);
    m_byValue = factorsFitAsArgument(ctx, m_factors.size() * sizeof(float));
    std::size_t maxGroup = dev.maxWorkGroupSize;
    for (;;) {
      const auto shape = fitShape(requestedShape(dev), terms, filter.size(), dev, maxGroup);
      if (!shape)
        throw Error(ErrorKind::Device, std::string(m_config.name) + ": no tile fits this device for K=" +
                                           std::to_string(filter.size()) + " and " + std::to_string(terms) +
                                           " terms");
      const std::string options = baseBuildOptions(filter) + " -DRANK=" + std::to_string(terms) +
                                  shape->buildOptions() + " -DROW_WORDS=" + (m_rowWords ? "1" : "0") +
                                  " -DWEIGHTS_BY_VALUE=" + (m_byValue ? "1" : "0") +
                                  " -DROW_LOOP=" + (dev.isGpu ? "0" : "1");
      if (options != m_options) {
        m_kernel = cl::Kernel(ctx.buildKernelProgram("lowrank", options), "lowrank_fused");
        m_options = options;
        m_shape = *shape;
        if (const auto limit = workGroupRefit(m_kernel, ctx.clDevice(), shape->wgx * shape->wgy)) {
          maxGroup = *limit;  // fewer work-items than the device allows (registers): shrink and rebuild
          m_options.clear();
          continue;
        }
      }
      break;
    }
    if (!m_byValue) uploadFloats(ctx, m_weights, m_factors);
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    // The program is specialised on whether rows are whole words; prepare() normally saw this width already.
    if (rowWords(frame.width) != m_rowWords) prepare(ctx, m_filter, frame.width, frame.height);
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height);
    if (m_byValue)
      m_kernel.setArg(4, m_factors.size() * sizeof(float), m_factors.data());
    else
      m_kernel.setArg(4, m_weights);
    m_kernel.setArg(5, m_offset);
    m_kernel.setArg(6, m_border);
    const auto groupsX =
        static_cast<size_t>((frame.width + m_shape.px * m_shape.wgx - 1) / (m_shape.px * m_shape.wgx));
    const auto groupsY =
        static_cast<size_t>((frame.height + m_shape.by * m_shape.wgy - 1) / (m_shape.by * m_shape.wgy));
    const cl::NDRange local(static_cast<size_t>(m_shape.wgx), static_cast<size_t>(m_shape.wgy));
    const cl::NDRange global(groupsX * local[0], groupsY * local[1]);
    return {launch2d(ctx, m_kernel, m_config.name, global, local, waitFor)};
  }

 private:
  /// Whether the factors fit the device's kernel-argument space beside the other arguments (NVIDIA: 4 KiB,
  /// the OpenCL minimum 1 KiB; 6·r·K floats: 168 bytes for a 7×7 rank-1 filter).
  static bool factorsFitAsArgument(const Context& ctx, std::size_t bytes) {
    const std::size_t others = 2 * sizeof(cl_mem) + 2 * sizeof(cl_int) + 2 * sizeof(cl_float4) + 64;
    return bytes + others <= ctx.clDevice().getInfo<CL_DEVICE_MAX_PARAMETER_SIZE>();
  }

  /// Whether a row of `width` pixels is whole 32-bit words (lowrank.cl's ROW_WORDS).
  static bool rowWords(int width) { return width * 3 % 4 == 0; }

  FusedShape requestedShape(const DeviceInfo& dev) const {
    return FusedShape::parse(m_variant).value_or(defaultFusedShape(dev));
  }

  TwoPassConfig m_config;
  std::string m_variant;  ///< FusedShape grammar; anything else keeps the default shape
  std::string m_options;
  FusedShape m_shape;
  FilterSet m_filter;  ///< what prepare() last saw, for a rebuild when the width's word alignment changes
  bool m_rowWords = false;  ///< the program's ROW_WORDS
  cl::Kernel m_kernel;
  cl::Buffer m_weights;          ///< the factors when they go through a __constant buffer
  std::vector<float> m_factors;  ///< lowrankWeights of the prepared filter
  bool m_byValue = false;        ///< the program's WEIGHTS_BY_VALUE
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeLowrankStrategy() {
  return std::make_unique<TwoPassStrategy>(TwoPassConfig{"lowrank", &lowrankRule});
}

std::unique_ptr<Strategy> makeSeparableStrategy() {
  return std::make_unique<TwoPassStrategy>(TwoPassConfig{"separable", &separableRule});
}

}  // namespace convolab
