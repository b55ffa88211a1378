// SPDX-License-Identifier: MIT
// On-disk cache of OpenCL program binaries keyed by everything that changes the binary.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace convolab {

/// Everything that changes a program binary. id() names the cache file; text() is stored inside it and
/// compared on load, so an entry copied or renamed under another id is never handed to the driver.
struct ProgramKey {
  std::string deviceName;
  std::string driverVersion;
  std::string options;
  std::string source;

  /// 16 hex digits: a hash of every field and the format version.
  std::string id() const;
  /// The full key (every field, the source included), as stored in the cache file.
  std::string text() const;
};

/// One cache entry: a verified binary and the kernel names the program had when it was stored.
struct CachedProgram {
  std::vector<unsigned char> binary;
  std::string kernelNames;  ///< CL_PROGRAM_KERNEL_NAMES at store time ("a;b")
};

class ProgramCache {
 public:
  /// Bump when the key or file layout changes, so stale binaries are never loaded.
  /// 2: a header with magic, full key, kernel names, sizes and a checksum (1 was the raw binary).
  static constexpr int kFormatVersion = 2;
  /// Larger files are not cache entries of ours (read-time bound, not a limit on programs).
  static constexpr std::uint64_t kMaxEntryBytes = 256ull << 20;

  /// `dir` empty: $CONVOLAB_CACHE_DIR, else $XDG_CACHE_HOME/convolab, else ~/.cache/convolab.
  /// CONVOLAB_NO_PROGRAM_CACHE=1 disables the cache.
  explicit ProgramCache(std::filesystem::path dir = {});
  ProgramCache(const ProgramCache& other);
  ProgramCache& operator=(const ProgramCache& other);

  /// The file id of a key: device name, driver version, build options, source, format version.
  static std::string key(const std::string& deviceName, const std::string& driverVersion,
                         const std::string& options, const std::string& source);

  /// The entry stored under `key`, verified: a regular file (never opens a FIFO or a directory for
  /// reading, never blocks), with our header, the same full key, complete, and a matching checksum.
  /// Anything else is a miss, and the bad entry is evicted.
  std::optional<CachedProgram> load(const ProgramKey& key) const;
  /// Best effort: a cache that cannot be written is not an error. The first failure to write disables
  /// the cache for this object, with one note to the log.
  void store(const ProgramKey& key, const CachedProgram& entry) const;
  /// Removes the entry of `key` (a file, a FIFO, a link or an empty folder in its place). Best effort.
  void evict(const ProgramKey& key) const;

  bool enabled() const { return !m_dir.empty() && !m_disabled.load(); }
  const std::filesystem::path& dir() const { return m_dir; }
  /// Where the entry of `key` lives.
  std::filesystem::path pathOf(const ProgramKey& key) const { return m_dir / (key.id() + ".bin"); }

 private:
  std::filesystem::path m_dir;
  mutable std::atomic<bool> m_disabled{false};
};

/// 64-bit FNV-1a, stable across runs and platforms (std::hash is not promised to be).
std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 14695981039346656037ull);

}  // namespace convolab
