// SPDX-License-Identifier: MIT
// OutputDoor: the one door for frames out. The processing thread pushes every processed frame here; the
// door decides whether it may leave and hands it to each sink.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "output/output_sink.hpp"

namespace convolab::output {

/// add()/remove()/figures() from any thread (the GUI's); push() from the processing thread. Sinks are fed
/// under the door's lock (their push returns at once), so once remove() returns a sink gets nothing more.
class OutputDoor {
 public:
  /// Whether `frame` may leave the app: it was computed with the filter the user set (not bypassed,
  /// unfiltered, stale or failed). docs/RELIABILITY.md, "Nothing leaves unfiltered".
  static bool mayLeave(const OutputFrame& frame);

  /// Adds `sink`; `primeWithLast`: it gets the newest frame that left (a virtual camera turned on while a
  /// still image shows).
  void add(std::shared_ptr<OutputSink> sink, bool primeWithLast = false);
  void remove(const std::shared_ptr<OutputSink>& sink);

  /// Hands `frame` to every sink when it may leave; true when it did.
  bool push(const OutputFrame& frame);
  /// The newest frame that left (what Save and Copy may take), if any.
  std::optional<OutputFrame> lastLeft() const;
  /// Forgets the last frame (a new source: nothing of the old one leaves).
  void forgetLast();

  /// Every sink's figures, in the order the sinks were added.
  std::vector<SinkFigures> figures() const;
  /// Some sink wants a frame on every pass (OutputSink::wantsRepeats).
  bool wantsRepeats() const;
  bool empty() const;

 private:
  mutable std::mutex m_mutex;
  std::vector<std::shared_ptr<OutputSink>> m_sinks;
  std::optional<OutputFrame> m_last;
};

}  // namespace convolab::output
