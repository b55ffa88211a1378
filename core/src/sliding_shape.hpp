// SPDX-License-Identifier: MIT
// SlidingShape: the strip and work-group shape of the sliding strategy (kernels/sliding.cl), its variant text
// (the ShapeVariant grammar, lead 's') and its default per device type.
#pragma once

#include <optional>
#include <string>

namespace convolab {

/// A work-item walks down a strip bx pixels wide and sh output rows tall; a work-group is wgx×wgy strips.
struct SlidingShape {
  int bx = 4;             ///< strip width in pixels (the vector width of one chunk): 2, 4, 8 or 16
  int sh = 8;             ///< strip height in output rows: 1..256
  int wgx = 32, wgy = 2;  ///< work-group, in strips (at most 1024)
  bool cpuStyle = false;  ///< vector byte loads, packed vector stores, branch-free full rows (PoCL)
  int unroll = 1;         ///< rows per loop iteration, 1..16: K turns the K open rows' rotation into renaming

  /// "s<bx>x<sh>-wg<wgx>x<wgy>-c<cpuStyle>-u<unroll>".
  std::string str() const;
  /// Parses str()'s grammar; "-c…" and "-u…" may be left out, and then come from `defaults`. nullopt for
  /// anything else or out-of-range values.
  static std::optional<SlidingShape> parse(const std::string& text, const SlidingShape& defaults);

  int groupSize() const { return wgx * wgy; }
  bool operator==(const SlidingShape&) const = default;
};

/// The shape sliding runs when no variant is chosen, for a GPU or CPU device and filter size k.
SlidingShape defaultSlidingShape(bool gpu, int k);

}  // namespace convolab
