// SPDX-License-Identifier: MIT
// A new kernel's first launch, in convolab-measure before this process makes it. On PoCL the first launch of
// a kernel at a work-group size compiles its work-group function (clBuildProgram does not stall other work;
// that first launch does): every queue of the process waits, and the live picture froze ~1.1 s after each
// pause in editing under codegen/sliding (measured: docs/BENCHMARKS.md, 2026-11-28). The child's launch
// leaves the compiled function in PoCL's on-disk cache, so this process's own first launch is a cache hit
// (a 13–27 ms gap).
#pragma once

#include <CL/opencl.hpp>

#include "convolab/context.hpp"

namespace convolab {

/// Whether first launches on this context's device are worth making in a child: a driver with its own
/// on-disk kernel cache (PoCL).
bool firstLaunchesGoToChild(const Context& ctx);

/// Builds `kernel`'s program (its source and build options, read back from the driver) in
/// `convolab-measure --first-launch` and launches it once over width×height with `global`/`local` and the
/// arguments every literal kernel takes (input, output, width, height, offset, border: zeros), at a low
/// priority; waits at most 60 s. False when it could not (no source to read, no convolab-measure, a failure
/// there): the caller's first launch then compiles in this process, as before.
bool firstLaunchInChildProcess(const Context& ctx, const cl::Kernel& kernel, const cl::NDRange& global,
                               const cl::NDRange& local, int width, int height);

/// First launches made in a child process so far (tests).
int childFirstLaunchesForTesting();

/// The child's side: `--first-launch SOURCE_FILE --options OPTIONS --kernel NAME --device P:D --size W H
/// --global X Y --local X Y`. Exit 0 when the launch finished.
int runFirstLaunchChild(int argc, char** argv);

}  // namespace convolab
