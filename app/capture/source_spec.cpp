// SPDX-License-Identifier: MIT
// Turning a source spec into a FrameSource: the one place to add a new kind of source.
#include "source_spec.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "camera_list.hpp"
#include "camera_source.hpp"
#include "cv/image_codec.hpp"
#include "image_file_source.hpp"
#include "pipewire/node_list.hpp"
#include "pipewire_camera_source.hpp"
#include "test_pattern_source.hpp"
#include "video_file_source.hpp"

namespace convolab::capture {

std::string sourceSpecSummary() {
  return "camera index (0), device path (/dev/video0), PipeWire camera (pipewire:NODE_NAME), image or "
         "video file, 'pattern' (pattern[:WxH][@FPS][,fail=N][,recover=M])";
}

bool isCameraSpec(const std::string& spec) {
  if (!spec.empty() && spec.size() <= 3 &&
      std::all_of(spec.begin(), spec.end(), [](unsigned char c) { return std::isdigit(c); }))
    return true;
  return spec.rfind("/dev/video", 0) == 0 || spec.rfind("/dev/v4l/", 0) == 0;
}

bool namesFile(const std::string& spec) {
  return !TestPatternOptions::isPatternSpec(spec) && !isCameraSpec(spec) && pipewireNodeName(spec).empty();
}

std::unique_ptr<FrameSource> createSource(const std::string& spec, std::int64_t maxPixels,
                                          const CameraMode& cameraMode) {
  if (auto pattern = TestPatternOptions::parse(spec)) {
    if (static_cast<std::int64_t>(pattern->width) * pattern->height > maxPixels)
      throw SourceError(
          opencv::tooLargeMessage("the test pattern", pattern->width, pattern->height, maxPixels));
    return std::make_unique<TestPatternSource>(*pattern);
  }
  if (const std::string node = pipewireNodeName(spec); !node.empty())
    return std::make_unique<PipeWireCameraSource>(node);
  if (isCameraSpec(spec)) {
    const std::string path = std::isdigit(static_cast<unsigned char>(spec[0])) ? "/dev/video" + spec : spec;
    // Known camera: keep its name and stable id. Absent: the source reports "no camera" and retries.
    const std::string resolved = resolveCameraPath(path);
    for (const auto& camera : listCameras())
      if (camera.devicePath == resolved || camera.stableId == path)
        return std::make_unique<CameraSource>(camera, cameraMode);
    CameraInfo info;
    info.devicePath = resolved.empty() ? path : resolved;
    info.stableId = path;
    return std::make_unique<CameraSource>(info, cameraMode);
  }
  std::error_code ec;
  const auto status = std::filesystem::status(spec, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw SourceError("'" + spec +
                      "' is not a regular file (a FIFO, a device or a folder cannot be a source)");
  if (!std::filesystem::is_regular_file(status))
    throw SourceError("'" + spec + "' is not a camera, a file, or 'pattern'");
  if (opencv::isImageFileName(spec)) return std::make_unique<ImageFileSource>(spec, maxPixels);
  return std::make_unique<VideoFileSource>(spec, maxPixels);
}

std::vector<DeviceChoice> listDevices() {
  std::vector<DeviceChoice> devices;
  for (const auto& camera : listCameras())
    devices.push_back({camera.stableId, camera.label(), camera.devicePath});
  // After the V4L2 devices, so "auto" opens a PipeWire camera only where no V4L2 camera is present (a
  // libcamera-only laptop, a test camera) and never picks another app's virtual camera over a real one.
  for (const auto& node : pipewire::listPipeWireCameras()) {
    const std::string what = node.description.empty() || node.description == node.name
                                 ? node.name + " (PipeWire)"
                                 : node.description + " (PipeWire " + node.name + ")";
    devices.push_back({"pipewire:" + node.name, what, ""});
  }
  return devices;
}

}  // namespace convolab::capture
