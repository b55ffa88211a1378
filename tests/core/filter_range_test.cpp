// SPDX-License-Identifier: MIT
// The float-range rule: filters whose sums can leave float's exact range are rejected with a message
// naming the channel and the field; every accepted filter gives the reference result on every strategy.
#include <gtest/gtest.h>

#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/reference.hpp"
#include "convolab/registry.hpp"
#include "test_support.hpp"

namespace convolab::test {
namespace {

ChannelFilter filled(int k, double value, double divisor, double offset) {
  ChannelFilter f;
  f.size = k;
  f.matrix.assign(static_cast<size_t>(k * k), value);
  f.divisor = divisor;
  f.offset = offset;
  return f;
}

/// The message of the BadInput error FilterSet::make throws, or "" when it accepts.
std::string rejection(const std::array<ChannelFilter, 3>& ch, BorderMode border = BorderMode::Reflect101,
                      std::array<double, 3> borderValue = {0, 0, 0}) {
  try {
    FilterSet::make(ch, border, borderValue);
    return "";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    return e.what();
  }
}

TEST(FilterRange, SumsThatOverflowFloatAreRejectedNamingTheField) {
  // 5x5 of 1e30 with divisor 1e-30 (weights 1e60: inf in float).
  const ChannelFilter huge = filled(5, 1e30, 1e-30, 0);
  std::string msg = rejection({huge, huge, huge});
  EXPECT_NE(msg.find("channel r"), std::string::npos) << msg;
  EXPECT_NE(msg.find("divisor"), std::string::npos) << msg;
  EXPECT_NE(msg.find("16777216"), std::string::npos) << msg;
  // Second case: weight -1e7 with offset 1e9 (float cannot hold the sums to the unit).
  ChannelFilter big = ChannelFilter::identity(1);
  big.matrix = {-1e7};
  big.offset = 1e9;
  msg = rejection({ChannelFilter::identity(1), big, ChannelFilter::identity(1)});
  EXPECT_NE(msg.find("channel g"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset"), std::string::npos) << msg;
  big.offset = 0;
  msg = rejection({ChannelFilter::identity(1), ChannelFilter::identity(1), big});
  EXPECT_NE(msg.find("channel b: matrix / divisor"), std::string::npos) << msg;
  // A constant border value is an input too.
  const ChannelFilter ones = filled(3, 1, 1, 0);
  EXPECT_EQ(rejection({ones, ones, ones}, BorderMode::Constant, {255, 255, 255}), "");
  msg = rejection({ones, ones, ones}, BorderMode::Constant, {0, 1e7, 0});
  EXPECT_NE(msg.find("channel g"), std::string::npos) << msg;
  EXPECT_THROW(
      FilterSet::make({ones, ones, ones}, BorderMode::Wrap, {0, 1e7, 0}).withBorder(BorderMode::Constant),
      Error);
}

/// A zero-sum K×K filter of large cancelling weights (seeded), scaled so its reach is `fraction` of the
/// limit, with a non-integer divisor and offset 100: on flat areas the exact result is 100, and what
/// float accumulation makes of the big terms shows.
FilterSet cancelling(int k, double fraction, std::uint32_t seed, BorderMode border) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  ChannelFilter f;
  f.size = k;
  f.matrix.resize(static_cast<size_t>(k * k));
  double mean = 0;
  for (auto& v : f.matrix) mean += (v = d(rng));
  mean /= double(f.matrix.size());
  double abs = 0;
  for (auto& v : f.matrix) abs += std::abs(v -= mean);
  f.divisor = 3.7;
  f.offset = 100;
  const double scale = (fraction * kMaxFilterMagnitude - 100) / (255.0 * abs / f.divisor);
  for (auto& v : f.matrix) v *= scale;
  return FilterSet::uniform(f, border);
}

/// Filters just inside the limit, each with large cancelling terms: where float accumulation could
/// drift from the exact (double) reference.
std::vector<FilterSet> nearTheLimit() {
  std::vector<FilterSet> out;
  // The weight -1e7 / offset 1e9, scaled into range: out = 100 where the pixel is 200.
  ChannelFilter single = ChannelFilter::identity(1);
  single.matrix = {-0.99 * kMaxFilterMagnitude / 455.0};
  single.offset = 100 - single.matrix[0] * 200;
  out.push_back(FilterSet::uniform(single));
  out.push_back(cancelling(3, 0.99, 61, BorderMode::Replicate));
  out.push_back(cancelling(5, 0.99, 62, BorderMode::Reflect));
  out.push_back(cancelling(15, 0.99, 63, BorderMode::Reflect101));
  return out;
}

/// Flat 20×20 blocks (every value 0..255 appears, channels differ), so cancelling filters land in range.
Image blocks(int width, int height) {
  Image img(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c)
        img.pixels[static_cast<size_t>((y * width + x) * 3 + c)] =
            static_cast<std::uint8_t>(((x / 20) * 29 + (y / 20) * 71 + c * 90 + 200) % 256);
  return img;
}

TEST(FilterRange, EveryStrategyMatchesTheReferenceOnFiltersNearTheLimit) {
  const auto ctx = sharedContext();
  const int w = 80, h = 40;
  const Image in = blocks(w, h);
  for (const FilterSet& f : nearTheLimit()) {
    Image ref(w, h);
    referenceConvolve(in.view(), ref.mutableView(), f);
    int inRange = 0;
    for (std::uint8_t v : ref.pixels) inRange += v > 0 && v < 255;
    EXPECT_GT(inRange, 50) << "the test filter (K=" << f.size() << ") must produce unsaturated values";
    for (const auto& entry : strategyRegistry()) {
      if (entry.name == "auto") continue;  // auto runs one of these
      const std::string name(entry.name);
      if (createStrategy(name)->unsupportedReason(*ctx, f)) continue;
      Engine engine(ctx, name);
      engine.setFilter(f);
      Image out(w, h);
      engine.process(in.view(), out.mutableView());
      ASSERT_EQ(engine.activeStrategy(), name);
      EXPECT_LE(maxAbsDiff(out.view(), ref.view()), kTolerance)
          << name << " K=" << f.size() << ": " << firstMismatch(out.view(), ref.view(), kTolerance);
    }
  }
}

}  // namespace
}  // namespace convolab::test
