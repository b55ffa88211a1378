// SPDX-License-Identifier: MIT
// Still-image files through OpenCV imgcodecs: header-first size limits, single-buffer decoding, encoding.
#include "image_codec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <new>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <optional>

#include "convolab/atomic_file.hpp"
#include "convolab/printable_path.hpp"
#include "convolab/regular_file.hpp"
#include "image_header.hpp"
#include "jpeg_damage.hpp"
#include "mat_adapter.hpp"

namespace convolab::opencv {
namespace {

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

[[noreturn]] void bad(const std::string& label, const std::string& what) {
  throw Error(ErrorKind::BadInput, label + ": " + what);
}

}  // namespace

ImageFormat imageFormatForPath(const std::filesystem::path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".jpg" || ext == ".jpeg") return ImageFormat::Jpeg;
  if (ext == ".tif" || ext == ".tiff") return ImageFormat::Tiff;
  if (ext == ".bmp") return ImageFormat::Bmp;
  return ImageFormat::Png;
}

bool isImageFileName(const std::filesystem::path& path) {
  static const char* const kExtensions[] = {".png",  ".jpg", ".jpeg", ".bmp", ".tif", ".tiff",
                                            ".webp", ".ppm", ".pgm",  ".pnm", ".jp2"};
  const std::string ext = lowerExtension(path);
  return std::any_of(std::begin(kExtensions), std::end(kExtensions), [&](const char* e) { return ext == e; });
}

bool canWriteImageFormat(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext.size() < 2) return false;
  try {
    return cv::haveImageWriter(path.string());
  } catch (const cv::Exception&) {
    return false;
  }
}

std::string encodeImage(const Image& image, const std::string& extension, const std::vector<int>& params) {
  const cv::Mat bgr = bgrFromImage(image);
  std::vector<uchar> bytes;
  bool ok = false;
  std::string detail;
  try {
    ok = cv::imencode(extension, bgr, bytes, params);
  } catch (const cv::Exception& e) {
    detail = std::string(": ") + e.what();
  }
  if (!ok || bytes.empty())
    throw Error(ErrorKind::BadInput, "cannot encode the image as " + extension + detail);
  return std::string(bytes.begin(), bytes.end());
}

std::string encodeImage(const Image& image, ImageFormat format, int jpegQuality) {
  switch (format) {
    case ImageFormat::Png:
      break;
    case ImageFormat::Jpeg:
      return encodeImage(image, ".jpg", {cv::IMWRITE_JPEG_QUALITY, std::clamp(jpegQuality, 0, 100)});
    case ImageFormat::Tiff:
      return encodeImage(image, ".tiff");
    case ImageFormat::Bmp:
      return encodeImage(image, ".bmp");
  }
  return encodeImage(image, ".png");
}

void saveImage(const std::filesystem::path& path, const Image& image, bool overwrite, int jpegQuality) {
  writeFileAtomically(path, encodeImage(image, imageFormatForPath(path), jpegQuality), overwrite);
}

std::string tooLargeMessage(const std::string& label, std::int64_t width, std::int64_t height,
                            std::int64_t maxPixels) {
  char limit[48];
  std::snprintf(limit, sizeof limit, "%.4g MP", static_cast<double>(maxPixels) / 1e6);
  return label + " is " + describeImageSize(width, height) + ", above the limit of " + limit;
}

ImageTooLarge::ImageTooLarge(const std::string& label, std::int64_t width, std::int64_t height,
                             std::int64_t maxPixels, bool fromHeader)
    : Error(ErrorKind::BadInput, tooLargeMessage(label, width, height, maxPixels)),
      m_width(width),
      m_height(height),
      m_maxPixels(maxPixels),
      m_fromHeader(fromHeader) {}

namespace {

/// Swaps B and R in place, row by row (cv::cvtColor in place would copy the whole image first).
void swapRedBlue(cv::Mat& mat) {
  cv::parallel_for_(cv::Range(0, mat.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      std::uint8_t* p = mat.ptr<std::uint8_t>(y);
      for (int x = 0; x < mat.cols; ++x, p += 3) std::swap(p[0], p[2]);
    }
  });
}

void checkDecodedSize(const cv::Mat& mat, const std::string& label, std::int64_t maxPixels) {
  if (static_cast<std::int64_t>(mat.cols) * mat.rows > maxPixels)
    throw ImageTooLarge(label, mat.cols, mat.rows, maxPixels, false);
}

