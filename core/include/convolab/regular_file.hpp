// SPDX-License-Identifier: MIT
// Reading a file that must be a regular file: never blocks on a FIFO, never reads a device or a folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace convolab {

/// The whole content of `path` when it is a regular file (after following links) of at most `maxBytes`;
/// nullopt otherwise (missing, a FIFO, a device, a folder, too large, unreadable). The type is checked
/// before opening and again on the open descriptor, and the open is non-blocking, so a FIFO put in a
/// file's place can never hang the caller.
std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::uint64_t maxBytes);

}  // namespace convolab
