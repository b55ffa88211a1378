// Still-image files: decode to RGB8 and encode (PNG, JPEG, TIFF, BMP) exactly as convolab-cli does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "convolab/image.hpp"

namespace convolab::capture {

enum class ImageFormat { Png, Jpeg, Tiff, Bmp };

/// Images with more pixels are refused before decoding (the same default as convolab-cli --max-pixels).
inline constexpr std::int64_t kDefaultMaxPixels = 100'000'000;

/// The format a file name asks for by its extension (.png, .jpg/.jpeg, .tif/.tiff, .bmp); PNG otherwise.
ImageFormat imageFormatForPath(const std::filesystem::path& path);
/// True when the extension is one we can read as a still image.
bool isImageFileName(const std::filesystem::path& path);

/// Encodes with cv::imencode on the BGR form. PNG uses OpenCV's default parameters, so the bytes equal
/// `convolab-cli apply`'s output for the same pixels. `jpegQuality` is 0..100.
std::string encodeImage(const Image& image, ImageFormat format, int jpegQuality = 95);
/// Encodes for `path`'s extension and writes atomically (convolab::writeFileAtomically). Throws
/// convolab::Error with a message for people.
void saveImage(const std::filesystem::path& path, const Image& image, bool overwrite, int jpegQuality = 95);

/// Decodes an encoded image (any format OpenCV reads) to RGB8. Throws SourceError naming `label`, also when
/// the image has more than `maxPixels` pixels: known formats are refused from their header, before any
/// pixel is decoded (see readImageHeader). Known formats decode straight into the returned Image's buffer
/// and swap to RGB in place: one full-size buffer, no copy.
Image decodeImage(std::string_view bytes, const std::string& label,
                  std::int64_t maxPixels = kDefaultMaxPixels);
/// Reads an image file as cv::imread(IMREAD_COLOR) does, then converts to RGB8. The header is checked
/// against `maxPixels` before the file is read. Throws SourceError.
Image loadImage(const std::filesystem::path& path, std::int64_t maxPixels = kDefaultMaxPixels);
/// The message for an image over the limit: "big.png is 30000×30000 (900 MP), above the limit of 100 MP".
std::string tooLargeMessage(const std::string& label, std::int64_t width, std::int64_t height,
                            std::int64_t maxPixels);

}  // namespace convolab::capture
