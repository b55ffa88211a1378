// SPDX-License-Identifier: MIT
// Frame conversion: an RGB8 frame into the layout of one of the virtual camera's formats, and a camera's
// frame in any format we read back to RGB8. Runs on the PipeWire threads, never on the GUI thread.
#pragma once

#include <cstdint>

#include "convolab/image.hpp"
#include "pipewire/video_format.hpp"

namespace convolab::pipewire {

/// Writes `frame` into `dst` (at least frameLayout(format, w, h).size bytes) in `format`'s layout. YUV is
/// BT.601 limited range: each pixel's Y; YUY2's U and V are each pair's mean, I420's each 2×2 block's (the
/// partial blocks of an odd side average what they have).
void convertFrame(const ImageView& frame, VideoFormat format, std::uint8_t* dst);

/// The inverse, with OpenCV's own conversions: `size` bytes of a frame in `format` (rows of `stride` bytes;
/// MJPG: one JPEG image) into `out`, whose size is the negotiated one. False, with `out` untouched, when the
/// bytes cannot be that frame: too few for the layout (a buffer sent for the old size while renegotiating),
/// or a JPEG that does not decode to out's size.
bool convertToRgb(const std::uint8_t* data, std::size_t size, std::size_t stride, VideoFormat format,
                  Image& out);

}  // namespace convolab::pipewire
