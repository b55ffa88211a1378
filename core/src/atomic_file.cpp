// SPDX-License-Identifier: MIT
// Atomic file output: hidden temporary + rename, a signal-safe registry of live temporaries, stale sweeping.
#include "convolab/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/output_path.hpp"
#include "convolab/printable_path.hpp"

namespace convolab {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarker = ".convolab-tmp-";
constexpr std::size_t kRandomChars = 6;
constexpr std::size_t kMaxNameStem = 160;  // keeps ".<name>.convolab-tmp-XXXXXX<ext>" under NAME_MAX
constexpr std::size_t kMaxExtension = 16;  // a longer extension is left off the temporary

// Temporaries of live AtomicFiles, readable from a signal handler: a slot is published (state 2) only after
// its path is complete, and a handler only reads published slots.
struct PendingSlot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 published
  char path[PATH_MAX] = {};
};
std::array<PendingSlot, 64> g_pending;

int registerPending(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_pending.size(); ++i) {
    int expected = 0;
    if (g_pending[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_pending[i].path, path.c_str(), path.size() + 1);
      g_pending[i].state.store(2);
      return static_cast<int>(i);
    }
  }
  return -1;  // more than 64 at once: still cleaned up normally, just not from a signal handler
}

void unregisterPending(int slot) {
  if (slot >= 0) g_pending[static_cast<std::size_t>(slot)].state.store(0);
}

[[noreturn]] void fail(const fs::path& target, const std::string& what) {
  throw Error(ErrorKind::BadInput, "cannot write '" + printablePath(target) + "': " + what);
}

mode_t processUmask() {
  // umask() can only be read by setting it, which races with other threads: read it from /proc instead.
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtol(line.c_str() + 6, nullptr, 8));
    return static_cast<mode_t>(022);
  }();
  return mask;
}

// mkstemps fills its X's from [A-Za-z0-9].
bool isRandomPart(std::string_view s) {
  if (s.size() != kRandomChars) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

// The extension AtomicFile gives the temporary of a target called `name`: its own, unless too long.
std::string temporaryExtension(const fs::path& name) {
  const std::string ext = name.extension().string();
  return ext.size() <= kMaxExtension ? ext : "";
}

}  // namespace

bool isAtomicTemporaryName(std::string_view name) {
  // Exactly "." + stem + marker + 6 random characters + the extension AtomicFile derives from the stem,
  // where stem is the target's name cut to kMaxNameStem. Anything else is somebody else's file.
  if (name.size() < 2 || name[0] != '.') return false;
  for (std::size_t at = name.find(kMarker, 1); at != std::string_view::npos;
       at = name.find(kMarker, at + 1)) {
    const std::string_view stem = name.substr(1, at - 1);
    const std::string_view tail = name.substr(at + kMarker.size());
    if (stem.empty() || stem == "." || stem == ".." || stem.size() > kMaxNameStem) continue;
    if (tail.size() < kRandomChars || !isRandomPart(tail.substr(0, kRandomChars))) continue;
    const std::string_view ext = tail.substr(kRandomChars);
    if (ext.find('/') != std::string_view::npos) return false;
    if (stem.size() < kMaxNameStem) {
      if (ext == temporaryExtension(fs::path(std::string(stem)))) return true;
    } else if (ext.empty() ||
               (ext.size() <= kMaxExtension && ext[0] == '.' && ext.find('.', 1) == ext.npos)) {
      return true;  // a cut stem: the extension came from the part that was cut off
    }
  }
  return false;
}

int sweepStaleTemporaries(const fs::path& dir, std::chrono::seconds minAge) noexcept {
  int removed = 0;
  try {
    std::error_code ec;
    const auto now = ::time(nullptr);
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!isAtomicTemporaryName(name)) continue;
      struct stat st {};
      if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
      if (now - st.st_mtime < minAge.count()) continue;  // may belong to a save in progress
      if (::unlink(it->path().c_str()) == 0) ++removed;
    }
  } catch (...) {
  }
  return removed;
}

void sweepOwnFolderOnce(const fs::path& dir) noexcept {
  try {
    static std::mutex mutex;
    static std::set<std::string> swept;
    std::error_code ec;
    const std::string key = fs::absolute(dir, ec).lexically_normal().string();
    {
      std::lock_guard lock(mutex);
      if (!swept.insert(key).second) return;
    }
    sweepStaleTemporaries(dir);
  } catch (...) {
  }
}

void removePendingTemporaries() noexcept {
  for (auto& slot : g_pending)
    if (slot.state.load() == 2) ::unlink(slot.path);
}

AtomicFile::AtomicFile(fs::path target, bool overwrite)
    : m_target(std::move(target)), m_overwrite(overwrite) {
  checkOutputPath(m_target, overwrite);  // the one rule for outputs (output_path.hpp)
  const fs::path dir = m_target.has_parent_path() ? m_target.parent_path() : fs::path(".");
  const std::string ext = temporaryExtension(m_target.filename());
  std::string stem = m_target.filename().string().substr(0, kMaxNameStem);
  std::string tmpl =
      (dir / ("." + stem + std::string(kMarker) + std::string(kRandomChars, 'X') + ext)).string();
  m_fd = ::mkstemps(tmpl.data(), static_cast<int>(ext.size()));
  if (m_fd < 0) fail(m_target, std::strerror(errno));
  m_temp = tmpl;
  m_slot = registerPending(tmpl);
}

AtomicFile::~AtomicFile() {
  if (!m_done) discard();
}

void AtomicFile::write(std::string_view bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(m_fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      discard();
      fail(m_target, std::string("write failed: ") + std::strerror(err));
    }
    written += static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  if (m_done) fail(m_target, "already committed or discarded");
  // Test hook: a save that is slow to finish, so a test can signal the process while the temporary exists.
  if (faultInjected("commit", "slow")) std::this_thread::sleep_for(std::chrono::seconds(3));
  // The mode of the file being replaced (re-read now: it may have changed since construction).
  mode_t mode = 0666 & ~processUmask();
  struct stat st {};
  if (::lstat(m_target.c_str(), &st) == 0) {
    if (!m_overwrite || !S_ISREG(st.st_mode)) {
      discard();
      fail(m_target, !m_overwrite ? "already exists; refusing to overwrite it"
                                  : "it is no longer a regular file; refusing to replace it");
    }
    mode = st.st_mode & 07777;
  }
  if (::fchmod(m_fd, mode) != 0 || ::fsync(m_fd) != 0) {
    const int err = errno;
    discard();
    fail(m_target, std::string("sync failed: ") + std::strerror(err));
  }
  ::close(m_fd);
  m_fd = -1;
  int err = 0;
  if (m_overwrite) {
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0) err = errno;
  } else {
    // link() fails with EEXIST instead of replacing: no window in which another file could be clobbered.
    if (::link(m_temp.c_str(), m_target.c_str()) != 0)
      err = errno;
    else
      ::unlink(m_temp.c_str());
  }
  if (err != 0) {
    discard();
    fail(m_target,
         err == EEXIST ? std::string("already exists; refusing to overwrite it") : std::strerror(err));
  }
  unregisterPending(m_slot);
  m_slot = -1;
  m_done = true;
}

void AtomicFile::discard() noexcept {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
  if (!m_done && !m_temp.empty()) ::unlink(m_temp.c_str());
  unregisterPending(m_slot);
  m_slot = -1;
  m_done = true;
}

void writeFileAtomically(const fs::path& path, std::string_view bytes, bool overwrite) {
  AtomicFile file(path, overwrite);
  file.write(bytes);
  file.commit();
}

}  // namespace convolab
