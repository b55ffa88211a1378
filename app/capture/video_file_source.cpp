// SPDX-License-Identifier: MIT
// Video file source: decode, convert BGR→RGB once, rewind at the end so the clip loops; seek on request.
#include "video_file_source.hpp"

#include <algorithm>
#include <cmath>

#include "cv/mat_adapter.hpp"

namespace convolab::capture {

VideoFileSource::VideoFileSource(std::filesystem::path path, std::int64_t maxPixels)
    : m_path(std::move(path)), m_maxPixels(maxPixels) {}

void VideoFileSource::open() {
  if (m_reader) return;
  try {
    m_reader = std::make_unique<VideoReader>(m_path, m_maxPixels);
  } catch (const SourceError& e) {
    throw SourceError(m_path.string() + ": " + e.what());
  }
  const VideoInfo& info = m_reader->info();
  m_fps = info.nominalFps >= 1 && info.nominalFps <= 480 ? info.nominalFps : 30.0;
  m_frameCount = info.declaredFrames;
  m_next = 0;
  m_position = -1;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d×%d video @ %.3g fps", info.width, info.height, m_fps);
  m_mode = buf;
}

void VideoFileSource::seek(std::int64_t frame) {
  if (!m_reader || m_frameCount <= 0) return;
  frame = std::clamp<std::int64_t>(frame, 0, m_frameCount - 1);
  m_reader->seekFrame(frame);
  m_next = frame;
}

bool VideoFileSource::read(Frame& out) {
  if (!m_reader) return false;
  if (!m_reader->read(m_bgr)) {
    // End of the clip: loop. A file that cannot deliver even its first frame has failed.
    m_reader->seekFrame(0);
    m_next = 0;
    if (!m_reader->read(m_bgr)) return false;
  }
  m_position = m_next++;
  // The file's count is an estimate for some containers: trust what was actually read.
  if (m_frameCount > 0 && m_position >= m_frameCount) m_frameCount = m_position + 1;
  auto image = m_pool.acquire(m_bgr.cols, m_bgr.rows);
  opencv::imageFromMat(m_bgr, *image);
  out.image = std::move(image);
  out.index = m_index++;
  out.captured = Clock::now();
  return true;
}

}  // namespace convolab::capture
