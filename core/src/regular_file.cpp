// SPDX-License-Identifier: MIT
// readRegularFile: stat, non-blocking open, fstat, read.
#include "convolab/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "convolab/error.hpp"
#include "convolab/printable_path.hpp"

namespace convolab {
namespace {

enum class ReadStatus { Ok, Missing, NotRegular, TooLarge, Unreadable };

struct ReadResult {
  ReadStatus status = ReadStatus::Unreadable;
  std::string data;
  mode_t mode = 0;         // for NotRegular: what the path is instead
  std::uint64_t size = 0;  // for TooLarge
  int error = 0;           // errno for Missing / Unreadable
};

ReadResult readChecked(const std::filesystem::path& path, std::uint64_t maxBytes) {
  ReadResult r;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    r.error = errno;
    r.status = errno == ENOENT ? ReadStatus::Missing : ReadStatus::Unreadable;
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.status = ReadStatus::NotRegular;
    r.mode = st.st_mode;
    return r;
  }
  // Non-blocking: a FIFO swapped in between the stat and the open must not hang us either.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.error = errno;
    return r;
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.status = ReadStatus::NotRegular;
    r.mode = st.st_mode;
  } else if (static_cast<std::uint64_t>(st.st_size) > maxBytes) {
    r.status = ReadStatus::TooLarge;
    r.size = static_cast<std::uint64_t>(st.st_size);
  } else {
    r.data.assign(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < r.data.size()) {
      const ssize_t n = ::read(fd, r.data.data() + done, r.data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) r.error = errno;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    // A file that shrank while we read it, or grew past its size: never hand back a cut copy.
    char extra = 0;
    if (done == r.data.size() && ::read(fd, &extra, 1) == 0) r.status = ReadStatus::Ok;
  }
  ::close(fd);
  return r;
}

const char* describeType(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "of an unknown type";
}

}  // namespace

std::optional<std::string> readRegularFile(const std::filesystem::path& path, std::uint64_t maxBytes) {
  ReadResult r = readChecked(path, maxBytes);
  if (r.status != ReadStatus::Ok) return std::nullopt;
  return std::move(r.data);
}

std::string readRegularFileOrThrow(const std::filesystem::path& path, std::uint64_t maxBytes,
                                   std::string_view what) {
  ReadResult r = readChecked(path, maxBytes);
  const std::string head = "cannot read " + std::string(what) + " '" + printablePath(path) + "': ";
  switch (r.status) {
    case ReadStatus::Ok:
      return std::move(r.data);
    case ReadStatus::Missing:
      throw Error(ErrorKind::BadInput, head + "no such file");
    case ReadStatus::NotRegular:
      throw Error(ErrorKind::BadInput, head + "it is " + describeType(r.mode) + ", not a regular file");
    case ReadStatus::TooLarge:
      throw Error(ErrorKind::BadInput, head + "it is " + std::to_string(r.size) + " bytes; a " +
                                           std::string(what) + " is at most " + describeByteLimit(maxBytes));
    case ReadStatus::Unreadable:
      break;
  }
  throw Error(ErrorKind::BadInput,
              head + (r.error != 0 ? std::strerror(r.error) : "the file changed while it was read"));
}

std::string describeByteLimit(std::uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace convolab
