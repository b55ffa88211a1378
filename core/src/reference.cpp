// SPDX-License-Identifier: MIT
// The CPU reference convolution: direct double-precision sum, border via borderInterpolate.
#include "convolab/reference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/saturate_round.hpp"

namespace convolab {
namespace {

// Calls emit(x, y, c, value) with each output's unrounded value: offset + Σ M·in / divisor.
template <typename Emit>
void forEachSum(const ImageView& in, const FilterSet& filter, Emit&& emit) {
  const int k = filter.size(), r = filter.radius();
  // Source columns and rows of every tap, looked up once (-1: outside, the constant border) instead of once
  // per tap and pixel; the sums themselves are unchanged, in the same order.
  std::vector<int> sxOf(static_cast<size_t>(in.width) * static_cast<size_t>(k));
  for (int x = 0; x < in.width; ++x)
    for (int i = 0; i < k; ++i)
      sxOf[static_cast<size_t>(x * k + i)] = borderInterpolate(x + i - r, in.width, filter.border());
  std::vector<int> syOf(static_cast<size_t>(k));
  for (int c = 0; c < 3; ++c) {
    const ChannelFilter& f = filter.channel(c);
    const double border = filter.borderValue()[static_cast<size_t>(c)];
    for (int y = 0; y < in.height; ++y) {
      for (int j = 0; j < k; ++j)
        syOf[static_cast<size_t>(j)] = borderInterpolate(y + j - r, in.height, filter.border());
      for (int x = 0; x < in.width; ++x) {
        const int* sx = &sxOf[static_cast<size_t>(x * k)];
        double sum = 0;
        for (int j = 0; j < k; ++j) {
          const int sy = syOf[static_cast<size_t>(j)];
          const std::uint8_t* row = sy < 0 ? nullptr : in.row(sy);
          const double* w = &f.matrix[static_cast<size_t>(j * k)];
          for (int i = 0; i < k; ++i) {
            const double v = (row == nullptr || sx[i] < 0) ? border : row[sx[i] * 3 + c];
            sum += w[i] * v;
          }
        }
        emit(x, y, c, f.offset + sum / f.divisor);
      }
    }
  }
}

void requireSameSize(const ImageView& in, const MutableImageView& out, const char* what) {
  if (in.width != out.width || in.height != out.height)
    throw Error(ErrorKind::Usage, std::string(what) + ": input and output sizes differ");
}

}  // namespace

void referenceConvolve(const ImageView& in, const MutableImageView& out, const FilterSet& filter) {
  requireSameSize(in, out, "referenceConvolve");
  forEachSum(in, filter, [&](int x, int y, int c, double v) { out.row(y)[x * 3 + c] = saturateRound(v); });
}

void referenceMagnitude(const ImageView& in, const MutableImageView& out, const FilterSet& a,
                        const FilterSet& b) {
  requireSameSize(in, out, "referenceMagnitude");
  const size_t n = static_cast<size_t>(in.width) * static_cast<size_t>(in.height) * 3;
  std::vector<double> first(n);
  auto at = [&](int x, int y, int c) { return (static_cast<size_t>(y) * in.width + x) * 3 + c; };
  forEachSum(in, a, [&](int x, int y, int c, double v) { first[at(x, y, c)] = v; });
  // sqrt(a² + b²), not std::hypot: glibc's hypot may be 1 ulp off, which moves an exact .5 (a = 2.5, b = 6
  // gives 6.5) to the other side of the tie; a² + b² is exact in double for every sum a filter can reach (<
  // 2^24).
  forEachSum(in, b, [&](int x, int y, int c, double v) {
    const double a = first[at(x, y, c)];
    out.row(y)[x * 3 + c] = saturateRound(std::sqrt(a * a + v * v));
  });
}

void referenceChain(const ImageView& in, const MutableImageView& out, const FilterChain& chain) {
  requireSameSize(in, out, "referenceChain");
  if (chain.hasCustomStep())
    throw Error(ErrorKind::Usage,
                "a chain with a custom OpenCL step has no CPU reference: it runs only on an "
                "OpenCL device");
  // Each step reads the previous step's rounded, saturated image (DESIGN §1); switched-off steps are skipped.
  Image current(in.width, in.height), next(in.width, in.height);
  for (int y = 0; y < in.height; ++y) std::copy_n(in.row(y), in.width * 3, current.mutableView().row(y));
  for (const ChainStep& step : chain.enabledSteps()) {
    if (step.isMagnitude())
      referenceMagnitude(current.view(), next.mutableView(), step.filter, *step.other);
    else
      referenceConvolve(current.view(), next.mutableView(), step.filter);
    std::swap(current, next);
  }
  for (int y = 0; y < in.height; ++y) std::copy_n(current.view().row(y), in.width * 3, out.row(y));
}

}  // namespace convolab
