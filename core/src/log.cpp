// SPDX-License-Identifier: MIT
// The core's log sink: a replaceable callback, stderr by default.
#include "convolab/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>

#include "convolab/config.hpp"

namespace convolab {
namespace {

std::mutex& sinkMutex() {
  static std::mutex m;
  return m;
}

LogSink& currentSink() {
  static LogSink sink;
  return sink;
}

/// Debug messages reach the default sink only with CONVOLAB_VERBOSE (or CONVOLAB_AUTO_VERBOSE) set.
bool verbose() {
  return coreConfig().verbose;
}

}  // namespace

LogSink setLogSink(LogSink sink) {
  std::lock_guard lock(sinkMutex());
  return std::exchange(currentSink(), std::move(sink));
}

void logMessage(LogLevel level, std::string_view message) {
  LogSink sink;
  {
    std::lock_guard lock(sinkMutex());
    sink = currentSink();
  }
  if (sink) {
    sink(level, message);
    return;
  }
  if (level == LogLevel::Debug && !verbose()) return;
  const std::string line = "convolab: " + std::string(message) + "\n";
  std::fputs(line.c_str(), stderr);
}

}  // namespace convolab
