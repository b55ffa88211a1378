// SPDX-License-Identifier: MIT
// OutputSink: where processed frames leave the app (the virtual camera, the v4l2 loopback, the recorder).
// Every sink is fed by the one door (OutputDoor) on the processing thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "convolab/image.hpp"
#include "output/sink_figures.hpp"

namespace convolab::output {

/// One processed frame and the facts the door decides by.
struct OutputFrame {
  std::shared_ptr<const Image> image;  ///< what the preview shows as filtered (never modified once pushed)
  std::uint64_t filterRevision = 0;    ///< the filter snapshot it was computed with (0: none)
  std::int64_t sourceIndex = 0;        ///< the source's frame number
  double sourceTimeMs = -1;            ///< its time in the source (video files); -1: live
  bool bypassed = false;               ///< the user turned the filter off: the input, unchanged
  bool unfiltered = false;             ///< no engine fitted its size yet: the input, unchanged
  bool stale = false;                  ///< computed with an older filter than the one set
  bool failed = false;                 ///< the engine failed on it: the input, unchanged
  bool repeat = false;                 ///< the last input again (an edit or a new engine on a still)
};

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  /// Called on the processing thread for each frame that may leave; returns at once (a sink that writes
  /// or converts does so on its own thread).
  virtual void push(const OutputFrame& frame) = 0;
  /// Its figures now; any thread.
  virtual std::vector<SinkFigures> figures() const = 0;
  /// It needs a frame on every pass, also of an unchanged still image (a recording keeps time by frames).
  virtual bool wantsRepeats() const { return false; }
};

}  // namespace convolab::output
