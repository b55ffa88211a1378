// SPDX-License-Identifier: MIT
// Fault injection for tests: parses CONVOLAB_INJECT_FAULT.
#include "convolab/fault_injection.hpp"

#include <cstdlib>
#include <sstream>

namespace convolab {

bool faultInjected(const std::string& kind, const std::string& name) {
  const char* env = std::getenv("CONVOLAB_INJECT_FAULT");
  if (!env || !*env) return false;
  std::istringstream list(env);
  std::string item;
  while (std::getline(list, item, ','))
    if (item == kind + ":" + name) return true;
  return false;
}

std::mutex& injectedDriverLock() {
  static std::mutex lock;
  return lock;
}

}  // namespace convolab
