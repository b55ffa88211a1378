// Shared helpers for core tests.
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>

namespace convolab::test {

namespace {
// Tests check what auto runs, not how precisely it ranks: two timed runs per finalist keep the auto
// sweep quick (an explicit CONVOLAB_AUTO_RUNS still wins).
const bool kQuickAuto = [] { return ::setenv("CONVOLAB_AUTO_RUNS", "2", 0) == 0; }();
}  // namespace

std::shared_ptr<Context> sharedContext() {
  static std::shared_ptr<Context> ctx = std::make_shared<Context>("");
  return ctx;
}

Image randomImage(int width, int height, std::uint32_t seed, std::size_t padding) {
  Image img(width, height, static_cast<std::size_t>(width) * 3 + padding);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 255);
  for (auto& p : img.pixels) p = static_cast<std::uint8_t>(d(rng));
  return img;
}

FilterSet randomFilter(int k, BorderMode border, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> w(-1.0, 1.0), off(-40.0, 40.0), bv(0.0, 255.0);
  std::array<ChannelFilter, 3> ch;
  for (auto& f : ch) {
    f.size = k;
    f.matrix.resize(static_cast<size_t>(k * k));
    double sum = 0;
    for (auto& v : f.matrix) v = w(rng), sum += v;
    // Keep the response in range: scale so Σ|w|/divisor ≈ 1.5, centre with an offset.
    double abs = 0;
    for (double v : f.matrix) abs += std::abs(v);
    f.divisor = abs / 1.5;
    f.offset = 128.0 - 127.5 * sum / f.divisor + off(rng);
  }
  return FilterSet::make(ch, border, {bv(rng), bv(rng), bv(rng)}, "random");
}

int maxAbsDiff(const ImageView& a, const ImageView& b) {
  int m = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width * 3; ++x) m = std::max(m, std::abs(int(a.row(y)[x]) - int(b.row(y)[x])));
  return m;
}

std::string firstMismatch(const ImageView& ours, const ImageView& ref, int tolerance) {
  for (int y = 0; y < ours.height; ++y)
    for (int x = 0; x < ours.width * 3; ++x)
      if (std::abs(int(ours.row(y)[x]) - int(ref.row(y)[x])) > tolerance)
        return "x=" + std::to_string(x / 3) + " y=" + std::to_string(y) + " c=" + std::to_string(x % 3) +
               " ours=" + std::to_string(ours.row(y)[x]) + " ref=" + std::to_string(ref.row(y)[x]);
  return {};
}

}  // namespace convolab::test
