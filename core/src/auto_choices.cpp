// SPDX-License-Identifier: MIT
// auto's choice cache: the structure key, the JSON file, and validation of cached choices.
#include "convolab/auto_choices.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "convolab/analysis.hpp"
#include "convolab/atomic_file.hpp"
#include "convolab/json_limits.hpp"
#include "convolab/registry.hpp"
#include "convolab/regular_file.hpp"

namespace convolab {

std::pair<int, int> autoMeasureSize(int width, int height) {
  return {std::min(width, kAutoMeasureWidth), std::min(height, kAutoMeasureHeight)};
}

namespace {
/// autoNeighbourKey of the effective filter `f` whose analysis is `a` (computed once by the caller: the SVD
/// is the key's only real cost).
std::string neighbourKey(const Context& ctx, const FilterSet& f, const FilterAnalysis& a, int width,
                         int height) {
  const auto [w, h] = autoMeasureSize(width, height);
  bool rankOne = true;
  for (const auto& c : a.channels) rankOne = rankOne && c.rank <= 1;
  std::ostringstream key;
  key << ctx.device().name << "|" << ctx.device().driverVersion << "|" << w << "x" << h << "|k" << f.size()
      << "|" << (rankOne ? "rank1" : "dense") << "|";
  return key.str();
}
}  // namespace

std::string autoNeighbourKey(const Context& ctx, const FilterSet& filter, int width, int height) {
  const FilterSet f = filter.trimmedToSupport();
  return neighbourKey(ctx, f, analyzeFilter(f), width, height);
}

std::string autoChoiceKey(const Context& ctx, const FilterSet& filter, int width, int height) {
  // Of the effective filter (zero rings cut off); no border mode, divisor or offset: they change a -D
  // option or an argument, not which kernel is fastest.
  const FilterSet f = filter.trimmedToSupport();
  const FilterAnalysis a = analyzeFilter(f);
  std::ostringstream key;
  key << neighbourKey(ctx, f, a, width, height) << "ranks";
  for (const auto& c : a.channels) key << c.rank << ",";
  key << "|zeros";
  for (int c = 0; c < kChannels; ++c) {
    std::uint64_t h = 0;
    for (double v : f.channel(c).matrix) h = h * 2 + (v == 0.0 ? 1 : 0);
    key << std::hex << h << std::dec << ",";
  }
  key << "|same" << a.identicalChannels;
  return key.str();
}

std::filesystem::path autoChoicesFile(const ProgramCache& cache) {
  return cache.dir().parent_path() / "auto-choices.json";
}

std::optional<std::string> invalidAutoChoiceReason(const Context& ctx, const FilterSet& filter,
                                                   const AutoChoice& choice) {
  return invalidAutoChoiceReason(ctx, filter, choice, strategyCandidates());
}

std::optional<std::string> invalidAutoChoiceReason(const Context& ctx, const FilterSet& filter,
                                                   const AutoChoice& choice,
                                                   const std::vector<StrategyEntry>& candidates) {
  if (choice.strategy == kAutoStrategy) return "names auto itself";
  const auto entry = std::find_if(candidates.begin(), candidates.end(),
                                  [&](const StrategyEntry& e) { return e.name == choice.strategy; });
  if (entry == candidates.end()) return "names no strategy ('" + choice.strategy + "')";
  if (!std::isfinite(choice.ms) || choice.ms < 0) return "has a time that is not a finite number ≥ 0";
  auto strategy = entry->create();
  if (auto reason = strategy->unsupportedReason(ctx, filter)) return *reason;
  if (choice.variant.empty()) return std::nullopt;
  const auto variants = strategy->tuningVariants(ctx, filter);
  if (std::find(variants.begin(), variants.end(), choice.variant) == variants.end())
    return "variant '" + choice.variant.substr(0, 64) + "' is not one " + choice.strategy + " offers on " +
           ctx.device().name;
  return std::nullopt;
}

namespace {

constexpr std::uint64_t kMaxChoicesFileBytes = 16u << 20;
using ChoiceMap = std::map<std::string, AutoChoice>;

/// The choices in `file`; empty when it is missing, not a regular file (never opened: a FIFO cannot block
/// us) or corrupt. One malformed entry is skipped; the others still count.
ChoiceMap readChoices(const std::filesystem::path& file) {
  ChoiceMap choices;
  const auto text = readRegularFile(file, kMaxChoicesFileBytes);
  if (!text || jsonLimitProblem(*text)) return choices;  // deep or huge: corrupt, as below
  try {
    const auto doc = nlohmann::json::parse(*text);
    if (!doc.is_object()) return choices;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      try {
        AutoChoice c{it.value().at("strategy").get<std::string>(),
                     it.value().at("variant").get<std::string>(), it.value().at("ms").get<double>()};
        if (c.strategy.size() <= 64 && c.variant.size() <= 256) choices[it.key()] = std::move(c);
      } catch (...) {
      }
    }
  } catch (...) {
    choices.clear();  // a corrupt file is ignored and rewritten
  }
  return choices;
}

/// An exclusive flock on a lock file beside the choices, so processes sharing one cache merge their writes
/// instead of each replacing the file with its own map. Waits a bounded time: a process stuck holding it
/// costs us one remembered choice, never a hang.
class ChoicesFileLock {
 public:
  explicit ChoicesFileLock(const std::filesystem::path& file) {
    const std::string path = file.string() + ".lock";
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
    struct stat st {};
    if (m_fd >= 0 && (::fstat(m_fd, &st) != 0 || !S_ISREG(st.st_mode))) release();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (m_fd >= 0 && ::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      if ((errno != EWOULDBLOCK && errno != EINTR) || std::chrono::steady_clock::now() > deadline)
        release();
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  ~ChoicesFileLock() { release(); }
  ChoicesFileLock(const ChoicesFileLock&) = delete;
  ChoicesFileLock& operator=(const ChoicesFileLock&) = delete;
  bool held() const { return m_fd >= 0; }

 private:
  void release() {
    if (m_fd >= 0) ::close(m_fd);  // closing drops the lock
    m_fd = -1;
  }
  int m_fd = -1;
};

}  // namespace

struct AutoChoiceCache::State {
  std::mutex mutex;
  std::filesystem::path loadedFrom;  ///< the file loaded (a new cache folder loads anew)
  bool loaded = false;
  ChoiceMap choices;
  ChoiceMap unsaved;                ///< stored here but not yet in the file
  std::set<std::string> forgotten;  ///< to drop from the file on the next write
};

AutoChoiceCache& AutoChoiceCache::instance() {
  static AutoChoiceCache cache;
  return cache;
}

AutoChoiceCache::State& AutoChoiceCache::state() {
  static State s;
  return s;
}

std::optional<AutoChoice> AutoChoiceCache::find(const ProgramCache& cache, const std::string& key) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  load(cache);
  auto it = s.choices.find(key);
  if (it == s.choices.end()) return std::nullopt;
  return it->second;
}

std::optional<AutoChoice> AutoChoiceCache::nearest(const ProgramCache& cache, const std::string& prefix) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  load(cache);
  std::optional<AutoChoice> best;
  for (auto it = s.choices.lower_bound(prefix); it != s.choices.end() && it->first.starts_with(prefix); ++it)
    if (!best || it->second.ms < best->ms) best = it->second;
  return best;
}

