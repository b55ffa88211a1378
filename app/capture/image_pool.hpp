// ImagePool: recycles frame buffers once every consumer has let go, so 1080p frames are not reallocated.
#pragma once

#include <memory>
#include <vector>

#include "convolab/image.hpp"

namespace convolab::capture {

/// Used by one producer thread. A buffer is reused when the pool holds the only reference to it
/// (consumers keep frames alive through their shared_ptr copies); the pool never grows past `capacity`
/// buffers: beyond that, fresh images are handed out and not kept.
class ImagePool {
 public:
  explicit ImagePool(std::size_t capacity = 6) : m_capacity(capacity) {}

  std::shared_ptr<Image> acquire(int width, int height) {
    for (auto& image : m_images)
      if (image.use_count() == 1 && image->width == width && image->height == height) return image;
    auto image = std::make_shared<Image>(width, height);
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
  std::size_t m_capacity;
  std::vector<std::shared_ptr<Image>> m_images;
};

}  // namespace convolab::capture
