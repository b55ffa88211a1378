// SPDX-License-Identifier: MIT
// FrameSizeWatch: libavformat's demuxer and libavcodec's parsers on a second handle of the file; packets are
// read as far as the reader has decoded, never decoded themselves.
#include "frame_size_watch.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <cmath>

namespace convolab::capture {
namespace {

int bigEndian16(const std::uint8_t* p) {
  return (p[0] << 8) | p[1];
}

/// The size in a JPEG's frame header (SOF0–SOF15, ITU T.81 B.2.2), read marker by marker from the start;
/// {0, 0} when none comes before the scan (or the height is deferred to a DNL marker).
FrameSizeWatch::Size jpegSize(const std::uint8_t* data, int size) {
  int i = 0;
  while (i + 1 < size) {
    if (data[i] != 0xFF) return {};
    const std::uint8_t marker = data[i + 1];
    if (marker == 0xFF) {  // fill byte
      ++i;
      continue;
    }
    i += 2;
    if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    if (marker == 0xDA || marker == 0xD9 || i + 2 > size) return {};  // the scan (or the end) first
    const int length = bigEndian16(data + i);
    const bool frameHeader = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
                             marker != 0xCC;  // not DHT, JPG, DAC
    if (frameHeader)
      return i + 7 <= size ? FrameSizeWatch::Size{bigEndian16(data + i + 5), bigEndian16(data + i + 3)}
                           : FrameSizeWatch::Size{};
    i += length;
  }
  return {};
}

}  // namespace

struct FrameSizeWatch::Impl {
  AVFormatContext* format = nullptr;
  int stream = -1;
  AVCodecParserContext* parser = nullptr;  // the codec's parser, for every codec but Motion-JPEG
  AVCodecContext* parserContext = nullptr;
  AVPacket* packet = nullptr;
  bool jpeg = false;
  bool active = false;
  std::optional<Size> first;
  std::int64_t scanned = 0;  // packets checked since the start or the last sync
  bool fromStart = true;     // no sync yet: `scanned` counts from the first frame

  explicit Impl(const std::filesystem::path& path) {
    if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) return;
    for (unsigned i = 0; i < format->nb_streams && stream < 0; ++i)
      if (format->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) stream = static_cast<int>(i);
    if (stream < 0) return;
    const AVCodecParameters* codec = format->streams[stream]->codecpar;
    jpeg = codec->codec_id == AV_CODEC_ID_MJPEG;
    if (!jpeg) {
      parser = av_parser_init(codec->codec_id);
      parserContext = avcodec_alloc_context3(nullptr);
      if (!parser || !parserContext || avcodec_parameters_to_context(parserContext, codec) < 0) return;
      parser->flags |= PARSER_FLAG_COMPLETE_FRAMES;  // demuxed packets are whole frames
    }
    packet = av_packet_alloc();
    active = packet != nullptr;
    // Frame 0 now, so that the size to keep is known even where the reader seeks before it reads.
    if (active && next()) inspect();
  }
  ~Impl() {
    av_packet_free(&packet);
    if (parser) av_parser_close(parser);
    avcodec_free_context(&parserContext);
    avformat_close_input(&format);
  }

  /// The next packet of the stream into `packet`; false at its end (or on a read error: the reader says).
  bool next() {
    av_packet_unref(packet);
    while (av_read_frame(format, packet) >= 0) {
      if (packet->stream_index == stream) return true;
      av_packet_unref(packet);
    }
    return false;
  }

  Size declared() {
    if (jpeg) return jpegSize(packet->data, packet->size);
    std::uint8_t* out = nullptr;
    int outSize = 0;
    av_parser_parse2(parser, parserContext, &out, &outSize, packet->data, packet->size, packet->pts,
                     packet->dts, packet->pos);
    return {parser->width, parser->height};
  }

  /// Checks the packet just read against the first size declared.
  std::optional<Change> inspect() {
    const Size size = declared();
    const std::int64_t frame = scanned++;
    if (size.width <= 0 || size.height <= 0) return std::nullopt;
    if (!first) first = size;
    if (size.width == first->width && size.height == first->height) return std::nullopt;
    return Change{*first, size, fromStart ? frame : -1};
  }
};

FrameSizeWatch::FrameSizeWatch(const std::filesystem::path& path) : m_impl(std::make_unique<Impl>(path)) {}
FrameSizeWatch::~FrameSizeWatch() = default;

bool FrameSizeWatch::active() const {
  return m_impl->active;
}

std::optional<FrameSizeWatch::Change> FrameSizeWatch::check(std::int64_t frames) {
  Impl& w = *m_impl;
  while (w.active && w.scanned < frames && w.next())
    if (auto change = w.inspect()) return change;
  return std::nullopt;
}

std::optional<FrameSizeWatch::Change> FrameSizeWatch::sync(double ms) {
  Impl& w = *m_impl;
  if (!w.active) return std::nullopt;
  const AVStream* st = w.format->streams[w.stream];
  const std::int64_t start = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
  const auto toMs = [&](std::int64_t t) {
    return 1000.0 * static_cast<double>(t - start) * av_q2d(st->time_base);
  };
  w.active = std::isfinite(ms) && ms >= 0 &&
             av_seek_frame(w.format, w.stream,
                           start + av_rescale_q(std::llround(ms * 1000), {1, 1000000}, st->time_base),
                           AVSEEK_FLAG_BACKWARD) >= 0;
  w.scanned = 0;
  w.fromStart = false;
  // From the keyframe on: the packets the decoder went through to the frame it delivered, which is frame 1.
  while (w.active && w.next()) {
    if (auto change = w.inspect()) return change;
    const std::int64_t t = w.packet->pts != AV_NOPTS_VALUE ? w.packet->pts : w.packet->dts;
    if (t == AV_NOPTS_VALUE || toMs(t) >= ms - 0.5) break;
  }
  w.scanned = 1;
  return std::nullopt;
}

}  // namespace convolab::capture