std::vector<std::pair<std::string, AutoChoice>> AutoChoiceCache::withPrefix(const ProgramCache& cache,
                                                                            const std::string& prefix) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  load(cache);
  std::vector<std::pair<std::string, AutoChoice>> out;
  for (auto it = s.choices.lower_bound(prefix); it != s.choices.end() && it->first.starts_with(prefix); ++it)
    out.emplace_back(it->first, it->second);
  return out;
}

void AutoChoiceCache::forget(const std::string& key) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.choices.erase(key);
  s.unsaved.erase(key);
  s.forgotten.insert(key);
}

void AutoChoiceCache::store(const ProgramCache& cache, const std::string& key, const AutoChoice& choice) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  load(cache);
  s.choices[key] = choice;
  s.unsaved[key] = choice;
  s.forgotten.erase(key);
  if (!cache.enabled()) return;
  const std::filesystem::path file = autoChoicesFile(cache);
  try {
    std::filesystem::create_directories(file.parent_path());
    sweepOwnFolderOnce(file.parent_path());  // the cache folder is ours: leftovers of a killed write go
    // Read, merge and replace under the lock: what other processes wrote since we loaded is kept.
    const ChoicesFileLock fileLock(file);
    if (!fileLock.held()) return;  // kept in memory; written with the next store
    ChoiceMap merged = readChoices(file);
    for (const auto& [k, c] : s.unsaved) merged[k] = c;
    for (const auto& k : s.forgotten) merged.erase(k);
    nlohmann::json doc = nlohmann::json::object();
    for (const auto& [k, c] : merged)
      doc[k] = {{"strategy", c.strategy}, {"variant", c.variant}, {"ms", c.ms}};
    writeFileAtomically(file, doc.dump(1), true);
    s.choices = std::move(merged);
    s.unsaved.clear();
    s.forgotten.clear();
  } catch (...) {
    // Forgetting a choice only costs a new measurement.
  }
}

void AutoChoiceCache::load(const ProgramCache& cache) {
  State& s = state();
  if (!cache.enabled()) return;
  const std::filesystem::path file = autoChoicesFile(cache);
  if (s.loaded && s.loadedFrom == file) return;
  s.loaded = true;
  s.loadedFrom = file;
  s.choices = readChoices(file);
  s.unsaved.clear();
  s.forgotten.clear();
}

}  // namespace convolab
