// SPDX-License-Identifier: MIT
// The processing worker's results: numbered, pooled in pinned memory, the newest kept, each through the door.
#include "processing/result_publisher.hpp"

namespace convolab::gui {

ResultPublisher::ResultPublisher(std::shared_ptr<capture::StagingStorage> staging,
                                 std::shared_ptr<output::OutputDoor> door)
    : m_door(std::move(door)), m_outputs(capture::providerOf(std::move(staging)), 8) {}

FrameRecord ResultPublisher::recordFor(const capture::Frame& frame, const FilterSnapshot& snapshot) {
  FrameRecord record;
  record.sequence = ++m_sequence;
  record.sourceIndex = frame.index;
  record.sourceTimeMs = frame.timestampMs;
  record.filterRevision = snapshot.revision;
  record.bypassed = snapshot.bypass;
  record.captured = frame.captured;
  record.width = frame.image->width;
  record.height = frame.image->height;
  record.pinnedInput = frame.image->storage() != nullptr;
  return record;
}

void ResultPublisher::publish(const ProcessedFramePtr& result) {
  {
    std::lock_guard lock(m_mutex);
    m_latest = result;
  }
  m_door->push(outputFrameOf(*result));
}

ProcessedFramePtr ResultPublisher::latest() const {
  std::lock_guard lock(m_mutex);
  return m_latest;
}

}  // namespace convolab::gui
