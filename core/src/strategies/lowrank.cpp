// SPDX-License-Identifier: MIT
// lowrank and separable: the filter as a sum of r separable terms (SVD), one fused row pass and one column
// pass (kernels/lowrank.cl). `separable` is the same class with r fixed to 1 and its own accept rule.
#include <algorithm>

#include "../strategy_support.hpp"
#include "convolab/analysis.hpp"
#include "convolab/error.hpp"

namespace convolab {
namespace {

constexpr size_t kGroupX = 32, kGroupY = 4;
constexpr const char* kChannelNames[] = {"R", "G", "B"};

/// Terms used: the largest channel rank, at least 1 (an all-zero filter runs as one zero term).
int termsOf(const FilterAnalysis& analysis) {
  return std::max(1, analysis.maxRank());
}

/// lowrank's rule: the 2·r·K taps of r separable terms must stay within two thirds of the K² dense taps
/// (3·r ≤ K); the remaining third pays for the intermediate's memory traffic and the second launch. K = 7
/// takes r ≤ 2, K = 15 r ≤ 5; K ≤ 2 never (a single tap is already cheapest dense).
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

/// Weights as lowrank.cl lays them out: row factors, column factors, constant-border edge terms.
std::vector<float> lowrankWeights(const FilterSet& filter, const FilterAnalysis& analysis, int terms) {
  const int k = filter.size();
  const auto block = static_cast<size_t>(3 * terms * k);
  std::vector<float> w(2 * block + static_cast<size_t>(3 * k), 0.0f);
  for (int c = 0; c < kChannels; ++c) {
    const ChannelAnalysis& a = analysis.channels[static_cast<size_t>(c)];
    for (int t = 0; t < static_cast<int>(a.terms.size()) && t < terms; ++t)
      for (int n = 0; n < k; ++n) {
        const auto at = static_cast<size_t>((t * 3 + c) * k + n);
        w[at] = static_cast<float>(a.terms[static_cast<size_t>(t)].row[static_cast<size_t>(n)]);
        w[block + at] = static_cast<float>(a.terms[static_cast<size_t>(t)].column[static_cast<size_t>(n)]);
      }
    const double border = filter.borderValue()[static_cast<size_t>(c)];
    for (int j = 0; j < k; ++j) {
      double rowSum = 0;  // row j of the exact dense weights
      for (int i = 0; i < k; ++i) rowSum += filter.channel(c).weight(j, i);
      w[2 * block + static_cast<size_t>(c * k + j)] = static_cast<float>(border * rowSum);
    }
  }
  return w;
}

class TwoPassStrategy final : public Strategy {
 public:
  explicit TwoPassStrategy(TwoPassConfig config) : m_config(config) {}

  std::string name() const override { return m_config.name; }

  std::optional<std::string> unsupportedReason(const Context&, const FilterSet& filter) const override {
    return m_config.reject(filter, analyzeFilter(filter));
  }

  /// Both rows build lowrank.cl with the same RANK for a given filter: on rank-1 filters they are one
  /// program.
  std::string kernelIdentity(const Context&, const FilterSet& filter) const override {
    return "lowrank/RANK=" + std::to_string(termsOf(analyzeFilter(filter)));
  }

  void prepare(Context& ctx, const FilterSet& filter, int width, int height) override {
    const FilterAnalysis analysis = analyzeFilter(filter);
    const int terms = termsOf(analysis);
    const std::string options = baseBuildOptions(filter) + " -DRANK=" + std::to_string(terms);
    if (options != m_options) {
      const cl::Program program = ctx.buildKernelProgram("lowrank", options);
      m_rows = cl::Kernel(program, "lowrank_rows");
      m_columns = cl::Kernel(program, "lowrank_columns");
      m_options = options;
    }
    m_terms = terms;
    ensureIntermediate(ctx, width, height);
    uploadFloats(ctx, m_weights, lowrankWeights(filter, analysis, terms));
    m_offset = offsetsOf(filter);
    m_border = borderValuesOf(filter);
  }

  std::vector<NamedEvent> enqueue(Context& ctx, const FrameBuffers& frame,
                                  const std::vector<cl::Event>& waitFor) override {
    ensureIntermediate(ctx, frame.width, frame.height);  // prepare() normally did this already
    return enqueueRowsThenColumns(ctx, frame, m_config.name, m_rows, m_columns, m_intermediate, m_weights,
                                  m_border, m_offset, cl::NDRange(kGroupX, kGroupY), waitFor);
  }

 private:
  /// (Re)allocates the float intermediate for a width×height frame when its size changes.
  void ensureIntermediate(Context& ctx, int width, int height) {
    const size_t bytes = 3 * static_cast<size_t>(m_terms) * sizeof(float) * static_cast<size_t>(width) *
                         static_cast<size_t>(height);
    if (m_intermediate() && bytes == m_intermediateBytes) return;
    const std::string name = m_config.name;
    if (bytes > ctx.device().maxAllocBytes)
      throw Error(ErrorKind::Device, name + ": the " + std::to_string(bytes >> 20) +
                                         " MiB intermediate exceeds the device's allocation limit");
    try {
      m_intermediate = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
    } catch (const cl::Error& e) {
      throw ClError("clCreateBuffer", e.err(), name + " intermediate of " + std::to_string(bytes) + " bytes");
    }
    m_intermediateBytes = bytes;
  }

  TwoPassConfig m_config;
  std::string m_options;
  cl::Kernel m_rows, m_columns;
  cl::Buffer m_weights, m_intermediate;
  size_t m_intermediateBytes = 0;
  int m_terms = 1;
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
