// SPDX-License-Identifier: MIT
// Header-only image size probes: enough of each format's layout to learn the declared width and height.
#include "image_header.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace convolab::opencv {
namespace {

/// Random access to the first bytes of an image, from a file or from memory.
class ByteReader {
 public:
  virtual ~ByteReader() = default;
  /// Reads `n` bytes at `offset` into `out`; false when fewer are there.
  virtual bool read(std::uint64_t offset, void* out, std::size_t n) = 0;

  bool u8(std::uint64_t offset, std::uint32_t& v) {
    std::uint8_t b;
    if (!read(offset, &b, 1)) return false;
    v = b;
    return true;
  }
  bool u16(std::uint64_t offset, bool bigEndian, std::uint32_t& v) {
    std::uint8_t b[2];
    if (!read(offset, b, 2)) return false;
    v = bigEndian ? (b[0] << 8 | b[1]) : (b[1] << 8 | b[0]);
    return true;
  }
  bool u32(std::uint64_t offset, bool bigEndian, std::uint32_t& v) {
    std::uint8_t b[4];
    if (!read(offset, b, 4)) return false;
    v = bigEndian ? (std::uint32_t{b[0]} << 24 | b[1] << 16 | b[2] << 8 | b[3])
                  : (std::uint32_t{b[3]} << 24 | b[2] << 16 | b[1] << 8 | b[0]);
    return true;
  }
};

/// Reads a regular file by offset. Opened non-blocking and checked with fstat, so a FIFO or device swapped in
/// after the caller's is_regular_file check is refused instead of blocking the open or the reads.
class FileReader : public ByteReader {
 public:
  explicit FileReader(const std::filesystem::path& path)
      : m_fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
    struct stat st {};
    if (m_fd >= 0 && (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode))) {
      ::close(m_fd);
      m_fd = -1;
    }
  }
  ~FileReader() override {
    if (m_fd >= 0) ::close(m_fd);
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;
  bool ok() const { return m_fd >= 0; }
  bool read(std::uint64_t offset, void* out, std::size_t n) override {
    auto* bytes = static_cast<char*>(out);
    while (n > 0) {
      const ssize_t got = ::pread(m_fd, bytes, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      bytes += got;
      offset += static_cast<std::uint64_t>(got);
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }

 private:
  int m_fd = -1;
};

class MemoryReader : public ByteReader {
 public:
  explicit MemoryReader(std::string_view bytes) : m_bytes(bytes) {}
  bool read(std::uint64_t offset, void* out, std::size_t n) override {
    if (offset > m_bytes.size() || m_bytes.size() - offset < n) return false;
    std::memcpy(out, m_bytes.data() + offset, n);
    return true;
  }

 private:
  std::string_view m_bytes;
};

std::optional<ImageHeader> make(std::int64_t w, std::int64_t h, const char* format) {
  if (w <= 0 || h <= 0) return std::nullopt;
  return ImageHeader{w, h, format};
}

std::optional<ImageHeader> png(ByteReader& r) {
  // 8-byte signature, then the IHDR chunk: length, "IHDR", width, height (big-endian).
  char type[4];
  std::uint32_t w, h;
  if (!r.read(12, type, 4) || std::memcmp(type, "IHDR", 4) != 0) return std::nullopt;
  if (!r.u32(16, true, w) || !r.u32(20, true, h)) return std::nullopt;
  auto header = make(w, h, "PNG");
  std::uint32_t colourType;  // 4: grey + alpha, 6: RGBA (a tRNS chunk's transparency is not looked for)
  if (header && r.u8(25, colourType)) header->alpha = colourType == 4 || colourType == 6;
  return header;
}

std::optional<ImageHeader> jpeg(ByteReader& r) {
  // Walk the segments (FF xx, big-endian length) until a start-of-frame marker, which holds the size.
  std::uint64_t pos = 2;
  for (int segments = 0; segments < 100000; ++segments) {
    std::uint32_t b;
    if (!r.u8(pos, b) || b != 0xFF) return std::nullopt;
    std::uint32_t marker = 0xFF;
    for (int fill = 0; marker == 0xFF; ++fill) {  // fill bytes (a few at most in real files)
      if (fill > 64 || !r.u8(++pos, marker)) return std::nullopt;
    }
    ++pos;
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    if (marker == 0xD9 || marker == 0xDA) return std::nullopt;           // end or scan before any frame
    std::uint32_t length;
    if (!r.u16(pos, true, length) || length < 2) return std::nullopt;
    const bool sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      std::uint32_t h, w;
      if (!r.u16(pos + 3, true, h) || !r.u16(pos + 5, true, w)) return std::nullopt;
      return make(w, h, "JPEG");
    }
    pos += length;
  }
  return std::nullopt;
}

std::optional<ImageHeader> bmp(ByteReader& r) {
  std::uint32_t dib;
  if (!r.u32(14, false, dib)) return std::nullopt;
  std::uint32_t w, h;
  if (dib == 12) {  // BITMAPCOREHEADER: 16-bit sizes
    if (!r.u16(18, false, w) || !r.u16(20, false, h)) return std::nullopt;
    return make(w, h, "BMP");
  }
  if (dib < 40 || !r.u32(18, false, w) || !r.u32(22, false, h)) return std::nullopt;
  // Signed: a negative height means rows stored top-down.
  const auto sw = static_cast<std::int32_t>(w);
  const auto sh = static_cast<std::int32_t>(h);
  return make(sw, sh < 0 ? -static_cast<std::int64_t>(sh) : sh, "BMP");
}

std::optional<ImageHeader> gif(ByteReader& r) {
  // "GIF87a" or "GIF89a", then the logical screen's width and height (little-endian).
  std::uint32_t w, h;
  if (!r.u16(6, false, w) || !r.u16(8, false, h)) return std::nullopt;
  return make(w, h, "GIF");
}

std::optional<ImageHeader> tiff(ByteReader& r, bool be) {
  // The first IFD: a count, then 12-byte entries (tag, type, count, value); 256 = width, 257 = height.
  std::uint32_t ifd, count;
  if (!r.u32(4, be, ifd) || !r.u16(ifd, be, count) || count > 4096) return std::nullopt;
  std::int64_t w = 0, h = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t e = std::uint64_t{ifd} + 2 + 12ull * i;
    std::uint32_t tag, type, value;
    if (!r.u16(e, be, tag) || !r.u16(e + 2, be, type)) return std::nullopt;
    if (tag != 256 && tag != 257) continue;
    if (type == 3) {
      if (!r.u16(e + 8, be, value)) return std::nullopt;
    } else if (type == 4) {
      if (!r.u32(e + 8, be, value)) return std::nullopt;
    } else {
      return std::nullopt;
    }
    (tag == 256 ? w : h) = value;
  }
  return make(w, h, "TIFF");
}

