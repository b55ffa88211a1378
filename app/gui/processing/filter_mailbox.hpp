// SPDX-License-Identifier: MIT
// FilterMailbox: the GUI publishes immutable filter snapshots (a chain: the editor's one filter, or the
// custom OpenCL step); the processing thread picks the newest per frame.
#pragma once

#include <cstdint>
#include <memory>

#include "convolab/filter_chain.hpp"
#include "output/latest_value.hpp"

namespace convolab::gui {

/// One immutable snapshot: the chain (a FilterSet is its one-step case), whether it is bypassed, and a
/// revision number that grows with every publish (processed frames carry it, so tests and the GUI know which
/// edit a frame reflects).
struct FilterSnapshot {
  FilterChain chain;
  bool bypass = false;
  std::uint64_t revision = 0;
};

/// Hand-over of the newest snapshot (output::LatestValue, held for a pointer copy): the GUI never waits on
/// the processing thread's work.
class FilterMailbox {
 public:
  FilterMailbox() { m_snapshot.put(std::make_shared<const FilterSnapshot>()); }

  /// Called on the GUI thread only (the revision counter is not shared). Returns the new revision.
  std::uint64_t publish(const FilterChain& chain, bool bypass) {
    auto next =
        std::make_shared<const FilterSnapshot>(FilterSnapshot{chain, bypass, current()->revision + 1});
    m_snapshot.put(next);
    return next->revision;
  }

  std::shared_ptr<const FilterSnapshot> current() const { return *m_snapshot.peek(); }

 private:
  output::LatestValue<std::shared_ptr<const FilterSnapshot>> m_snapshot;  // never empty
};

}  // namespace convolab::gui
