// SPDX-License-Identifier: MIT
// Test hooks: make chosen OpenCL operations fail on purpose (env CONVOLAB_INJECT_FAULT), so fallbacks are
// tested.
#pragma once

#include <mutex>
#include <string>

namespace convolab {

/// True when CONVOLAB_INJECT_FAULT (a comma-separated list) contains "<kind>:<name>", e.g.
/// "build:tiled" (program builds labelled tiled fail with a BuildError) or "run:local" (enqueueing
/// strategy local fails with CL_OUT_OF_RESOURCES) or "prepare:vector" (the engine's prepare of vector
/// throws a raw cl::Error, as a strategy that lets one through would) or "commit:slow" (every AtomicFile
/// commit waits 3 s first, the temporary in place, so a signal can arrive mid-save) or "stall:processing"
/// (the GUI's processing thread sleeps 1.5 s in each pass that processes a frame: the preview's stall mark).
/// Read on every call, so tests can change it.
bool faultInjected(const std::string& kind, const std::string& name);

/// Stands for the OpenCL driver's process-wide lock in the measurement-stall test: with
/// CONVOLAB_INJECT_FAULT=measure:hold-driver a measurement holds it for 10 s, as a PoCL compile holds the
/// driver's lock that every launch of its process waits for; the test's live loop takes it for each frame.
/// One per process: a measurement in a child process holds the child's.
std::mutex& injectedDriverLock();

}  // namespace convolab
