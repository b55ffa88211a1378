// SPDX-License-Identifier: MIT
// Webcam source: negotiates the mode, reports what the driver actually delivers, converts BGR→RGB once.
#include "camera_source.hpp"

#include <cmath>

#include "cv/mat_adapter.hpp"
#include "remembered_controls.hpp"

namespace convolab::capture {

CameraSource::CameraSource(CameraInfo camera, CameraMode mode)
    : m_camera(std::move(camera)), m_requested(mode) {}

SourceTraits CameraSource::traits() const {
  SourceTraits t;
  t.kindName = "Camera";
  t.waitsForDevice = true;
  const std::string id = m_camera.stableId.empty() ? m_camera.devicePath : m_camera.stableId;
  t.rememberedSpec = id;
  t.controlsDevice = id;
  // Asked by the stable id each time: after a replug the camera may be another /dev/videoN.
  t.listModes = [id] {
    const std::string path = resolveCameraPath(id);
    return listCameraModes(path.empty() ? id : path);
  };
  return t;
}

void CameraSource::open() {
  if (m_capture.isOpened()) return;  // opened already (off the GUI thread) before the capture thread took it
  const std::string path =
      resolveCameraPath(m_camera.stableId.empty() ? m_camera.devicePath : m_camera.stableId);
  if (path.empty()) throw SourceAbsent("no camera at " + m_camera.stableId);
  m_camera.devicePath = path;
  CameraMode mode = m_requested;
  if (mode.width == 0) mode = preferredCameraMode(listCameraModes(path));
  // Mode properties go in the open() call so the driver negotiates once (OpenCV ≥ 4.5 reads them there).
  std::vector<int> params;
  if (mode.fourcc.size() == 4) {
    params.insert(params.end(),
                  {cv::CAP_PROP_FOURCC,
                   cv::VideoWriter::fourcc(mode.fourcc[0], mode.fourcc[1], mode.fourcc[2], mode.fourcc[3])});
  }
  if (mode.width > 0)
    params.insert(params.end(),
                  {cv::CAP_PROP_FRAME_WIDTH, mode.width, cv::CAP_PROP_FRAME_HEIGHT, mode.height});
  if (mode.fps > 0) params.insert(params.end(), {cv::CAP_PROP_FPS, static_cast<int>(std::lround(mode.fps))});
  if (!m_capture.open(path, cv::CAP_V4L2, params) || !m_capture.isOpened())
    throw SourceError("cannot open camera " + m_camera.label() + " (busy, or no permission?)");
  const int fourcc = static_cast<int>(m_capture.get(cv::CAP_PROP_FOURCC));
  std::string fcc;
  for (int i = 0; i < 4; ++i) fcc += static_cast<char>((fourcc >> (8 * i)) & 0xff);
  const double fps = m_capture.get(cv::CAP_PROP_FPS);
  m_fps = std::isfinite(fps) && fps > 0 ? fps : 30.0;
  const CameraMode delivered{fcc, static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_WIDTH)),
                             static_cast<int>(m_capture.get(cv::CAP_PROP_FRAME_HEIGHT)), m_fps};
  m_mode = delivered.label();
  restoreControls(path);
}

void CameraSource::restoreControls(const std::string& path) {
  // On every open, so values come back after an unplug too (the capture thread reopens on its own). A
  // control that cannot be set is reported where the panel shows it, never a reason to fail the camera.
  const std::string id = m_camera.stableId.empty() ? m_camera.devicePath : m_camera.stableId;
  try {
    restoreRememberedControls(id, *m_openControls(path));
  } catch (const ControlError& e) {
    RememberedControls::instance().setLastProblems(id, {e.what()});
  }
}

bool CameraSource::read(Frame& out) {
  if (!m_capture.isOpened() || !m_capture.read(m_bgr) || m_bgr.empty()) return false;
  auto image = m_pool.acquire(m_bgr.cols, m_bgr.rows);
  opencv::imageFromMat(m_bgr, *image);
  out.image = std::move(image);
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

}  // namespace convolab::capture
