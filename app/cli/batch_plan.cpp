// SPDX-License-Identifier: MIT
// BatchPlan: input expansion and output naming for `apply`.
#include "batch_plan.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "convolab/error.hpp"

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
  plan.outputIsFolder = endsWithSeparator(output) || fs::is_directory(out, ec);

  // 1. Expand folders into their images.
  std::vector<fs::path> files;
  for (const std::string& in : inputs) {
    const fs::path p(in);
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> images;
      for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] != '.' && it->is_regular_file(ec) && isImagePath(it->path()))
          images.push_back(it->path());
      }
      std::sort(images.begin(), images.end());
      if (images.empty()) plan.problems.push_back({p, "folder has no images"});
      files.insert(files.end(), images.begin(), images.end());
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
    item.output = plan.outputIsFolder ? out / (in.stem().string() + suffix + in.extension().string()) : out;
    const std::string key = fs::weakly_canonical(item.output, ec).string();
    if (auto it = claimed.find(key); it != claimed.end()) {
      plan.problems.push_back({in, "its output '" + item.output.string() + "' is also the output of '" +
                                       it->second.string() + "' (same name in two folders?)"});
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
