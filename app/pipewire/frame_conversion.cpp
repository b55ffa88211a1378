// SPDX-License-Identifier: MIT
#include "pipewire/frame_conversion.hpp"

#include <algorithm>
#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "cv/mat_adapter.hpp"

namespace convolab::pipewire {

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

// BT.601 limited range in OpenCV's fixed point (its ITUR_BT_601_* coefficients, scaled by 2^20): each Y is
// OpenCV's COLOR_RGB2YUV_I420 bit for bit.
constexpr int kShift = 20;
constexpr int kRY = 269484, kGY = 528482, kBY = 102760;
constexpr int kRU = -155188, kGU = -305135, kBU = 460324;
constexpr int kRV = 460324, kGV = -385875, kBV = -74448;

std::uint8_t luma(const std::uint8_t* p) {
  return static_cast<std::uint8_t>(
      (kRY * p[0] + kGY * p[1] + kBY * p[2] + (16 << kShift) + (1 << (kShift - 1))) >> kShift);
}

// U and V of n pixels (n = 1, 2 or 4) whose R, G and B add up to r, g and b: the mean of their U and V,
// rounded half up. Inside 16..240 whatever the pixels, and no product or sum leaves an int: 4 · 255 · 460324
// + 4 · 2^27 < 2^31.
template <int n>
void chroma(int r, int g, int b, std::uint8_t* u, std::uint8_t* v) {
  constexpr int shift = kShift + (n == 4 ? 2 : n == 2 ? 1 : 0);
  constexpr int bias = n * ((128 << kShift) + (1 << (kShift - 1)));
  *u = static_cast<std::uint8_t>((kRU * r + kGU * g + kBU * b + bias) >> shift);
  *v = static_cast<std::uint8_t>((kRV * r + kGV * g + kBV * b + bias) >> shift);
}

// Block row `by` of I420: the Y of its (one or two) pixel rows, and each 2×2 block's U and V from the mean of
// its pixels. At an odd width or height the last blocks are 2×1, 1×2 or 1×1 and average what they have.
// (OpenCV's COLOR_RGB2YUV_I420 takes the block's top-left pixel's chroma instead: colour edges alias, up to
// 27 levels from the mean on a photo.)
void i420BlockRow(const ImageView& frame, int by, std::uint8_t* dst, const FrameLayout& layout) {
  const int w = frame.width, h = frame.height, y0 = 2 * by;
  const bool pair = y0 + 1 < h;
  const std::uint8_t* top = frame.row(y0);
  const std::uint8_t* bottom = pair ? frame.row(y0 + 1) : top;
  std::uint8_t* yTop = dst + static_cast<std::size_t>(y0) * layout.stride;
  std::uint8_t* yBottom = yTop + layout.stride;
  std::uint8_t* u = dst + layout.stride * h + static_cast<std::size_t>(by) * layout.chromaStride;
  std::uint8_t* v = u + layout.chromaStride * (static_cast<std::size_t>(h + 1) / 2);
  const int full = w / 2;
  for (int bx = 0; bx < full; ++bx) {
    const std::uint8_t *a = top + 6 * bx, *b = bottom + 6 * bx;
    yTop[2 * bx] = luma(a);
    yTop[2 * bx + 1] = luma(a + 3);
    if (pair) {
      yBottom[2 * bx] = luma(b);
      yBottom[2 * bx + 1] = luma(b + 3);
      chroma<4>(a[0] + a[3] + b[0] + b[3], a[1] + a[4] + b[1] + b[4], a[2] + a[5] + b[2] + b[5], u + bx,
                v + bx);
    } else {
      chroma<2>(a[0] + a[3], a[1] + a[4], a[2] + a[5], u + bx, v + bx);
    }
  }
  if (w % 2) {  // the odd column: blocks one pixel wide
    const std::uint8_t *a = top + 6 * full, *b = bottom + 6 * full;
    yTop[2 * full] = luma(a);
    if (pair) {
      yBottom[2 * full] = luma(b);
      chroma<2>(a[0] + b[0], a[1] + b[1], a[2] + b[2], u + full, v + full);
    } else {
      chroma<1>(a[0], a[1], a[2], u + full, v + full);
    }
  }
}

void toI420(const ImageView& frame, std::uint8_t* dst, const FrameLayout& layout) {
  cv::parallel_for_(cv::Range(0, (frame.height + 1) / 2), [&](const cv::Range& blockRows) {
    for (int by = blockRows.start; by < blockRows.end; ++by) i420BlockRow(frame, by, dst, layout);
  });
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
    case VideoFormat::MJPG:  // never offered
      return;
  }
}

