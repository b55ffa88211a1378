// SPDX-License-Identifier: MIT
// Reading a file that must be a regular file: never blocks on a FIFO, never reads a device or a folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace convolab {

/// The whole content of `path` when it is a regular file (after following links) of at most `maxBytes`;
/// nullopt otherwise (missing, a FIFO, a device, a folder, too large, unreadable). The type is checked
/// before opening and again on the open descriptor, and the open is non-blocking, so a FIFO put in a
/// file's place can never hang the caller.
std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::uint64_t maxBytes);

/// The same read, for files a person named: the whole content, or Error(BadInput) saying why not, naming
/// `what` ("filter file"), the path and, for a file over `maxBytes`, its size and the limit. Never a
/// partial read: a file that is cut short while it is read is refused too.
std::string readRegularFileOrThrow(const std::filesystem::path& path, std::uint64_t maxBytes,
                                   std::string_view what);

/// "1 MiB", "256 KiB" or "100 bytes": a limit as a person reads it.
std::string describeByteLimit(std::uint64_t bytes);

}  // namespace convolab
