// SPDX-License-Identifier: MIT
// TestPatternSource: an animated, CPU-generated pattern (moving gradients, shapes, text); can simulate
// failures.
#pragma once

#include <opencv2/core.hpp>
#include <optional>
#include <string>

#include "frame_source.hpp"
#include "image_pool.hpp"

namespace convolab::capture {

struct TestPatternOptions {
  int width = 1280;
  int height = 720;
  double fps = 30.0;
  /// Simulated unplug: read() fails after this many frames (-1: never).
  int failAfter = -1;
  /// After a simulated failure, this many reopen attempts fail before it works again (-1: never recovers).
  int recoverAfter = -1;

  /// Whether `spec` is meant as a pattern ("pattern", "pattern:…", "pattern@…", "pattern,…"), well formed or
  /// not; "patterns.png" is not.
  static bool isPatternSpec(const std::string& spec);
  /// Parses "pattern[:WxH][@FPS][,fail=N][,recover=M]"; nullopt when `spec` is not a pattern spec.
  /// Throws SourceError for a malformed one.
  static std::optional<TestPatternOptions> parse(const std::string& spec);
};

class TestPatternSource : public FrameSource {
 public:
  explicit TestPatternSource(TestPatternOptions options = {});

  SourceTraits traits() const override { return {.kindName = "Test pattern"}; }
  std::string description() const override { return "Test pattern"; }
  void open() override;
  void close() override {}
  bool read(Frame& out) override;
  double nominalFps() const override { return m_options.fps; }
  std::string deliveredMode() const override;
  bool canStep() const override { return true; }
  bool canReconnect() const override { return true; }

 private:
  void buildStaticLayers();
  void render(cv::Mat& dst, std::int64_t frame) const;

  TestPatternOptions m_options;
  ImagePool m_pool{stagingProvider()};
  cv::Mat m_background;  ///< RGB, twice the width: a horizontally periodic gradient to scroll through
  cv::Mat m_bars;        ///< RGB colour bars strip
  std::int64_t m_index = 0;
  int m_sinceOpen = 0;
  bool m_failed = false;
  int m_failedReopens = 0;
};

}  // namespace convolab::capture
