// SPDX-License-Identifier: MIT
// ResultPublisher: where the processing worker's results go: each is numbered, written into a pinned image of
// the device, kept as the newest for any thread to read, and pushed through the output door.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "capture/image_pool.hpp"
#include "capture/staging_storage.hpp"
#include "output/output_door.hpp"
#include "processing/filter_mailbox.hpp"
#include "processing/processed_frame.hpp"

namespace convolab::gui {

/// Used on the processing thread; latest() and wantsRepeats() from any thread.
class ResultPublisher {
 public:
  /// `staging`: the device's pinned memory (the heap before one is open) that results are written into;
  /// `door`: where frames leave the app.
  ResultPublisher(std::shared_ptr<capture::StagingStorage> staging, std::shared_ptr<output::OutputDoor> door);

  /// The record of the next result, made from `frame` with `snapshot`: numbered (FrameRecord::sequence), with
  /// the frame's own facts; the pass fills in the rest.
  FrameRecord recordFor(const capture::Frame& frame, const FilterSnapshot& snapshot);
  /// An image for a result of this size (from a pool of eight, in the staging memory).
  std::shared_ptr<Image> acquire(int width, int height) { return m_outputs.acquire(width, height); }
  /// Makes `result` the newest and hands it to the output door, on the calling thread: no frame out waits on
  /// the GUI.
  void publish(const ProcessedFramePtr& result);
  /// The newest result (null before the first).
  ProcessedFramePtr latest() const;
  /// A sink needs a frame per tick, also of an unchanged still image (a recording).
  bool wantsRepeats() const { return m_door->wantsRepeats(); }

 private:
  std::shared_ptr<output::OutputDoor> m_door;
  capture::ImagePool m_outputs;
  std::atomic<std::uint64_t> m_sequence{0};
  mutable std::mutex m_mutex;  // guards m_latest
  ProcessedFramePtr m_latest;
};

}  // namespace convolab::gui
