// SPDX-License-Identifier: MIT
// BatchPlan: the inputs of `apply` (files, folders' images, shell-expanded globs) paired with their outputs
// (one FILE, or DIR/<name><suffix><ext>), with the inputs that cannot be planned kept as failures.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace convolab::cli {

enum class InputKind { Image, Video };

struct BatchItem {
  std::filesystem::path input, output;
  InputKind kind = InputKind::Image;
};

struct BatchProblem {
  std::filesystem::path input;
  std::string reason;
};

struct BatchPlan {
  std::vector<BatchItem> items;
  std::vector<BatchProblem>
      problems;  ///< inputs that failed before any work (missing, duplicate output, ...)
  bool outputIsFolder = false;
};

/// True for extensions OpenCV's image codecs read (.png, .jpg, .tif, ...), case-insensitive.
bool isImagePath(const std::filesystem::path& path);
/// True for common video containers (.mp4, .mkv, .avi, .mov, .webm, .gif, ...), case-insensitive.
bool isVideoPath(const std::filesystem::path& path);

/// Expands `inputs` (a folder contributes its images, sorted; not recursive) and names the outputs.
/// A folder's entry named like an image that is not a regular file (a folder "dir.png", a link that loops
/// or points nowhere, a FIFO) is a problem, reported and counted, never skipped in silence.
/// `output` is a folder when it ends with '/' or is an existing folder (created when it ends with '/' and
/// only its last part is missing); then each output is output/<input stem><suffix><input extension>.
/// Throws Error(Usage) when several inputs go to one file, Error(BadInput) when the output folder is missing.
BatchPlan planBatch(const std::vector<std::string>& inputs, const std::string& output,
                    const std::string& suffix);

}  // namespace convolab::cli
