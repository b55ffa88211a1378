// SPDX-License-Identifier: MIT
// The core's settings from the environment (CONVOLAB_*), read once into one struct.
#pragma once

#include <cstddef>
#include <string>

namespace convolab {

/// Every CONVOLAB_* variable the core reads, in one place. (CONVOLAB_INJECT_FAULT is a test hook read on
/// each call, see fault_injection.hpp.)
struct CoreConfig {
  std::string device;    ///< CONVOLAB_DEVICE: the default device spec ("" = first GPU, else first)
  std::string cacheDir;  ///< CONVOLAB_CACHE_DIR: cache folder ("" = $XDG_CACHE_HOME/convolab, ~/.cache/…)
  bool noProgramCache = false;  ///< CONVOLAB_NO_PROGRAM_CACHE set to anything but "0": no program cache
  int autoRuns = 5;             ///< CONVOLAB_AUTO_RUNS: timed runs of each auto finalist (≥ 1)
  /// CONVOLAB_AUTO_MEASURE: when `auto` measures a filter structure it has no stored choice for.
  /// Background (default, or "background"): the new filter runs at once on a provisional strategy (dynamic)
  /// while the measurement runs on another thread, and the winner is swapped in between frames.
  /// Now ("now"): prepare() measures before it returns (the bench, and tests that check what auto chose).
  /// Off ("off"): never measure; stored choices are still used (short CLI jobs that cannot repay it).
  enum class AutoMeasure { Background, Now, Off };
  AutoMeasure autoMeasure = AutoMeasure::Background;
  /// CONVOLAB_AUTO_BUDGET_MS: wall time one background measurement may take before it settles on the best
  /// so far (default 30 s: PoCL compiles each candidate for seconds the first time).
  int autoBudgetMs = 30000;
  /// CONVOLAB_AUTO_QUIET_MS: auto's background work (a measurement, or building a stored choice) compiles
  /// only once edits have paused this long (default 4 s), and waits again after every edit: on PoCL a compile
  /// holds a driver lock that stalls the live frames for 0.3-3 s, so nothing is compiled while a person
  /// edits.
  int autoQuietMs = 4000;
  bool autoVerbose = false;   ///< CONVOLAB_AUTO_VERBOSE: log every auto measurement
  bool verbose = false;       ///< CONVOLAB_VERBOSE (or CONVOLAB_AUTO_VERBOSE): debug lines reach stderr
  std::size_t tileBytes = 0;  ///< CONVOLAB_TILE_BYTES: engine tile limit (0 = automatic)
  /// CONVOLAB_CODEGEN_ASYNC set to anything but "0": on a coefficient edit, codegen keeps running its
  /// previous literal kernel until the new one is built in the background (off: the generic kernel runs the
  /// edit at once, exact, and the literals are baked in the background once edits pause).
  bool codegenAsync = false;
  /// CONVOLAB_LITERAL_PROGRAMS: literal-coefficient programs (codegen, sliding) the process holds at most: a
  /// cache, the least recently used evicted, so driver memory stays bounded (0 = no limit). Never a fallback.
  int literalPrograms = 64;
  /// Whether the program cache stores and loads program binaries (CONVOLAB_PROGRAM_BINARIES: "1" always,
  /// "0" never, unset or anything else: Auto). Auto skips drivers that keep a kernel cache of their own:
  /// PoCL caches every build under ~/.cache/pocl, and reading a binary back makes it compile each program a
  /// second time (a generic work-group function besides the one each launch needs), doubling first builds.
  enum class ProgramBinaries { Auto, Always, Never };
  /// CONVOLAB_MEASURE_PROGRAM: the program auto's background measurements run in, a child process at a low
  /// priority, so its compiles (PoCL: a driver lock per compile) never stall the live frames. "" (default):
  /// convolab-measure beside the running program; "off": measure in this process, on a thread.
  std::string measureProgram;
  ProgramBinaries programBinaries = ProgramBinaries::Auto;

  /// Reads the variables now.
  static CoreConfig fromEnvironment();
};

/// The configuration, read from the environment on first use. Thread-safe.
CoreConfig coreConfig();

/// Replaces the configuration (the app or tests; e.g. after changing the environment:
/// setCoreConfig(CoreConfig::fromEnvironment())). Takes effect for contexts and engines made after it.
void setCoreConfig(const CoreConfig& config);

}  // namespace convolab
