// SPDX-License-Identifier: MIT
// PinnedBuffer: allocate with CL_MEM_ALLOC_HOST_PTR, map once, unmap on destruction (never throws).
#include "convolab/pinned_buffer.hpp"

#include <utility>

#include "convolab/error.hpp"

namespace convolab {

PinnedBuffer::PinnedBuffer(Context& ctx, std::size_t bytes) : m_queue(ctx.queue()), m_bytes(bytes) {
  try {
    m_buffer = cl::Buffer(ctx.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
    m_data = static_cast<unsigned char*>(
        m_queue.enqueueMapBuffer(m_buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "pinned host buffer of " + std::to_string(bytes) + " bytes");
  }
}

PinnedBuffer::~PinnedBuffer() {
  release();
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : m_queue(std::move(other.m_queue)),
      m_buffer(std::move(other.m_buffer)),
      m_data(std::exchange(other.m_data, nullptr)),
      m_bytes(std::exchange(other.m_bytes, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    release();
    m_queue = std::move(other.m_queue);
    m_buffer = std::move(other.m_buffer);
    m_data = std::exchange(other.m_data, nullptr);
    m_bytes = std::exchange(other.m_bytes, 0);
  }
  return *this;
}

void PinnedBuffer::release() noexcept {
  if (!m_data) return;
  try {
    cl::Event done;
    m_queue.enqueueUnmapMemObject(m_buffer, m_data, nullptr, &done);
    done.wait();
  } catch (...) {
    // Destructors never throw; the context frees the buffer anyway.
  }
  m_data = nullptr;
}

}  // namespace convolab
