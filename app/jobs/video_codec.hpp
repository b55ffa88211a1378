// SPDX-License-Identifier: MIT
// videoCodecFor: the codec a video job writes by the output's extension.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace convolab::jobs {

/// The FOURCC for `output`'s extension: .mkv → FFV1 (lossless), .avi → MJPG, .mp4/.m4v/.mov → mp4v;
/// nullopt for others (then --codec is needed).
std::optional<std::string> videoCodecFor(const std::filesystem::path& output);

}  // namespace convolab::jobs
