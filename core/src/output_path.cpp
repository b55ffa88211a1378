// SPDX-License-Identifier: MIT
// checkOutputPath and outputInFolder: lstat-based, so a symbolic link is judged as itself, never its target.
#include "convolab/output_path.hpp"

#include <sys/stat.h>

#include <string>

#include "convolab/error.hpp"
#include "convolab/printable_path.hpp"

namespace convolab {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& target, const std::string& what) {
  throw Error(ErrorKind::BadInput, "cannot write '" + printablePath(target) + "': " + what);
}

const char* kindOf(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  return "not a regular file";
}

}  // namespace

void checkOutputPath(const fs::path& target, bool overwrite, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (target.filename().empty() || target.filename() == "." || target.filename() == "..")
    fail(target, "not a file name");
  if (!fs::is_directory(dir, ec)) fail(target, "folder '" + printablePath(dir) + "' does not exist");
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) return;  // a new file: nothing of anyone's is replaced
  for (const fs::path& in : inputs)
    if (!in.empty() && fs::equivalent(in, target, ec))
      fail(target, "it is the input '" + printablePath(in) + "'; refusing to overwrite an input");
  if (!overwrite)
    throw Error(ErrorKind::BadInput,
                "'" + printablePath(target) + "' already exists; refusing to overwrite it");
  if (S_ISLNK(st.st_mode))
    fail(target, "it is a symbolic link; refusing to replace it (name the file it points to instead)");
  if (!S_ISREG(st.st_mode))
    fail(target, std::string("it is ") + kindOf(st.st_mode) + "; refusing to replace it");
}

fs::path outputInFolder(const fs::path& folder, std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos ||
      name.find('\0') != std::string_view::npos)
    throw Error(ErrorKind::Usage, "output name '" + printablePath(std::string(name)) +
                                      "' is not one file name inside '" + printablePath(folder) +
                                      "' (a --suffix may not hold '/')");
  return folder / fs::path(std::string(name));
}

}  // namespace convolab
