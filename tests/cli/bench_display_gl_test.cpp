// SPDX-License-Identifier: MIT
// bench --latency's GL display stage (app/cli/bench_display_gl.cpp): every upload variant puts the same
// pixels on the 1280x720 target, at odd widths and padded strides too (R8 rows three bytes a pixel, alignment
// 1, the row length from the stride), and the direct variants hand the engine memory that show() then draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_display_gl.hpp"
#include "convolab/context.hpp"
#include "image_difference.hpp"

namespace {

using convolab::ImageView;
using convolab::kBytesPerPixel;
using convolab::MutableImageView;
using convolab::cli::bench::GlDisplay;
using convolab::cli::bench::GlVariant;
using convolab::test::maxAbsDiff;  // of the byte runs read back (tests/support)
constexpr int kW = GlDisplay::kTargetWidth, kH = GlDisplay::kTargetHeight;

std::vector<GlVariant> allVariants() {
  std::vector<GlVariant> v;
  for (auto f : {GlVariant::Format::Rgb, GlVariant::Format::R8})
    for (auto t : {GlVariant::Transfer::Client, GlVariant::Transfer::Pbo, GlVariant::Transfer::Direct,
                   GlVariant::Transfer::DirectPinned})
      v.push_back({f, t});
  return v;
}

// A frame of random bytes with `pad` bytes after each row.
struct Frame {
  int width, height;
  std::size_t stride;
  std::vector<std::uint8_t> bytes;
  Frame(int w, int h, std::size_t pad, unsigned seed)
      : width(w), height(h), stride(static_cast<std::size_t>(w) * kBytesPerPixel + pad), bytes(stride * h) {
    std::mt19937 rng(seed);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  }
  ImageView view() const { return {bytes.data(), width, height, stride}; }
};

// What nearest sampling of `f` scaled onto the target shows (pixel centres; the first row at the top).
std::vector<std::uint8_t> nearestReference(const Frame& f) {
  std::vector<std::uint8_t> out(std::size_t{kW} * kH * 4);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const int sx = static_cast<int>((x + 0.5) * f.width / kW),
                sy = static_cast<int>((y + 0.5) * f.height / kH);
      const std::uint8_t* p = f.bytes.data() + f.stride * sy + static_cast<std::size_t>(sx) * kBytesPerPixel;
      std::uint8_t* o = out.data() + (std::size_t{kW} * y + x) * 4;
      o[0] = p[0], o[1] = p[1], o[2] = p[2], o[3] = 255;
    }
  return out;
}

// Shows `f` through `gl`: the direct variants fill the memory target() gives, as the engine's download does.
void show(GlDisplay& gl, const Frame& f) {
  if (gl.variant().direct()) {
    const MutableImageView dst = gl.target(f.width, f.height);
    ASSERT_NE(dst.data, nullptr);
    for (int y = 0; y < f.height; ++y)
      std::memcpy(dst.row(y), f.view().row(y), static_cast<std::size_t>(f.width) * kBytesPerPixel);
    gl.show(dst);
  } else {
    gl.show(f.view());
  }
}

class BenchDisplayGl : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      m_cl = std::make_shared<convolab::Context>("cpu");
    } catch (const std::exception&) {
      m_cl.reset();  // direct-pinned then runs as direct (and says so)
    }
  }
  std::unique_ptr<GlDisplay> open(GlVariant v) {
    std::string why;
    auto gl = GlDisplay::open(why, v, m_cl.get());
    if (!gl)
      ADD_FAILURE() << v.name() << ": " << why;  // Mesa's surfaceless EGL is enough: no display is a failure
    return gl;
  }
  std::shared_ptr<convolab::Context> m_cl;
};

TEST_F(BenchDisplayGl, VariantNamesRoundTrip) {
  for (const GlVariant& v : allVariants()) {
    const auto parsed = GlVariant::parse(v.name());
    ASSERT_TRUE(parsed) << v.name();
    EXPECT_EQ(parsed->name(), v.name());
  }
  EXPECT_EQ(GlVariant::parse("gl")->name(), GlVariant{}.name());
  EXPECT_FALSE(GlVariant::parse("gl-rgba"));
  EXPECT_FALSE(GlVariant::parse("stub"));
}

