// SPDX-License-Identifier: MIT
// Atomic file output: write to a hidden temporary beside the target, then rename, so a reader never sees a
// half-written file; temporaries are removed on failure and on signals (through the CLI's handler). Stale
// ones (a process killed with SIGKILL) are swept only from ConvoLab's own folders, never from a user's.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

namespace convolab {

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a reader
/// never sees a half-written file. Refuses (Error BadInput) to replace an existing file unless `overwrite`;
/// with `overwrite`, a replaced file keeps its permission bits, and a target that is not a regular file
/// (symbolic link, directory, device, FIFO, socket) is refused.
void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, bool overwrite);

/// An output file being written: a hidden temporary in the target's folder
/// (".<name>.convolab-tmp-XXXXXX<ext>", same extension so extension-driven writers such as a video writer
/// pick the right format). commit() moves it into place; destroying it uncommitted removes it.
/// The temporary is registered so removePendingTemporaries() can delete it from a signal handler.
class AtomicFile {
 public:
  /// Checks the target (folder exists; exists only with `overwrite`; regular when it exists) and creates
  /// the temporary. Throws Error(BadInput) naming `target`. Never deletes anything else in the folder.
  AtomicFile(std::filesystem::path target, bool overwrite);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Where to write the content (the temporary; it exists, empty, mode 0600).
  const std::filesystem::path& temporaryPath() const { return m_temp; }

  /// Appends bytes to the temporary (for callers that do not write it themselves).
  void write(std::string_view bytes);
  /// Syncs the temporary, gives it the target's mode (or 0644 & ~umask for a new file) and moves it into
  /// place (a new file never replaces one that appeared meanwhile unless `overwrite`). Throws
  /// Error(BadInput).
  void commit();
  /// Removes the temporary (also done by the destructor when not committed).
  void discard() noexcept;

 private:
  std::filesystem::path m_target, m_temp;
  bool m_overwrite;
  int m_fd = -1;
  int m_slot = -1;
  bool m_done = false;
};

/// Removes every temporary of a live AtomicFile in this process. Async-signal-safe (only unlink()):
/// for a signal handler that is about to end the process.
void removePendingTemporaries() noexcept;

/// True only for the exact names AtomicFile gives its temporaries: "." + the target's name (cut to 160
/// characters) + ".convolab-tmp-" + 6 letters or digits + the target's extension (none when over 16
/// characters). Look-alikes such as ".bashrc.tmp-backup" or ".thesis.docx.tmp-123456" are not ours.
bool isAtomicTemporaryName(std::string_view filename);

/// Deletes temporaries of ours (isAtomicTemporaryName, regular files owned by this user) in `dir` older than
/// `minAge`: leftovers of a process killed while saving. Returns how many were removed; never throws.
/// For ConvoLab's own folders only (the caches): a user's folder is never swept, as a name there is the
/// user's even when it looks like ours.
int sweepStaleTemporaries(const std::filesystem::path& dir,
                          std::chrono::seconds minAge = std::chrono::minutes(10)) noexcept;
/// sweepStaleTemporaries(dir) the first time it is called for `dir` in this process; cheap afterwards.
void sweepOwnFolderOnce(const std::filesystem::path& dir) noexcept;

}  // namespace convolab
