// Test hooks: make chosen OpenCL operations fail on purpose (env CONVOLAB_INJECT_FAULT), so fallbacks are
// tested.
#pragma once

#include <string>

namespace convolab {

/// True when CONVOLAB_INJECT_FAULT (a comma-separated list) contains "<kind>:<name>", e.g.
/// "build:tiled" (program builds labelled tiled fail with a BuildError) or "run:local" (enqueueing
/// strategy local fails with CL_OUT_OF_RESOURCES). Read on every call, so tests can change it.
bool faultInjected(const std::string& kind, const std::string& name);

}  // namespace convolab
