// SPDX-License-Identifier: MIT
// FrameTimeline: turns decoded frames and their timestamps into a constant-rate output of the same duration,
// as ffmpeg's constant-frame-rate output does: output frame k shows the last input frame whose time rounds
// to k intervals or fewer; a frame that lasts several intervals is repeated, frames within one interval
// give way to the last of them.
#pragma once

#include <cstdint>

namespace convolab::jobs {

/// The output is bounded by what was decoded: one decoded frame fills at most kMaxHoldSeconds of output (a
/// timestamp gap or a declared length beyond it is cut, and counted in cut()), so a video that declares 10⁸
/// frames or jumps 100,000 s writes at most 10 s per decoded frame, never until the disk is full.
inline constexpr double kMaxHoldSeconds = 10;

class FrameTimeline {
 public:
  /// `fps`: the output's rate (the input's nominal one); `declaredFrames`: the input's length in intervals
  /// of that rate, gaps included (0 when unknown: then the last frame lasts one interval).
  FrameTimeline(double fps, std::int64_t declaredFrames) : m_fps(fps), m_declared(declaredFrames) {}

  /// The first frame's time (ms); it is held until the next one's time is known.
  void start(double firstMs) { m_firstMs = firstMs; }
  /// The next decoded frame's time (ms): returns how many output frames the held frame fills (0: it is
  /// dropped), and holds the new one.
  std::int64_t next(double ms);
  /// The stream ended: how many output frames the held (last) frame fills, up to the declared length.
  std::int64_t finish();

  std::int64_t decoded() const { return m_decoded; }    ///< frames placed (next() and finish() calls)
  std::int64_t written() const { return m_written; }    ///< output frames so far
  std::int64_t repeated() const { return m_repeated; }  ///< output frames that repeat the previous one
  std::int64_t dropped() const { return m_dropped; }    ///< decoded frames that fill no output frame
  std::int64_t cut() const {
    return m_cut;
  }  ///< intervals left out: gaps and declared lengths over the bound

 private:
  std::int64_t place(std::int64_t endSlot);

  double m_fps;
  std::int64_t m_declared;
  double m_firstMs = 0;
  std::int64_t m_decoded = 0, m_written = 0, m_repeated = 0, m_dropped = 0;
  std::int64_t m_cut = 0;  // intervals cut from gaps so far: later timestamps move back by as many
};

}  // namespace convolab::jobs
