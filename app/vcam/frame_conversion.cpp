// SPDX-License-Identifier: MIT
#include "vcam/frame_conversion.hpp"

#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cv/mat_adapter.hpp"

namespace convolab::vcam {

namespace {

// BT.601 limited range in 8.8 fixed point: the coefficients OpenCV's RGB→I420 uses, so YUY2 and I420 of
// one frame agree.
inline std::uint8_t lumaOf(int r, int g, int b) {
  return static_cast<std::uint8_t>(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
}
inline std::uint8_t blueDiffOf(int r, int g, int b) {
  return static_cast<std::uint8_t>(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
}
inline std::uint8_t redDiffOf(int r, int g, int b) {
  return static_cast<std::uint8_t>(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
}

// OpenCV has no RGB→YUY2 conversion: two pixels give Y0 U Y1 V, the chroma of their average.
void toYuy2(const ImageView& frame, std::uint8_t* dst, std::size_t stride) {
  cv::parallel_for_(cv::Range(0, frame.height), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      const std::uint8_t* in = frame.row(y);
      std::uint8_t* out = dst + static_cast<std::size_t>(y) * stride;
      for (int x = 0; x + 1 < frame.width; x += 2, in += 6, out += 4) {
        const int r = (in[0] + in[3] + 1) >> 1, g = (in[1] + in[4] + 1) >> 1, b = (in[2] + in[5] + 1) >> 1;
        out[0] = lumaOf(in[0], in[1], in[2]);
        out[1] = blueDiffOf(r, g, b);
        out[2] = lumaOf(in[3], in[4], in[5]);
        out[3] = redDiffOf(r, g, b);
      }
    }
  });
}

void toI420(const ImageView& frame, std::uint8_t* dst, const FrameLayout& layout) {
  const int w = frame.width, h = frame.height;
  const cv::Mat rgb = opencv::asMat(frame);
  if (layout.stride == static_cast<std::size_t>(w) &&
      layout.chromaStride == static_cast<std::size_t>(w / 2)) {
    cv::Mat out(h * 3 / 2, w, CV_8UC1, dst);  // OpenCV's packed planes are exactly the layout
    cv::cvtColor(rgb, out, cv::COLOR_RGB2YUV_I420);
    return;
  }
  cv::Mat packed;
  cv::cvtColor(rgb, packed, cv::COLOR_RGB2YUV_I420);
  for (int y = 0; y < h; ++y) std::memcpy(dst + y * layout.stride, packed.ptr(y), w);
  const std::uint8_t* chroma = packed.ptr(h);  // U then V, w/2 bytes a row, h/2 rows each
  std::uint8_t* out = dst + layout.stride * h;
  for (int row = 0; row < h; ++row)  // h/2 rows of U, then h/2 of V
    std::memcpy(out + row * layout.chromaStride, chroma + static_cast<std::size_t>(row) * (w / 2), w / 2);
}

}  // namespace

void convertFrame(const ImageView& frame, VideoFormat format, std::uint8_t* dst) {
  const FrameLayout layout = frameLayout(format, frame.width, frame.height);
  const cv::Mat rgb = opencv::asMat(frame);
  switch (format) {
    case VideoFormat::RGB: {
      cv::Mat out(frame.height, frame.width, CV_8UC3, dst, layout.stride);
      rgb.copyTo(out);
      return;
    }
    case VideoFormat::BGRx: {
      cv::Mat out(frame.height, frame.width, CV_8UC4, dst, layout.stride);
      cv::cvtColor(rgb, out, cv::COLOR_RGB2BGRA);
      return;
    }
    case VideoFormat::YUY2:
      toYuy2(frame, dst, layout.stride);
      return;
    case VideoFormat::I420:
      toI420(frame, dst, layout);
      return;
  }
}

}  // namespace convolab::vcam
