// SPDX-License-Identifier: MIT
#include "output/output_door.hpp"

#include <algorithm>

#include "output/flip.hpp"

namespace convolab::output {

bool OutputDoor::mayLeave(const OutputFrame& frame) {
  // Only a frame computed with the filter the user set: a bypassed, unfiltered (no engine yet), stale (an
  // older filter) or failed (the input shown unchanged) frame never leaves, so nothing leaves before the
  // first filtered frame. Nothing is sent in their place: a consumer keeps the last frame that left.
  return frame.image && frame.filterRevision != 0 && !frame.bypassed && !frame.unfiltered && !frame.stale &&
         !frame.failed;
}

OutputFrame OutputDoor::flippedFrame(const OutputFrame& frame) {
  OutputFrame out = frame;
  if (frame.image) out.image = std::make_shared<const Image>(flippedLeftRight(frame.image->view()));
  return out;
}

void OutputDoor::add(std::shared_ptr<OutputSink> sink, bool primeWithLast) {
  if (!sink) return;
  std::lock_guard lock(m_mutex);
  if (primeWithLast && m_last) sink->push(leaving(*m_last));
  m_sinks.push_back(std::move(sink));
}

void OutputDoor::remove(const std::shared_ptr<OutputSink>& sink) {
  std::lock_guard lock(m_mutex);
  m_sinks.erase(std::remove(m_sinks.begin(), m_sinks.end(), sink), m_sinks.end());
}

bool OutputDoor::push(const OutputFrame& frame) {
  if (!mayLeave(frame)) return false;
  // The flip (a copy of the frame) is made before the lock and only when a sink takes the frame, so add(),
  // remove() and figures() on the GUI thread never wait for it.
  const bool flip = m_flipped;
  std::optional<OutputFrame> out;
  if (flip && !empty()) out = flippedFrame(frame);
  std::lock_guard lock(m_mutex);
  m_last = frame;
  if (m_sinks.empty()) return true;
  if (!out || flip != m_flipped) out = leaving(frame);  // a sink came, or the choice changed, meanwhile
  for (const auto& sink : m_sinks) sink->push(*out);
  return true;
}

std::optional<OutputFrame> OutputDoor::lastLeft() const {
  std::optional<OutputFrame> last;
  {
    std::lock_guard lock(m_mutex);
    last = m_last;
  }
  if (last) last = leaving(*last);
  return last;
}

void OutputDoor::forgetLast() {
  std::lock_guard lock(m_mutex);
  m_last.reset();
}

std::vector<SinkFigures> OutputDoor::figures() const {
  std::vector<std::shared_ptr<OutputSink>> sinks;
  {
    std::lock_guard lock(m_mutex);
    sinks = m_sinks;
  }
  std::vector<SinkFigures> all;
  for (const auto& sink : sinks)
    for (SinkFigures& f : sink->figures()) all.push_back(std::move(f));
  return all;
}

bool OutputDoor::wantsRepeats() const {
  std::lock_guard lock(m_mutex);
  return std::any_of(m_sinks.begin(), m_sinks.end(), [](const auto& s) { return s->wantsRepeats(); });
}

bool OutputDoor::empty() const {
  std::lock_guard lock(m_mutex);
  return m_sinks.empty();
}

}  // namespace convolab::output
