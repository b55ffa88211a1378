// SPDX-License-Identifier: MIT
// videoCodecFor: lossless where the container allows it, else what every player reads.
#include "video_codec.hpp"

#include <algorithm>
#include <cctype>

namespace convolab::jobs {

std::optional<std::string> videoCodecFor(const std::filesystem::path& output) {
  std::string ext = output.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".mkv") return "FFV1";
  if (ext == ".avi") return "MJPG";
  if (ext == ".mp4" || ext == ".m4v" || ext == ".mov") return "mp4v";
  return std::nullopt;
}

}  // namespace convolab::jobs
