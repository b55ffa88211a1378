// SPDX-License-Identifier: MIT
// The video jobs' odd-sized clip, one definition for the job tests that read it (they share a unity batch).
#pragma once

#include <filesystem>

namespace convolab::jobs {
/// FFV1 (lossless), 65×49, 4 frames, 10 fps.
inline const std::filesystem::path kOddClip = std::filesystem::path(CONVOLAB_VIDEO_DATA) / "odd_65x49.mkv";
}  // namespace convolab::jobs
