// separable: rank-1 filters as a row pass into a float intermediate, then a column pass.
#include "../strategy_support.hpp"
#include "convolab/analysis.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

constexpr size_t kGroupX = 32, kGroupY = 4;
constexpr const char* kChannelNames[] = {"R", "G", "B"};

/// Weights as separable.cl lays them out: row factors, column factors, constant-border edge terms.
std::vector<float> separableWeights(const FilterSet& filter, const FilterAnalysis& analysis) {
  const int k = filter.size();
  std::vector<float> w(static_cast<size_t>(9 * k), 0.0f);
  for (int c = 0; c < kChannels; ++c) {
    const ChannelAnalysis& a = analysis.channels[static_cast<size_t>(c)];
    const double border = filter.borderValue()[static_cast<size_t>(c)];
    for (int n = 0; n < k; ++n) {
      const auto at = static_cast<size_t>(c * k + n);
      if (!a.terms.empty()) {  // rank 0 (all weights zero): both factors stay zero
        w[at] = static_cast<float>(a.terms[0].row[static_cast<size_t>(n)]);
        w[static_cast<size_t>(3 * k) + at] = static_cast<float>(a.terms[0].column[static_cast<size_t>(n)]);
      }
      double rowSum = 0;  // row n of the exact dense weights, not of the factors
      for (int i = 0; i < k; ++i) rowSum += filter.channel(c).weight(n, i);
      w[static_cast<size_t>(6 * k) + at] = static_cast<float>(border * rowSum);
    }
  }
  return w;
}

class SeparableStrategy final : public Strategy {
 public:
  std::string name() const override { return "separable"; }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet& filter) const override {
    const FilterAnalysis analysis = analyzeFilter(filter);
    for (int c = 0; c < kChannels; ++c) {
      const int rank = analysis.channels[static_cast<size_t>(c)].rank;
      if (rank > 1)
        return "filter is not separable (rank " + std::to_string(rank) + " in channel " + kChannelNames[c] +
               ")";
    }
    return std::nullopt;
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    const std::string options = baseBuildOptions(filter);
    if (options != m_options) {
      const cl::Program program = ctx.buildKernelProgram("separable", options);
      m_rows = cl::Kernel(program, "separable_rows");
      m_columns = cl::Kernel(program, "separable_columns");
      m_options = options;
    }
    ensureIntermediate(ctx, width, height);
    uploadFloats(ctx, m_weights, separableWeights(filter, analyzeFilter(filter)));
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    ensureIntermediate(ctx, frame.width, frame.height);  // prepare() normally did this already
    return enqueueRowsThenColumns(ctx, frame, "separable", m_rows, m_columns, m_intermediate, m_weights,
                                  m_border, m_offset, cl::NDRange(kGroupX, kGroupY), waitFor);
  }

 private:
  /// (Re)allocates the float intermediate for a width×height frame when its size changes.
  void ensureIntermediate(Context& ctx, int width, int height) {
    const size_t bytes = 3 * sizeof(float) * static_cast<size_t>(width) * static_cast<size_t>(height);
    if (m_intermediate() && bytes == m_intermediateBytes) return;
    if (bytes > ctx.device().maxAllocBytes)
      throw Error(ErrorKind::Device, "separable: the " + std::to_string(bytes >> 20) +
                                         " MiB intermediate exceeds the device's allocation limit");
    try {
      m_intermediate = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
    } catch (const cl::Error& e) {
      throw ClError("clCreateBuffer", e.err(),
                    "separable intermediate of " + std::to_string(bytes) + " bytes");
    }
    m_intermediateBytes = bytes;
  }

  std::string m_options;
  cl::Kernel m_rows, m_columns;
  cl::Buffer m_weights, m_intermediate;
  size_t m_intermediateBytes = 0;
  cl_float4 m_offset{}, m_border{};
};

}  // namespace

std::unique_ptr<Strategy> makeSeparableStrategy() {
  return std::make_unique<SeparableStrategy>();
}

}  // namespace convolab
