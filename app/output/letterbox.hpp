// SPDX-License-Identifier: MIT
// Letterboxing: a frame scaled to fit a chosen output size, its aspect kept, centred on black bars (the
// virtual camera at a size consumers accept, issue 32 item 5). Never stretched, never cropped.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "convolab/image.hpp"
#include "output/latest_value.hpp"
#include "output/output_sink.hpp"

namespace convolab::output {

/// Where a width×height picture lands inside an outWidth×outHeight frame: x, y, width, height.
struct FitRect {
  int x = 0, y = 0, width = 0, height = 0;
  bool operator==(const FitRect&) const = default;
};
FitRect fitInside(int width, int height, int outWidth, int outHeight);

/// "1280x720" (even sides, 16..7680 × 16..4320) → width and height; "" or "source" → 0×0 (the frames' own
/// size). False for anything else.
bool parseOutputSize(const std::string& text, int& width, int& height);

/// `in` scaled (bilinear) into fitInside's rectangle of `out` (outWidth×outHeight, already sized); the rest
/// black.
void letterbox(const ImageView& in, Image& out);

/// A sink in front of another: every frame is letterboxed to width×height before `inner` gets it (a frame
/// already of that size passes as it is). The scaling runs on its own thread (newest wins), not on the
/// processing thread: 1280×720 costs 5–20 ms on a loaded 2-core CPU. Figures and wantsRepeats are the inner
/// sink's.
class LetterboxSink : public OutputSink {
 public:
  LetterboxSink(std::shared_ptr<OutputSink> inner, int width, int height);
  ~LetterboxSink() override;
  void push(const OutputFrame& frame) override;
  std::vector<SinkFigures> figures() const override { return m_inner->figures(); }
  bool wantsRepeats() const override { return m_inner->wantsRepeats(); }

 private:
  void run();

  std::shared_ptr<OutputSink> m_inner;
  int m_width, m_height;
  LatestValue<OutputFrame> m_waiting;
  std::mutex m_mutex;  // with m_wake, the thread's sleep; guards m_stop
  std::condition_variable m_wake;
  bool m_stop = false;
  std::thread m_thread;
};

}  // namespace convolab::output
