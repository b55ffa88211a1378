// SPDX-License-Identifier: MIT
// On-disk program-binary cache: one verified file per key under the cache folder, written atomically.
#include "convolab/program_cache.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "convolab/atomic_file.hpp"
#include "convolab/config.hpp"
#include "convolab/log.hpp"
#include "convolab/regular_file.hpp"

namespace convolab {
namespace {

constexpr char kMagic[8] = {'C', 'V', 'L', 'P', 'R', 'O', 'G', '\n'};
// magic, format version (u32), reserved (u32), key/names/binary lengths (u64 each), checksum (u64).
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 * 3 + 8;

void putU64(std::string& out, std::uint64_t v, int bytes = 8) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t getU64(const unsigned char* p, int bytes = 8) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

/// Checksum of an entry: the lengths and every byte after the header.
std::uint64_t checksumOf(std::string_view key, std::string_view names, std::string_view binary) {
  std::string lengths;
  putU64(lengths, key.size());
  putU64(lengths, names.size());
  putU64(lengths, binary.size());
  std::uint64_t h = fnv1a64(lengths);
  h = fnv1a64(key, h);
  h = fnv1a64(names, h);
  return fnv1a64(binary, h);
}

/// True the first time in this process that `dir` is reported: one note per folder, not per context.
bool firstNoteFor(const std::filesystem::path& dir) {
  static std::mutex mutex;
  static std::set<std::string> noted;
  std::lock_guard lock(mutex);
  return noted.insert(dir.string()).second;
}

}  // namespace

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string ProgramKey::id() const {
  return ProgramCache::key(deviceName, driverVersion, options, source);
}

std::string ProgramKey::text() const {
  std::string t = "convolab-program-cache-v" + std::to_string(ProgramCache::kFormatVersion);
  for (const std::string* part : {&deviceName, &driverVersion, &options, &source}) {
    t += '\0';
    t += std::to_string(part->size());
    t += ':';
    t += *part;
  }
  return t;
}

ProgramCache::ProgramCache(std::filesystem::path dir) {
  const CoreConfig config = coreConfig();
  if (config.noProgramCache) return;
  if (dir.empty()) {
    if (!config.cacheDir.empty())
      dir = config.cacheDir;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
      dir = std::filesystem::path(x) / "convolab";
    else if (const char* home = std::getenv("HOME"); home && *home)
      dir = std::filesystem::path(home) / ".cache" / "convolab";
  }
  m_dir = dir.empty() ? dir : dir / "programs";
}

ProgramCache::ProgramCache(const ProgramCache& other)
    : m_dir(other.m_dir), m_disabled(other.m_disabled.load()) {}

ProgramCache& ProgramCache::operator=(const ProgramCache& other) {
  m_dir = other.m_dir;
  m_disabled = other.m_disabled.load();
  return *this;
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

std::optional<CachedProgram> ProgramCache::load(const ProgramKey& key) const {
  if (!enabled()) return std::nullopt;
  const std::filesystem::path path = pathOf(key);
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (ec || status.type() == std::filesystem::file_type::not_found) return std::nullopt;  // a plain miss
  const auto data = readRegularFile(path, kMaxEntryBytes);
  const std::string expectedKey = key.text();
  const auto valid = [&]() -> std::optional<CachedProgram> {
    if (!data || data->size() < kHeaderBytes) return std::nullopt;
    const auto* p = reinterpret_cast<const unsigned char*>(data->data());
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0) return std::nullopt;
    if (getU64(p + 8, 4) != static_cast<std::uint64_t>(kFormatVersion)) return std::nullopt;
    const std::uint64_t keyLen = getU64(p + 16), namesLen = getU64(p + 24), binLen = getU64(p + 32);
    const std::uint64_t sum = getU64(p + 40);
    const std::uint64_t rest = data->size() - kHeaderBytes;
    // Each length alone first, so the sum below cannot wrap.
    if (keyLen > rest || namesLen > rest || binLen > rest || keyLen + namesLen + binLen != rest ||
        binLen == 0)
      return std::nullopt;
    const char* body = reinterpret_cast<const char*>(p + kHeaderBytes);
    const std::string_view storedKey(body, keyLen), names(body + keyLen, namesLen),
        binary(body + keyLen + namesLen, binLen);
    if (storedKey != expectedKey) return std::nullopt;
    if (checksumOf(storedKey, names, binary) != sum) return std::nullopt;
    CachedProgram entry;
    entry.kernelNames = std::string(names);
    entry.binary.assign(binary.begin(), binary.end());
    return entry;
  }();
  if (!valid) evict(key);  // damaged, foreign, truncated, or not a file: a miss, rebuilt from source
  return valid;
}

void ProgramCache::store(const ProgramKey& key, const CachedProgram& entry) const {
  if (!enabled() || entry.binary.empty()) return;
  const std::string keyText = key.text();
  const std::string_view binary(reinterpret_cast<const char*>(entry.binary.data()), entry.binary.size());
  std::string bytes(kMagic, sizeof kMagic);
  putU64(bytes, static_cast<std::uint64_t>(kFormatVersion), 4);
  putU64(bytes, 0, 4);
  putU64(bytes, keyText.size());
  putU64(bytes, entry.kernelNames.size());
  putU64(bytes, binary.size());
  putU64(bytes, checksumOf(keyText, entry.kernelNames, binary));
  bytes.reserve(bytes.size() + keyText.size() + entry.kernelNames.size() + binary.size());
  bytes += keyText;
  bytes += entry.kernelNames;
  bytes += binary;
  try {
    std::filesystem::create_directories(m_dir);
    const std::filesystem::path path = pathOf(key);
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)) &&
        !std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec)))
      evict(key);  // a FIFO, link or empty folder in the entry's place
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
      if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec)))
        return;  // a non-empty folder is not ours to delete: this one program is just not cached
    }
    sweepOwnFolderOnce(m_dir);  // our folder: leftovers of a killed build may go
    writeFileAtomically(path, bytes, true);
  } catch (const std::exception& e) {
    // A cache that cannot be written only costs a rebuild next time; say so once and stop trying.
    if (!m_disabled.exchange(true) && firstNoteFor(m_dir))
      logMessage(LogLevel::Note, "the program cache in " + m_dir.string() +
                                     " cannot be written, so kernels are built each run (" + e.what() + ")");
  }
}

void ProgramCache::evict(const ProgramKey& key) const {
  if (m_dir.empty()) return;
  std::error_code ec;
  std::filesystem::remove(pathOf(key), ec);  // non-recursive: a non-empty folder stays (the store fails)
}

}  // namespace convolab
