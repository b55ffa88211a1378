// Encoding and decoding still images through OpenCV imgcodecs.
#include "image_codec.hpp"

#include <algorithm>
#include <cctype>
#include <opencv2/imgcodecs.hpp>
#include <vector>

#include "convolab/error.hpp"
#include "convolab/filter_io.hpp"
#include "frame_source.hpp"
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

Image decodeImage(std::string_view bytes, const std::string& label) {
  const cv::Mat raw(1, static_cast<int>(bytes.size()), CV_8U, const_cast<char*>(bytes.data()));
  const cv::Mat bgr = cv::imdecode(raw, cv::IMREAD_COLOR);
  if (bgr.empty()) throw SourceError(label + ": not an image OpenCV can read");
  Image image;
  imageFromMat(bgr, image);
  return image;
}

Image loadImage(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw SourceError(path.string() + ": no such file");
  const cv::Mat bgr = cv::imread(path.string(), cv::IMREAD_COLOR);
  if (bgr.empty()) throw SourceError(path.string() + ": not an image OpenCV can read");
  Image image;
  imageFromMat(bgr, image);
  return image;
}

}  // namespace convolab::capture
