// SPDX-License-Identifier: MIT
#include "vcam/v4l2_loopback_writer.hpp"

#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "pipewire/frame_conversion.hpp"

namespace convolab::vcam {

namespace {

class SystemV4l2Io : public V4l2Io {
 public:
  std::vector<std::string> videoDevices() override {
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
      if (entry.path().filename().string().rfind("video", 0) == 0) paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    return paths;
  }
  int open(const std::string& path) override { return ::open(path.c_str(), O_RDWR | O_CLOEXEC); }
  int ioctl(int fd, unsigned long request, void* arg) override {
    int r;
    do r = ::ioctl(fd, request, arg);
    while (r == -1 && errno == EINTR);
    return r;
  }
  long write(int fd, const void* data, std::size_t size) override { return ::write(fd, data, size); }
  void close(int fd) override { ::close(fd); }
};

bool isLoopback(V4l2Io& io, int fd) {
  v4l2_capability cap{};
  if (io.ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) return false;
  return std::strncmp(reinterpret_cast<const char*>(cap.driver), "v4l2 loopback", sizeof(cap.driver)) == 0;
}

}  // namespace

std::shared_ptr<V4l2Io> systemV4l2Io() {
  return std::make_shared<SystemV4l2Io>();
}

std::string findLoopbackDevice(V4l2Io& io) {
  for (const std::string& path : io.videoDevices()) {
    const int fd = io.open(path);
    if (fd < 0) continue;
    const bool loopback = isLoopback(io, fd);
    io.close(fd);
    if (loopback) return path;
  }
  return {};
}

V4l2LoopbackWriter::V4l2LoopbackWriter(const std::string& path, std::shared_ptr<V4l2Io> io)
    : m_io(std::move(io)), m_path(path) {
  m_fd = m_io->open(path);
  if (m_fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  if (!isLoopback(*m_io, m_fd)) {
    m_io->close(m_fd);
    throw std::runtime_error(path + " is not a v4l2loopback device");
  }
}

V4l2LoopbackWriter::~V4l2LoopbackWriter() {
  m_io->close(m_fd);
}

void V4l2LoopbackWriter::setFormat(int width, int height) {
  v4l2_format format{};
  format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  format.fmt.pix.width = static_cast<std::uint32_t>(width);
  format.fmt.pix.height = static_cast<std::uint32_t>(height);
  format.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  format.fmt.pix.field = V4L2_FIELD_NONE;
  format.fmt.pix.bytesperline = static_cast<std::uint32_t>(width) * 2;
  format.fmt.pix.sizeimage = format.fmt.pix.bytesperline * static_cast<std::uint32_t>(height);
  format.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;  // BT.601, as the conversion
  if (m_io->ioctl(m_fd, VIDIOC_S_FMT, &format) != 0)
    throw std::runtime_error(m_path + " refused YUYV " + std::to_string(width) + "×" +
                             std::to_string(height) + ": " + std::strerror(errno));
  m_width = width;
  m_height = height;
  m_buffer.resize(format.fmt.pix.sizeimage);
}

void V4l2LoopbackWriter::write(const ImageView& frame) {
  ImageView even = frame;
  even.width &= ~1;
  if (even.width <= 0 || even.height <= 0) return;
  if (even.width != m_width || even.height != m_height) setFormat(even.width, even.height);
  pipewire::convertFrame(even, pipewire::VideoFormat::YUY2,
                         m_buffer.data());  // rows of width·2 bytes: no padding
  if (m_io->write(m_fd, m_buffer.data(), m_buffer.size()) != static_cast<long>(m_buffer.size()))
    throw std::runtime_error("writing to " + m_path + " failed: " + std::strerror(errno));
  ++m_written;
}

}  // namespace convolab::vcam
