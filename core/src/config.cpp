// SPDX-License-Identifier: MIT
// CoreConfig: the CONVOLAB_* environment, read once.
#include "convolab/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

namespace convolab {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool flag(const char* name) {
  const std::string v = env(name);
  return !v.empty() && v != "0";
}

std::mutex& configMutex() {
  static std::mutex m;
  return m;
}

std::optional<CoreConfig>& current() {
  static std::optional<CoreConfig> config;
  return config;
}

}  // namespace

CoreConfig CoreConfig::fromEnvironment() {
  CoreConfig c;
  c.device = env("CONVOLAB_DEVICE");
  c.cacheDir = env("CONVOLAB_CACHE_DIR");
  c.noProgramCache = flag("CONVOLAB_NO_PROGRAM_CACHE");
  if (const std::string runs = env("CONVOLAB_AUTO_RUNS"); !runs.empty())
    c.autoRuns = std::max(1, std::atoi(runs.c_str()));
  if (const std::string m = env("CONVOLAB_AUTO_MEASURE"); m == "now")
    c.autoMeasure = CoreConfig::AutoMeasure::Now;
  else if (m == "off")
    c.autoMeasure = CoreConfig::AutoMeasure::Off;
  if (const int budget = std::atoi(env("CONVOLAB_AUTO_BUDGET_MS").c_str()); budget > 0)
    c.autoBudgetMs = budget;
  if (const std::string quiet = env("CONVOLAB_AUTO_QUIET_MS"); !quiet.empty())
    c.autoQuietMs = std::max(0, std::atoi(quiet.c_str()));
  c.autoVerbose = !env("CONVOLAB_AUTO_VERBOSE").empty();
  c.verbose = flag("CONVOLAB_VERBOSE") || c.autoVerbose;
  if (const long long tile = std::atoll(env("CONVOLAB_TILE_BYTES").c_str()); tile > 0)
    c.tileBytes = static_cast<std::size_t>(tile);
  c.codegenAsync = flag("CONVOLAB_CODEGEN_ASYNC");
  if (const std::string n = env("CONVOLAB_LITERAL_PROGRAMS"); !n.empty())
    c.literalPrograms = std::max(0, std::atoi(n.c_str()));
  if (const std::string b = env("CONVOLAB_PROGRAM_BINARIES"); b == "1")
    c.programBinaries = ProgramBinaries::Always;
  else if (b == "0")
    c.programBinaries = ProgramBinaries::Never;
  c.measureProgram = env("CONVOLAB_MEASURE_PROGRAM");
  return c;
}

CoreConfig coreConfig() {
  std::lock_guard lock(configMutex());
  if (!current()) current() = CoreConfig::fromEnvironment();
  return *current();
}

void setCoreConfig(const CoreConfig& config) {
  std::lock_guard lock(configMutex());
  current() = config;
}

}  // namespace convolab
