// SPDX-License-Identifier: MIT
// OutputDoor: the one door for frames out. The processing thread pushes every processed frame here; the
// door decides whether it may leave and hands it to each sink, flipped left to right when Flip Output is on.
#pragma once

#include <atomic>
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

  /// View ▸ Flip Output (issue 32 item 2): every frame leaves flipped left to right — to the sinks (the
  /// recorder, the virtual camera, the loopback), through lastLeft() and through leaving() (Save, Copy, the
  /// photo timer, --snapshot). The preview never comes here. Any thread; the next frame out follows it.
  void setFlipped(bool flipped) { m_flipped = flipped; }
  bool flipped() const { return m_flipped; }
  /// `frame` as it leaves now: with its image flipped (a new image: `frame`'s is never modified) when
  /// flipped(), else `frame` itself.
  OutputFrame leaving(const OutputFrame& frame) const { return m_flipped ? flippedFrame(frame) : frame; }
  /// `frame` with its image flipped left to right.
  static OutputFrame flippedFrame(const OutputFrame& frame);

  /// Adds `sink`; `primeWithLast`: it gets the newest frame that left (a virtual camera turned on while a
  /// still image shows).
  void add(std::shared_ptr<OutputSink> sink, bool primeWithLast = false);
  void remove(const std::shared_ptr<OutputSink>& sink);

  /// Hands `frame` (as leaving() makes it) to every sink when it may leave; true when it did. The flip is
  /// made once for all sinks, and only when there is a sink.
  bool push(const OutputFrame& frame);
  /// The newest frame that left, as leaving() makes it now, if any.
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
  std::optional<OutputFrame> m_last;  // as computed: flipped when it is handed out
  std::atomic<bool> m_flipped = false;
};

}  // namespace convolab::output
