// SPDX-License-Identifier: MIT
#include "pipewire/format_negotiation.hpp"

#include <spa/buffer/buffer.h>
#include <spa/param/buffers.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

namespace convolab::pipewire {

namespace {

std::optional<VideoFormat> fromSpa(std::uint32_t format) {
  for (VideoFormat f :
       {VideoFormat::RGB, VideoFormat::BGRx, VideoFormat::YUY2, VideoFormat::I420, VideoFormat::RGBx})
    if (spaFormat(f) == format) return f;
  return std::nullopt;
}

}  // namespace

spa_video_format spaFormat(VideoFormat format) {
  switch (format) {
    case VideoFormat::RGB:
      return SPA_VIDEO_FORMAT_RGB;
    case VideoFormat::BGRx:
      return SPA_VIDEO_FORMAT_BGRx;
    case VideoFormat::YUY2:
      return SPA_VIDEO_FORMAT_YUY2;
    case VideoFormat::I420:
      return SPA_VIDEO_FORMAT_I420;
    case VideoFormat::RGBx:
      return SPA_VIDEO_FORMAT_RGBx;
    case VideoFormat::MJPG:  // a media subtype of its own, not a raw format
      break;
  }
  return SPA_VIDEO_FORMAT_UNKNOWN;
}

namespace {

/// Opens an EnumFormat object (into `object`) of raw video in `formats`, the first preferred; the caller adds
/// size and rate and pops it.
void beginEnumFormat(spa_pod_builder* b, spa_pod_frame* object, const std::vector<VideoFormat>& formats) {
  spa_pod_frame choice;
  spa_pod_builder_push_object(b, object, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
  spa_pod_builder_add(b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype,
                      SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), 0);
  spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
  spa_pod_builder_push_choice(b, &choice, SPA_CHOICE_Enum, 0);
  spa_pod_builder_id(b, spaFormat(formats.front()));  // an Enum choice starts with its default
  for (VideoFormat f : formats) spa_pod_builder_id(b, spaFormat(f));
  spa_pod_builder_pop(b, &choice);
}

}  // namespace

const spa_pod* buildFormatOffer(spa_pod_builder* b, int width, int height) {
  const auto formats = formatsFor(width, height);
  spa_pod_frame object;
  beginEnumFormat(b, &object, formats);
  const spa_rectangle size =
      SPA_RECTANGLE(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height));
  const spa_fraction preferred = SPA_FRACTION(30, 1), slowest = SPA_FRACTION(0, 1),
                     fastest = SPA_FRACTION(120, 1);
  spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size), SPA_FORMAT_VIDEO_framerate,
                      SPA_POD_CHOICE_RANGE_Fraction(&preferred, &slowest, &fastest), 0);
  return static_cast<const spa_pod*>(spa_pod_builder_pop(b, &object));
}

const spa_pod* buildCaptureRequest(spa_pod_builder* b, const std::vector<VideoFormat>& formats,
                                   int preferredWidth, int preferredHeight) {
  spa_pod_frame object;
  beginEnumFormat(b, &object, formats);
  const spa_rectangle smallest = SPA_RECTANGLE(1, 1), largest = SPA_RECTANGLE(8192, 8192),
                      preferred = SPA_RECTANGLE(static_cast<std::uint32_t>(preferredWidth),
                                                static_cast<std::uint32_t>(preferredHeight));
  const spa_fraction rate = SPA_FRACTION(30, 1), slowest = SPA_FRACTION(0, 1),
                     fastest = SPA_FRACTION(1000, 1);
  spa_pod_builder_add(
      b, SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&preferred, &smallest, &largest),
      SPA_FORMAT_VIDEO_framerate, SPA_POD_CHOICE_RANGE_Fraction(&rate, &slowest, &fastest), 0);
  return static_cast<const spa_pod*>(spa_pod_builder_pop(b, &object));
}

const spa_pod* buildMjpgCaptureRequest(spa_pod_builder* b, int preferredWidth, int preferredHeight) {
  const spa_rectangle smallest = SPA_RECTANGLE(1, 1), largest = SPA_RECTANGLE(8192, 8192),
                      preferred = SPA_RECTANGLE(static_cast<std::uint32_t>(preferredWidth),
                                                static_cast<std::uint32_t>(preferredHeight));
  const spa_fraction rate = SPA_FRACTION(30, 1), slowest = SPA_FRACTION(0, 1),
                     fastest = SPA_FRACTION(1000, 1);
  return static_cast<const spa_pod*>(spa_pod_builder_add_object(
      b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
      SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_mjpg), SPA_FORMAT_VIDEO_size,
      SPA_POD_CHOICE_RANGE_Rectangle(&preferred, &smallest, &largest), SPA_FORMAT_VIDEO_framerate,
      SPA_POD_CHOICE_RANGE_Fraction(&rate, &slowest, &fastest)));
}

const spa_pod* buildBufferParams(spa_pod_builder* b, const NegotiatedFormat& chosen) {
  const FrameLayout layout = frameLayout(chosen.format, chosen.width, chosen.height);
  return static_cast<const spa_pod*>(spa_pod_builder_add_object(
      b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
      SPA_POD_CHOICE_RANGE_Int(4, 2, 8), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size,
      SPA_POD_Int(static_cast<int>(layout.size)), SPA_PARAM_BUFFERS_stride,
      SPA_POD_Int(static_cast<int>(layout.stride)), SPA_PARAM_BUFFERS_dataType,
      SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd))));
}

const spa_pod* buildMjpgBufferRequest(spa_pod_builder* b, int width, int height) {
  const int size = width * height * 3;
  return static_cast<const spa_pod*>(spa_pod_builder_add_object(
      b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
      SPA_POD_CHOICE_RANGE_Int(4, 2, 8), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1), SPA_PARAM_BUFFERS_size,
      SPA_POD_CHOICE_RANGE_Int(size, size, INT32_MAX)));
}

std::optional<NegotiatedFormat> parseChosenFormat(const spa_pod* param) {
  std::uint32_t mediaType = 0, mediaSubtype = 0;
  if (!param || spa_format_parse(param, &mediaType, &mediaSubtype) < 0) return std::nullopt;
  if (mediaType != SPA_MEDIA_TYPE_video) return std::nullopt;
  if (mediaSubtype == SPA_MEDIA_SUBTYPE_mjpg) {
    spa_video_info_mjpg mjpg{};
    if (spa_format_video_mjpg_parse(param, &mjpg) < 0 || mjpg.size.width == 0 || mjpg.size.height == 0)
      return std::nullopt;
    return NegotiatedFormat{VideoFormat::MJPG, static_cast<int>(mjpg.size.width),
                            static_cast<int>(mjpg.size.height)};
  }
  if (mediaSubtype != SPA_MEDIA_SUBTYPE_raw) return std::nullopt;
  spa_video_info_raw info{};
  if (spa_format_video_raw_parse(param, &info) < 0) return std::nullopt;
  const auto format = fromSpa(info.format);
  if (!format || info.size.width == 0 || info.size.height == 0) return std::nullopt;
  return NegotiatedFormat{*format, static_cast<int>(info.size.width), static_cast<int>(info.size.height)};
}

}  // namespace convolab::pipewire
