// SPDX-License-Identifier: MIT
// Helpers shared by the strategies.
#include "strategy_support.hpp"

#include "convolab/error.hpp"

namespace convolab {

std::string baseBuildOptions(const FilterSet& filter) {
  static const char* const kModes[] = {"BORDER_REPLICATE", "BORDER_REFLECT", "BORDER_REFLECT101",
                                       "BORDER_WRAP", "BORDER_CONSTANT"};
  return std::string("-DBORDER_MODE=") + kModes[static_cast<int>(filter.border())] +
         " -DKSIZE=" + std::to_string(filter.size()) + " -DRADIUS=" + std::to_string(filter.radius());
}

std::vector<float> packedWeights(const FilterSet& filter) {
  std::vector<float> w;
  const int k = filter.size();
  w.reserve(static_cast<size_t>(3 * k * k));
  for (int c = 0; c < kChannels; ++c)
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) w.push_back(static_cast<float>(filter.channel(c).weight(j, i)));
  return w;
}

cl_float4 offsetsOf(const FilterSet& filter) {
  cl_float4 v{};
  for (int c = 0; c < kChannels; ++c) v.s[c] = static_cast<float>(filter.channel(c).offset);
  return v;
}

cl_float4 borderValuesOf(const FilterSet& filter) {
  cl_float4 v{};
  for (int c = 0; c < kChannels; ++c)
    v.s[c] = static_cast<float>(filter.borderValue()[static_cast<size_t>(c)]);
  return v;
}

NamedEvent launch2d(Context& ctx, const cl::Kernel& kernel, const std::string& name, cl::NDRange global,
                    cl::NDRange local, const std::vector<cl::Event>& waitFor) {
  NamedEvent ev{name, {}};
  ctx.recordLaunch(name, global, local);
  try {
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local,
                                     waitFor.empty() ? nullptr : &waitFor, &ev.event);
  } catch (const cl::Error& e) {
    throw ClError("clEnqueueNDRangeKernel", e.err(), "kernel " + name);
  }
  return ev;
}

std::optional<std::string> constantWeightsReason(const Context& ctx, const FilterSet& filter) {
  const std::uint64_t bytes = 3ull * filter.size() * filter.size() * sizeof(float);
  const std::uint64_t limit = ctx.device().constantBufferBytes;
  if (limit && bytes > limit)
    return "weights need " + std::to_string(bytes) + " bytes of constant memory; the device has " +
           std::to_string(limit);
  return std::nullopt;
}

void uploadFloats(Context& ctx, cl::Buffer& buffer, const std::vector<float>& data, cl_mem_flags flags) {
  const size_t bytes = data.size() * sizeof(float);
  try {
    if (!buffer() || buffer.getInfo<CL_MEM_SIZE>() != bytes) buffer = cl::Buffer(ctx.context(), flags, bytes);
    ctx.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data.data());
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "uploading filter weights");
  }
}

void WeightArgs::upload(Context& ctx, const FilterSet& filter, const std::vector<float>& layout) {
  uploadFloats(ctx, weights, layout);
  offset = offsetsOf(filter);
  border = borderValuesOf(filter);
}

double eventMs(const cl::Event& event) {
  try {
    const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
  } catch (const cl::Error&) {
    return 0.0;
  }
}

}  // namespace convolab
