// SPDX-License-Identifier: MIT
// Source specs of the command line and settings: camera index, device path, file path or "pattern[...]".
#pragma once

#include <memory>
#include <string>

#include "cv/image_codec.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

/// True when `spec` names a camera: an index ("0") or a device path (/dev/video0, /dev/v4l/by-id/...).
bool isCameraSpec(const std::string& spec);

/// Builds the source `spec` names (not yet opened): "0" or "/dev/video0" (camera, preferred mode),
/// "pattern[:WxH][@FPS][,fail=N][,recover=M]", an image file, or a video file. Throws SourceError when
/// the spec is malformed or names a file that does not exist or is not a regular file (a FIFO, /dev/zero:
/// never opened, so never blocks). Images, videos and patterns with more than `maxPixels` pixels are refused
/// (images from their header, on open()).
std::unique_ptr<FrameSource> createSource(const std::string& spec,
                                          std::int64_t maxPixels = opencv::kDefaultMaxPixels);

}  // namespace convolab::capture
