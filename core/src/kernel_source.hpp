// SPDX-License-Identifier: MIT
// Composes a program's OpenCL source from embedded kernel fragments (kernels/*.cl).
#pragma once

#include <string>
#include <string_view>

namespace convolab {

/// The embedded kernel `name` (kernels/<name>.cl) with every `#include "x.cl"` line replaced by the embedded
/// fragment x.cl, recursively, each fragment at most once per program (as with `#pragma once`). OpenCL
/// compilers cannot see the fragments (they are not on disk), so includes are resolved here. Throws
/// Error(Device) naming the fragment when one is not embedded.
std::string expandKernelIncludes(std::string_view name);

/// What every strategy program is built from: common.cl, then `expandKernelIncludes(name)`.
std::string composeKernelSource(std::string_view name);

}  // namespace convolab
