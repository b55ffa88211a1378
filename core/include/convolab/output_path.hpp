// SPDX-License-Identifier: MIT
// The one rule for every file the programs write (CLI -o/--suffix/batch, the app's --snapshot, --stats and
// --compare, saves, exports, recordings): docs/RELIABILITY.md, "Output paths". AtomicFile applies it to each
// write; callers that know their inputs check it earlier, with them.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace convolab {

/// Throws Error(BadInput) naming `target` when it may not be written:
/// - its name is empty, "." or "..", or its folder does not exist;
/// - it exists and `overwrite` is false ("already exists; use --force to replace it");
/// - it exists and is not a regular file: a symbolic link (never written through), a device node, a FIFO, a
///   socket or a folder are refused even with `overwrite`;
/// - it is one of `inputs` under any name (the same file: a hard link, "./a.png" for "a.png").
void checkOutputPath(const std::filesystem::path& target, bool overwrite,
                     const std::vector<std::filesystem::path>& inputs = {});

/// `folder / name`, refused (Error Usage) when `name` is not one plain file name: a "/" in it (a suffix
/// "/../x" once wrote outside the output folder), "." or "..", a NUL, or empty.
std::filesystem::path outputInFolder(const std::filesystem::path& folder, std::string_view name);

}  // namespace convolab
