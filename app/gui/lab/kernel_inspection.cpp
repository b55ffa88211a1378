// SPDX-License-Identifier: MIT
// KernelInspection: prepare + one launch of a strategy, with the context's build and launch log.
#include "kernel_inspection.hpp"

#include <regex>
#include <sstream>

#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/image.hpp"
#include "convolab/registry.hpp"

namespace convolab::lab {

namespace {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

SourceOutline outlineKernelSource(const std::string& source, const std::vector<std::string>& launched) {
  SourceOutline out;
  const std::vector<std::string> lines = splitLines(source);
  const int n = static_cast<int>(lines.size());
  // common.cl: every program starts with its exact text (composeKernelSource, codegen, sliding).
  try {
    const std::vector<std::string> common = splitLines(kernelSource("common"));
    const int c = static_cast<int>(common.size());
    if (c > 0 && c <= n && std::equal(common.begin(), common.end(), lines.begin()))
      out.sections.push_back({"common.cl", 1, c, {}});
  } catch (const std::exception&) {
    // No embedded common.cl: nothing to outline there.
  }
  static const std::regex opened(R"(^// ---- ([A-Za-z0-9_]+\.cl) \(included by ([A-Za-z0-9_]+\.cl)\)$)");
  static const std::regex back(R"(^// ---- back in ([A-Za-z0-9_]+\.cl)$)");
  static const std::regex kernel(R"(^\s*__kernel\b.*\bvoid\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  std::vector<std::size_t> open;  // indices into out.sections of fragments not closed yet
  std::vector<std::pair<int, std::string>> kernels;
  std::smatch m;
  for (int i = 0; i < n; ++i) {
    const std::string& line = lines[static_cast<size_t>(i)];
    if (std::regex_match(line, m, opened)) {
      open.push_back(out.sections.size());
      out.sections.push_back({m[1], i + 1, n, m[2]});
    } else if (std::regex_match(line, m, back) && !open.empty()) {
      out.sections[open.back()].lastLine = i + 1;
      open.pop_back();
    } else if (std::regex_search(line, m, kernel)) {
      kernels.emplace_back(i + 1, m[1]);
    }
  }
  auto lineOf = [&kernels](const std::string& name) {
    for (const auto& [line, k] : kernels)
      if (k == name) return line;
    return 0;
  };
  auto choose = [&](const std::string& name) {
    if (out.kernelLine != 0) return;
    if (const int line = lineOf(name)) {
      out.kernelLine = line;
      out.kernelName = name;
    }
  };
  for (const std::string& k : launched)
    if (k.rfind("convolve", 0) == 0) choose(k);
  for (const std::string& k : launched) choose(k);
  if (out.kernelLine == 0 && !kernels.empty()) {
    out.kernelLine = kernels.front().first;
    out.kernelName = kernels.front().second;
  }
  return out;
}

KernelInspection inspectKernels(Context& ctx, const StrategyId& active, const FilterSet& filter, int width,
                                int height) {
  KernelInspection out;
  out.requested = active;
  // The program that produced the frame on screen: codegen and sliding run the generic kernel (dynamic) while
  // their literals wait to be baked (LiteralBaker's note), and auto runs the filter trimmed to its support.
  const bool generic = active.note.find("generic kernel") != std::string::npos;
  out.strategy = generic ? "dynamic" : active.name;
  out.variant = generic ? std::string() : active.variant;
  const FilterSet ran = active.viaAuto ? filter.trimmedToSupport() : filter;
  out.width = width = std::max(width, 1);
  out.height = height = std::max(height, 1);
  try {
    std::unique_ptr<Strategy> s = createStrategy(out.strategy);
    if (auto reason = s->unsupportedReason(ctx, ran)) {
      out.error = out.strategy + " cannot run this filter here: " + *reason;
      return out;
    }
    s->setTuningVariant(out.variant);
    ctx.clearActivityLog();
    s->prepare(ctx, ran, width, height);
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

KernelInspection inspectChainKernels(const std::shared_ptr<Context>& ctx, const FilterChain& chain, int width,
                                     int height) {
  KernelInspection out;
  out.requested = StrategyId{"fused"};
  out.requested.note = "chain of " + std::to_string(chain.enabledSteps().size()) + " steps";
  out.strategy = "fused";
  out.width = width = std::max(width, 1);
  out.height = height = std::max(height, 1);
  try {
    Engine engine(ctx, "naive");  // a step that does not fuse runs naive: its source is the plainest
    engine.setChainFusion(ChainFusion::Fused);
    engine.setChain(chain);
    ctx->clearActivityLog();
    engine.prepare(width, height);
    Image in(width, height), result(width, height);
    engine.process(in.view(), result.mutableView());  // the fused program is built for its first frame
    out.launches = ctx->launchLog();
    // The fused program first, where the chain fused; the steps' own programs after it
    for (const BuildInfo& b : ctx->buildLog())
      out.builds.insert(b.label.rfind("fused", 0) == 0 ? out.builds.begin() : out.builds.end(), b);
    out.active = engine.activeStrategyId();
  } catch (const cl::Error& e) {
    out.error = std::string(e.what()) + " (" + clErrorName(e.err()) + ")";
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace convolab::lab
