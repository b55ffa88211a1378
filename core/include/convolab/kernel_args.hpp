// SPDX-License-Identifier: MIT
// setArgs: a kernel's arguments set in one call, in order (the strategies, the bench's probes).
#pragma once

#include <CL/opencl.hpp>

namespace convolab {

/// Sets the kernel's arguments 0, 1, 2, … to `args` in order: setArgs(k, a, b) is k.setArg(0, a);
/// k.setArg(1, b). Throws cl::Error like setArg.
template <typename... Args>
void setArgs(cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (kernel.setArg(index++, args), ...);
}

}  // namespace convolab
