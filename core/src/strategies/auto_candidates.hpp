// SPDX-License-Identifier: MIT
// auto's candidate rules: which strategies are worth measuring for a filter, in which order, and which are
// left out because their build or their run cannot repay at this K (issue 31: at K = 63 on PoCL codegen's
// literal build takes 275 s and sliding's 151 s, naive 8 s a 720p frame, while fft runs in 0.1 s whatever K).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/filter.hpp"

namespace convolab::auto_detail {

/// How a strategy's cost grows with K, by registry name (unknown names, a test's, count as Generic).
enum class CostClass {
  Literal,    ///< coefficients baked as literals, every tap unrolled: build time grows with the taps
  Unrolled,   ///< K as a build option, its K² loop unrolled by the compiler: build time grows with K²
  Emulated,   ///< Unrolled, and made for GPU hardware (local memory, a texture sampler) a CPU driver emulates
  Generic,    ///< K an argument, one program: no K-dependent build; run time grows with the taps
  Factored,   ///< rank × 2 one-dimensional passes: run time grows with rank × K
  Transform,  ///< FFT: run time nearly independent of K
};
CostClass costClassOf(std::string_view strategy);
/// Literal, Unrolled or Emulated: every build (and every tuning variant is one) grows with K.
bool buildGrowsWithK(std::string_view strategy);

/// A literal build is left out above this many non-zero taps in one channel when a Transform or Factored
/// candidate accepts the filter, on a CPU device: 21 × 21. Up to there PoCL builds it in seconds (K = 63 took
/// 151-275 s) and codegen still beat fft (PoCL 720p dense, 2026-12-05: K = 17 codegen 9.1 ms, tiled 10.9 as
/// auto ran it; K = 21 codegen 14.1, vector 17.4, fft 18.3; K = 23 fft 20.4, codegen 26.3:
/// docs/BENCHMARKS.md).
inline constexpr int kMaxLiteralTaps = 21 * 21;
/// The same on a GPU, whose compiler builds a K = 17-21 literal program in seconds, and where codegen still
/// beats fft at K = 17: H200, 1280×720 dense, codegen 0.062 ms, fft 0.079; at K = 21 fft 0.090, sliding
/// 0.144, codegen 0.177 (docs/BENCHMARKS.md, the GPU K sweep of 2026-12-02). So up to 19 × 19.
inline constexpr int kMaxLiteralTapsGpu = 19 * 19;
/// In the large-K regime (a Transform candidate accepts the filter), another Generic candidate (naive) runs
/// the provisional one's loop with less help: it is not measured when the best time so far is under this
/// fraction of the provisional one's, i.e. when it would have to be over 2× faster than it. (Not the unrolled
/// ones: on PoCL at K = 31 tiled ran 24× faster than dynamic, and beside fft.)
inline constexpr double kGenericHopelessFraction = 0.5;

/// The most non-zero taps of any channel of `filter`.
int maxNonZeroTaps(const FilterSet& filter);

/// What the rules know of the filter and the device.
struct CandidateContext {
  bool cheaperPath = false;  ///< a Transform or Factored candidate accepts the filter
  bool largeK = false;       ///< a Transform candidate accepts the filter
  bool cpuDevice = false;    ///< the device is not a GPU
};

/// Why `strategy` is not measured for `filter` before anything is timed, or nullopt: a literal build of over
/// kMaxLiteralTaps taps (kMaxLiteralTapsGpu on a GPU) where a cheaper path exists; at large K on a CPU device
/// an Emulated strategy (PoCL at K = 31, 320×180: image 1350 ms, local 259 ms, tiled 5 ms, fft 28 ms).
std::optional<std::string> priorExclusion(std::string_view strategy, const FilterSet& filter,
                                          const CandidateContext& where);

/// Why the Generic `strategy` is not measured now that the provisional generic strategy took `provisionalMs`
/// and the best so far is `bestName` at `bestMs`, or nullopt. Only in the large-K regime (`largeK`: a
/// Transform candidate accepts the filter).
std::optional<std::string> hopelessExclusion(std::string_view strategy, bool largeK, double provisionalMs,
                                             std::string_view bestName, double bestMs);

/// `names` reordered for round 1: Transform and Factored first (their times bound the others'), then
/// `provisional`, then Unrolled, Literal, Emulated and Generic (the usual winners early: a swap to one of
/// them need not wait for the slow ones), each class in its order.
std::vector<std::string> measuringOrder(std::vector<std::string> names, std::string_view provisional);

/// One candidate left out, and why (auto's verbose log says so; tests and the bench read it).
struct Exclusion {
  std::string strategy, reason;
};

}  // namespace convolab::auto_detail
