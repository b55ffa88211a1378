// Encoding and decoding still images through OpenCV imgcodecs.
#include "image_codec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "frame_source.hpp"
#include "image_header.hpp"
#include "mat_convert.hpp"

namespace convolab::capture {
namespace {

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
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

std::string encodeImage(const Image& image, ImageFormat format, int jpegQuality) {
  const cv::Mat bgr = bgrFromImage(image);
  std::vector<uchar> bytes;
  std::vector<int> params;
  const char* ext = ".png";
  switch (format) {
    case ImageFormat::Png:
      break;  // default parameters: identical to convolab-cli apply
    case ImageFormat::Jpeg:
      ext = ".jpg";
      params = {cv::IMWRITE_JPEG_QUALITY, std::clamp(jpegQuality, 0, 100)};
      break;
    case ImageFormat::Tiff:
      ext = ".tiff";
      break;
    case ImageFormat::Bmp:
      ext = ".bmp";
      break;
  }
  if (!cv::imencode(ext, bgr, bytes, params))
    throw Error(ErrorKind::BadInput, std::string("could not encode the image as ") + (ext + 1));
  return std::string(bytes.begin(), bytes.end());
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

Image decodeChecked(std::string_view bytes, const std::string& label, std::int64_t maxPixels,
                    const std::optional<ImageHeader>& header) {
  if (header && header->pixels() > maxPixels)
    throw SourceError(tooLargeMessage(label, header->width, header->height, maxPixels));
  const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8U, const_cast<char*>(bytes.data()));
  try {
    constexpr std::int64_t kMaxSide = 1 << 20;  // OpenCV's own limit per side; beyond it let OpenCV refuse
    if (header && header->width <= kMaxSide && header->height <= kMaxSide) {
      // Decode straight into the Image's pixels: imdecode fills a destination of the right size and type.
      Image image(static_cast<int>(header->width), static_cast<int>(header->height));
      cv::Mat view = matView(image);
      cv::imdecode(raw, cv::IMREAD_COLOR, &view);
      if (view.empty()) throw SourceError(label + ": not an image OpenCV can read");
      if (view.data == image.pixels.data() && view.cols == image.width && view.rows == image.height) {
        swapRedBlue(view);
        return image;
      }
      // The decoder produced another size (e.g. rotated by its EXIF orientation): convert from its Mat.
      const cv::Mat other = view;
      image = Image();
      if (static_cast<std::int64_t>(other.cols) * other.rows > maxPixels)
        throw SourceError(tooLargeMessage(label, other.cols, other.rows, maxPixels));
      imageFromMat(other, image);
      return image;
    }
    const cv::Mat bgr = cv::imdecode(raw, cv::IMREAD_COLOR);
    if (bgr.empty()) throw SourceError(label + ": not an image OpenCV can read");
    if (static_cast<std::int64_t>(bgr.cols) * bgr.rows > maxPixels)
      throw SourceError(tooLargeMessage(label, bgr.cols, bgr.rows, maxPixels));
    Image image;
    imageFromMat(bgr, image);
    return image;
  } catch (const cv::Exception& e) {
    throw SourceError(label + ": cannot decode: " + e.err);
  } catch (const std::bad_alloc&) {
    throw SourceError(label + ": not enough memory to decode it");
  }
}

}  // namespace

Image decodeImage(std::string_view bytes, const std::string& label, std::int64_t maxPixels) {
  return decodeChecked(bytes, label, maxPixels, readImageHeaderBytes(bytes));
}

Image loadImage(const std::filesystem::path& path, std::int64_t maxPixels) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw SourceError(path.string() + ": no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw SourceError(path.string() + ": not a regular file");
  const std::string label = path.filename().string();
  // The header first: a small file that declares 30000×30000 is refused before it is even read.
  const auto header = readImageHeader(path);
  if (header && header->pixels() > maxPixels)
    throw SourceError(tooLargeMessage(label, header->width, header->height, maxPixels));
  std::ifstream in(path, std::ios::binary);
  const auto size = std::filesystem::file_size(path, ec);
  if (!in || ec) throw SourceError(path.string() + ": cannot read the file");
  if (size == 0) throw SourceError(path.string() + ": the file is empty");
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    throw SourceError(label + ": not enough memory to read it");
  }
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
    throw SourceError(path.string() + ": cannot read all " + std::to_string(size) + " bytes");
  return decodeChecked(bytes, label, maxPixels, header);
}

}  // namespace convolab::capture
