// On-disk program-binary cache: one file per key under the cache folder, written atomically.
#include "convolab/program_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "convolab/atomic_file.hpp"

namespace convolab {

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

ProgramCache::ProgramCache(std::filesystem::path dir) {
  if (const char* off = std::getenv("CONVOLAB_NO_PROGRAM_CACHE"); off && *off && std::string(off) != "0")
    return;
  if (dir.empty()) {
    if (const char* d = std::getenv("CONVOLAB_CACHE_DIR"); d && *d)
      dir = d;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
      dir = std::filesystem::path(x) / "convolab";
    else if (const char* home = std::getenv("HOME"); home && *home)
      dir = std::filesystem::path(home) / ".cache" / "convolab";
  }
  m_dir = dir.empty() ? dir : dir / "programs";
}

std::string ProgramCache::key(const std::string& deviceName, const std::string& driverVersion,
                              const std::string& options, const std::string& source) {
  std::uint64_t h = fnv1a64("convolab-program-cache-v" + std::to_string(kFormatVersion));
  for (const std::string* part : {&deviceName, &driverVersion, &options, &source}) {
    h = fnv1a64(*part, h);
    h = fnv1a64(std::string_view("\0", 1), h);  // separator, so ("ab","c") != ("a","bc")
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::optional<std::vector<unsigned char>> ProgramCache::load(const std::string& key) const {
  if (m_dir.empty()) return std::nullopt;
  std::ifstream f(m_dir / (key + ".bin"), std::ios::binary);
  if (!f) return std::nullopt;
  std::vector<unsigned char> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.empty()) return std::nullopt;
  return data;
}

void ProgramCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (m_dir.empty() || binary.empty()) return;
  try {
    std::filesystem::create_directories(m_dir);
    writeFileAtomically(m_dir / (key + ".bin"),
                        std::string_view(reinterpret_cast<const char*>(binary.data()), binary.size()), true);
  } catch (...) {
    // A cache that cannot be written only costs a rebuild next time.
  }
}

}  // namespace convolab
