// SPDX-License-Identifier: MIT
// CameraSource: a V4L2 webcam through OpenCV, opened by a stable id so it can be found again after an unplug.
#pragma once

#include <opencv2/videoio.hpp>

#include "camera_list.hpp"
#include "frame_source.hpp"
#include "image_pool.hpp"
#include "v4l2_device.hpp"

namespace convolab::capture {

class CameraSource : public FrameSource {
 public:
  /// `camera.stableId` is what reconnects use; `mode` all zero means "the preferred mode".
  explicit CameraSource(CameraInfo camera, CameraMode mode = {});

  SourceTraits traits() const override;
  std::string description() const override { return m_camera.label(); }
  void open() override;
  void close() override { m_capture.release(); }
  bool read(Frame& out) override;
  bool selfPaced() const override { return true; }
  bool canStep() const override { return true; }
  double nominalFps() const override { return m_fps; }
  std::string deliveredMode() const override { return m_mode; }
  bool canReconnect() const override { return true; }

 private:
  /// Re-applies the values remembered for this camera (RememberedControls) through a control descriptor.
  void restoreControls(const std::string& path);

  CameraInfo m_camera;
  CameraMode m_requested;
  cv::VideoCapture m_capture;
  cv::Mat m_bgr;
  ImagePool m_pool{stagingProvider()};
  double m_fps = 30;
  std::string m_mode;
  std::int64_t m_index = 0;
  V4l2DeviceFactory m_openControls = openV4l2Device;
};

}  // namespace convolab::capture
