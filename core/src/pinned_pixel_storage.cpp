// SPDX-License-Identifier: MIT
// PinnedPixelStorage: one mapped CL_MEM_ALLOC_HOST_PTR buffer per image, looked up by address on release.
#include "convolab/pinned_pixel_storage.hpp"

namespace convolab {

PinnedPixelStorage::PinnedPixelStorage(std::shared_ptr<Context> context, std::size_t maxBytes)
    : m_context(std::move(context)), m_maxBytes(maxBytes) {}

PinnedPixelStorage::~PinnedPixelStorage() = default;

void* PinnedPixelStorage::allocate(std::size_t bytes) noexcept {
  if (bytes == 0 || bytes > m_maxBytes) return nullptr;
  try {
    std::lock_guard lock(m_mutex);
    PinnedBuffer buffer(*m_context, bytes);
    void* p = buffer.data();
    if (!p) return nullptr;
    m_buffers.emplace(p, std::move(buffer));
    return p;
  } catch (...) {
    return nullptr;  // out of pinned memory: the heap will do
  }
}

bool PinnedPixelStorage::release(void* p, std::size_t) noexcept {
  PinnedBuffer buffer;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_buffers.find(p);
    if (it == m_buffers.end()) return false;
    buffer = std::move(it->second);
    m_buffers.erase(it);
  }
  return true;  // unmapped outside the lock, when `buffer` goes
}

std::size_t PinnedPixelStorage::liveBuffers() const {
  std::lock_guard lock(m_mutex);
  return m_buffers.size();
}

}  // namespace convolab
