// SPDX-License-Identifier: MIT
#include "pipewire/video_format.hpp"

namespace convolab::pipewire {

namespace {
std::size_t roundUp4(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}
}  // namespace

FrameLayout frameLayout(VideoFormat format, int width, int height) {
  const auto w = static_cast<std::size_t>(width);
  const auto h = static_cast<std::size_t>(height);
  FrameLayout layout;
  switch (format) {
    case VideoFormat::RGB:
      layout.stride = roundUp4(w * 3);
      break;
    case VideoFormat::BGRx:
    case VideoFormat::RGBx:
      layout.stride = w * 4;
      break;
    case VideoFormat::YUY2:
      layout.stride = roundUp4(w * 2);
      break;
    case VideoFormat::I420:
      layout.stride = roundUp4(w);
      layout.chromaStride = roundUp4((w + 1) / 2);  // an odd side's last block is a partial one
      layout.size = layout.stride * h + 2 * layout.chromaStride * ((h + 1) / 2);
      return layout;
    case VideoFormat::MJPG:
      return layout;
  }
  layout.size = layout.stride * h;
  return layout;
}

std::vector<VideoFormat> formatsFor(int width, int height) {
  // Browsers take the first format they can use: YUV first, then the RGB formats tools ask for by name.
  if (width % 2 == 0 && height % 2 == 0)
    return {VideoFormat::YUY2, VideoFormat::I420, VideoFormat::RGB, VideoFormat::BGRx};
  return {VideoFormat::RGB, VideoFormat::BGRx};
}

std::string formatName(VideoFormat format) {
  switch (format) {
    case VideoFormat::RGB:
      return "RGB";
    case VideoFormat::BGRx:
      return "BGRx";
    case VideoFormat::YUY2:
      return "YUY2";
    case VideoFormat::I420:
      return "I420";
    case VideoFormat::RGBx:
      return "RGBx";
    case VideoFormat::MJPG:
      return "MJPG";
  }
  return "?";
}

}  // namespace convolab::pipewire
