// SPDX-License-Identifier: MIT
// FusedChain: per-step radii, borders and weight offsets as small buffers; tile and total radius as -D.
#include "fused_chain.hpp"

#include <algorithm>
#include <atomic>

#include "fused_literal.hpp"
#include "kernel_source.hpp"
#include "strategy_support.hpp"

namespace convolab {

// Test hook (declared where used, as codegen's): -1 the device's style, 0 the CPU-style literal kernel, 1 the
// GPU-style one, 2 the generic kernel.
void setFusedChainStyleForTesting(int style);

namespace {

std::atomic<int> g_styleForTesting{-1};

int totalRadius(const std::vector<ChainStep>& steps) {
  int h = 0;
  for (const ChainStep& s : steps) h += s.radius();
  return h;
}

int roundedRadius(int h) {  // the program's H0: chains with nearby total radii share one program
  return (h + 3) / 4 * 4;
}

std::size_t localBytes(int h) {  // two float RGB regions of (TW + 2·H0) × (TH + 2·H0)
  h = roundedRadius(h);
  return 2 * sizeof(float) * 3 * static_cast<std::size_t>(FusedChain::kTileWidth + 2 * h) *
         static_cast<std::size_t>(FusedChain::kTileHeight + 2 * h);
}

}  // namespace

void setFusedChainStyleForTesting(int style) {
  g_styleForTesting = style;
}

std::optional<std::string> FusedChain::unsupportedReason(const Context& ctx, const FilterChain& chain) {
  const std::vector<ChainStep> steps = chain.enabledSteps();
  if (steps.empty()) return "no step is switched on";
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].isCustom())
      return "step " + std::to_string(i + 1) +
             " is custom OpenCL: its reach is not known, so it does not fuse";
  for (size_t i = 1; i < steps.size(); ++i)
    if (steps[i].filter.border() == BorderMode::Wrap)
      return "step " + std::to_string(i + 1) + " wraps: its border reads the far side of the image";
  const std::size_t bytes = localBytes(totalRadius(steps));
  const std::uint64_t limit = ctx.device().localMemBytes;
  if (limit > 0 && bytes > limit)
    return "the steps' regions need " + std::to_string(bytes >> 10) +
           " KiB of local memory; the device has " + std::to_string(limit >> 10) + " KiB";
  if (ctx.device().maxWorkGroupSize > 0 &&
      ctx.device().maxWorkGroupSize < static_cast<std::size_t>(kTileWidth * kTileHeight))
    return "work-groups of " + std::to_string(kTileWidth * kTileHeight) + " are too large for the device";
  return std::nullopt;
}

void FusedChain::prepare(Context& ctx, const FilterChain& chain) {
  const std::vector<ChainStep> steps = chain.enabledSteps();
  // Only the tile and the rounded total radius specialise the program (the border rule common.cl wants is
  // unused: each step's mode is an argument), so a chain edit rarely builds.
  m_steps = static_cast<int>(steps.size());
  m_radius = totalRadius(steps);
  const int style = g_styleForTesting;
  m_literal.reset();
  if (style != 2)
    m_literal =
        planFusedLiteral(steps, style < 0 ? ctx.device().isGpu : style == 1, ctx.device().localMemBytes);
  const std::size_t maxGroup = ctx.device().maxWorkGroupSize;
  if (m_literal && maxGroup > 0 && maxGroup < static_cast<std::size_t>(m_literal->wx * m_literal->wy))
    m_literal.reset();
  if (m_literal) {
    prepareLiteral(ctx, steps);
    return;
  }
  const std::string options = "-DBORDER_MODE=BORDER_CONSTANT -DTW=" + std::to_string(kTileWidth) +
                              " -DTH=" + std::to_string(kTileHeight) +
                              " -DH0=" + std::to_string(roundedRadius(m_radius));
  if (options != m_options || m_source != "fused") {
    m_source = "fused";
    m_kernel = cl::Kernel(ctx.buildKernelProgram("fused", options), "convolve_fused");
    m_options = options;
  }
  std::vector<float> weights, offsets, borders;
  std::vector<cl_int> meta;
  auto add = [&](const FilterSet& f) {
    const int at = static_cast<int>(weights.size());
    const std::vector<float> w = packedWeights(f);
    weights.insert(weights.end(), w.begin(), w.end());
    const cl_float4 o = offsetsOf(f);
    offsets.insert(offsets.end(), o.s, o.s + 4);
    return at;
  };
  for (const ChainStep& s : steps) {
    const int k = 2 * s.radius() + 1;  // a magnitude's two filters padded to one K (zero rings add nothing)
    const int a = add(s.filter.resizedTo(k));
    const int b = s.other ? add(s.other->resizedTo(k)) : (offsets.insert(offsets.end(), 4, 0.0f), -1);
    meta.insert(meta.end(), {s.radius(), static_cast<cl_int>(s.filter.border()), a, b});
    const cl_float4 bv = borderValuesOf(s.filter);
    borders.insert(borders.end(), bv.s, bv.s + 4);
  }
  uploadFloats(ctx, m_weights, weights);
  uploadFloats(ctx, m_offsets, offsets);
  uploadFloats(ctx, m_borders, borders);
  const std::size_t metaBytes = meta.size() * sizeof(cl_int);
  m_meta = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, metaBytes, meta.data());
}

void FusedChain::prepareLiteral(Context& ctx, const std::vector<ChainStep>& steps) {
  // One program per chain (its weights are in the source); the borders stay arguments, so a border edit
  // does not build.
  std::string source = composeKernelSource(m_literal->kernel) + "\n" + m_literal->source;
  if (source != m_source || m_literal->options != m_options) {
    m_kernel = cl::Kernel(ctx.buildProgram(source, m_literal->options, m_literal->kernel), "convolve_fused");
    m_source = std::move(source);
    m_options = m_literal->options;
  }
  std::vector<float> borders;
  std::vector<cl_int> modes;
  for (const ChainStep& s : steps) {
    modes.push_back(static_cast<cl_int>(s.filter.border()));
    const cl_float4 bv = borderValuesOf(s.filter);
    borders.insert(borders.end(), bv.s, bv.s + 4);
  }
  uploadFloats(ctx, m_borders, borders);
  m_meta = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, modes.size() * sizeof(cl_int),
                      modes.data());
}

std::vector<NamedEvent> FusedChain::enqueue(Context& ctx, const FrameBuffers& frame,
                                            const std::vector<cl::Event>& waitFor) {
  if (m_literal) {
    setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_meta, m_borders);
    const auto groups = [](int size, int tile) { return static_cast<size_t>((size + tile - 1) / tile); };
    const size_t z = static_cast<size_t>(m_literal->groupsZ);  // 3: a work-group per channel (GPU style)
    const cl::NDRange local(m_literal->wx, m_literal->wy, 1);
    const cl::NDRange global(groups(frame.width, m_literal->tw) * m_literal->wx,
                             groups(frame.height, m_literal->th) * m_literal->wy, z);
    return {launch2d(ctx, m_kernel, "convolve_fused", global, local, waitFor)};
  }
  setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, m_weights, m_meta, m_offsets,
          m_borders, m_steps, m_radius);
  const cl::NDRange local(kTileWidth, kTileHeight);
  const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), kTileWidth),
                           roundUp(static_cast<size_t>(frame.height), kTileHeight));
  return {launch2d(ctx, m_kernel, "convolve_fused", global, local, waitFor)};
}

}  // namespace convolab
