// SPDX-License-Identifier: MIT
// DecoderLogWatch: notices, on the calling thread, when FFmpeg's pixel converter refused a frame. OpenCV's
// FFmpeg backend ignores that failure and hands out its previous frame again (frozen), which is what a frame
// size change mid-stream looks like from outside; FFmpeg's log is the only place where it shows.
#pragma once

namespace convolab::capture {

class DecoderLogWatch {
 public:
  /// Starts watching this thread (the FFmpeg log hook is installed once per process, on first use, and
  /// passes every other message on to FFmpeg's own printer). No-op where FFmpeg is not loaded.
  DecoderLogWatch();
  ~DecoderLogWatch();
  DecoderLogWatch(const DecoderLogWatch&) = delete;
  DecoderLogWatch& operator=(const DecoderLogWatch&) = delete;

  /// Whether the converter failed on this thread since the watch started (or since the last call).
  bool takeConversionFailure();
};

}  // namespace convolab::capture
