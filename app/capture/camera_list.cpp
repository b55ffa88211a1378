// SPDX-License-Identifier: MIT
// Webcam discovery through sysfs, /dev/v4l/by-id and the V4L2 enumeration ioctls.
#include "camera_list.hpp"

#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace convolab::capture {
namespace fs = std::filesystem;
namespace {

std::string fourccString(std::uint32_t f) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += static_cast<char>((f >> (8 * i)) & 0xff);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

int xioctl(int fd, unsigned long request, void* arg) {
  int r;
  do r = ioctl(fd, request, arg);
  while (r == -1 && errno == EINTR);
  return r;
}

// An open file descriptor that closes itself.
struct Fd {
  int fd;
  explicit Fd(const std::string& path) : fd(::open(path.c_str(), O_RDWR | O_NONBLOCK)) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool isCaptureDevice(const std::string& path) {
  Fd dev(path);
  if (dev.fd < 0) return true;  // busy or no permission: still list it, opening will say more
  v4l2_capability cap{};
  if (xioctl(dev.fd, VIDIOC_QUERYCAP, &cap) != 0) return true;
  const std::uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
  return (caps & V4L2_CAP_VIDEO_CAPTURE) != 0;
}

std::string byIdFor(const std::string& devicePath) {
  std::error_code ec;
  const fs::path dir("/dev/v4l/by-id");
  if (!fs::is_directory(dir, ec)) return {};
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path target = fs::canonical(entry.path(), ec);
    if (!ec && target == fs::path(devicePath)) return entry.path().string();
  }
  return {};
}

std::vector<double> frameRates(int fd, std::uint32_t format, int w, int h) {
  std::vector<double> rates;
  v4l2_frmivalenum iv{};
  iv.pixel_format = format;
  iv.width = static_cast<std::uint32_t>(w);
  iv.height = static_cast<std::uint32_t>(h);
  for (iv.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv) == 0; ++iv.index) {
    if (iv.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      if (iv.discrete.numerator)
        rates.push_back(static_cast<double>(iv.discrete.denominator) / iv.discrete.numerator);
    } else {
      if (iv.stepwise.min.numerator)
        rates.push_back(static_cast<double>(iv.stepwise.min.denominator) / iv.stepwise.min.numerator);
      break;
    }
  }
  return rates;
}

}  // namespace

std::string CameraMode::label() const {
  char buf[96];
  if (fps > 0)
    std::snprintf(buf, sizeof buf, "%s %d×%d @ %.4g fps", fourcc.c_str(), width, height, fps);
  else
    std::snprintf(buf, sizeof buf, "%s %d×%d", fourcc.c_str(), width, height);
  return buf;
}

std::string CameraInfo::label() const {
  return (name.empty() ? "Camera" : name) + " (" + devicePath + ")";
}

std::vector<CameraInfo> listCameras() {
  std::vector<CameraInfo> cameras;
  std::error_code ec;
  const fs::path sys("/sys/class/video4linux");
  if (!fs::is_directory(sys, ec)) return cameras;
  for (const auto& entry : fs::directory_iterator(sys, ec)) {
    const std::string node = entry.path().filename().string();
    if (node.rfind("video", 0) != 0) continue;
    CameraInfo info;
    try {
      info.index = std::stoi(node.substr(5));
    } catch (const std::exception&) {
      continue;
    }
    info.devicePath = "/dev/" + node;
    if (!fs::exists(info.devicePath, ec) || !isCaptureDevice(info.devicePath)) continue;
    std::ifstream nameFile(entry.path() / "name");
    std::getline(nameFile, info.name);
    info.stableId = byIdFor(info.devicePath);
    if (info.stableId.empty()) info.stableId = info.devicePath;
    cameras.push_back(std::move(info));
  }
  std::sort(cameras.begin(), cameras.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return cameras;
}

std::vector<CameraMode> listCameraModes(const std::string& devicePath) {
  std::vector<CameraMode> modes;
  Fd dev(devicePath);
  if (dev.fd < 0) return modes;
  v4l2_fmtdesc fmt{};
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  for (fmt.index = 0; xioctl(dev.fd, VIDIOC_ENUM_FMT, &fmt) == 0; ++fmt.index) {
    const std::string fourcc = fourccString(fmt.pixelformat);
    v4l2_frmsizeenum size{};
    size.pixel_format = fmt.pixelformat;
    for (size.index = 0; xioctl(dev.fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; ++size.index) {
      std::vector<std::pair<int, int>> sizes;
      if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        sizes.emplace_back(size.discrete.width, size.discrete.height);
      } else {
        // Step-wise or continuous: offer the common sizes that fit.
        static const std::pair<int, int> kCommon[] = {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}};
        for (auto [w, h] : kCommon)
          if (w >= static_cast<int>(size.stepwise.min_width) &&
              w <= static_cast<int>(size.stepwise.max_width) &&
              h >= static_cast<int>(size.stepwise.min_height) &&
              h <= static_cast<int>(size.stepwise.max_height))
            sizes.emplace_back(w, h);
      }
      for (auto [w, h] : sizes) {
        auto rates = frameRates(dev.fd, fmt.pixelformat, w, h);
        if (rates.empty()) rates.push_back(0);
        for (double r : rates) modes.push_back({fourcc, w, h, r});
      }
      if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
    }
  }
  // Largest first, then fastest.
  std::stable_sort(modes.begin(), modes.end(), [](const CameraMode& a, const CameraMode& b) {
    if (a.fourcc != b.fourcc) return a.fourcc < b.fourcc;
    if (a.width * a.height != b.width * b.height) return a.width * a.height > b.width * b.height;
    return a.fps > b.fps;
  });
  modes.erase(std::unique(modes.begin(), modes.end()), modes.end());
  return modes;
}

CameraMode preferredCameraMode(const std::vector<CameraMode>& modes) {
  auto score = [](const CameraMode& m) {
    const bool fits = m.width * m.height <= 1920 * 1080;
    const bool hd = m.width >= 1280 && m.height >= 720;
    const bool mjpg = m.fourcc == "MJPG";
    // MJPG at ≥720p first (uncompressed YUYV at 1080p usually runs at 5 fps over USB 2), then size, then
    // rate.
    return std::make_tuple(fits, mjpg && hd, m.fps >= 29, m.width * m.height, m.fps);
  };
  if (modes.empty()) return {};
  return *std::max_element(modes.begin(), modes.end(),
                           [&](const CameraMode& a, const CameraMode& b) { return score(a) < score(b); });
}

std::string resolveCameraPath(const std::string& stableId) {
  std::error_code ec;
  if (!fs::exists(stableId, ec)) return {};
  const fs::path target = fs::canonical(stableId, ec);
  return ec ? stableId : target.string();
}

}  // namespace convolab::capture
