// SPDX-License-Identifier: MIT
// TileShape: the one variant grammar, geometry, device fit and post-build re-fit of vector, tiled and
// codegen; SlidingShape, sliding's dialect of the same grammar (ShapeVariant).
#include <gtest/gtest.h>

#include "convolab/registry.hpp"
#include "shape_variant.hpp"
#include "sliding_shape.hpp"
#include "test_support.hpp"
#include "tile_shape.hpp"

namespace convolab::test {
namespace {

TEST(TileShape, GrammarRoundTripsAndShortFormTakesDefaults) {
  const TileShape s{16, 3, 5, 7, 8, false, true};
  EXPECT_EQ(s.str(), "b16x3-wg5x7-f8-s0-c1");
  EXPECT_EQ(TileShape::parse(s.str(), TileShape{}), s);
  const TileShape cpu{8, 4, 16, 8, 8, false, true};
  const auto shortForm = TileShape::parse("b4x2-wg32x4", cpu);
  ASSERT_TRUE(shortForm);
  EXPECT_EQ(*shortForm, (TileShape{4, 2, 32, 4, 8, false, true}));
  for (const char* bad : {"", "nonsense", "b5x2-wg4x4", "b4x0-wg4x4", "b4x17-wg4x4", "b4x2-wg0x4",
                          "b4x2-wg4x4-f3-s0-c0", "b4x2-wg4x4-f4"})
    EXPECT_FALSE(TileShape::parse(bad, cpu)) << bad;
}

TEST(TileShape, EveryAdvertisedVariantParses) {
  auto ctx = sharedContext();
  const FilterSet f = randomFilter(5, BorderMode::Reflect101, 1);
  for (const char* name : {"vector", "tiled", "codegen"}) {
    for (const auto& v : createStrategy(name)->tuningVariants(*ctx, f)) {
      if (v.empty()) continue;  // the default
      EXPECT_TRUE(TileShape::parse(v, TileShape{})) << name << " " << v;
    }
  }
}

TEST(ShapeVariant, FieldsFollowTheirOrderAndNothingTrails) {
  const auto v = ShapeVariant::parse("s4x16-wg32x2-u3", 's', "cu");
  ASSERT_TRUE(v);
  EXPECT_EQ(std::tie(v->a, v->b, v->wgx, v->wgy), std::tuple(4, 16, 32, 2));
  EXPECT_FALSE(v->field('c'));
  EXPECT_EQ(v->field('u'), 3);
  EXPECT_EQ(v->str(), "s4x16-wg32x2-u3");
  for (const char* bad :
       {"", "s4x16", "b4x16-wg32x2", "s4x16-wg32x2-", "s4x16-wg32x2-u3-c1", "s4x16-wg32x2-c1-c1",
        "s4x16-wg32x2-x1", "s4x16-wg32x2-c-1", "s4x16-wg32x2zz", "s+4x16-wg32x2"})
    EXPECT_FALSE(ShapeVariant::parse(bad, 's', "cu")) << bad;
}

TEST(SlidingShape, GrammarRoundTripsAndLeftOutFieldsTakeDefaults) {
  const SlidingShape s{2, 5, 3, 2, true, 3};
  EXPECT_EQ(s.str(), "s2x5-wg3x2-c1-u3");
  EXPECT_EQ(SlidingShape::parse(s.str(), SlidingShape{}), s);
  const SlidingShape cpu = defaultSlidingShape(false, 5);
  EXPECT_EQ(SlidingShape::parse("s4x8-wg32x2", cpu), (SlidingShape{4, 8, 32, 2, true, 1}));
  EXPECT_EQ(SlidingShape::parse("s4x8-wg32x2-c0", cpu), (SlidingShape{4, 8, 32, 2, false, 1}));
  EXPECT_EQ(SlidingShape::parse("s4x8-wg32x2-u7", cpu), (SlidingShape{4, 8, 32, 2, true, 7}));
  for (const char* bad : {"", "nonsense", "s3x8-wg32x2", "s4x0-wg32x2", "s4x257-wg32x2", "s4x8-wg0x2",
                          "s4x8-wg64x32", "s4x8-wg32x2-u0", "s4x8-wg32x2-u17", "s4x8-wg32x2-u2-c1",
                          "b4x8-wg32x2", "s4x8-wg2000000000x2000000000"})
    EXPECT_FALSE(SlidingShape::parse(bad, cpu)) << bad;
}

TEST(SlidingShape, EveryAdvertisedVariantParses) {
  auto ctx = sharedContext();
  for (int k : {5, 11}) {
    for (const auto& v :
         createStrategy("sliding")->tuningVariants(*ctx, randomFilter(k, BorderMode::Reflect101, 1))) {
      if (v.empty()) continue;  // the default
      EXPECT_TRUE(SlidingShape::parse(v, SlidingShape{})) << v;
    }
  }
}

TEST(TileShape, GeometryMatchesTheKernelsLayout) {
  const TileGeometry g(TileShape{4, 8, 16, 4, 1, true, false}, 7);
  EXPECT_EQ(g.trows, 4 * 8 + 6);
  EXPECT_EQ(g.fillBytes, 3 * (16 * 4 + 6));
  EXPECT_EQ(g.segLen, 32);  // 3·4 + 3·6 = 30, rounded up to 4
  EXPECT_EQ(g.tstride % 4, 0);
  EXPECT_GE(g.tstride, 3 * 4 * 15 + g.segLen);  // the last work-item's aligned segment fits
  EXPECT_EQ(g.localBytes(), static_cast<std::uint64_t>(g.trows * g.tstride) * 4);
  EXPECT_GT(TileGeometry(g.shape, 7, true).localBytes(), g.localBytes());  // + the horizontal-pass buffer
  EXPECT_EQ(g.globalRange(65, 33)[0], 2u * 16);  // two tiles of 64 pixels across, whole work-groups
  EXPECT_EQ(g.globalRange(65, 33)[1], 2u * 4);
  EXPECT_NE(g.buildOptions().find("-DTSTRIDE=" + std::to_string(g.tstride)), std::string::npos);
  EXPECT_NE(g.defines().find("#define FILL_BYTES " + std::to_string(g.fillBytes)), std::string::npos);
}

TEST(TileShape, FitShrinksGroupHeightThenBlockThenWidth) {
  DeviceInfo dev;
  dev.localMemBytes = 1u << 20;
  const TileShape s{4, 8, 16, 4, 1, true, false};
  EXPECT_EQ(fitTile(s, 3, dev, 1024)->shape, s);
  EXPECT_EQ(fitTile(s, 3, dev, 32)->shape, (TileShape{4, 8, 16, 2, 1, true, false}));
  EXPECT_EQ(fitTile(s, 3, dev, 8)->shape, (TileShape{4, 1, 8, 1, 1, true, false}));
  dev.localMemBytes = 8192;
  const auto small = fitTile(s, 15, dev, 1024);
  ASSERT_TRUE(small);
  EXPECT_LE(small->localBytes(), 8192u);
  dev.localMemBytes = 64;
  EXPECT_FALSE(fitTile(s, 15, dev, 1024));
  EXPECT_EQ(s.shrunkToGroup(16), (TileShape{4, 8, 16, 1, 1, true, false}));
}

TEST(TileShape, PatternWeightsFollowTheLanes) {
  const FilterSet f = randomFilter(3, BorderMode::Reflect, 2);
  const auto w = chunkPatternWeights(f, 4);
  ASSERT_EQ(w.size(), 3u * 3 * 3 * 4);
  // Tap (1, 2), chunk 1, lane 2: channel (4·1 + 2) % 3 = 0.
  EXPECT_EQ(w[((1 * 3 + 2) * 3 + 1) * 4 + 2], static_cast<float>(f.channel(0).weight(1, 2)));
}

}  // namespace
}  // namespace convolab::test
