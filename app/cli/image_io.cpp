// Image files <-> convolab::Image through OpenCV imgcodecs (BGR inside OpenCV, RGB in the core).
#include "image_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "convolab/error.hpp"
#include "cv_interop.hpp"
#include "image_header.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void bad(const fs::path& path, const std::string& what) {
  throw Error(ErrorKind::BadInput, "image '" + path.string() + "': " + what);
}

std::vector<uchar> readBytes(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) bad(path, "no such file");
  if (!fs::is_regular_file(path, ec)) bad(path, "not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) bad(path, "cannot read: " + ec.message());
  if (size == 0) bad(path, "the file is empty (0 bytes); expected an image");
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<uchar> bytes(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    bad(path, "cannot read all " + std::to_string(size) + " bytes");
  return bytes;
}

}  // namespace

Image readImageFile(const fs::path& path, std::int64_t maxPixels) {
  const std::vector<uchar> bytes = readBytes(path);
  // The size the header declares is checked before decoding: a small file may declare a huge image.
  if (const auto declared = readImageHeaderSize(bytes.data(), bytes.size());
      declared && declared->width * declared->height > maxPixels)
    bad(path, std::to_string(declared->width) + "x" + std::to_string(declared->height) +
                  " (from its header) is larger than the limit of " + std::to_string(maxPixels) +
                  " pixels (see --max-pixels)");
  cv::Mat bgr;
  try {
    // OpenCV itself refuses images over OPENCV_IO_MAX_IMAGE_PIXELS (2^30 unless set in the environment
    // before the program starts) before allocating them; formats image_header.cpp cannot read are checked
    // against our smaller limit after decoding.
    bgr = cv::imdecode(bytes, cv::IMREAD_COLOR);
  } catch (const cv::Exception& e) {
    bad(path, std::string("cannot decode: ") + e.what());
  } catch (const std::bad_alloc&) {
    bad(path, "not enough memory to decode it");
  }
  if (bgr.empty())
    bad(path, "not an image OpenCV can decode (unknown format, or the file is truncated or corrupt)");
  if (static_cast<std::int64_t>(bgr.cols) * bgr.rows > maxPixels)
    bad(path, std::to_string(bgr.cols) + "x" + std::to_string(bgr.rows) + " is larger than the limit of " +
                  std::to_string(maxPixels) + " pixels (see --max-pixels)");
  if (bgr.type() != CV_8UC3) bad(path, "decoded to an unexpected pixel type " + cv::typeToString(bgr.type()));
  Image image(bgr.cols, bgr.rows);
  cv::Mat rgb = asMat(image);
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  return image;
}

bool canWriteImageFormat(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext.size() < 2) return false;
  try {
    return cv::haveImageWriter(path.string());
  } catch (const cv::Exception&) {
    return false;
  }
}

std::string encodeImage(const Image& image, const fs::path& path) {
  cv::Mat bgr;
  cv::cvtColor(asMat(image), bgr, cv::COLOR_RGB2BGR);
  std::vector<uchar> out;
  bool ok = false;
  std::string detail;
  try {
    ok = cv::imencode(path.extension().string(), bgr, out);
  } catch (const cv::Exception& e) {
    detail = std::string(": ") + e.what();
  }
  if (!ok || out.empty())
    throw Error(ErrorKind::BadInput,
                "cannot encode '" + path.string() + "' as " + path.extension().string() + detail);
  return std::string(reinterpret_cast<const char*>(out.data()), out.size());
}

}  // namespace convolab::cli