/// Fills `report` (when asked for): damage libjpeg warned about, an alpha channel the header declares.
void reportLosses(std::string_view bytes, const std::optional<ImageHeader>& header, DecodeReport* report) {
  if (!report) return;
  *report = DecodeReport{};
  report->alphaDropped = header && header->alpha;
  if (const auto damage = findJpegDamage(bytes)) {
    report->damaged = true;
    report->rows = damage->rows;
    report->rowsDecoded = damage->rowsDecoded;
    report->decoderWarning = damage->warning;
  }
}

Image decodeChecked(std::string_view bytes, const std::string& label, std::int64_t maxPixels,
                    const std::optional<ImageHeader>& header, DecodeReport* report) {
  if (header && header->pixels() > maxPixels)
    throw ImageTooLarge(label, header->width, header->height, maxPixels, true);
  reportLosses(bytes, header, report);
  const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8U, const_cast<char*>(bytes.data()));
  const char* const kUnreadable =
      "not an image OpenCV can decode (unknown format, or the file is truncated or corrupt)";
  try {
    // OpenCV itself refuses images over OPENCV_IO_MAX_IMAGE_PIXELS (2^30 unless set in the environment
    // before the program starts) before allocating them; formats readImageHeader does not know are checked
    // against our limit after decoding.
    constexpr std::int64_t kMaxSide = 1 << 20;  // OpenCV's own limit per side; beyond it let OpenCV refuse
    if (header && header->width <= kMaxSide && header->height <= kMaxSide) {
      // Decode straight into the Image's pixels: imdecode fills a destination of the right size and type.
      Image image(static_cast<int>(header->width), static_cast<int>(header->height));
      cv::Mat view = asMat(image);
      cv::imdecode(raw, cv::IMREAD_COLOR, &view);
      if (view.empty()) bad(label, kUnreadable);
      if (view.data == image.pixels.data() && view.cols == image.width && view.rows == image.height) {
        swapRedBlue(view);
        return image;
      }
      // The decoder produced another size (e.g. rotated by its EXIF orientation): convert from its Mat.
      const cv::Mat other = view;
      image = Image();
      checkDecodedSize(other, label, maxPixels);
      imageFromMat(other, image);
      return image;
    }
    const cv::Mat bgr = cv::imdecode(raw, cv::IMREAD_COLOR);
    if (bgr.empty()) bad(label, kUnreadable);
    checkDecodedSize(bgr, label, maxPixels);
    Image image;
    imageFromMat(bgr, image);
    return image;
  } catch (const cv::Exception& e) {
    bad(label, "cannot decode: " + e.err);
  } catch (const std::bad_alloc&) {
    bad(label, "not enough memory to decode it");
  }
}

}  // namespace

std::string DecodeReport::damageMessage() const {
  if (!damaged) return {};
  const std::string warning = decoderWarning.empty() ? "" : " (" + decoderWarning + ")";
  if (rowsDecoded < 0)
    return "image is damaged: its data is corrupt" + warning + ", so rows from an unknown one of " +
           std::to_string(rows) + " on are garbage";
  return "image is damaged: " + std::to_string(rowsDecoded) + " of " + std::to_string(rows) +
         " rows decoded" + warning;
}

std::string DecodeReport::alphaMessage() const {
  return alphaDropped ? "its alpha channel was dropped (filters work on RGB)" : "";
}

Image decodeImage(std::string_view bytes, const std::string& label, std::int64_t maxPixels,
                  DecodeReport* report) {
  return decodeChecked(bytes, label, maxPixels, readImageHeaderBytes(bytes), report);
}

Image loadImage(const std::filesystem::path& path, std::int64_t maxPixels, const std::string& label,
                DecodeReport* report) {
  const std::string name = label.empty() ? printablePath(path.filename()) : label;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) bad(name, "no such file");
  if (!std::filesystem::is_regular_file(path, ec)) bad(name, "not a regular file");
  // Read through a non-blocking open that checks the type again on the descriptor: a FIFO put in the file's
  // place after the check above must not hang the read. The header is then checked from the bytes, before
  // any pixel is decoded: a small file that declares 30000×30000 is refused without allocating its pixels.
  std::optional<std::string> bytes;
  try {
    bytes = readRegularFile(path, std::numeric_limits<std::uint64_t>::max());
  } catch (const std::bad_alloc&) {
    bad(name, "not enough memory to read it");
  }
  if (!bytes)
    bad(name, "cannot read it (it is no longer a regular file, is unreadable, or changed while read)");
  if (bytes->empty()) bad(name, "the file is empty (0 bytes); expected an image");
  return decodeChecked(*bytes, name, maxPixels, readImageHeaderBytes(*bytes), report);
}

}  // namespace convolab::opencv
