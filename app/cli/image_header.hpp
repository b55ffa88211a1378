// Image dimensions from a file's first bytes (PNG, JPEG, BMP, GIF, WebP, TIFF, PNM), without decoding,
// so size limits are enforced before a decoder allocates the pixels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace convolab::cli {

struct ImageHeaderSize {
  std::int64_t width = 0;
  std::int64_t height = 0;
};

/// The width and height the header of an encoded image declares, or nullopt when the format is not one
/// of those above or the header is too short to tell (the decoder then decides, and the size is checked
/// after decoding).
std::optional<ImageHeaderSize> readImageHeaderSize(const std::uint8_t* data, std::size_t size);

}  // namespace convolab::cli
