// SPDX-License-Identifier: MIT
// The hand-over between the preview and the PipeWire thread, and the status line (no PipeWire needed).
#include <gtest/gtest.h>

#include "vcam/latest_frame_handover.hpp"
#include "vcam/publisher_status.hpp"

namespace convolab::vcam {
namespace {

TEST(LatestFrameHandoverTest, AFrameNotTakenBeforeTheNextIsCountedAsReplaced) {
  LatestFrameHandover handover;
  auto a = std::make_shared<const Image>(2, 2), b = std::make_shared<const Image>(2, 2);
  EXPECT_FALSE(handover.put(a));
  EXPECT_TRUE(handover.put(b));  // a was never taken
  EXPECT_EQ(handover.take(), b);
  EXPECT_EQ(handover.take(), nullptr);  // taken once only
  EXPECT_EQ(handover.peek(), b);        // still the newest
  EXPECT_FALSE(handover.put(a));        // b was taken: nothing lost
  EXPECT_EQ(handover.putCount(), 3u);
  EXPECT_EQ(handover.replacedCount(), 1u);
}

TEST(PublisherStatusTest, StatusLineSaysViewersRateAndDrops) {
  PublisherStatus s;
  s.state = PublisherState::Streaming;
  s.viewers = 1;
  s.fps = 29.6;
  s.dropped = 0;
  EXPECT_EQ(statusLine(s), "Virtual camera: 1 viewer, 30 fps, 0 dropped");
  s.viewers = 0;
  EXPECT_EQ(statusLine(s), "Virtual camera: no viewer");
  s.state = PublisherState::NoDaemon;
  s.message = "PipeWire is not running";
  EXPECT_EQ(statusLine(s), "Virtual camera: PipeWire is not running — retrying");
}

}  // namespace
}  // namespace convolab::vcam
