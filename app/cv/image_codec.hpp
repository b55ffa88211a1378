// SPDX-License-Identifier: MIT
// Still-image files through OpenCV imgcodecs: decode to RGB8 (size checked from the header first) and encode,
// for the CLI and the app alike.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/image.hpp"

namespace convolab::opencv {

enum class ImageFormat { Png, Jpeg, Tiff, Bmp };

/// Images with more pixels are refused before decoding (convolab-cli --max-pixels, the app's Image Size
/// Limit).
inline constexpr std::int64_t kDefaultMaxPixels = 100'000'000;

/// The format a file name asks for by its extension (.png, .jpg/.jpeg, .tif/.tiff, .bmp); PNG otherwise.
ImageFormat imageFormatForPath(const std::filesystem::path& path);
/// True when the extension is one we can read as a still image.
bool isImageFileName(const std::filesystem::path& path);
/// True when OpenCV can write the format that `path`'s extension names (".png", ".jpg", ".webp", ...).
bool canWriteImageFormat(const std::filesystem::path& path);

/// Encodes with OpenCV's encoder for `extension` (".png", ".jpg", ...) on the BGR form, with `params`
/// (cv::ImwriteFlags pairs; none: OpenCV's defaults, so equal pixels give equal bytes). Throws
/// Error(BadInput) when OpenCV cannot.
std::string encodeImage(const Image& image, const std::string& extension,
                        const std::vector<int>& params = {});
/// PNG, TIFF and BMP with OpenCV's default parameters, JPEG with `jpegQuality` (0..100).
std::string encodeImage(const Image& image, ImageFormat format, int jpegQuality = 95);
/// Encodes for `path`'s extension and writes atomically (convolab::writeFileAtomically). Throws
/// convolab::Error with a message for people.
void saveImage(const std::filesystem::path& path, const Image& image, bool overwrite, int jpegQuality = 95);

/// An image over the pixel limit. what(): tooLargeMessage(); the fields let a front end say it its own way.
class ImageTooLarge : public Error {
 public:
  ImageTooLarge(const std::string& label, std::int64_t width, std::int64_t height, std::int64_t maxPixels,
                bool fromHeader);
  std::int64_t width() const { return m_width; }
  std::int64_t height() const { return m_height; }
  std::int64_t maxPixels() const { return m_maxPixels; }
  /// True when the size was read from the header (nothing was decoded).
  bool fromHeader() const { return m_fromHeader; }

 private:
  std::int64_t m_width, m_height, m_maxPixels;
  bool m_fromHeader;
};

/// What a decode could not deliver. OpenCV returns a truncated or corrupt JPEG as a whole image (the missing
/// part grey) and drops an alpha channel; front ends say so: the CLI refuses a damaged file unless
/// --accept-damaged, the app shows damageMessage() in its status bar.
struct DecodeReport {
  bool damaged = false;
  std::int64_t rows = 0;         ///< the image's height (when damaged)
  std::int64_t rowsDecoded = 0;  ///< rows decoded from the file's data before the damage (to the 8-row
                                 ///< block); -1 when not known (a JPEG corrupted in the middle)
  std::string decoderWarning;    ///< the decoder's own words, e.g. "Premature end of JPEG file"
  bool alphaDropped = false;     ///< the file has an alpha channel, which RGB8 cannot keep

  /// "image is damaged: 120 of 300 rows decoded (Premature end of JPEG file)"; "" when not damaged.
  std::string damageMessage() const;
  /// "its alpha channel was dropped (filters work on RGB)"; "" when there was none.
  std::string alphaMessage() const;
};

/// Decodes an encoded image (any format OpenCV reads) to RGB8. Throws Error(BadInput) "<label>: <reason>",
/// or ImageTooLarge when the image has more than `maxPixels` pixels: known formats are refused from their
/// header, before any pixel is decoded (readImageHeader). Known formats decode straight into the returned
/// Image's buffer and swap to RGB in place: one full-size buffer, no copy. With `report`, a damaged JPEG and
/// a dropped alpha channel are recorded there (a damaged image is still returned, as decoded).
Image decodeImage(std::string_view bytes, const std::string& label,
                  std::int64_t maxPixels = kDefaultMaxPixels, DecodeReport* report = nullptr);
/// Reads an image file as cv::imread(IMREAD_COLOR) does (grey expanded, alpha dropped, 16-bit scaled), as
/// RGB8. The header is checked against `maxPixels` before the file is read. Errors as decodeImage's, named
/// by `label` (default: the file name); also for a missing, special, empty or unreadable file. `report` as
/// decodeImage's.
Image loadImage(const std::filesystem::path& path, std::int64_t maxPixels = kDefaultMaxPixels,
                const std::string& label = {}, DecodeReport* report = nullptr);
/// The message for an image over the limit: "big.png is 30000×30000 (900 MP), above the limit of 100 MP".
std::string tooLargeMessage(const std::string& label, std::int64_t width, std::int64_t height,
                            std::int64_t maxPixels);

}  // namespace convolab::opencv
