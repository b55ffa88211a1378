// SPDX-License-Identifier: MIT
// Helpers shared by the strategies: build options, packed weights, launch geometry, timing of events.
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <string>
#include <vector>

#include "convolab/filter.hpp"
#include "convolab/kernel_args.hpp"  // setArgs
#include "convolab/strategy.hpp"

namespace convolab {

/// "-DBORDER_MODE=BORDER_REFLECT101 -DKSIZE=7 -DRADIUS=3": what every kernel program is specialised on.
std::string baseBuildOptions(const FilterSet& filter);

/// Weights (matrix/divisor) as floats, laid out [channel][row][col]: 3·K·K values.
std::vector<float> packedWeights(const FilterSet& filter);

/// Why the dense weights (3·K·K floats, packedWeights) cannot live in the device's __constant memory, or
/// nullopt when they fit (or the device does not say its limit). For the kernels that read them from there.
std::optional<std::string> constantWeightsReason(const Context& ctx, const FilterSet& filter);

/// Per-channel offsets and border values as float4 kernel arguments (w unused).
cl_float4 offsetsOf(const FilterSet& filter);
cl_float4 borderValuesOf(const FilterSet& filter);

/// What a weight-buffer kernel (naive, constant, image, local, vector, tiled) takes beside the frame: the
/// weights in the strategy's layout, and the per-channel offsets and border values.
struct WeightArgs {
  cl::Buffer weights;
  cl_float4 offset{}, border{};

  /// Uploads `layout` (packedWeights or chunkPatternWeights of `filter`) and takes the filter's offsets and
  /// border values. Blocking (used in prepare()).
  void upload(Context& ctx, const FilterSet& filter, const std::vector<float>& layout);
};

/// Smallest multiple of `multiple` that is ≥ value.
inline std::size_t roundUp(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// Enqueues `kernel` over a 2-D range and returns its event named `name`. Converts cl::Error to ClError.
NamedEvent launch2d(Context& ctx, const cl::Kernel& kernel, const std::string& name, cl::NDRange global,
                    cl::NDRange local, const std::vector<cl::Event>& waitFor);

/// Uploads `data` into `buffer`, (re)creating it when its size differs. Blocking (used in prepare()).
void uploadFloats(Context& ctx, cl::Buffer& buffer, const std::vector<float>& data,
                  cl_mem_flags flags = CL_MEM_READ_ONLY);

/// Duration of a completed event in milliseconds (profiling info), 0 when unavailable.
double eventMs(const cl::Event& event);

}  // namespace convolab
