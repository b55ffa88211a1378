// SPDX-License-Identifier: MIT
// Format negotiation: the SPA parameters the virtual camera offers a consumer (formats at the frame's size,
// a frame-rate range, buffers), and reading back the format a consumer chose.
#pragma once

#include <spa/param/video/raw.h>
#include <spa/pod/builder.h>
#include <spa/pod/pod.h>
#include <optional>
#include <vector>

#include "pipewire/video_format.hpp"

namespace convolab::pipewire {

struct NegotiatedFormat {
  VideoFormat format = VideoFormat::RGB;
  int width = 0;
  int height = 0;
};

/// The SPA video format of `format` (SPA_VIDEO_FORMAT_UNKNOWN for none): one table for the node, the cameras
/// and the tests' consumers.
spa_video_format spaFormat(VideoFormat format);

/// One EnumFormat param: every format of formatsFor(width, height) at exactly that size, any rate up to
/// 120 fps (30 preferred; frames go out at the source's rate whatever is chosen).
const spa_pod* buildFormatOffer(spa_pod_builder* builder, int width, int height);

/// What a consumer (a PipeWire camera read by ConvoLab, or a test's consumer) asks for: one EnumFormat param
/// of `formats` (the first preferred), any size up to 8192×8192 (`preferredWidth`×`preferredHeight`
/// preferred), any rate up to 1000 fps (30 preferred).
const spa_pod* buildCaptureRequest(spa_pod_builder* builder, const std::vector<VideoFormat>& formats,
                                   int preferredWidth, int preferredHeight);

/// The same request for motion JPEG (a media subtype of its own, so a second EnumFormat param): a webcam
/// gives its larger sizes and rates only as MJPG.
const spa_pod* buildMjpgCaptureRequest(spa_pod_builder* builder, int preferredWidth, int preferredHeight);

/// The Buffers param for a chosen format: 2–8 buffers of one block of the format's layout.
const spa_pod* buildBufferParams(spa_pod_builder* builder, const NegotiatedFormat& chosen);

/// What a reader of MJPG asks of the camera's buffers: room for a JPEG as large as the raw RGB frame (a
/// producer that sizes them for its own guess, as GStreamer's pipewiresink does with 8 KiB, cuts larger
/// JPEGs short).
const spa_pod* buildMjpgBufferRequest(spa_pod_builder* builder, int width, int height);

/// The format in a Format param, or nothing when it is neither raw video in one of our formats nor MJPG.
std::optional<NegotiatedFormat> parseChosenFormat(const spa_pod* param);

}  // namespace convolab::pipewire
