// SPDX-License-Identifier: MIT
// auto's choice cache: the structure key, the JSON file, and validation of cached choices.
#include "convolab/auto_choices.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "convolab/analysis.hpp"
#include "convolab/atomic_file.hpp"
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

struct AutoChoiceCache::State {
  std::mutex mutex;
  std::filesystem::path loadedFrom;  ///< the file loaded (a new cache folder loads anew)
  bool loaded = false;
  std::map<std::string, AutoChoice> choices;
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

void AutoChoiceCache::forget(const std::string& key) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.choices.erase(key);
}

void AutoChoiceCache::store(const ProgramCache& cache, const std::string& key, const AutoChoice& choice) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  load(cache);
  s.choices[key] = choice;
  if (!cache.enabled()) return;
  nlohmann::json doc = nlohmann::json::object();
  for (const auto& [k, c] : s.choices)
    doc[k] = {{"strategy", c.strategy}, {"variant", c.variant}, {"ms", c.ms}};
  try {
    std::filesystem::create_directories(autoChoicesFile(cache).parent_path());
    writeFileAtomically(autoChoicesFile(cache), doc.dump(1), true);
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
  s.choices.clear();
  // Never open a FIFO or a device: only a regular file of sane size is read.
  const auto text = readRegularFile(file, 16u << 20);
  if (!text) return;
  try {
    const auto doc = nlohmann::json::parse(*text);
    if (!doc.is_object()) return;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      try {
        AutoChoice c{it.value().at("strategy").get<std::string>(),
                     it.value().at("variant").get<std::string>(), it.value().at("ms").get<double>()};
        if (c.strategy.size() <= 64 && c.variant.size() <= 256) s.choices[it.key()] = std::move(c);
      } catch (...) {
        // One malformed entry is skipped; the others still count.
      }
    }
  } catch (...) {
    s.choices.clear();  // a corrupt file is ignored and rewritten
  }
}

}  // namespace convolab
