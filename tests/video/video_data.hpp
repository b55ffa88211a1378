// SPDX-License-Identifier: MIT
// The test clips' folder (tests/data/video), one definition for the video tests that read it (they share a
// unity batch, so an anonymous-namespace copy in each would collide).
#pragma once

#include <filesystem>

namespace convolab::capture {
inline const std::filesystem::path kVideos = CONVOLAB_VIDEO_DATA;
}  // namespace convolab::capture
