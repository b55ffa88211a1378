// Interleaved 8-bit RGB frames: an owning Image and non-owning views that carry a row stride.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace convolab {

inline constexpr int kBytesPerPixel = 3;

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
  std::vector<std::uint8_t> pixels;

  Image() = default;
  Image(int w, int h, std::size_t rowStride = 0)
      : width(w),
        height(h),
        stride(rowStride ? rowStride : static_cast<std::size_t>(w) * kBytesPerPixel),
        pixels(stride * static_cast<std::size_t>(h)) {}

  ImageView view() const { return {pixels.data(), width, height, stride}; }
  MutableImageView mutableView() { return {pixels.data(), width, height, stride}; }
};

}  // namespace convolab