std::optional<ImageHeader> webp(ByteReader& r) {
  char chunk[4];
  if (!r.read(12, chunk, 4)) return std::nullopt;
  std::uint32_t a, b;
  if (std::memcmp(chunk, "VP8 ", 4) == 0) {  // lossy: a key frame's start code, then 14-bit sizes
    std::uint8_t start[3];
    if (!r.read(23, start, 3) || start[0] != 0x9D || start[1] != 0x01 || start[2] != 0x2A)
      return std::nullopt;
    if (!r.u16(26, false, a) || !r.u16(28, false, b)) return std::nullopt;
    return make(a & 0x3FFF, b & 0x3FFF, "WebP");
  }
  if (std::memcmp(chunk, "VP8L", 4) == 0) {  // lossless: signature 0x2F, then two 14-bit (size - 1)
    if (!r.u8(20, a) || a != 0x2F || !r.u32(21, false, b)) return std::nullopt;
    auto header = make((b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1, "WebP");
    if (header) header->alpha = (b >> 28) & 1;  // alpha_is_used
    return header;
  }
  if (std::memcmp(chunk, "VP8X", 4) == 0) {  // extended: 24-bit (canvas size - 1)
    std::uint8_t s[6];
    std::uint32_t flags;
    if (!r.read(24, s, 6) || !r.u8(20, flags)) return std::nullopt;
    auto header = make((s[0] | s[1] << 8 | s[2] << 16) + 1, (s[3] | s[4] << 8 | s[5] << 16) + 1, "WebP");
    if (header) header->alpha = flags & 0x10;
    return header;
  }
  return std::nullopt;
}

std::optional<ImageHeader> pnm(ByteReader& r) {
  // "P1".."P6", then whitespace- or comment-separated ASCII width and height.
  std::array<char, 1024> text{};
  std::size_t n = 0;
  while (n < text.size() && r.read(n, &text[n], 1)) ++n;
  std::size_t pos = 2;
  std::int64_t values[2] = {0, 0};
  for (auto& v : values) {
    for (;;) {
      while (pos < n && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
      if (pos < n && text[pos] == '#') {
        while (pos < n && text[pos] != '\n') ++pos;
        continue;
      }
      break;
    }
    const std::size_t start = pos;
    while (pos < n && std::isdigit(static_cast<unsigned char>(text[pos])) && pos - start < 10)
      v = v * 10 + (text[pos++] - '0');
    if (pos == start) return std::nullopt;
  }
  return make(values[0], values[1], "PNM");
}

std::optional<ImageHeader> probe(ByteReader& r) {
  std::uint8_t sig[12] = {};
  if (!r.read(0, sig, 2)) return std::nullopt;
  const bool have12 = r.read(0, sig, 12);
  static const std::uint8_t kPng[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (have12 && std::memcmp(sig, kPng, 8) == 0) return png(r);
  if (sig[0] == 0xFF && sig[1] == 0xD8) return jpeg(r);
  if (sig[0] == 'B' && sig[1] == 'M') return bmp(r);
  if (char magic[6]; sig[0] == 'G' && r.read(0, magic, 6) &&
                     (std::memcmp(magic, "GIF87a", 6) == 0 || std::memcmp(magic, "GIF89a", 6) == 0))
    return gif(r);
  if (sig[0] == 'P' && sig[1] >= '1' && sig[1] <= '6') return pnm(r);
  if (sig[0] == 'I' && sig[1] == 'I' && sig[2] == 42 && sig[3] == 0) return tiff(r, false);
  if (sig[0] == 'M' && sig[1] == 'M' && sig[2] == 0 && sig[3] == 42) return tiff(r, true);
  if (have12 && std::memcmp(sig, "RIFF", 4) == 0 && std::memcmp(sig + 8, "WEBP", 4) == 0) return webp(r);
  return std::nullopt;
}

}  // namespace

std::optional<ImageHeader> readImageHeader(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  FileReader reader(path);
  if (!reader.ok()) return std::nullopt;
  return probe(reader);
}

std::optional<ImageHeader> readImageHeaderBytes(std::string_view bytes) {
  MemoryReader reader(bytes);
  return probe(reader);
}

std::string describeImageSize(std::int64_t width, std::int64_t height) {
  char buf[96];
  const double mp = static_cast<double>(width) * static_cast<double>(height) / 1e6;
  std::snprintf(buf, sizeof buf, mp >= 10 ? "%lld×%lld (%.0f MP)" : "%lld×%lld (%.1f MP)",
                static_cast<long long>(width), static_cast<long long>(height), mp);
  return buf;
}

}  // namespace convolab::opencv
