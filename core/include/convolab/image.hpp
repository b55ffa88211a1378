// SPDX-License-Identifier: MIT
// Interleaved 8-bit RGB frames: an owning Image and non-owning views that carry a row stride.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace convolab {

inline constexpr int kBytesPerPixel = 3;

/// Where an Image may keep its pixels instead of the heap, e.g. pinned host memory (PinnedPixelStorage) so a
/// frame decoded straight into it uploads by DMA. Thread-safe; lives as long as any image allocated from it.
class PixelStorage {
 public:
  virtual ~PixelStorage() = default;
  /// `bytes` of memory, or nullptr: the image then uses the heap.
  virtual void* allocate(std::size_t bytes) noexcept = 0;
  /// Gives back `p` if it came from allocate(); false when it did not (it is heap memory).
  virtual bool release(void* p, std::size_t bytes) noexcept = 0;
};

/// The allocator of Image::pixels: the heap unless a PixelStorage is given. Copies of an image go to the
/// heap (a copy is not a staging buffer); moves keep the storage.
template <class T>
class PixelAllocator {
 public:
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using is_always_equal = std::false_type;

  PixelAllocator() noexcept = default;
  explicit PixelAllocator(std::shared_ptr<PixelStorage> storage) noexcept : m_storage(std::move(storage)) {}
  template <class U>
  PixelAllocator(const PixelAllocator<U>& other) noexcept : m_storage(other.storage()) {}

  T* allocate(std::size_t n) {
    if (m_storage)
      if (void* p = m_storage->allocate(n * sizeof(T))) return static_cast<T*>(p);
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (m_storage && m_storage->release(p, n * sizeof(T))) return;
    std::allocator<T>().deallocate(p, n);
  }
  PixelAllocator select_on_container_copy_construction() const { return {}; }

  const std::shared_ptr<PixelStorage>& storage() const noexcept { return m_storage; }
  template <class U>
  bool operator==(const PixelAllocator<U>& other) const noexcept {
    return m_storage == other.storage();
  }

 private:
  std::shared_ptr<PixelStorage> m_storage;
};

/// Read-only view of RGB8 pixels; rows may be padded (stride ≥ width·3 bytes).
struct ImageView {
  const std::uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  std::size_t stride = 0;

  const std::uint8_t* row(int y) const { return data + static_cast<std::size_t>(y) * stride; }
};

/// Writable view of RGB8 pixels.
struct MutableImageView {
  std::uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  std::size_t stride = 0;

  std::uint8_t* row(int y) const { return data + static_cast<std::size_t>(y) * stride; }
  operator ImageView() const { return {data, width, height, stride}; }
};

/// An owning RGB8 image with tightly packed rows unless a larger stride is asked for.
struct Image {
  int width = 0;
  int height = 0;
  std::size_t stride = 0;
  std::vector<std::uint8_t, PixelAllocator<std::uint8_t>> pixels;

  Image() = default;
  /// `storage`: where the pixels live (null: the heap).
  Image(int w, int h, std::size_t rowStride = 0, std::shared_ptr<PixelStorage> storage = nullptr)
      : width(w),
        height(h),
        stride(rowStride ? rowStride : static_cast<std::size_t>(w) * kBytesPerPixel),
        pixels(stride * static_cast<std::size_t>(h), PixelAllocator<std::uint8_t>(std::move(storage))) {}
  /// The storage the pixels live in (null: the heap).
  PixelStorage* storage() const noexcept { return pixels.get_allocator().storage().get(); }

  ImageView view() const { return {pixels.data(), width, height, stride}; }
  MutableImageView mutableView() { return {pixels.data(), width, height, stride}; }
};

}  // namespace convolab
