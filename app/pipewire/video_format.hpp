// SPDX-License-Identifier: MIT
// The pixel formats the virtual camera offers, and the memory layout of one frame in each.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace convolab::pipewire {

/// RGB and BGRx for tools (OBS, GStreamer), YUY2 and I420 for browsers and call apps. YUV is BT.601 limited
/// range (16–235), as browsers assume for camera frames. RGBx and MJPG are read from cameras only
/// (GStreamer's videotestsrc and other tools publish RGBx; webcams give their larger sizes as MJPG), never
/// offered.
enum class VideoFormat { RGB, BGRx, YUY2, I420, RGBx, MJPG };

/// Where the bytes of one frame go: rows of `stride` bytes; I420 adds its U and V planes after the Y plane,
/// one value per 2×2 block ((w + 1) / 2 × (h + 1) / 2 of them: an odd side ends in partial blocks).
struct FrameLayout {
  std::size_t stride = 0;        ///< bytes a row of the first (or only) plane
  std::size_t chromaStride = 0;  ///< I420: bytes a row of U and of V
  std::size_t size = 0;          ///< bytes of the whole frame
};

/// Rows padded to 4 bytes, planes one after another: GStreamer's default layout, so a consumer that ignores
/// the buffer's stride still reads the frame right. MJPG is compressed: no layout (all zero).
FrameLayout frameLayout(VideoFormat format, int width, int height);

/// The formats offered for a frame of this size, most preferred first (YUV needs even sizes).
std::vector<VideoFormat> formatsFor(int width, int height);

/// "RGB", "BGRx", "YUY2", "I420", "RGBx", "MJPG".
std::string formatName(VideoFormat format);

}  // namespace convolab::pipewire
