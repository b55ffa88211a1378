// SPDX-License-Identifier: MIT
// Frame conversion: an RGB8 frame into the layout of one of the virtual camera's formats. Runs on the
// PipeWire thread, never on the GUI thread.
#pragma once

#include <cstdint>

#include "convolab/image.hpp"
#include "vcam/video_format.hpp"

namespace convolab::vcam {

/// Writes `frame` into `dst` (at least frameLayout(format, w, h).size bytes) in `format`'s layout.
void convertFrame(const ImageView& frame, VideoFormat format, std::uint8_t* dst);

}  // namespace convolab::vcam
