// SPDX-License-Identifier: MIT
// FrameStream: pipelined processing of a stream of same-size frames, overlapping the upload of one
// frame, the kernels of another and the download of a third (three queues, a ring of pinned buffers).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "convolab/context.hpp"
#include "convolab/filter.hpp"
#include "convolab/image.hpp"
#include "convolab/pinned_buffer.hpp"
#include "convolab/strategy.hpp"

namespace convolab {

class FrameStream {
 public:
  /// `depth` frames in flight (3: one uploading, one computing, one downloading). Runs strategy.name with
  /// its tuning variant (e.g. what auto chose: Engine::activeStrategyId()).
  FrameStream(std::shared_ptr<Context> context, const StrategyId& strategy, const FilterSet& filter,
              int width, int height, int depth = 3);
  /// The registry strategy `name` with its default variant.
  FrameStream(std::shared_ptr<Context> context, const std::string& name, const FilterSet& filter, int width,
              int height, int depth = 3)
      : FrameStream(std::move(context), StrategyId{name}, filter, width, height, depth) {}

  /// Pinned host memory for the next frame to submit: fill it, then submit().
  MutableImageView nextInput();
  /// Enqueues the frame in nextInput(); blocks only when all `depth` slots are still in flight.
  /// Returns the slot index; its result is valid after wait(slot).
  int submit();
  /// Waits for slot's result and returns it (pinned host memory, valid until that slot is reused).
  ImageView wait(int slot);
  /// Waits for everything in flight.
  void finish();

  /// Pushes `frames` frames through the pipeline (contents of the slots as they are) and returns
  /// frames per second of wall time.
  double measureThroughput(int frames);

 private:
  struct Slot {
    PinnedBuffer hostIn, hostOut;
    cl::Buffer deviceIn, deviceOut;
    cl::Event done;  // download finished
    bool busy = false;
  };

  std::shared_ptr<Context> m_context;
  std::unique_ptr<Strategy> m_strategy;
  int m_width, m_height;
  std::vector<Slot> m_slots;
  int m_next = 0;
};

}  // namespace convolab
