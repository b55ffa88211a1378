// SPDX-License-Identifier: MIT
// A host buffer in pinned (page-locked) memory, mapped once, so uploads and downloads run as DMA.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>

#include "convolab/context.hpp"

namespace convolab {

/// CL_MEM_ALLOC_HOST_PTR buffer kept mapped for its whole life; data() is valid host memory that
/// transfers read from / write to without an extra staging copy in the driver.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(Context& ctx, std::size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  unsigned char* data() const { return m_data; }
  std::size_t size() const { return m_bytes; }

 private:
  void release() noexcept;

  cl::CommandQueue m_queue;
  cl::Buffer m_buffer;
  unsigned char* m_data = nullptr;
  std::size_t m_bytes = 0;
};

}  // namespace convolab
