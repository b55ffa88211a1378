// SPDX-License-Identifier: MIT
// PinnedPixelStorage: Image pixels in pinned (page-locked) host memory of one OpenCL context, for DMA
// transfers.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "convolab/context.hpp"
#include "convolab/image.hpp"
#include "convolab/pinned_buffer.hpp"

namespace convolab {

/// Each allocation is one PinnedBuffer on `context` (so recycle images rather than allocate per frame).
/// Allocations above `maxBytes`, or that the driver refuses, return nullptr and the image uses the heap.
/// Keeps the context alive while any of its images lives; thread-safe (capture, processing and GUI threads).
class PinnedPixelStorage : public PixelStorage {
 public:
  explicit PinnedPixelStorage(std::shared_ptr<Context> context,
                              std::size_t maxBytes = std::size_t{256} << 20);
  ~PinnedPixelStorage() override;

  void* allocate(std::size_t bytes) noexcept override;
  bool release(void* p, std::size_t bytes) noexcept override;
  /// Pinned buffers handed out and not yet released.
  std::size_t liveBuffers() const;
  const Context& context() const { return *m_context; }

 private:
  std::shared_ptr<Context> m_context;
  std::size_t m_maxBytes;
  mutable std::mutex m_mutex;
  std::map<void*, PinnedBuffer> m_buffers;
};

}  // namespace convolab
