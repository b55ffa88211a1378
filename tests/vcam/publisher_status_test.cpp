// SPDX-License-Identifier: MIT
// The virtual camera's status line and its figures for the statistics (no PipeWire needed).
#include <gtest/gtest.h>

#include "vcam/publisher_status.hpp"

namespace convolab::vcam {
namespace {

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

TEST(PublisherStatusTest, FiguresCarryTheStatusForTheStatistics) {
  PublisherStatus s;
  s.viewers = 1;
  s.fps = 29.97;
  s.sent = 300;
  s.dropped = 4;
  s.format = "YUY2 640×480";
  const output::SinkFigures f = publisherFigures(s);
  EXPECT_EQ(f.key, "virtual_camera");
  EXPECT_EQ(f.summary, "1 viewer, 30 fps, 4 dropped");
  EXPECT_EQ(f.detail, "Consumers read YUY2 640×480");
  EXPECT_EQ(f.line, "virtual camera 1 viewer, 30.0 fps, 4 dropped, YUY2 640×480");
  ASSERT_EQ(f.values.size(), 5u);
  EXPECT_EQ(std::get<double>(f.values[1].second), 29.97);
}

}  // namespace
}  // namespace convolab::vcam
