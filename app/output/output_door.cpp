// SPDX-License-Identifier: MIT
#include "output/output_door.hpp"

#include <algorithm>

namespace convolab::output {

bool OutputDoor::mayLeave(const OutputFrame& frame) {
  // Only a frame computed with the filter the user set: a bypassed, unfiltered (no engine yet), stale (an
  // older filter) or failed (the input shown unchanged) frame never leaves, so nothing leaves before the
  // first filtered frame. Nothing is sent in their place: a consumer keeps the last frame that left.
  return frame.image && frame.filterRevision != 0 && !frame.bypassed && !frame.unfiltered && !frame.stale &&
         !frame.failed;
}

void OutputDoor::add(std::shared_ptr<OutputSink> sink, bool primeWithLast) {
  if (!sink) return;
  std::lock_guard lock(m_mutex);
  if (primeWithLast && m_last) sink->push(*m_last);
  m_sinks.push_back(std::move(sink));
}

void OutputDoor::remove(const std::shared_ptr<OutputSink>& sink) {
  std::lock_guard lock(m_mutex);
  m_sinks.erase(std::remove(m_sinks.begin(), m_sinks.end(), sink), m_sinks.end());
}

bool OutputDoor::push(const OutputFrame& frame) {
  if (!mayLeave(frame)) return false;
  std::lock_guard lock(m_mutex);
  m_last = frame;
  for (const auto& sink : m_sinks) sink->push(frame);
  return true;
}

std::optional<OutputFrame> OutputDoor::lastLeft() const {
  std::lock_guard lock(m_mutex);
  return m_last;
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
