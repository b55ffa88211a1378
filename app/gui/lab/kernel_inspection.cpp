// SPDX-License-Identifier: MIT
// KernelInspection: prepare + one launch of a strategy, with the context's build and launch log.
#include "kernel_inspection.hpp"

#include "convolab/error.hpp"
#include "convolab/image.hpp"
#include "convolab/registry.hpp"

namespace convolab::lab {

KernelInspection inspectKernels(Context& ctx, const StrategyId& active, const FilterSet& filter, int width,
                                int height) {
  KernelInspection out;
  out.requested = active;
  out.strategy = active.name;
  out.variant = active.variant;
  out.width = width = std::max(width, 1);
  out.height = height = std::max(height, 1);
  try {
    std::unique_ptr<Strategy> s = createStrategy(out.strategy);
    if (auto reason = s->unsupportedReason(ctx, filter)) {
      out.error = out.strategy + " cannot run this filter here: " + *reason;
      return out;
    }
    s->setTuningVariant(out.variant);
    ctx.clearActivityLog();
    s->prepare(ctx, filter, width, height);
    out.active = s->activeId();
    // auto measured candidates before settling: keep only the winner's builds (the last of its label).
    std::vector<BuildInfo> builds = ctx.buildLog();
    ctx.clearActivityLog();
    const size_t bytes = static_cast<size_t>(width) * height * kBytesPerPixel;
    cl::Buffer in(ctx.context(), CL_MEM_READ_WRITE, bytes),
        outBuffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
    const std::uint8_t zero = 0;
    ctx.queue().enqueueFillBuffer(in, zero, 0, bytes);
    const auto events = s->enqueue(ctx, FrameBuffers{in, outBuffer, width, height}, {});
    ctx.queue().finish();
    out.launches = ctx.launchLog();
    if (active.isAuto()) {
      // Keep the builds whose label matches the winner's last build only.
      std::vector<BuildInfo> kept;
      for (auto it = builds.rbegin(); it != builds.rend(); ++it)
        if (it->label == out.active.name || (kept.empty() && it == builds.rbegin())) {
          kept.insert(kept.begin(), *it);
          break;
        }
      builds = kept;
    }
    out.builds = std::move(builds);
  } catch (const cl::Error& e) {
    out.error = std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace convolab::lab
