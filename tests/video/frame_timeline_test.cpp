// SPDX-License-Identifier: MIT
// FrameTimeline: how many times each decoded frame is written to keep the input's duration at its nominal
// rate.
#include "jobs/frame_timeline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace convolab::jobs {
namespace {

/// Copies of each frame for frames at `times` (ms) at `fps`, `declared` frames long.
std::vector<std::int64_t> copies(const std::vector<double>& times, double fps, std::int64_t declared,
                                 FrameTimeline* out = nullptr) {
  FrameTimeline timeline(fps, declared);
  timeline.start(times.front());
  std::vector<std::int64_t> result;
  for (std::size_t i = 1; i < times.size(); ++i) result.push_back(timeline.next(times[i]));
  result.push_back(timeline.finish());
  if (out) *out = timeline;
  return result;
}

TEST(FrameTimeline, ConstantRateWritesEachFrameOnce) {
  FrameTimeline t(25, 0);
  EXPECT_EQ(copies({0, 40, 80, 120}, 25, 4, &t), (std::vector<std::int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(t.written(), 4);
  EXPECT_EQ(t.repeated(), 0);
  EXPECT_EQ(t.dropped(), 0);
}

TEST(FrameTimeline, AGapRepeatsTheFrameBeforeIt) {
  FrameTimeline t(10, 0);
  EXPECT_EQ(copies({0, 100, 500, 600}, 10, 7, &t), (std::vector<std::int64_t>{1, 4, 1, 1}));
  EXPECT_EQ(t.written(), 7);
  EXPECT_EQ(t.repeated(), 3);
}

TEST(FrameTimeline, FramesWithinOneIntervalKeepTheLast) {
  FrameTimeline t(10, 0);
  // 0, 40 (rounds to 0: dropped), 80 (1), 120 (1: dropped), 200
  EXPECT_EQ(copies({0, 40, 80, 120, 200}, 10, 3, &t), (std::vector<std::int64_t>{0, 1, 0, 1, 1}));
  EXPECT_EQ(t.dropped(), 2);
  EXPECT_EQ(t.written(), 3);
}

TEST(FrameTimeline, TheLastFrameLastsToTheDeclaredLength) {
  EXPECT_EQ(copies({0, 100}, 10, 5), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(copies({0, 100}, 10, 0), (std::vector<std::int64_t>{1, 1}));  // unknown length: one interval
  EXPECT_EQ(copies({0, 100, 200}, 10, 2), (std::vector<std::int64_t>{1, 1, 1}));  // never less than once
}

// Issue 34.12: timelines that are not 10 fps. A 30 fps clip's times in whole milliseconds (0, 33, 67, 100 …)
// give each frame exactly one slot; a first frame that lasts several intervals is repeated from the start; a
// repeated timestamp gives way to the later frame.
TEST(FrameTimeline, ThirtyFpsMillisecondTimesWriteEachFrameOnce) {
  std::vector<double> times;
  for (int k = 0; k < 90; ++k) times.push_back(std::round(k * 1000.0 / 30));
  FrameTimeline t(30, 90);
  EXPECT_EQ(copies(times, 30, 90, &t), std::vector<std::int64_t>(90, 1));
  EXPECT_EQ(t.written(), 90);
  EXPECT_EQ(t.dropped(), 0);
  EXPECT_EQ(t.repeated(), 0);
}

TEST(FrameTimeline, AFirstFrameLastingSeveralIntervalsAndRepeatedTimes) {
  EXPECT_EQ(copies({0, 400, 500, 600}, 10, 7), (std::vector<std::int64_t>{4, 1, 1, 1}));
  EXPECT_EQ(copies({100, 500, 600}, 10, 0), (std::vector<std::int64_t>{4, 1, 1}));  // times from the first
  FrameTimeline t(25, 0);
  EXPECT_EQ(copies({0, 40, 40, 80}, 25, 0, &t), (std::vector<std::int64_t>{1, 0, 1, 1}));
  EXPECT_EQ(t.dropped(), 1);
}

// Issue 34.7: the output is bounded by what was decoded. A declared 10⁸ frames or a 100,000 s timestamp gap
// fills at most kMaxHoldSeconds per decoded frame; the frames after a cut gap keep their spacing.
TEST(FrameTimeline, TheOutputIsBoundedByWhatWasDecoded) {
  FrameTimeline declared(10, 0);
  EXPECT_EQ(copies({0, 100}, 10, 100'000'000, &declared), (std::vector<std::int64_t>{1, 100}));
  EXPECT_EQ(declared.cut(), 100'000'000 - 101);
  FrameTimeline gap(10, 0);
  EXPECT_EQ(copies({0, 100, 100'000'100, 100'000'200, 100'000'400}, 10, 0, &gap),
            (std::vector<std::int64_t>{1, 100, 1, 2, 1}));
  EXPECT_EQ(gap.written(), 105);
  FrameTimeline fast(30, 0);  // a 30 fps clip: 300 copies at most; 1e300 ms is a gap, not an overflow
  EXPECT_EQ(copies({0, 1e300, 1e300}, 30, 0, &fast), (std::vector<std::int64_t>{300, 0, 1}));
}

}  // namespace
}  // namespace convolab::jobs
