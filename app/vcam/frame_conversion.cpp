// SPDX-License-Identifier: MIT
#include "vcam/frame_conversion.hpp"

#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cv/mat_adapter.hpp"

namespace convolab::vcam {

namespace {

// OpenCV has no RGB→YUY2 conversion: each pixel to BT.601 limited-range YUV with cv::transform (the
// coefficients OpenCV's RGB→I420 uses, so YUY2 and I420 of one frame agree), then two pixels give Y0 U Y1 V
// with the mean of their U and of their V (the mean of the converted values is the conversion of the mean:
// it is linear).
void toYuy2(const ImageView& frame, std::uint8_t* dst, std::size_t stride) {
  static const cv::Matx34f kRgbToYuv(0.2568f, 0.5041f, 0.0979f, 16.f,     //
                                     -0.1482f, -0.2910f, 0.4392f, 128.f,  //
                                     0.4392f, -0.3678f, -0.0714f, 128.f);
  thread_local cv::Mat scratch;  // the PipeWire thread's, kept between frames
  cv::Mat& yuv = scratch;        // named here: inside the lambda, another thread would see its own
  cv::transform(opencv::asMat(frame), yuv, kRgbToYuv);
  cv::parallel_for_(cv::Range(0, frame.height), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      const std::uint8_t* in = yuv.ptr(y);
      std::uint8_t* out = dst + static_cast<std::size_t>(y) * stride;
      for (int x = 0; x + 1 < frame.width; x += 2, in += 6, out += 4) {
        out[0] = in[0];
        out[1] = static_cast<std::uint8_t>((in[1] + in[4] + 1) >> 1);
        out[2] = in[3];
        out[3] = static_cast<std::uint8_t>((in[2] + in[5] + 1) >> 1);
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
    case VideoFormat::RGBx: {
      cv::Mat out(frame.height, frame.width, CV_8UC4, dst, layout.stride);
      cv::cvtColor(rgb, out, cv::COLOR_RGB2RGBA);
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
