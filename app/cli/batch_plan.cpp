// SPDX-License-Identifier: MIT
// BatchPlan: input expansion and output naming for `apply`.
#include "batch_plan.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "convolab/error.hpp"
#include "convolab/output_path.hpp"
#include "convolab/printable_path.hpp"

namespace convolab::cli {
namespace {

namespace fs = std::filesystem;

std::string lowerExtension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

bool endsWithSeparator(const std::string& s) {
  return !s.empty() && s.back() == '/';
}

// Why the folder entry `p`, named like an image, cannot be read as one; nullopt for a regular file (or a
// link to one). A folder called "dir.png" or a link that loops is reported, never skipped in silence.
std::optional<std::string> unreadableEntryReason(const fs::path& p) {
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (ec) {
    if (ec == std::errc::too_many_symbolic_link_levels) return "a symbolic link loop, not an image file";
    if (fs::is_symlink(fs::symlink_status(p, ec)))
      return "a symbolic link to '" + printablePath(fs::read_symlink(p, ec)) + "', which does not exist";
    return "cannot be read: " + ec.message();
  }
  switch (st.type()) {
    case fs::file_type::regular:
      return std::nullopt;
    case fs::file_type::directory:
      return std::string("a folder, not an image file (folders inside folders are not searched)");
    case fs::file_type::fifo:
      return std::string("a FIFO (named pipe), not an image file");
    case fs::file_type::socket:
      return std::string("a socket, not an image file");
    case fs::file_type::character:
    case fs::file_type::block:
      return std::string("a device, not an image file");
    default:
      return std::string("not a regular file");
  }
}

}  // namespace

bool isImagePath(const fs::path& path) {
  static const std::set<std::string> kExtensions = {
      ".png", ".jpg", ".jpeg", ".jpe", ".bmp", ".dib", ".tif", ".tiff", ".webp", ".ppm", ".pgm",
      ".pbm", ".pnm", ".pxm",  ".pfm", ".sr",  ".ras", ".exr", ".hdr",  ".pic",  ".jp2"};
  return kExtensions.count(lowerExtension(path)) > 0;
}

bool isVideoPath(const fs::path& path) {
  static const std::set<std::string> kExtensions = {".mp4", ".m4v", ".mkv", ".avi",  ".mov", ".webm",
                                                    ".wmv", ".flv", ".mpg", ".mpeg", ".ts",  ".mts",
                                                    ".ogv", ".gif", ".3gp", ".y4m"};
  return kExtensions.count(lowerExtension(path)) > 0;
}

BatchPlan planBatch(const std::vector<std::string>& inputs, const std::string& output,
                    const std::string& suffix) {
  BatchPlan plan;
  std::error_code ec;

  const fs::path out(output);
  if (!suffix.empty()) outputInFolder(out, "x" + suffix);  // "/../x" would leave the folder: a usage error
  plan.outputIsFolder = endsWithSeparator(output) || fs::is_directory(out, ec);

  // 1. Expand folders into their images.
  std::vector<fs::path> files;
  for (const std::string& in : inputs) {
    const fs::path p(in);
    ec.clear();
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> images;
      std::vector<BatchProblem> unreadable;
      for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.' || !isImagePath(it->path())) continue;  // not an image: not ours
        if (auto why = unreadableEntryReason(it->path()))
          unreadable.push_back({it->path(), *why});
        else
          images.push_back(it->path());
      }
      if (ec) plan.problems.push_back({p, "cannot list the folder: " + ec.message()});
      std::sort(images.begin(), images.end());
      std::sort(unreadable.begin(), unreadable.end(),
                [](const BatchProblem& a, const BatchProblem& b) { return a.input < b.input; });
      if (images.empty() && unreadable.empty() && !ec) plan.problems.push_back({p, "folder has no images"});
      plan.problems.insert(plan.problems.end(), unreadable.begin(), unreadable.end());
      files.insert(files.end(), images.begin(), images.end());
    } else if (ec == std::errc::too_many_symbolic_link_levels) {
      plan.problems.push_back({p, "a symbolic link loop, not an image or video file"});
    } else {
      files.push_back(p);
    }
  }
  if (!plan.outputIsFolder && files.size() > 1)
    throw Error(ErrorKind::Usage, "-o '" + output + "' names one file but there are " +
                                      std::to_string(files.size()) +
                                      " inputs; end it with / to write them into a folder");
  if (plan.outputIsFolder && !fs::is_directory(out, ec)) {
    // "out/" that does not exist yet: create it when its parent exists.
    if (!fs::create_directory(out, ec) && !fs::is_directory(out))
      throw Error(ErrorKind::BadInput, "cannot write into '" + output + "': " +
                                           (ec ? ec.message() : std::string("cannot create the folder")));
  }

  // 2. Name the outputs; refuse duplicates and writing over an input.
  std::map<std::string, fs::path> claimed;  // output → input that claimed it
  for (const fs::path& in : files) {
    BatchItem item;
    item.input = in;
    item.kind = isVideoPath(in) && !isImagePath(in) ? InputKind::Video : InputKind::Image;
    item.output = plan.outputIsFolder
                      ? outputInFolder(out, in.stem().string() + suffix + in.extension().string())
                      : out;
    const std::string key = fs::weakly_canonical(item.output, ec).string();
    if (auto it = claimed.find(key); it != claimed.end()) {
      plan.problems.push_back({in, "its output '" + printablePath(item.output) + "' is also the output of '" +
                                       printablePath(it->second) + "' (same name in two folders?)"});
      continue;
    }
    if (fs::exists(in, ec) && fs::exists(item.output, ec) && fs::equivalent(in, item.output, ec)) {
      plan.problems.push_back({in, "its output would overwrite it (use another folder or --suffix)"});
      continue;
    }
    claimed.emplace(key, in);
    plan.items.push_back(std::move(item));
  }
  return plan;
}

}  // namespace convolab::cli
