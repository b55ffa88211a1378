// SPDX-License-Identifier: MIT
// Image dimensions read from a file's header (PNG, JPEG, BMP, GIF, TIFF, WebP, PNM) without decoding the
// pixels, so size limits are enforced before a decoder allocates them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace convolab::opencv {

/// Width and height as the file declares them, and the format that declared them ("PNG", "JPEG", …).
struct ImageHeader {
  std::int64_t width = 0;
  std::int64_t height = 0;
  const char* format = "";
  /// The header declares an alpha channel (PNG grey+alpha or RGBA, WebP with alpha), which decoding to RGB
  /// drops. False where the format does not say so in its header.
  bool alpha = false;

  std::int64_t pixels() const { return width * height; }
};

/// Reads only the header of `path` (a few hundred bytes; JPEG walks its segment lengths, TIFF follows its
/// first IFD offset). nullopt when the format is not one of PNG, JPEG, BMP, GIF, TIFF, WebP or PNM, or the
/// header is damaged: decode then, and check the size afterwards. Opens only regular files (never blocks on a
/// FIFO). Uses the C++ standard library only.
std::optional<ImageHeader> readImageHeader(const std::filesystem::path& path);
/// The same for an image already in memory.
std::optional<ImageHeader> readImageHeaderBytes(std::string_view bytes);

/// "30000×30000 (900 MP)" for messages.
std::string describeImageSize(std::int64_t width, std::int64_t height);

}  // namespace convolab::opencv