bool convertToRgb(const std::uint8_t* data, std::size_t size, std::size_t stride, VideoFormat format,
                  Image& out) {
  const int w = out.width, h = out.height;
  auto* bytes = const_cast<std::uint8_t*>(data);  // read only: cv::Mat has no const view
  if (format == VideoFormat::MJPG) {
    // A JPEG cut short (a buffer smaller than the frame) still decodes, with made-up rows: it must end with
    // its EOI marker (FF D9), before any zero padding a camera adds.
    while (size > 2 && data[size - 1] == 0) --size;
    if (size < 4 || data[size - 2] != 0xFF || data[size - 1] != 0xD9) return false;
    const cv::Mat decoded =
        cv::imdecode(cv::Mat(1, static_cast<int>(size), CV_8UC1, bytes), cv::IMREAD_COLOR);
    if (decoded.cols != w || decoded.rows != h) return false;
    cv::Mat rgb = opencv::asMat(out);
    cv::cvtColor(decoded, rgb, cv::COLOR_BGR2RGB);
    return true;
  }
  const FrameLayout layout = frameLayout(format, w, h);
  const std::size_t rowBytes = format == VideoFormat::RGB    ? std::size_t(w) * 3
                               : format == VideoFormat::YUY2 ? std::size_t(w) * 2
                               : format == VideoFormat::I420 ? std::size_t(w)
                                                             : std::size_t(w) * 4;
  const std::size_t needed = format == VideoFormat::I420 ? layout.size : stride * (h - 1) + rowBytes;
  if (stride < rowBytes || size < needed) return false;
  if (format == VideoFormat::I420 && (w % 2 || h % 2)) return false;  // OpenCV's I420 → RGB wants even sides
  cv::Mat rgb = opencv::asMat(out);
  switch (format) {
    case VideoFormat::RGB:
      cv::Mat(h, w, CV_8UC3, bytes, stride).copyTo(rgb);
      break;
    case VideoFormat::BGRx:
      cv::cvtColor(cv::Mat(h, w, CV_8UC4, bytes, stride), rgb, cv::COLOR_BGRA2RGB);
      break;
    case VideoFormat::RGBx:
      cv::cvtColor(cv::Mat(h, w, CV_8UC4, bytes, stride), rgb, cv::COLOR_RGBA2RGB);
      break;
    case VideoFormat::YUY2:
      cv::cvtColor(cv::Mat(h, w, CV_8UC2, bytes, stride), rgb, cv::COLOR_YUV2RGB_YUY2);
      break;
    case VideoFormat::I420: {  // our layout's padded planes into OpenCV's packed ones
      cv::Mat packed(h * 3 / 2, w, CV_8UC1);
      for (int y = 0; y < h; ++y) std::memcpy(packed.ptr(y), data + y * layout.stride, w);
      for (int row = 0; row < h; ++row)
        std::memcpy(packed.ptr(h) + static_cast<std::size_t>(row) * (w / 2),
                    data + layout.stride * h + row * layout.chromaStride, w / 2);
      cv::cvtColor(packed, rgb, cv::COLOR_YUV2RGB_I420);
      break;
    }
    case VideoFormat::MJPG:
      break;
  }
  return true;
}

}  // namespace convolab::pipewire
