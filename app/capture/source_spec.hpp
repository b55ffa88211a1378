// SPDX-License-Identifier: MIT
// The one place that knows the kinds of source: turns the specs of the command line and settings (camera
// index, device path, file path, "pattern[...]") into FrameSources, and lists the devices one can pick.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "camera_list.hpp"
#include "cv/image_codec.hpp"
#include "frame_source.hpp"

namespace convolab::capture {

/// The specs createSource accepts, for --help: "camera index (0), device path (/dev/video0), …".
std::string sourceSpecSummary();

/// True when `spec` names a camera: an index ("0") or a device path (/dev/video0, /dev/v4l/by-id/...).
bool isCameraSpec(const std::string& spec);

/// True when `spec` names a file (not a device, not a pattern): whether it still exists is worth checking.
bool namesFile(const std::string& spec);

/// Builds the source `spec` names (not yet opened), any of sourceSpecSummary(); `cameraMode` applies to
/// cameras (all zero: the preferred mode). Throws SourceError when the spec is malformed or names a file
/// that does not exist or is not a regular file (a FIFO, /dev/zero: never opened, so never blocks). Images,
/// videos and patterns with more than `maxPixels` pixels are refused (images from their header, on open()).
std::unique_ptr<FrameSource> createSource(const std::string& spec,
                                          std::int64_t maxPixels = opencv::kDefaultMaxPixels,
                                          const CameraMode& cameraMode = {});

/// A device present now, as File ▸ Camera lists it.
struct DeviceChoice {
  std::string spec;   ///< what createSource opens it by (a camera: its stable id)
  std::string label;  ///< for people: "HD Webcam C920 (/dev/video0)"
  std::string alias;  ///< another spec for the same device (a camera's /dev/videoN); may be empty
};

/// The devices present now, in menu order; the first is what "auto" opens. Empty when there is none.
std::vector<DeviceChoice> listDevices();

}  // namespace convolab::capture
