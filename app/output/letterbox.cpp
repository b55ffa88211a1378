// SPDX-License-Identifier: MIT
#include "output/letterbox.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace convolab::output {

bool parseOutputSize(const std::string& text, int& width, int& height) {
  if (text.empty() || text == "source") {
    width = height = 0;
    return true;
  }
  int w = 0, h = 0;
  char x = 0, rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &rest) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 16 || w > 7680 || h < 16 || h > 4320 || w % 2 || h % 2) return false;  // YUY2/I420 want even sides
  width = w;
  height = h;
  return true;
}

FitRect fitInside(int width, int height, int outWidth, int outHeight) {
  if (width <= 0 || height <= 0 || outWidth <= 0 || outHeight <= 0) return {};
  // The larger scale that fits both ways; the other side is rounded to whole pixels and centred.
  FitRect r;
  if (static_cast<long long>(width) * outHeight >= static_cast<long long>(height) * outWidth) {
    r.width = outWidth;
    r.height = std::max(1, static_cast<int>((static_cast<long long>(height) * outWidth + width / 2) / width));
  } else {
    r.height = outHeight;
    r.width =
        std::max(1, static_cast<int>((static_cast<long long>(width) * outHeight + height / 2) / height));
  }
  r.x = (outWidth - r.width) / 2;
  r.y = (outHeight - r.height) / 2;
  return r;
}

void letterbox(const ImageView& in, Image& out) {
  for (int y = 0; y < out.height; ++y) std::memset(out.mutableView().row(y), 0, out.width * 3);
  const FitRect r = fitInside(in.width, in.height, out.width, out.height);
  if (r.width == 0) return;
  // Bilinear, 8-bit fixed-point weights; source coordinates of pixel centres.
  std::vector<int> x0(r.width), wx(r.width);
  for (int x = 0; x < r.width; ++x) {
    const double sx = std::clamp((x + 0.5) * in.width / r.width - 0.5, 0.0, in.width - 1.0);
    x0[x] = std::min(static_cast<int>(sx), in.width - 1);
    wx[x] = static_cast<int>((sx - x0[x]) * 256 + 0.5);
  }
  for (int y = 0; y < r.height; ++y) {
    const double sy = std::clamp((y + 0.5) * in.height / r.height - 0.5, 0.0, in.height - 1.0);
    const int y0 = std::min(static_cast<int>(sy), in.height - 1), y1 = std::min(y0 + 1, in.height - 1);
    const int wy = static_cast<int>((sy - y0) * 256 + 0.5);
    const std::uint8_t* a = in.row(y0);
    const std::uint8_t* b = in.row(y1);
    std::uint8_t* dst = out.mutableView().row(r.y + y) + static_cast<std::size_t>(r.x) * 3;
    for (int x = 0; x < r.width; ++x) {
      const int i0 = x0[x] * 3, i1 = std::min(x0[x] + 1, in.width - 1) * 3;
      for (int c = 0; c < 3; ++c) {
        const int top = a[i0 + c] * (256 - wx[x]) + a[i1 + c] * wx[x];
        const int bottom = b[i0 + c] * (256 - wx[x]) + b[i1 + c] * wx[x];
        dst[x * 3 + c] = static_cast<std::uint8_t>((top * (256 - wy) + bottom * wy + 32768) >> 16);
      }
    }
  }
}

LetterboxSink::LetterboxSink(std::shared_ptr<OutputSink> inner, int width, int height)
    : m_inner(std::move(inner)), m_width(width), m_height(height), m_thread([this] { run(); }) {}

LetterboxSink::~LetterboxSink() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_one();
  m_thread.join();
}

void LetterboxSink::push(const OutputFrame& frame) {
  if (!frame.image || (frame.image->width == m_width && frame.image->height == m_height)) {
    m_inner->push(frame);
    return;
  }
  m_waiting.put(frame);
  std::lock_guard lock(m_mutex);  // so the thread cannot miss the wake between its check and its sleep
  m_wake.notify_one();
}

void LetterboxSink::run() {
  std::unique_lock lock(m_mutex);
  while (true) {
    std::optional<OutputFrame> frame;
    m_wake.wait(lock, [&] { return m_stop || (frame = m_waiting.takeAway()).has_value(); });
    if (m_stop) return;
    lock.unlock();
    auto out = std::make_shared<Image>(m_width, m_height);
    letterbox(frame->image->view(), *out);
    frame->image = std::move(out);
    m_inner->push(*frame);
    lock.lock();
  }
}

}  // namespace convolab::output