// Nearest sampling is exact: each variant shows the frame's own bytes, at an odd width whose R8 rows (1923
// bytes) are not 4-byte aligned, with padded strides (1933 bytes: RGB goes up row by row; 966: through the
// row length) and at a second size (the texture and pixel buffer are remade).
TEST_F(BenchDisplayGl, EveryVariantShowsTheFramesPixelsAtOddSizes) {
  const Frame odd(641, 479, 10, 1), even(320, 240, 6, 2);
  const auto oddRef = nearestReference(odd), evenRef = nearestReference(even);
  for (const GlVariant& v : allVariants()) {
    SCOPED_TRACE(v.name());
    auto gl = open(v);
    if (!gl) continue;
    gl->setSmooth(false);
    show(*gl, odd);
    EXPECT_EQ(maxAbsDiff(gl->readTarget(), oddRef), 0);
    show(*gl, even);
    EXPECT_EQ(maxAbsDiff(gl->readTarget(), evenRef), 0);
    show(*gl, odd);
    EXPECT_EQ(maxAbsDiff(gl->readTarget(), oddRef), 0);
  }
}

// Bilinear (what the bench times): the R8 shader's own filtering matches the sampler's on an RGB8 texture
// within 2 levels (the sampler's weights are fixed point).
TEST_F(BenchDisplayGl, BilinearR8MatchesTheRgbSampler) {
  const Frame f(641, 479, 0, 3);
  auto rgb = open({GlVariant::Format::Rgb, GlVariant::Transfer::Client});
  auto r8 = open({GlVariant::Format::R8, GlVariant::Transfer::Client});
  if (!rgb || !r8) return;
  show(*rgb, f);
  show(*r8, f);
  const auto a = rgb->readTarget(), b = r8->readTarget();
  EXPECT_LE(maxAbsDiff(a, b), 2);
  EXPECT_GT(maxAbsDiff(a, nearestReference(f)), 2) << "bilinear differs from nearest on random bytes";
}
// kickCompute() puts work on the engine's own OpenCL context after a frame: Kernel (the default) a
// one-work-item kernel that counts its runs, Copy a 4-byte write and read, None nothing; the names parse
// back.
TEST_F(BenchDisplayGl, ComputeKickRunsOnTheEnginesContext) {
  using Kick = GlDisplay::Kick;
  for (Kick k : {Kick::None, Kick::Kernel, Kick::Copy, Kick::All})
    EXPECT_EQ(GlDisplay::parseKick(GlDisplay::kickName(k)), k) << GlDisplay::kickName(k);
  EXPECT_EQ(GlDisplay::parseKick("none"), Kick::None);
  EXPECT_FALSE(GlDisplay::parseKick("sometimes"));
  if (!m_cl) GTEST_SKIP() << "no OpenCL CPU device";
  const Frame f(64, 48, 0, 4);
  auto gl = open(GlVariant{});
  if (!gl) return;
  EXPECT_EQ(gl->kick(), Kick::Kernel) << "the default";
  EXPECT_NE(gl->description().find("compute kick after each frame: kernel"), std::string::npos)
      << gl->description();
  for (int i = 0; i < 3; ++i) {
    show(*gl, f);
    gl->kickCompute();
  }
  EXPECT_EQ(gl->kicks(), 3u);
  EXPECT_EQ(gl->kickedKernels(), 3u) << "each kick ran its kernel on the engine's context";
  gl->setKick(Kick::Copy);
  gl->kickCompute();
  EXPECT_EQ(gl->kicks(), 4u);
  EXPECT_EQ(gl->kickedKernels(), 3u) << "a copy kick runs no kernel";
  gl->setKick(Kick::None);
  gl->kickCompute();
  EXPECT_EQ(gl->kicks(), 4u);
  EXPECT_TRUE(gl->fallback().empty()) << gl->fallback();

  std::string why;
  auto noCl = GlDisplay::open(why, GlVariant{}, nullptr);
  ASSERT_TRUE(noCl) << why;
  EXPECT_EQ(noCl->kick(), Kick::None) << "without the engine's context there is nothing to kick";
  noCl->kickCompute();
  EXPECT_EQ(noCl->kicks(), 0u);
}
}  // namespace
