// SPDX-License-Identifier: MIT
// ImagePool: recycles frame buffers once every consumer has let go, so 1080p frames are not reallocated; new
// buffers come from the storage its provider names (pinned memory of the processing device, or the heap).
// Header-only and free of OpenCV, so the bench's latency harness uses the same pool as the app.
#pragma once

#include <memory>
#include <vector>

#include "convolab/image.hpp"
#include "staging_storage.hpp"

namespace convolab::capture {

/// Used by one producer thread. A buffer is reused when the pool holds the only reference to it
/// (consumers keep frames alive through their shared_ptr copies) and it lives in the storage the provider
/// names now; the pool never grows past `capacity` buffers: beyond that, fresh images are handed out and not
/// kept. No provider: the heap.
class ImagePool {
 public:
  explicit ImagePool(StorageProvider storage = {}, std::size_t capacity = 6)
      : m_storage(std::move(storage)), m_capacity(capacity) {}

  std::shared_ptr<Image> acquire(int width, int height) {
    const auto storage = m_storage ? m_storage() : nullptr;
    // Idle buffers of a former storage (another device) go, so its context is not kept alive.
    std::erase_if(m_images, [&](const auto& image) {
      return image.use_count() == 1 && image->storage() != storage.get();
    });
    for (auto& image : m_images)
      if (image.use_count() == 1 && image->width == width && image->height == height &&
          image->storage() == storage.get())
        return image;
    auto image = std::make_shared<Image>(width, height, 0, storage);
    if (m_images.size() < m_capacity) {
      m_images.push_back(image);
    } else {
      for (auto& slot : m_images)  // replace an idle buffer of another size, if any
        if (slot.use_count() == 1) {
          slot = image;
          break;
        }
    }
    return image;
  }

 private:
  StorageProvider m_storage;
  std::size_t m_capacity;
  std::vector<std::shared_ptr<Image>> m_images;
};

}  // namespace convolab::capture
