// Header parsers for the common still-image formats: just enough to read the declared width and height.
#include "image_header.hpp"

#include <cctype>
#include <cstring>
#include <string_view>

namespace convolab::cli {
namespace {

struct Bytes {
  const std::uint8_t* p;
  std::size_t n;
  bool has(std::size_t off, std::size_t len) const { return off <= n && len <= n - off; }
  std::uint32_t be16(std::size_t o) const { return (p[o] << 8) | p[o + 1]; }
  std::uint32_t le16(std::size_t o) const { return p[o] | (p[o + 1] << 8); }
  std::uint32_t be32(std::size_t o) const {
    return (std::uint32_t(p[o]) << 24) | (p[o + 1] << 16) | (p[o + 2] << 8) | p[o + 3];
  }
  std::uint32_t le32(std::size_t o) const {
    return p[o] | (p[o + 1] << 8) | (p[o + 2] << 16) | (std::uint32_t(p[o + 3]) << 24);
  }
  bool starts(std::string_view magic, std::size_t off = 0) const {
    return has(off, magic.size()) && std::memcmp(p + off, magic.data(), magic.size()) == 0;
  }
};

using Size = std::optional<ImageHeaderSize>;

Size png(const Bytes& b) {
  if (!b.starts("\x89PNG\r\n\x1a\n") || !b.has(16, 8) || !b.starts("IHDR", 12)) return std::nullopt;
  return ImageHeaderSize{b.be32(16), b.be32(20)};
}

Size jpeg(const Bytes& b) {
  if (!b.starts("\xff\xd8")) return std::nullopt;
  std::size_t o = 2;
  while (b.has(o, 4)) {
    if (b.p[o] != 0xff) return std::nullopt;
    const std::uint8_t marker = b.p[o + 1];
    if (marker == 0xff) {  // fill byte
      ++o;
      continue;
    }
    if (marker == 0xd8 || marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {  // no length
      o += 2;
      continue;
    }
    const std::size_t len = b.be16(o + 2);
    const bool sof = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
    if (sof) {
      if (!b.has(o + 5, 4)) return std::nullopt;
      return ImageHeaderSize{b.be16(o + 7), b.be16(o + 5)};
    }
    if (marker == 0xda || len < 2) return std::nullopt;  // scan data before a frame header: give up
    o += 2 + len;
  }
  return std::nullopt;
}

Size bmp(const Bytes& b) {
  if (!b.starts("BM") || !b.has(14, 12)) return std::nullopt;
  const std::uint32_t headerSize = b.le32(14);
  if (headerSize == 12) return ImageHeaderSize{b.le16(18), b.le16(20)};  // OS/2 BITMAPCOREHEADER
  const auto w = static_cast<std::int32_t>(b.le32(18)), h = static_cast<std::int32_t>(b.le32(22));
  return ImageHeaderSize{w < 0 ? -std::int64_t(w) : w, h < 0 ? -std::int64_t(h) : h};
}

Size gif(const Bytes& b) {
  if ((!b.starts("GIF87a") && !b.starts("GIF89a")) || !b.has(6, 4)) return std::nullopt;
  return ImageHeaderSize{b.le16(6), b.le16(8)};
}

Size webp(const Bytes& b) {
  if (!b.starts("RIFF") || !b.starts("WEBP", 8) || !b.has(12, 18)) return std::nullopt;
  if (b.starts("VP8X", 12)) return ImageHeaderSize{1 + (b.le32(24) & 0xffffff), 1 + (b.le32(27) & 0xffffff)};
  if (b.starts("VP8L", 12)) {
    const std::uint32_t bits = b.le32(21);
    return ImageHeaderSize{1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff)};
  }
  if (b.starts("VP8 ", 12)) return ImageHeaderSize{b.le16(26) & 0x3fff, b.le16(28) & 0x3fff};
  return std::nullopt;
}

Size tiff(const Bytes& b) {
  const bool le = b.starts("II*\0"), be = b.starts("MM\0*");
  if (!le && !be) return std::nullopt;
  auto u16 = [&](std::size_t o) { return le ? b.le16(o) : b.be16(o); };
  auto u32 = [&](std::size_t o) { return le ? b.le32(o) : b.be32(o); };
  if (!b.has(4, 4)) return std::nullopt;
  const std::size_t ifd = u32(4);
  if (!b.has(ifd, 2)) return std::nullopt;
  const std::size_t entries = u16(ifd);
  std::int64_t width = -1, height = -1;
  for (std::size_t i = 0; i < entries; ++i) {
    const std::size_t e = ifd + 2 + i * 12;
    if (!b.has(e, 12)) return std::nullopt;
    const std::uint32_t tag = u16(e), type = u16(e + 2);
    const std::int64_t value = type == 3 ? u16(e + 8) : type == 4 ? u32(e + 8) : -1;
    if (tag == 256) width = value;
    if (tag == 257) height = value;
  }
  if (width < 0 || height < 0) return std::nullopt;
  return ImageHeaderSize{width, height};
}

Size pnm(const Bytes& b) {
  if (!b.has(0, 2) || b.p[0] != 'P' || b.p[1] < '1' || b.p[1] > '6') return std::nullopt;
  std::size_t o = 2;
  std::int64_t values[2] = {0, 0};
  for (auto& v : values) {
    for (;;) {  // whitespace and comments
      if (!b.has(o, 1)) return std::nullopt;
      if (b.p[o] == '#') {
        while (b.has(o, 1) && b.p[o] != '\n') ++o;
      } else if (std::isspace(b.p[o])) {
        ++o;
      } else {
        break;
      }
    }
    if (!std::isdigit(b.p[o])) return std::nullopt;
    while (b.has(o, 1) && std::isdigit(b.p[o]) && v < (std::int64_t(1) << 40)) v = v * 10 + (b.p[o++] - '0');
  }
  return ImageHeaderSize{values[0], values[1]};
}

}  // namespace

std::optional<ImageHeaderSize> readImageHeaderSize(const std::uint8_t* data, std::size_t size) {
  const Bytes b{data, size};
  for (auto parse : {png, jpeg, bmp, gif, webp, tiff, pnm})
    if (auto s = parse(b)) return s;
  return std::nullopt;
}

}  // namespace convolab::cli
