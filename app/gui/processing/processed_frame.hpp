// SPDX-License-Identifier: MIT
// What the processing thread hands the GUI: per-frame facts (cheap, every frame) and the newest images.
#pragma once

#include <QMetaType>
#include <QString>
#include <cstdint>
#include <memory>

#include "capture/frame.hpp"
#include "convolab/engine.hpp"
#include "convolab/image.hpp"
#include "output/output_sink.hpp"

namespace convolab::gui {

/// Facts about one processed frame; sent to the GUI for every frame (statistics need them all).
struct FrameRecord {
  std::uint64_t sequence = 0;        ///< processed frames so far, this one included
  std::int64_t sourceIndex = 0;      ///< the source's frame number
  double sourceTimeMs = -1;          ///< the frame's time in the source (video files), -1: none (live)
  std::uint64_t filterRevision = 0;  ///< which filter snapshot produced it
  bool bypassed = false;
  bool hasTimings = false;  ///< false when bypassed or when processing failed
  FrameTimings timings;
  capture::Clock::time_point captured{};
  capture::Clock::time_point processed{};
  int width = 0;
  int height = 0;
  QString error;  ///< non-empty when the engine failed on this frame (then filtered == original)
  /// Made with an older filter than the newest one (the next engine is still being prepared); the GUI marks
  /// such a frame stale until a current one arrives.
  bool stale = false;
  /// Passed through unfiltered (filtered == original) because no engine fits this frame size yet.
  bool unfiltered = false;
  /// The input was in pinned staging memory (uploaded by DMA without a driver-side copy).
  bool pinnedInput = false;
  /// The last input processed again without a new delivery, to show a change (an edit, a new engine) on a
  /// still or paused frame. `captured` is then when that change was made: its latency reads change → screen.
  bool repeat = false;
  /// A delivered frame the slot counted (LatestFrameSlot::delivered): not a repeat, not delivered while
  /// processing warmed up. Such frames never outnumber delivered − dropped.
  bool counted = false;
};

/// The newest frame pair; images are shared, never copied, and never modified once published.
struct ProcessedFrame {
  FrameRecord record;
  std::shared_ptr<const Image> original;
  std::shared_ptr<const Image> filtered;
};

using ProcessedFramePtr = std::shared_ptr<const ProcessedFrame>;

/// What the output door is told of a processed frame (the door decides whether it leaves).
inline output::OutputFrame outputFrameOf(const ProcessedFrame& frame) {
  const FrameRecord& r = frame.record;
  return {frame.filtered, r.filterRevision, r.sourceIndex,      r.sourceTimeMs, r.bypassed,
          r.unfiltered,   r.stale,          !r.error.isEmpty(), r.repeat};
}

}  // namespace convolab::gui

Q_DECLARE_METATYPE(convolab::gui::FrameRecord)
Q_DECLARE_METATYPE(convolab::StrategyId)
