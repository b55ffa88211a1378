// SPDX-License-Identifier: MIT
// Flip Output (issue 32 item 2): the door hands every sink, lastLeft() and leaving() the frame flipped left
// to right while the flip is on, and the frame as computed while it is off; the computed frame (what the
// preview shows) is never modified.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "output/flip.hpp"
#include "output/output_door.hpp"

namespace convolab::output {
namespace {

class RecordingSink : public OutputSink {
 public:
  void push(const OutputFrame& frame) override { frames.push_back(frame); }
  std::vector<SinkFigures> figures() const override { return {}; }
  std::vector<OutputFrame> frames;
};

// A w×h frame whose every byte says where it is: pixel (x, y) holds (x, y, 7·x + y); rows padded by 5 bytes.
Image numbered(int w, int h) {
  Image image(w, h, static_cast<std::size_t>(w) * kBytesPerPixel + 5);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = image.mutableView().row(y) + x * kBytesPerPixel;
      p[0] = static_cast<std::uint8_t>(x);
      p[1] = static_cast<std::uint8_t>(y);
      p[2] = static_cast<std::uint8_t>(7 * x + y);
    }
  return image;
}

// Whether `b` is `a` flipped left to right, pixel by pixel.
bool isFlipOf(const Image& b, const Image& a) {
  if (a.width != b.width || a.height != b.height) return false;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x)
      for (int c = 0; c < kBytesPerPixel; ++c)
        if (b.view().row(y)[flippedColumn(x, a.width) * kBytesPerPixel + c] != a.view().row(y)[x * 3 + c])
          return false;
  return true;
}

bool same(const Image& a, const Image& b) {
  return isFlipOf(a, Image(flippedLeftRight(b.view())));
}

OutputFrame frameOf(const Image& image) {
  OutputFrame f;
  f.image = std::make_shared<const Image>(image);
  f.filterRevision = 1;
  return f;
}

TEST(FlipOutputTest, FlipsLeftToRightAndIsItsOwnInverse) {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{5, 3}, {1, 1}, {2, 4}, {64, 2}}) {
    const Image in = numbered(w, h);
    const Image out = flippedLeftRight(in.view());
    EXPECT_EQ(out.stride, static_cast<std::size_t>(w) * kBytesPerPixel);  // packed
    EXPECT_TRUE(isFlipOf(out, in)) << w << "x" << h;
    EXPECT_TRUE(same(flippedLeftRight(out.view()), in));
  }
  EXPECT_EQ(flippedLeftRight(Image(0, 3).view()).width, 0);
  EXPECT_EQ(flippedColumn(0, 5), 4);
  EXPECT_EQ(flippedColumn(4, 5), 0);
}

TEST(FlipOutputTest, EverySinkGetsTheFlippedFrameAndTheComputedOneIsUntouched) {
  OutputDoor door;
  auto recorder = std::make_shared<RecordingSink>(), camera = std::make_shared<RecordingSink>();
  door.add(recorder);
  door.add(camera);
  const Image computed = numbered(6, 3);
  const OutputFrame frame = frameOf(computed);
  EXPECT_FALSE(door.flipped());
  door.setFlipped(true);
  ASSERT_TRUE(door.push(frame));
  ASSERT_EQ(recorder->frames.size(), 1u);
  ASSERT_EQ(camera->frames.size(), 1u);
  EXPECT_TRUE(isFlipOf(*recorder->frames[0].image, computed));
  EXPECT_EQ(recorder->frames[0].image, camera->frames[0].image);  // flipped once for all sinks
  EXPECT_EQ(recorder->frames[0].filterRevision, 1u);              // the facts travel with it
  EXPECT_TRUE(same(*frame.image, computed));                      // the preview's frame is not flipped
  EXPECT_TRUE(isFlipOf(*door.lastLeft()->image, computed));
  EXPECT_TRUE(isFlipOf(*door.leaving(frame).image, computed));  // what Save and --snapshot take

  // Off again: the next frame leaves as computed, and so does the last one.
  door.setFlipped(false);
  ASSERT_TRUE(door.push(frame));
  EXPECT_EQ(recorder->frames[1].image, frame.image);
  EXPECT_EQ(door.lastLeft()->image, frame.image);
  EXPECT_EQ(door.leaving(frame).image, frame.image);
}

TEST(FlipOutputTest, ASinkPrimedWithTheLastFrameGetsItFlipped) {
  OutputDoor door;  // no sink: nothing is flipped on the way, the last frame is kept as computed
  const Image computed = numbered(4, 2);
  door.setFlipped(true);
  ASSERT_TRUE(door.push(frameOf(computed)));
  auto camera = std::make_shared<RecordingSink>();
  door.add(camera, /*primeWithLast=*/true);
  ASSERT_EQ(camera->frames.size(), 1u);
  EXPECT_TRUE(isFlipOf(*camera->frames[0].image, computed));
}

TEST(FlipOutputTest, AFrameThatMayNotLeaveIsNotFlippedEither) {
  OutputDoor door;
  auto sink = std::make_shared<RecordingSink>();
  door.add(sink);
  door.setFlipped(true);
  OutputFrame bypassed = frameOf(numbered(4, 2));
  bypassed.bypassed = true;
  EXPECT_FALSE(door.push(bypassed));
  EXPECT_TRUE(sink->frames.empty());
  EXPECT_FALSE(door.lastLeft().has_value());
}

}  // namespace
}  // namespace convolab::output
