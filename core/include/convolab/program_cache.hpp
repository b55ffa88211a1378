// On-disk cache of OpenCL program binaries keyed by everything that changes the binary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace convolab {

class ProgramCache {
 public:
  /// Bump when the key or file layout changes, so stale binaries are never loaded.
  static constexpr int kFormatVersion = 1;

  /// `dir` empty: $CONVOLAB_CACHE_DIR, else $XDG_CACHE_HOME/convolab, else ~/.cache/convolab.
  /// CONVOLAB_NO_PROGRAM_CACHE=1 disables the cache.
  explicit ProgramCache(std::filesystem::path dir = {});

  /// The key: device name, driver version, build options, source, format version.
  static std::string key(const std::string& deviceName, const std::string& driverVersion,
                         const std::string& options, const std::string& source);

  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  /// Best effort: a cache that cannot be written is not an error.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;
  bool enabled() const { return !m_dir.empty(); }
  const std::filesystem::path& dir() const { return m_dir; }

 private:
  std::filesystem::path m_dir;
};

/// 64-bit FNV-1a, stable across runs and platforms (std::hash is not promised to be).
std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 14695981039346656037ull);

}  // namespace convolab
