// SPDX-License-Identifier: MIT
// `bench`'s runs of our strategies: the Engine per frame, pinned and streamed frames, back-to-back launches.
#include "bench_strategy.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/frame_stream.hpp"
#include "convolab/kernel_args.hpp"
#include "convolab/registry.hpp"

namespace convolab::cli::bench {
namespace {

bool fellBack(const std::string& requested, const StrategyId& active) {
  return requested == kAutoStrategy ? !active.isAuto() : active != StrategyId{requested};
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : "; ") + x;
  return s;
}

/// The end-to-end paths that matter for a live source: one frame from pinned host memory, and a stream
/// of frames whose copies overlap the kernels of other frames.
void measureTransfers(const std::shared_ptr<Context>& ctx, Engine& engine, const std::string& name,
                      const FilterSet& filter, const Image& frame, const BenchOptions& opts,
                      StrategyResult& r) {
  try {
    MutableImageView in = engine.stagingInput(frame.width, frame.height);
    MutableImageView out = engine.stagingOutput(frame.width, frame.height);
    for (int y = 0; y < frame.height; ++y)
      std::copy(frame.view().row(y), frame.view().row(y) + frame.width * kBytesPerPixel, in.row(y));
    std::vector<double> host, device;
    for (int i = 0; i < opts.warmup + opts.iterations; ++i) {
      const FrameTimings t = engine.process(in, out);
      if (i < opts.warmup) continue;
      host.push_back(t.hostMs);
      device.push_back(t.uploadMs + t.kernelMs + t.downloadMs);
    }
    r.pinnedFrame = Stats::of(host);
    r.pinnedDevice = Stats::of(device);
    if (opts.streamFrames > 0) {
      FrameStream stream(ctx, name, filter, frame.width, frame.height, 3);
      for (int slot = 0; slot < 3; ++slot) {
        MutableImageView dst = stream.nextInput();
        for (int y = 0; y < frame.height; ++y)
          std::copy(frame.view().row(y), frame.view().row(y) + frame.width * kBytesPerPixel, dst.row(y));
        stream.submit();
      }
      stream.finish();
      r.streamFps = stream.measureThroughput(opts.streamFrames);
    }
  } catch (const Error& e) {
    r.notices.push_back(std::string("pinned/stream measurement failed: ") + e.what());
  }
}

/// Device-side throughput without transfers: N launches back to back on device buffers, for the default
/// variant or (--variants) every tuning variant of the strategy.
std::vector<LoopTiming> measureLoops(const std::shared_ptr<Context>& ctx, const std::string& name,
                                     const FilterSet& filter, const Image& frame, const BenchOptions& opts) {
  std::vector<LoopTiming> out;
  if (opts.kernelLoop <= 0 || name == kAutoStrategy) return out;
  std::vector<std::string> variants{""};
  if (opts.variants) variants = createStrategy(name)->tuningVariants(*ctx, filter);
  const size_t bytes = static_cast<size_t>(frame.width) * frame.height * kBytesPerPixel;
  cl::Buffer in(ctx->context(), CL_MEM_READ_ONLY, bytes), dst(ctx->context(), CL_MEM_READ_WRITE, bytes);
  ctx->queue().enqueueWriteBuffer(in, CL_TRUE, 0, bytes, frame.pixels.data());
  const FrameBuffers buffers{in, dst, frame.width, frame.height};
  for (const auto& variant : variants) {
    LoopTiming t;
    t.variant = variant;
    try {
      auto strategy = createStrategy(name);
      strategy->setTuningVariant(variant);
      strategy->prepare(*ctx, filter, frame.width, frame.height);
      for (int i = 0; i < 3; ++i) strategy->enqueue(*ctx, buffers, {});
      ctx->queue().finish();
      std::vector<std::vector<NamedEvent>> launches;
      launches.reserve(static_cast<size_t>(opts.kernelLoop));
      const auto t0 = Clock::now();
      for (int i = 0; i < opts.kernelLoop; ++i) launches.push_back(strategy->enqueue(*ctx, buffers, {}));
      ctx->queue().finish();
      t.wallMs = msSince(t0) / opts.kernelLoop;
      std::vector<double> each;
      for (const auto& l : launches) {
        double ms = 0;
        for (const auto& e : l)
          ms += static_cast<double>(e.event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                    e.event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                1e-6;
        each.push_back(ms);
      }
      const Stats st = Stats::of(each);
      t.eventMs = st.median;
      t.minEventMs = st.min;
      t.spanMs =
          static_cast<double>(launches.back().back().event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                              launches.front().front().event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
          1e-6 / opts.kernelLoop;
      t.status = "ok";
    } catch (const std::exception& e) {
      t.status = std::string("failed: ") + e.what();
    }
    progress(frame.width > 0 ? Size{frame.width, frame.height}.label() + " " + name + " loop " +
                                   (variant.empty() ? "(default)" : variant) + ": " +
                                   (t.status == "ok" ? "event " + fmt(t.eventMs, 4) + " ms, span " +
                                                           fmt(t.spanMs, 4) + " ms/launch"
                                                     : t.status)
                             : "");
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

void printRow(const StrategyResult& r) {
  const std::string where = r.size + (r.k > 0 ? " K " + std::to_string(r.k) : "") + " " + r.strategy;
  if (r.status == "ok")
    progress(where + (r.active != r.strategy ? " (" + r.active + ")" : "") + ": kernel " +
             fmt(r.kernel.median) + " ms (p95 " + fmt(r.kernel.p95) + "), frame " + fmt(r.frame.median) +
             " ms, " + fmt(r.mpixPerS, 1) + " Mpix/s, " + fmt(r.gflops, 1) + " GFLOP/s" +
             (r.maxAbsDiff ? ", max diff " + std::to_string(*r.maxAbsDiff) : ""));
  else
    progress(where + ": " + r.status + ": " + r.reason);
}

nlohmann::json measureLaunchFloor(Context& ctx, Size size, int n) {
  cl::Kernel kernel(ctx.buildProgram(std::string(kernelSource("empty_probe")), "", "empty_probe"), "empty");
  const size_t bytes = static_cast<size_t>(size.width) * size.height * kBytesPerPixel;
  cl::Buffer a(ctx.context(), CL_MEM_READ_WRITE, bytes), b(ctx.context(), CL_MEM_READ_WRITE, bytes);
  setArgs(kernel, a);
  auto time = [&](const std::function<cl::Event()>& launch) {
    for (int i = 0; i < 3; ++i) launch();
    ctx.queue().finish();
    std::vector<cl::Event> ev;
    for (int i = 0; i < n; ++i) ev.push_back(launch());
    ctx.queue().finish();
    std::vector<double> each;
    for (auto& e : ev)
      each.push_back(static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                         e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                     1e-6);
    const double span = static_cast<double>(ev.back().getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                            ev.front().getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                        1e-6 / n;
    return nlohmann::json{{"event_ms_median", Stats::of(each).median}, {"span_ms_per_launch", span}};
  };
  auto nd = [&](size_t gx, size_t gy, size_t lx, size_t ly) {
    return [&ctx, &kernel, gx, gy, lx, ly] {
      cl::Event e;
      ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(gx, gy), cl::NDRange(lx, ly),
                                       nullptr, &e);
      return e;
    };
  };
  const size_t gx = roundUpTo((static_cast<size_t>(size.width) + 3) / 4, 32);
  const size_t gy = roundUpTo((static_cast<size_t>(size.height) + 15) / 16, 2);
  return {{"size", size.label()},
          {"empty_one_group", time(nd(32, 2, 32, 2))},
          {"empty_frame_grid", time(nd(gx, gy, 32, 2))},
          {"copy_frame", time([&] {
             cl::Event e;
             ctx.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &e);
             return e;
           })},
          {"frame_bytes", bytes}};
}

StrategyResult runStrategy(const std::shared_ptr<Context>& ctx, const std::string& name,
                           const FilterSet& filter, const std::string& filterLabel, const Image& frame,
                           const BenchOptions& opts, const std::optional<cv::Mat>& expected,
                           double peakGflops, const FilterChain* chain, ChainFusion fusion) {
  StrategyResult r;
  r.strategy = name;
  r.width = frame.width;
  r.height = frame.height;
  r.size = Size{frame.width, frame.height}.label();
  r.k = filter.size();
  r.filter = filterLabel;
  // A chain (`chain`: several steps) runs with `name` per step, each step falling back on its own.
  if (auto reason = chain ? std::nullopt : createStrategy(name)->unsupportedReason(*ctx, filter)) {
    r.status = "skipped";
    r.reason = *reason;
    return r;
  }
  Engine engine(ctx, name);
  if (chain) {
    engine.setChainFusion(fusion);
    engine.setChain(*chain);
  } else
    engine.setFilter(filter);
  Image out(frame.width, frame.height);
  std::vector<double> kernel, upload, download, host;
  std::map<std::string, std::vector<double>> stages;
  std::vector<std::string> stageOrder;
  try {
    for (int i = 0; i < std::max(opts.warmup, 1); ++i) engine.process(frame.view(), out.mutableView());
    r.active = engine.activeStrategy();
    r.notices = engine.takeNotices();
    if (fellBack(name, engine.activeStrategyId())) {
      r.status = "failed";
      r.reason = "the engine ran '" + r.active + "' instead: " + joined(r.notices);
      return r;
    }
    for (int i = 0; i < opts.iterations; ++i) {
      const FrameTimings t = engine.process(frame.view(), out.mutableView());
      kernel.push_back(t.kernelMs);
      upload.push_back(t.uploadMs);
      download.push_back(t.downloadMs);
      host.push_back(t.hostMs);
      for (size_t s = 1; s + 1 < t.stages.size(); ++s) {
        if (!stages.count(t.stages[s].name)) stageOrder.push_back(t.stages[s].name);
        stages[t.stages[s].name].push_back(t.stages[s].ms);
      }
    }
    for (auto& n : engine.takeNotices()) r.notices.push_back(n);
    if (fellBack(name, engine.activeStrategyId())) {
      r.status = "failed";
      r.reason = "failed while timing, the engine switched to '" + engine.activeStrategy() +
                 "': " + joined(r.notices);
      return r;
    }
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::BadInput) throw;  // e.g. the frame exceeds the device's allocation limit
    r.status = "failed";
    r.reason = e.what();
    return r;
  }
  r.status = "ok";
  r.kernel = Stats::of(kernel);
  r.upload = Stats::of(upload);
  r.download = Stats::of(download);
  r.frame = Stats::of(host);
  for (const auto& s : stageOrder) r.stageMedians.emplace_back(s, Stats::of(stages[s]).median);
  const double pixels = static_cast<double>(frame.width) * frame.height;
  const double k = filter.size();
  const double flopsPerPixel = chain ? chainFlopsPerPixel(*chain) : 2.0 * k * k * kChannels;
  if (r.kernel.median > 0) {
    r.mpixPerS = pixels / (r.kernel.median * 1e3);
    r.gflops = flopsPerPixel * pixels / (r.kernel.median * 1e6);
    if (peakGflops > 0) r.peakFraction = r.gflops / peakGflops;
  }
  if (expected) r.maxAbsDiff = maxAbsDiff(out, *expected);
  if (chain) return r;  // pinned and stream transfers, kernel loops: one filter (FrameStream) only
  if (opts.ksweep.empty()) measureTransfers(ctx, engine, name, filter, frame, opts, r);  // a K sweep: kernels
  r.loops = measureLoops(ctx, name, filter, frame, opts);
  return r;
}

}  // namespace convolab::cli::bench
