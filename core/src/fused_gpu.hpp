// SPDX-License-Identifier: MIT
// FusedGpu: the GPU style of the literal fused chain (kernels/fused_gpu.cl): one work-group per channel of a
// tile, one float plane in local memory, 4 columns × R rows of every step per work-item in registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convolab/filter_chain.hpp"
#include "fused_literal.hpp"

namespace convolab {

/// A launch shape: WX × WY work-items, each 4 columns × `rows` rows of the last step (earlier steps: as many
/// rows as their larger regions need).
struct FusedGpuShape {
  int wx = 32, wy = 8, rows = 8;
};

/// The shapes tried in order (the first that fits the device's local memory and the code budget); text
/// "WXxWYxR", several separated by commas. Parses `text`, or nullopt when it is malformed.
std::optional<std::vector<FusedGpuShape>> parseFusedGpuShapes(const std::string& text);

/// The GPU-style program for `steps`, or nullopt where no shape fits `localLimit` bytes (0: unknown) or the
/// generated code passes its budget. Shapes: CONVOLAB_FUSED_GPU_SHAPE (a measurement knob,
/// docs/BENCHMARKS.md), else setFusedGpuShapeForTesting's, else the measured default.
std::optional<FusedLiteralPlan> planFusedGpu(const std::vector<ChainStep>& steps, std::uint64_t localLimit);

/// Test hook: the shapes planFusedGpu tries ("" restores the default).
void setFusedGpuShapeForTesting(const std::string& shapes);

}  // namespace convolab
