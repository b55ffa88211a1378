// SPDX-License-Identifier: MIT
// MjpegAviWriter: MJPG in AVI without OpenCV's FFmpeg writer. Each BGR frame is a JPEG from libjpeg-turbo
// (cv::imencode, quality 95), appended as one '00dc' chunk; the AVI grows past 1 GB through OpenDML ('AVIX'
// RIFFs, 'ix00' chunk indexes, one 'indx' super index), as FFmpeg's muxer does. About 4× less CPU than
// FFmpeg's mjpeg encoder with its BGR→YUV conversion (5 ms against 20 ms a 1080p frame), at equal or better
// PSNR (docs/BENCHMARKS.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace convolab::capture {

class MjpegAviWriter {
 public:
  static constexpr int kJpegQuality = 95;
  static constexpr std::int64_t kRiffBytes = std::int64_t{1} << 30;  // one RIFF's frames (FFmpeg's limit too)

  /// `riffBytes`: where a new RIFF begins (tests make it small).
  explicit MjpegAviWriter(std::int64_t riffBytes = kRiffBytes) : m_riffBytes(riffBytes) {}
  ~MjpegAviWriter();
  MjpegAviWriter(const MjpegAviWriter&) = delete;
  MjpegAviWriter& operator=(const MjpegAviWriter&) = delete;

  /// Creates `path` for BGR frames of `size` at `fps`; false when the file cannot be created, Error(BadInput)
  /// when its headers cannot be written.
  bool open(const std::filesystem::path& path, double fps, cv::Size size);
  bool isOpened() const { return m_file != nullptr; }
  /// Appends one frame of the opened size (CV_8UC3). Throws convolab::Error(BadInput) when the file cannot be
  /// written (e.g. a full disk).
  void write(const cv::Mat& bgr);
  /// Writes the indexes and the frame counts and closes the file; the destructor does too (without throwing).
  void release();

 private:
  struct Entry {
    std::int64_t offset;  // of the chunk's data in the file
    std::uint32_t size;   // of the data, before padding
  };
  struct Riff {
    std::int64_t start;  // of its 'RIFF'
    std::int64_t movi;   // of its 'movi' list's size field
    std::vector<Entry> frames;
  };

  void beginRiff();
  void endRiff();
  void writeHeaders();
  void writeStreamList(std::uint32_t width, std::uint32_t height);
  void put(const void* data, std::size_t bytes);
  void put32(std::uint32_t v);
  void put16(std::uint16_t v);
  void putTag(const char* tag) { put(tag, 4); }
  void patch32(std::int64_t at, std::uint32_t v);
  std::int64_t tell() const;
  [[noreturn]] void failed(const std::string& what) const;

  const std::int64_t m_riffBytes;
  std::FILE* m_file = nullptr;
  std::filesystem::path m_path;
  cv::Size m_size;
  std::uint32_t m_rate = 30, m_scale = 1;
  std::vector<Riff> m_riffs;
  std::vector<std::int64_t> m_chunkIndexes;  // each RIFF's 'ix00' offset, for the super index
  std::vector<std::uint32_t> m_chunkIndexSizes;
  std::uint32_t m_largestFrame = 0;
  std::int64_t m_frames = 0;
  std::vector<uchar> m_jpeg;
  std::vector<char> m_buffer;  // the stream's buffer (the destructor closes the stream first)
  // Where the headers' counts go, patched by release().
  std::int64_t m_avihFrames = 0, m_avihBuffer = 0, m_strhLength = 0, m_strhBuffer = 0, m_indx = 0, m_dmlh = 0;
};

}  // namespace convolab::capture
