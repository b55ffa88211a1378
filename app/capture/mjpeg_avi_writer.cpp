// SPDX-License-Identifier: MIT
// MjpegAviWriter: the AVI (RIFF) layout with OpenDML, little-endian, every chunk padded to an even size:
//
//   RIFF 'AVI '  LIST 'hdrl' [avih, LIST 'strl' [strh, strf, indx], LIST 'odml' [dmlh]]
//                LIST 'movi' [00dc … 00dc, ix00]   idx1
//   RIFF 'AVIX'  LIST 'movi' [00dc … 00dc, ix00]   (each further GB)
//
// idx1 indexes the first RIFF's frames for AVI 1.0 readers; the 'ix00' chunk indexes and the 'indx' super
// index cover every RIFF for OpenDML readers (FFmpeg's included).
#include "mjpeg_avi_writer.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <numeric>
#include <opencv2/imgcodecs.hpp>

#include "convolab/error.hpp"
#include "convolab/printable_path.hpp"

namespace convolab::capture {
namespace {

constexpr std::uint32_t kSuperIndexEntries = 256;  // 256 RIFFs of 1 GB
constexpr std::uint32_t kAvifHasIndex = 0x10, kAvifIsInterleaved = 0x100, kKeyFrame = 0x10;

/// fps as rate / scale: exact for whole numbers and NTSC's n·1000/1001, to a millionth otherwise.
void rational(double fps, std::uint32_t& rate, std::uint32_t& scale) {
  for (const std::uint32_t s : {1u, 1001u, 1000u}) {
    const double r = fps * s;
    if (std::abs(r - std::round(r)) < 1e-6 * s && r >= 1 && r < 4e9) {
      rate = static_cast<std::uint32_t>(std::llround(r));
      scale = s;
      const std::uint32_t g = std::gcd(rate, scale);
      rate /= g;
      scale /= g;
      return;
    }
  }
  scale = 1000000;
  rate = static_cast<std::uint32_t>(std::llround(fps * scale));
  const std::uint32_t g = std::gcd(rate, scale);
  rate /= g;
  scale /= g;
}

}  // namespace

MjpegAviWriter::~MjpegAviWriter() {
  try {
    release();
  } catch (...) {  // a destructor never throws: the file is left as far as it was written
  }
}

bool MjpegAviWriter::open(const std::filesystem::path& path, double fps, cv::Size size) {
  release();
  m_file = std::fopen(path.c_str(), "wb");
  if (!m_file) return false;
  m_buffer.resize(1 << 20);  // glibc sizes a buffer of its own by the device's block size (4 KB)
  std::setvbuf(m_file, m_buffer.data(), _IOFBF, m_buffer.size());
  m_path = path;
  m_size = size;
  rational(fps > 0 ? fps : 30.0, m_rate, m_scale);
  m_riffs.clear();
  m_chunkIndexes.clear();
  m_chunkIndexSizes.clear();
  m_largestFrame = 0;
  m_frames = 0;
  try {
    writeHeaders();
  } catch (...) {
    std::fclose(m_file);
    m_file = nullptr;
    throw;
  }
  return true;
}

void MjpegAviWriter::writeHeaders() {
  const auto w = static_cast<std::uint32_t>(m_size.width), h = static_cast<std::uint32_t>(m_size.height);
  putTag("RIFF");
  put32(0);  // patched by endRiff
  putTag("AVI ");
  putTag("LIST");
  const std::int64_t hdrl = tell();
  put32(0);
  putTag("hdrl");

  putTag("avih");
  put32(56);
  put32(static_cast<std::uint32_t>(std::llround(1e6 * m_scale / m_rate)));  // µs a frame
  put32(0);                                                                 // max bytes a second
  put32(0);                                                                 // padding granularity
  put32(kAvifHasIndex | kAvifIsInterleaved);
  m_avihFrames = tell();
  put32(0);  // frames in the first RIFF
  put32(0);  // initial frames
  put32(1);  // streams
  m_avihBuffer = tell();
  put32(0);  // suggested buffer size
  put32(w);
  put32(h);
  for (int i = 0; i < 4; ++i) put32(0);

  writeStreamList(w, h);

  putTag("LIST");
  put32(4 + 8 + 248);
  putTag("odml");
  putTag("dmlh");
  put32(248);
  m_dmlh = tell();
  const std::vector<char> zeros(248, 0);
  put(zeros.data(), zeros.size());  // total frames first, the rest reserved
  patch32(hdrl, static_cast<std::uint32_t>(tell() - hdrl - 4));

  m_riffs.push_back({0, 0, {}});
  putTag("LIST");
  m_riffs.back().movi = tell();
  put32(0);
  putTag("movi");
}

/// LIST 'strl': the stream's header, its BITMAPINFOHEADER and room for the super index.
void MjpegAviWriter::writeStreamList(std::uint32_t w, std::uint32_t h) {
  putTag("LIST");
  const std::int64_t strl = tell();
  put32(0);
  putTag("strl");
  putTag("strh");
  put32(56);
  putTag("vids");
  putTag("MJPG");
  put32(0);  // flags
  put16(0);  // priority
  put16(0);  // language
  put32(0);  // initial frames
  put32(m_scale);
  put32(m_rate);
  put32(0);  // start
  m_strhLength = tell();
  put32(0);  // frames in all RIFFs
  m_strhBuffer = tell();
  put32(0);
  put32(0xFFFFFFFFu);  // quality: the default
  put32(0);            // sample size: varies
  put16(0);
  put16(0);
  put16(static_cast<std::uint16_t>(w));
  put16(static_cast<std::uint16_t>(h));

  putTag("strf");  // BITMAPINFOHEADER
  put32(40);
  put32(40);
  put32(w);
  put32(h);
  put16(1);   // planes
  put16(24);  // bits a pixel
  putTag("MJPG");
  put32(w * h * 3);
  for (int i = 0; i < 4; ++i) put32(0);

  putTag("indx");  // the super index, filled by release()
  put32(24 + 16 * kSuperIndexEntries);
  m_indx = tell();
  put16(4);  // longs an entry
  put16(0);  // sub-type 0, type AVI_INDEX_OF_INDEXES (0)
  put32(0);  // entries in use
  putTag("00dc");
  for (int i = 0; i < 3; ++i) put32(0);
  const std::vector<char> zeros(16 * kSuperIndexEntries, 0);
  put(zeros.data(), zeros.size());
  patch32(strl, static_cast<std::uint32_t>(tell() - strl - 4));
}

void MjpegAviWriter::write(const cv::Mat& bgr) {
  if (!m_file) failed("the file is not open");
  if (bgr.size() != m_size || bgr.type() != CV_8UC3) failed("a frame of another size or type");
  if (!cv::imencode(".jpg", bgr, m_jpeg, {cv::IMWRITE_JPEG_QUALITY, kJpegQuality}))
    failed("the JPEG encoder failed");
  if (tell() - m_riffs.back().start > m_riffBytes && !m_riffs.back().frames.empty()) {
    endRiff();
    beginRiff();
  }
  const auto bytes = static_cast<std::uint32_t>(m_jpeg.size());
  putTag("00dc");
  put32(bytes);
  m_riffs.back().frames.push_back({tell(), bytes});
  put(m_jpeg.data(), m_jpeg.size());
  if (bytes % 2) put("", 1);
  m_largestFrame = std::max(m_largestFrame, bytes);
  ++m_frames;
}

void MjpegAviWriter::beginRiff() {
  m_riffs.push_back({tell(), 0, {}});
  putTag("RIFF");
  put32(0);
  putTag("AVIX");
  putTag("LIST");
  m_riffs.back().movi = tell();
  put32(0);
  putTag("movi");
}

/// Closes the RIFF being written: its 'ix00' inside 'movi', idx1 after the first 'movi', and the sizes.
void MjpegAviWriter::endRiff() {
  const Riff& riff = m_riffs.back();
  const std::int64_t base = riff.movi + 4;  // the 'movi' tag: where idx1 offsets count from
  m_chunkIndexes.push_back(tell());
  const auto n = static_cast<std::uint32_t>(riff.frames.size());
  m_chunkIndexSizes.push_back(8 + 24 + 8 * n);
  putTag("ix00");
  put32(24 + 8 * n);
  put16(2);      // longs an entry
  put16(0x100);  // sub-type 0, type AVI_INDEX_OF_CHUNKS (1)
  put32(n);
  putTag("00dc");
  put32(static_cast<std::uint32_t>(base));  // base offset, 64 bits
  put32(static_cast<std::uint32_t>(static_cast<std::uint64_t>(base) >> 32));
  put32(0);
  for (const Entry& e : riff.frames) {
    put32(static_cast<std::uint32_t>(e.offset - base));
    put32(e.size);  // the top bit clear: a key frame
  }
  patch32(riff.movi, static_cast<std::uint32_t>(tell() - riff.movi - 4));
  if (m_riffs.size() == 1) {
    putTag("idx1");
    put32(16 * n);
    for (const Entry& e : riff.frames) {
      putTag("00dc");
      put32(kKeyFrame);
      put32(static_cast<std::uint32_t>(e.offset - 8 - base));
      put32(e.size);
    }
  }
  patch32(riff.start + 4, static_cast<std::uint32_t>(tell() - riff.start - 8));
}

void MjpegAviWriter::release() {
  if (!m_file) return;
  std::FILE* f = m_file;
  try {
    endRiff();
    if (m_chunkIndexes.size() > kSuperIndexEntries) failed("more than 256 GB in one video");
    patch32(m_avihFrames, static_cast<std::uint32_t>(m_riffs.front().frames.size()));
    patch32(m_avihBuffer, m_largestFrame);
    patch32(m_strhLength, static_cast<std::uint32_t>(m_frames));
    patch32(m_strhBuffer, m_largestFrame);
    patch32(m_dmlh, static_cast<std::uint32_t>(m_frames));
    patch32(m_indx + 4, static_cast<std::uint32_t>(m_chunkIndexes.size()));
    std::int64_t at = m_indx + 24;
    for (std::size_t i = 0; i < m_chunkIndexes.size(); ++i, at += 16) {
      const auto offset = static_cast<std::uint64_t>(m_chunkIndexes[i]);
      patch32(at, static_cast<std::uint32_t>(offset));
      patch32(at + 4, static_cast<std::uint32_t>(offset >> 32));
      patch32(at + 8, m_chunkIndexSizes[i]);
      patch32(at + 12, static_cast<std::uint32_t>(m_riffs[i].frames.size()));
    }
  } catch (...) {
    m_file = nullptr;
    std::fclose(f);
    throw;
  }
  m_file = nullptr;
  if (std::fclose(f) != 0) failed(std::strerror(errno));
}

void MjpegAviWriter::put(const void* data, std::size_t bytes) {
  if (std::fwrite(data, 1, bytes, m_file) != bytes) failed(std::strerror(errno));
}

void MjpegAviWriter::put32(std::uint32_t v) {
  const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                              static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
  put(b, 4);
}

void MjpegAviWriter::put16(std::uint16_t v) {
  const unsigned char b[2] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8)};
  put(b, 2);
}

void MjpegAviWriter::patch32(std::int64_t at, std::uint32_t v) {
  const std::int64_t here = tell();
  if (fseeko(m_file, at, SEEK_SET) != 0) failed(std::strerror(errno));
  put32(v);
  if (fseeko(m_file, here, SEEK_SET) != 0) failed(std::strerror(errno));
}

std::int64_t MjpegAviWriter::tell() const {
  return static_cast<std::int64_t>(ftello(m_file));
}

void MjpegAviWriter::failed(const std::string& what) const {
  throw Error(ErrorKind::BadInput, "cannot write video '" + printablePath(m_path) + "': " + what);
}

}  // namespace convolab::capture
