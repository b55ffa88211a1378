// SPDX-License-Identifier: MIT
// BesideLiveFrames: marks work on a thread as running beside a live preview (the app's engine preparations).
// On a driver that compiles a kernel at its first launch while every queue of the process waits (PoCL), a new
// literal kernel prepared under this mark makes that first launch in convolab-measure first, so the preview
// does not freeze (ARCHITECTURE.md, "A literal bake's first launch, out of sight"). The CLI never sets it: a
// batch has no picture to keep moving, and the child would only add time.
#pragma once

namespace convolab {

class BesideLiveFrames {
 public:
  BesideLiveFrames();
  ~BesideLiveFrames();
  BesideLiveFrames(const BesideLiveFrames&) = delete;
  BesideLiveFrames& operator=(const BesideLiveFrames&) = delete;
  /// Whether the calling thread runs beside live frames.
  static bool active();
};

}  // namespace convolab
