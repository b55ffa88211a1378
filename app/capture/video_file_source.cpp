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
  m_position = -1;
  m_positionMs = -1;
  m_soughtMs = -1;
  m_onlyFrame.reset();
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d×%d video @ %.3g fps", info.width, info.height, m_fps);
  m_mode = buf;
}

void VideoFileSource::seekMs(double ms) {
  if (!m_reader || m_onlyFrame) return;
  try {
    m_reader->seekMs(ms);
    m_soughtMs = std::max(0.0, ms);
  } catch (const SourceError&) {
    // The next read() fails the same way and reports it.
    m_soughtMs = -1;
  }
}

namespace {
constexpr double kBelowTimeResolutionMs = 0.01;  // below any container's time resolution
}  // namespace

void VideoFileSource::seek(std::int64_t frame) {
  if (!m_reader || m_frameCount <= 0) return;
  frame = std::clamp<std::int64_t>(frame, 0, m_frameCount - 1);
  // The frame on screen during interval `frame`: the last whose time rounds to it (as position() counts),
  // so containers that store times rounded to the millisecond land on the frame meant.
  seekMs((static_cast<double>(frame) + 0.5) * 1000.0 / m_fps - 2 * kBelowTimeResolutionMs);
}

bool VideoFileSource::read(Frame& out) {
  if (!m_reader) return false;
  if (!m_onlyFrame) {
    try {
      if (!m_reader->read(m_bgr)) {
        // End of the clip: loop (reopening works on every stream, where seeking back may not). A file that
        // cannot deliver even its first frame has failed.
        const bool oneFrame = m_reader->framesRead() == 1 && m_position == 0;
        if (oneFrame && m_last) {
          m_onlyFrame = m_last;
        } else {
          m_reader->rewind();
          if (!m_reader->read(m_bgr)) return false;
        }
      }
    } catch (const SourceError& e) {
      // E.g. the frame size changed: reopening would only play the part before it again, so the reason goes
      // to the capture thread, which reports the source failed.
      throw SourceError(m_path.filename().string() + ": " + e.what());
    }
  }
  if (m_onlyFrame) {
    out.image = m_onlyFrame;
    m_position = 0;
    m_positionMs = 0;
  } else {
    m_positionMs = m_reader->timestampMs();
    m_position = std::llround(m_positionMs * m_fps / 1000.0);
    // The container's count is an estimate for some: trust what was actually read.
    if (m_frameCount > 0 && m_position >= m_frameCount) m_frameCount = m_position + 1;
    auto image = m_pool.acquire(m_bgr.cols, m_bgr.rows);
    opencv::imageFromMat(m_bgr, *image);
    if (m_reader->framesRead() == 1)
      m_last = image;  // a one-frame clip is known only at its end
    else
      m_last.reset();
    out.image = std::move(image);
  }
  out.index = m_index++;
  out.captured = Clock::now();
  // A seek into a frame's interval (between two frames, or into a gap) shows that frame at the time sought:
  // the position reads where the person asked, and the next frame comes when its own time is reached.
  out.timestampMs = m_soughtMs >= 0
                        ? std::max(m_positionMs, std::min(m_soughtMs, std::max(durationMs(), 0.0)))
                        : m_positionMs;
  m_soughtMs = -1;
  return true;
}

}  // namespace convolab::capture
