// SPDX-License-Identifier: MIT
// Kernel generators: shape, normalisation, symmetry and parameter checks of each kind.
#include "convolab/generators.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"

namespace convolab {
namespace {

double sumOf(const ChannelFilter& f) {
  double s = 0;
  for (double v : f.matrix) s += v;
  return s;
}

double spreadOf(const ChannelFilter& f) {
  double s = 0;
  for (double v : f.matrix) s += std::abs(v);
  return s;
}

TEST(Generators, GaussianSumsToOneAndIsSymmetricWithItsPeakInTheCentre) {
  const ChannelFilter g = generateKernel({.kind = "gaussian", .size = 31, .sigma = 5});
  ASSERT_EQ(g.size, 31);
  EXPECT_NEAR(sumOf(g), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(g.at(15, 15), *std::max_element(g.matrix.begin(), g.matrix.end()));
  EXPECT_DOUBLE_EQ(g.at(3, 10), g.at(10, 3));
  EXPECT_DOUBLE_EQ(g.at(3, 10), g.at(27, 20));
  // exp(-1/(2σ²)) between neighbours on an axis
  EXPECT_NEAR(g.at(15, 16) / g.at(15, 15), std::exp(-1.0 / 50.0), 1e-12);
}

TEST(Generators, DiskCoversItsAreaAndNothingOutside) {
  const ChannelFilter d = generateKernel({.kind = "disk", .size = 31, .radius = 10});
  EXPECT_NEAR(sumOf(d), 1.0, 1e-12);
  EXPECT_EQ(d.at(15, 15), d.at(15, 20));  // inside: full weight
  EXPECT_EQ(d.at(15, 27), 0.0);           // 12 px out
  EXPECT_EQ(d.at(4, 4), 0.0);             // a corner
  const double full = d.at(15, 15);       // full-pixel weight = 1 / area, area ≈ π·10²
  EXPECT_NEAR(1.0 / full, std::acos(-1.0) * 100, 6.0);
}

TEST(Generators, MotionBlurIsALineOfTheGivenLengthAndAngle) {
  const ChannelFilter h = generateKernel({.kind = "motion", .size = 17, .length = 9, .angle = 0});
  EXPECT_NEAR(sumOf(h), 1.0, 1e-12);
  for (int i = 4; i <= 12; ++i) EXPECT_GT(h.at(8, i), 0.0) << i;  // centre ± 4 on the middle row
  EXPECT_EQ(h.at(8, 2), 0.0);
  EXPECT_EQ(h.at(5, 8), 0.0);
  const ChannelFilter v = generateKernel({.kind = "motion", .size = 17, .length = 9, .angle = 90});
  for (int j = 0; j < 17; ++j)
    for (int i = 0; i < 17; ++i) EXPECT_NEAR(v.at(j, i), h.at(i, j), 1e-12);  // 90° is the transpose
}

TEST(Generators, LaplacianOfGaussianAndGaborHaveZeroMean) {
  const ChannelFilter log = generateKernel({.kind = "log", .size = 21, .sigma = 3});
  EXPECT_NEAR(sumOf(log), 0.0, 1e-12);
  EXPECT_NEAR(spreadOf(log), 2.0, 1e-12);
  EXPECT_GT(log.at(10, 10), 0.0);  // a bright spot answers positively
  const ChannelFilter gabor =
      generateKernel({.kind = "gabor", .size = 31, .sigma = 4, .angle = 0, .lambda = 8});
  EXPECT_NEAR(sumOf(gabor), 0.0, 1e-12);
  EXPECT_NEAR(spreadOf(gabor), 2.0, 1e-12);
  EXPECT_GT(gabor.at(15, 15), 0.0);
  EXPECT_LT(gabor.at(15, 19), 0.0);  // half a wavelength along x: the cosine's trough
  EXPECT_NEAR(gabor.at(15, 19), gabor.at(15, 11), 1e-12);
}

TEST(Generators, EveryKindMakesAValidFilterUpToK63) {
  for (const std::string& kind : generatorKinds()) {
    const ChannelFilter f = generateKernel(
        {.kind = kind, .size = 63, .sigma = 9, .radius = 30, .length = 60, .angle = 30, .lambda = 12});
    EXPECT_NO_THROW(FilterSet::uniform(f)) << kind;
  }
}

TEST(Generators, RejectsBadParametersNamingThem) {
  auto message = [](const GeneratorParams& p) {
    try {
      generateKernel(p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({.kind = "gaussian", .size = 65, .sigma = 1}).find("size 65"), std::string::npos);
  EXPECT_NE(message({.kind = "gaussian", .size = 8, .sigma = 1}).find("odd"), std::string::npos);
  EXPECT_NE(message({.kind = "gaussian", .size = 7, .sigma = 0}).find("sigma"), std::string::npos);
  EXPECT_NE(message({.kind = "disk", .size = 7}).find("radius"), std::string::npos);
  EXPECT_NE(message({.kind = "motion", .size = 7, .length = 0.5}).find("length"), std::string::npos);
  EXPECT_NE(message({.kind = "gabor", .size = 7, .sigma = 1}).find("lambda"), std::string::npos);
  EXPECT_NE(message({.kind = "box", .size = 7}).find("unknown kind"), std::string::npos);
}

// The parameters travel in the filter file, so the kernel can be made again; the matrix is saved as well.
TEST(Generators, ParametersRoundTripThroughTheFileAndRegenerateTheMatrix) {
  const GeneratorParams params{.kind = "gabor", .size = 45, .sigma = 6.5, .angle = 30, .lambda = 11};
  const FilterSet filter =
      FilterSet::uniform(generateKernel(params), BorderMode::Wrap, "Gabor").withGenerator(params);
  const std::string text = toFilterJson(filter);
  EXPECT_NE(text.find("\"generator\""), std::string::npos);
  const FilterSet back = parseFilterJson(text, "gabor.json");
  EXPECT_EQ(back, filter);
  ASSERT_TRUE(back.generator());
  EXPECT_EQ(generateKernel(*back.generator()), back.channel(0));
  EXPECT_EQ(back.withBorder(BorderMode::Reflect).generator(), params);  // an edit keeps it
  EXPECT_FALSE(parseFilterJson(toFilterJson(FilterSet::uniform(back.channel(0))), "plain.json").generator());
}

TEST(Generators, FileRejectsABadGeneratorNamingTheField) {
  auto message = [](const std::string& generator) {
    try {
      parseFilterJson(R"({"matrix": [[1]], "generator": )" + generator + "}", "g.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(R"({"kind": "box"})").find("'generator.kind'"), std::string::npos);
  EXPECT_NE(message(R"({"sigma": 1})").find("'generator.kind': missing"), std::string::npos);
  EXPECT_NE(message(R"({"kind": "gaussian", "sigmaa": 1})").find("'generator.sigmaa'"), std::string::npos);
  EXPECT_NE(message(R"({"kind": "gaussian", "sigma": "2"})").find("finite number"), std::string::npos);
  EXPECT_NE(message("3").find("'generator'"), std::string::npos);
}

}  // namespace
}  // namespace convolab
