// SPDX-License-Identifier: MIT
// FrameSizeWatch: the frame size each packet of a video file declares, read by a second demuxer (libavformat)
// beside OpenCV's reader, which delivers every frame at the first frame's size whatever the stream says
// (docs/RELIABILITY.md, "Videos that lie"). No decoding: the size libavcodec's parser for the codec reads
// from its headers (H.264, HEVC, MPEG-2, VP8, AV1; MPEG-4 part 2's and VP9's give none) or, for Motion-JPEG,
// the JPEG's frame header.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

namespace convolab::capture {

class FrameSizeWatch {
 public:
  struct Size {
    int width = 0, height = 0;
  };
  /// A packet that declares another size than the stream's first: `frame` is how many frames come before it
  /// (decode order from the first frame; -1 once a sync() moved the watch, as it then counts from there).
  struct Change {
    Size from, to;
    std::int64_t frame = -1;
  };

  /// Opens `path` a second time, on its first video stream (the one OpenCV's FFmpeg backend decodes), and
  /// reads the first frame's packet: its size is the one every later packet must declare. Inactive (every
  /// check passes) where libavformat cannot open it.
  explicit FrameSizeWatch(const std::filesystem::path& path);
  ~FrameSizeWatch();
  FrameSizeWatch(const FrameSizeWatch&) = delete;
  FrameSizeWatch& operator=(const FrameSizeWatch&) = delete;

  /// Whether it checks anything (the file opened, and no sync() failed).
  bool active() const;
  /// Checks the packets of the first `frames` frames (decode order) since the start or the last sync(). The
  /// caller asks ahead of the frames it has: a decoder holds packets beyond the frame it delivers (frame
  /// threads, reordering), and OpenCV converts those frames already with the new size's slice.
  std::optional<Change> check(std::int64_t frames);
  /// The reader seeked and delivered the frame at `ms` (the stream's time from its start, as
  /// CAP_PROP_POS_MSEC gives it): moves to the keyframe at or before it and checks the packets up to it,
  /// which counts as frame 1 for check(). Where the file cannot seek, the watch stops (inactive until
  /// reopened).
  std::optional<Change> sync(double ms);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace convolab::capture
