// SPDX-License-Identifier: MIT
// v4l2loopback writer: the virtual camera where the v4l2loopback module is loaded instead of PipeWire (or
// beside it). Frames go to the loopback device as YUYV, the format browsers accept from it when it was
// loaded with exclusive_caps=1 (sudo modprobe v4l2loopback exclusive_caps=1 card_label=ConvoLab).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "convolab/image.hpp"

namespace convolab::vcam {

/// The system calls the writer makes, so that a test can stand in for a device.
class V4l2Io {
 public:
  virtual ~V4l2Io() = default;
  virtual std::vector<std::string> videoDevices() = 0;  ///< /dev/video*
  virtual int open(const std::string& path) = 0;        ///< a descriptor, or -1 (errno set)
  virtual int ioctl(int fd, unsigned long request, void* arg) = 0;
  virtual long write(int fd, const void* data, std::size_t size) = 0;
  virtual void close(int fd) = 0;
};

/// The real devices.
std::shared_ptr<V4l2Io> systemV4l2Io();

/// The first device whose driver (VIDIOC_QUERYCAP) is "v4l2 loopback"; empty when there is none.
std::string findLoopbackDevice(V4l2Io& io);

class V4l2LoopbackWriter {
 public:
  /// Opens `path`; throws std::runtime_error (for people) when it cannot or it is no loopback device.
  explicit V4l2LoopbackWriter(const std::string& path, std::shared_ptr<V4l2Io> io = systemV4l2Io());
  ~V4l2LoopbackWriter();
  V4l2LoopbackWriter(const V4l2LoopbackWriter&) = delete;
  V4l2LoopbackWriter& operator=(const V4l2LoopbackWriter&) = delete;

  /// Writes one frame as YUYV (an odd last column is left out: YUYV pairs pixels). The first frame, and one
  /// of a new size, sets the device's format first. Throws std::runtime_error when the device refuses.
  void write(const ImageView& frame);
  std::uint64_t framesWritten() const { return m_written; }

 private:
  void setFormat(int width, int height);

  std::shared_ptr<V4l2Io> m_io;
  std::string m_path;
  int m_fd = -1;
  int m_width = 0, m_height = 0;
  std::vector<std::uint8_t> m_buffer;
  std::uint64_t m_written = 0;
};

}  // namespace convolab::vcam
