// SPDX-License-Identifier: MIT
// Letterboxing for the virtual camera's chosen size (issue 32 item 5): aspect kept, centred, black bars,
// never stretched or cropped.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "output/letterbox.hpp"

namespace convolab::output {
namespace {

TEST(LetterboxTest, ParsesTheChosenSize) {
  int w = -1, h = -1;
  EXPECT_TRUE(parseOutputSize("1280x720", w, h));
  EXPECT_EQ(w, 1280);
  EXPECT_EQ(h, 720);
  EXPECT_TRUE(parseOutputSize("source", w, h));
  EXPECT_EQ(w, 0);
  for (const char* bad : {"1281x720", "1280x", "x720", "1280x720x", "8x8", "99999x720", "1280*720"})
    EXPECT_FALSE(parseOutputSize(bad, w, h)) << bad;
}

TEST(LetterboxTest, FitsInsideKeepingTheAspect) {
  EXPECT_EQ(fitInside(640, 480, 1280, 720), (FitRect{160, 0, 960, 720}));  // 4:3 in 16:9: bars left and right
  EXPECT_EQ(fitInside(1920, 800, 1280, 720), (FitRect{0, 93, 1280, 533}));  // wider: bars above and below
  EXPECT_EQ(fitInside(1280, 720, 1280, 720), (FitRect{0, 0, 1280, 720}));
}

TEST(LetterboxTest, A640x480FrameIn1280x720HasBlackBarsAndTheScaledPicture) {
  Image in(640, 480);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      std::uint8_t* p = in.mutableView().row(y) + x * 3;
      p[0] = 200, p[1] = static_cast<std::uint8_t>(x < 320 ? 50 : 150), p[2] = 90;
    }
  Image out(1280, 720);
  letterbox(in.view(), out);
  for (int y : {0, 360, 719}) {
    for (int x : {0, 159, 1120, 1279})  // the bars
      for (int c = 0; c < 3; ++c) EXPECT_EQ(out.view().row(y)[x * 3 + c], 0) << x << "," << y;
    EXPECT_EQ(out.view().row(y)[160 * 3], 200);       // the picture's first column
    EXPECT_EQ(out.view().row(y)[1119 * 3], 200);      // and its last
    EXPECT_EQ(out.view().row(y)[300 * 3 + 1], 50);    // left half
    EXPECT_EQ(out.view().row(y)[1000 * 3 + 1], 150);  // right half
  }
}

TEST(LetterboxTest, TheSinkLetterboxesOnlyFramesOfAnotherSize) {
  struct Last : OutputSink {
    void push(const OutputFrame& f) override {
      std::lock_guard lock(mutex);
      last = f;
    }
    std::vector<SinkFigures> figures() const override { return {}; }
    OutputFrame get() {
      std::lock_guard lock(mutex);
      return last;
    }
    std::mutex mutex;
    OutputFrame last;
  };
  auto inner = std::make_shared<Last>();
  LetterboxSink sink(inner, 64, 36);
  OutputFrame f;
  f.image = std::make_shared<const Image>(32, 24);
  f.filterRevision = 5;
  sink.push(f);
  for (int i = 0; i < 2000 && !inner->get().image; ++i)  // scaled on the sink's own thread
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const OutputFrame boxed = inner->get();
  ASSERT_TRUE(boxed.image);
  EXPECT_EQ(boxed.image->width, 64);
  EXPECT_EQ(boxed.image->height, 36);
  EXPECT_EQ(boxed.filterRevision, 5u);
  f.image = std::make_shared<const Image>(64, 36);
  sink.push(f);
  EXPECT_EQ(inner->get().image, f.image);  // the right size already: passed on at once, no copy
}

}  // namespace
}  // namespace convolab::output
