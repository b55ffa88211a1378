// SPDX-License-Identifier: MIT
#include "recording_sink.hpp"

namespace convolab::test {

void RecordingSink::push(const output::OutputFrame& frame) {
  std::lock_guard lock(m_mutex);
  m_frames.push_back(frame);
}

std::vector<output::OutputFrame> RecordingSink::frames() const {
  std::lock_guard lock(m_mutex);
  return m_frames;
}

std::size_t RecordingSink::count() const {
  std::lock_guard lock(m_mutex);
  return m_frames.size();
}

}  // namespace convolab::test
