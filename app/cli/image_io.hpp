// Image files <-> convolab::Image through OpenCV imgcodecs (BGR inside OpenCV, RGB in the core).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "convolab/image.hpp"

namespace convolab::cli {

/// Images larger than this are refused before the engine sees them (about 10000 x 10000).
inline constexpr std::int64_t kDefaultMaxPixels = 100'000'000;

/// Reads any image OpenCV decodes (8-bit colour; grey is expanded, alpha dropped, 16-bit scaled) as RGB.
/// Throws Error(BadInput) naming the file when it is missing, empty, not an image, truncated or corrupt,
/// or larger than `maxPixels`.
Image readImageFile(const std::filesystem::path& path, std::int64_t maxPixels = kDefaultMaxPixels);

/// True when OpenCV can write the format that `path`'s extension names (".png", ".jpg", ...).
bool canWriteImageFormat(const std::filesystem::path& path);

/// Encodes `image` in the format of `path`'s extension. Throws Error(BadInput) when OpenCV cannot.
std::string encodeImage(const Image& image, const std::filesystem::path& path);

}  // namespace convolab::cli
