// SPDX-License-Identifier: MIT
// The real V4L2 device: controls through the extended-control ioctls on a descriptor of its own.
#include "v4l2_device.hpp"

#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace convolab::capture {

namespace {

int xioctl(int fd, unsigned long request, void* arg) {
  int r;
  do r = ::ioctl(fd, request, arg);
  while (r == -1 && errno == EINTR);
  return r;
}

ControlType typeOf(std::uint32_t v4l2Type) {
  switch (v4l2Type) {
    case V4L2_CTRL_TYPE_INTEGER:
    case V4L2_CTRL_TYPE_INTEGER64:
      return ControlType::Integer;
    case V4L2_CTRL_TYPE_BOOLEAN:
      return ControlType::Boolean;
    case V4L2_CTRL_TYPE_MENU:
      return ControlType::Menu;
    case V4L2_CTRL_TYPE_INTEGER_MENU:
      return ControlType::IntegerMenu;
    case V4L2_CTRL_TYPE_BUTTON:
      return ControlType::Button;
    default:
      return ControlType::Other;
  }
}

class RealV4l2Device : public V4l2Device {
 public:
  explicit RealV4l2Device(int fd) : m_fd(fd) {}
  ~RealV4l2Device() override { ::close(m_fd); }

  std::vector<CameraControl> queryControls() override {
    std::vector<CameraControl> controls;
    v4l2_query_ext_ctrl q{};
    q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
    while (xioctl(m_fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0) {
      if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS && !(q.flags & V4L2_CTRL_FLAG_DISABLED) && q.elems == 1)
        controls.push_back(describe(q));
      q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
    }
    if (errno == ENODEV) throw ControlError(ControlError::Kind::DeviceGone, "the camera is gone");
    return controls;
  }

  void setValue(std::uint32_t id, std::int64_t value) override {
    v4l2_ext_control c{};
    c.id = id;
    c.value64 = value;
    v4l2_query_ext_ctrl q{};
    q.id = id;
    const bool known = xioctl(m_fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0;
    const std::string name = known ? std::string(q.name) : "control " + std::to_string(id);
    if (!known && errno == ENODEV) throw ControlError(ControlError::Kind::DeviceGone, "the camera is gone");
    if (!known)
      throw ControlError(ControlError::Kind::Vanished, name + " is no longer offered by the camera");
    if (q.type != V4L2_CTRL_TYPE_INTEGER64) c.value = static_cast<std::int32_t>(value);
    v4l2_ext_controls cs{};
    cs.which = V4L2_CTRL_WHICH_CUR_VAL;
    cs.count = 1;
    cs.controls = &c;
    if (xioctl(m_fd, VIDIOC_S_EXT_CTRLS, &cs) == 0) return;
    const int error = errno;
    if (error == ENODEV) throw ControlError(ControlError::Kind::DeviceGone, "the camera is gone");
    throw ControlError(
        ControlError::Kind::Refused,
        "the camera refused " + name + " = " + std::to_string(value) + " (" + std::strerror(error) + ")");
  }

 private:
  CameraControl describe(const v4l2_query_ext_ctrl& q) {
    CameraControl c;
    c.id = q.id;
    c.name = q.name;
    c.type = typeOf(q.type);
    c.minimum = q.minimum;
    c.maximum = q.maximum;
    c.step = q.step > 0 ? static_cast<std::int64_t>(q.step) : 1;
    c.defaultValue = q.default_value;
    c.inactive = q.flags & V4L2_CTRL_FLAG_INACTIVE;
    c.readOnly = q.flags & (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_GRABBED);
    if (c.type == ControlType::Menu || c.type == ControlType::IntegerMenu) {
      for (std::int64_t i = q.minimum; i <= q.maximum; ++i) {
        v4l2_querymenu m{};
        m.id = q.id;
        m.index = static_cast<std::uint32_t>(i);
        if (xioctl(m_fd, VIDIOC_QUERYMENU, &m) != 0) continue;  // an index the device does not offer
        c.menu.emplace_back(i, c.type == ControlType::Menu
                                   ? std::string(reinterpret_cast<const char*>(m.name))
                                   : std::to_string(m.value));
      }
    }
    if (c.type != ControlType::Button && !(q.flags & V4L2_CTRL_FLAG_WRITE_ONLY)) {
      v4l2_ext_control v{};
      v.id = q.id;
      v4l2_ext_controls vs{};
      vs.which = V4L2_CTRL_WHICH_CUR_VAL;
      vs.count = 1;
      vs.controls = &v;
      if (xioctl(m_fd, VIDIOC_G_EXT_CTRLS, &vs) == 0)
        c.value = q.type == V4L2_CTRL_TYPE_INTEGER64 ? v.value64 : v.value;
      else
        c.value = c.defaultValue;
    }
    return c;
  }

  int m_fd;
};

}  // namespace

std::unique_ptr<V4l2Device> openV4l2Device(const std::string& devicePath) {
  const int fd = ::open(devicePath.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw ControlError(ControlError::Kind::DeviceGone,
                       "cannot open " + devicePath + " for its controls: " + std::strerror(errno));
  return std::make_unique<RealV4l2Device>(fd);
}

}  // namespace convolab::capture
