// SPDX-License-Identifier: MIT
// `bench --latency`: a producer paced like capture::CaptureThread, a consumer like gui::ProcessingWorker and
// the preview's paint: OpenGL through EGL where it comes up (bench_display_gl), else a CPU stub; per-frame
// stage times from the capture stamp to the displayed frame. With GL, a little OpenCL work after each frame
// (GlDisplay::kickCompute) takes the GL -> CL switch off the next frame's path.
#include "bench_latency.hpp"

#include "bench_display_gl.hpp"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

// The app's own newest-wins slot and frame pool: header-only and free of OpenCV (capture::Frame is core's
// Image and a time stamp), so the bench includes them without linking the capture library.
#include "capture/image_pool.hpp"
#include "capture/latest_frame_slot.hpp"
#include "convolab/engine.hpp"
#include "convolab/error.hpp"
#include "convolab/pinned_pixel_storage.hpp"

namespace convolab::cli {

Spread Spread::of(const std::vector<double>& values) {
  Spread s;
  if (values.empty()) return s;
  const SampleStats st = SampleStats::of(values);
  s.mean = st.mean;
  s.p50 = st.median;
  s.p95 = st.p95;
  s.max = *std::max_element(values.begin(), values.end());
  return s;
}

namespace bench {
namespace {

using capture::Frame;
using capture::LatestFrameSlot;

/// The "decode": a window of a prepared frame twice as wide, shifted a little every frame (as the test
/// pattern scrolls its background), copied row by row into the staging image.
void fill(Image& dst, const Image& source, std::int64_t index) {
  const std::size_t shift = static_cast<std::size_t>((index * 8) % dst.width) * kBytesPerPixel;
  const std::size_t rowBytes = static_cast<std::size_t>(dst.width) * kBytesPerPixel;
  for (int y = 0; y < dst.height; ++y)
    std::memcpy(dst.mutableView().row(y), source.view().row(y) + shift, rowBytes);
}

/// What the preview's paint does with a result: read every pixel once (a raster paint converts RGB888 into
/// the 32-bit backing store). Returns a value made of the pixels, so the reads cannot be optimised away.
std::uint32_t displayStub(const ImageView& image, std::vector<std::uint32_t>& backing) {
  const auto w = static_cast<std::size_t>(image.width);
  backing.resize(w * static_cast<std::size_t>(image.height));
  std::uint32_t sum = 0;
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* p = image.row(y);
    std::uint32_t* out = backing.data() + w * static_cast<std::size_t>(y);
    for (std::size_t x = 0; x < w; ++x, p += kBytesPerPixel)
      out[x] = 0xFF000000u | (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
    sum += out[w / 2];
  }
  return sum;
}

volatile std::uint32_t g_sink = 0;  // where the stub's checksum goes, so its reads are kept

double msBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

std::vector<std::pair<std::string, FilterSet>> editStream(const FilterSet& base) {
  std::vector<std::pair<std::string, FilterSet>> edits;
  std::string unused;
  for (int k : {3, 5, 9, 11, 15})
    edits.emplace_back("dense k=" + std::to_string(k), benchFilter("random", k, unused));
  edits.emplace_back("separable k=7", benchFilter("gaussian", 7, unused));
  edits.emplace_back("separable k=11", benchFilter("gaussian", 11, unused));
  const FilterSet seven = benchFilter("random", 7, unused);
  edits.emplace_back("dense k=7", seven);
  edits.emplace_back("border", seven.withBorder(BorderMode::Wrap));
  edits.emplace_back("pad 7->15", seven.withBorder(BorderMode::Wrap).resizedTo(15));
  auto channels = seven.channels();
  channels[0].matrix[24] += 1.0;  // the centre tap of R
  edits.emplace_back("cell", FilterSet::make(channels, BorderMode::Wrap));
  edits.emplace_back("base", base);
  return edits;
}

LatencyReport runLatency(const std::shared_ptr<Context>& ctx, const StrategyId& strategy,
                         const FilterSet& filter, Size size, double seconds, double fps, double editEveryMs) {
  LatencyReport r;
  r.strategy = strategy.toString();
  r.size = size.label();
  r.width = size.width;
  r.height = size.height;
  r.fps = fps;
  r.seconds = seconds;

  // As the processing worker does when it opens a device (CONVOLAB_PINNED_STAGING=0: the heap, to compare).
  const char* pinnedEnv = std::getenv("CONVOLAB_PINNED_STAGING");
  std::shared_ptr<PinnedPixelStorage> staging;
  if (!(pinnedEnv && std::string_view(pinnedEnv) == "0")) staging = std::make_shared<PinnedPixelStorage>(ctx);
  r.pinnedStaging = staging != nullptr;
  // The capture pools' and the worker's sizes.
  capture::ImagePool inputs(capture::fixedStorage(staging), 6), outputs(capture::fixedStorage(staging), 8);

  const Image source = randomFrame({2 * size.width, size.height});
  std::vector<std::uint32_t> backing;
  std::uint32_t sink = 0;
  // The preview's paint: upload and draw scaled to 1280×720 with OpenGL (EGL, headless), else the CPU stub
  // (always with CONVOLAB_BENCH_DISPLAY=stub).
  // CONVOLAB_BENCH_DISPLAY=gl-<format>[-<transfer>] picks how the frame goes up (GlVariant); the direct
  // variants download the engine's result straight into the pixel buffer the texture is uploaded from.
  std::string glWhy = "CONVOLAB_BENCH_DISPLAY=stub";
  const char* displayEnv = std::getenv("CONVOLAB_BENCH_DISPLAY");
  std::unique_ptr<GlDisplay> gl;
  if (!(displayEnv && std::string_view(displayEnv) == "stub")) {
    const auto variant = GlVariant::parse(displayEnv && *displayEnv ? displayEnv : "gl");
    if (!variant)
      throw Error(ErrorKind::Usage, std::string("CONVOLAB_BENCH_DISPLAY=") + displayEnv +
                                        ": expected stub, gl or gl-{rgb,r8}[-{pbo,direct,direct-pinned}]");
    gl = GlDisplay::open(glWhy, *variant, ctx.get());
  }
  const bool direct = gl && gl->variant().direct();
  const auto display = [&](const ImageView& image) {
    return gl ? gl->show(image) : displayStub(image, backing);
  };

  // Prepared before timing: builds (auto's measurements), buffers, and one untimed frame end to end.
  Engine engine(ctx, strategy.name);
  engine.setFilter(filter);
  engine.prepare(size.width, size.height);
  {
    auto in = inputs.acquire(size.width, size.height);
    fill(*in, source, 0);
    auto out = outputs.acquire(size.width, size.height);
    const MutableImageView dst = direct ? gl->target(size.width, size.height) : out->mutableView();
    engine.process(in->view(), dst);
    sink += display(dst);
    if (gl) gl->kickCompute();
  }
  r.active = engine.activeStrategy();

  LatestFrameSlot slot;
  std::mutex mutex;
  std::condition_variable wake;  // consumer: a frame waits, or the producer is done
  std::condition_variable stopProducer;
  bool ready = false, producerDone = false, stop = false;
  std::exception_ptr failure;

  std::vector<double> fillMs, latency, slotWait, upload, kernels, download, other, stub;
  // CONVOLAB_BENCH_LATENCY_CSV=FILE: one line a frame, "engine other" split into the time before process()
  // (the output's acquisition or the pixel buffer's mapping) and process()'s host time beyond its events.
  const char* csvEnv = std::getenv("CONVOLAB_BENCH_LATENCY_CSV");
  std::vector<std::array<double, 4>> perFrame;  // before process, process wall, kick enqueue, displayed at
  const auto expected = std::min<std::size_t>(static_cast<std::size_t>(seconds * fps) + 16, 1 << 20);
  for (auto* v : {&fillMs, &latency, &slotWait, &upload, &kernels, &download, &other, &stub})
    v->reserve(expected);
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps));
  const auto start = Clock::now();
  const auto end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  Clock::time_point lastDisplayed = start;

  // The capture thread: paced at `fps` (after a stall it does not catch up, as CaptureThread), decodes into a
  // pool image, stamps it captured and puts it in the slot, waking the consumer when the slot was empty.
  std::thread producer([&] {
    auto due = start;
    std::int64_t index = 1;
    for (;;) {
      if (due >= end) break;
      {
        std::unique_lock lock(mutex);
        stopProducer.wait_until(lock, due, [&] { return stop; });
        if (stop) break;
      }
      due += period;
      if (Clock::now() > due + period) due = Clock::now() + period;
      const auto t0 = Clock::now();
      auto image = inputs.acquire(size.width, size.height);
      fill(*image, source, index);
      Frame frame;
      frame.image = std::move(image);
      frame.index = index++;
      frame.captured = Clock::now();
      fillMs.push_back(msBetween(t0, frame.captured));
      if (slot.put(std::move(frame))) {
        std::lock_guard lock(mutex);
        ready = true;
        wake.notify_one();
      }
    }
    std::lock_guard lock(mutex);
    producerDone = true;
    wake.notify_one();
  });

  // The processing worker: newest frame, engine from pinned input to a pinned output, then the display.
  // The result shown stays held until the next one (as the worker's latest frame and the preview hold it).
  // Edits (--latency-edits): applied between frames; the edit counts as displayed with the first frame
  // processed after it (the engine runs the newest filter on the next frame, as the app's worker does).
  const auto edits = editEveryMs > 0 ? editStream(filter) : std::vector<std::pair<std::string, FilterSet>>{};
  const auto editPeriod =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(editEveryMs));
  std::size_t nextEdit = 0;
  std::optional<Clock::time_point> pendingEdit;
  std::vector<double> editMs;
  // It runs on this thread, where the untimed frame was shown: a GL context made current on a new thread
  // costs its first frame ~30 ms on NVIDIA's driver, which no frame of the app's GUI thread pays.
  const auto consume = [&] {
    std::shared_ptr<Image> shown;
    try {
      for (;;) {
        bool done = false;
        {
          std::unique_lock lock(mutex);
          wake.wait(lock, [&] { return ready || producerDone; });
          ready = false;
          done = producerDone;
        }
        std::optional<Frame> frame = slot.take();
        if (!frame) {
          if (done) break;
          continue;
        }
        if (nextEdit < edits.size() && Clock::now() >= start + editPeriod * static_cast<long>(nextEdit + 1)) {
          if (pendingEdit) r.edits.emplace_back(edits[nextEdit - 1].first, std::nullopt);  // superseded
          engine.setFilter(edits[nextEdit].second);
          pendingEdit = Clock::now();
          ++nextEdit;
        }
        const auto taken = Clock::now();
        std::shared_ptr<Image> out;
        MutableImageView dst;
        if (direct) {
          dst = gl->target(size.width, size.height);  // the pixel buffer's mapping
        } else {
          out = outputs.acquire(size.width, size.height);
          dst = out->mutableView();
        }
        const auto processStart = Clock::now();
        const FrameTimings t = engine.process(frame->image->view(), dst);
        const auto stubStart = Clock::now();
        sink += display(dst);
        const auto displayed = Clock::now();
        // Off the timed path, before the next frame: the GPU handed back to the engine's context.
        if (gl) gl->kickCompute();
        if (csvEnv)
          perFrame.push_back({msBetween(taken, processStart), t.hostMs, msBetween(displayed, Clock::now()),
                              msBetween(start, displayed)});
        shown = std::move(out);
        if (pendingEdit) {
          editMs.push_back(msBetween(*pendingEdit, displayed));
          r.edits.emplace_back(edits[nextEdit - 1].first, editMs.back());
          pendingEdit.reset();
        }

        const double total = msBetween(frame->captured, displayed);
        const double waited = msBetween(frame->captured, taken);
        const double stubbed = msBetween(stubStart, displayed);
        latency.push_back(total);
        slotWait.push_back(waited);
        upload.push_back(t.uploadMs);
        kernels.push_back(t.kernelMs);
        download.push_back(t.downloadMs);
        stub.push_back(stubbed);
        other.push_back(total - waited - t.uploadMs - t.kernelMs - t.downloadMs - stubbed);
        lastDisplayed = displayed;
        frame.reset();  // the input goes back to its pool, as the worker lets go of it
      }
      if (gl) gl->release();
    } catch (...) {
      std::lock_guard lock(mutex);
      failure = std::current_exception();
      stop = true;
      stopProducer.notify_all();
    }
  };
  consume();
  producer.join();
  if (failure) std::rethrow_exception(failure);

  if (csvEnv && *csvEnv) {
    if (std::FILE* f = std::fopen(csvEnv, "w")) {
      std::fprintf(f,
                   "frame,at_ms,total,slot_wait,before_process,process_host,upload,kernels,download,"
                   "process_gaps,display,kick_enqueue\n");
      for (std::size_t i = 0; i < latency.size() && i < perFrame.size(); ++i) {
        const auto& p = perFrame[i];
        std::fprintf(f, "%zu,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", i, p[3], latency[i],
                     slotWait[i], p[0], p[1], upload[i], kernels[i], download[i],
                     p[1] - upload[i] - kernels[i] - download[i], stub[i], p[2]);
      }
      std::fclose(f);
    }
  }

  r.durationS = std::chrono::duration<double>(lastDisplayed - start).count();
  r.produced = slot.delivered();
  r.dropped = slot.dropped();
  r.processed = latency.size();
  r.pinnedBuffers = staging ? staging->liveBuffers() : 0;
  r.latency = Spread::of(latency);
  r.stages = {{"fill", Spread::of(fillMs)},       {"slot_wait", Spread::of(slotWait)},
              {"upload", Spread::of(upload)},     {"kernels", Spread::of(kernels)},
              {"download", Spread::of(download)}, {"engine_other", Spread::of(other)},
              {"display", Spread::of(stub)}};
  if (pendingEdit) r.edits.emplace_back(edits[nextEdit - 1].first, std::nullopt);
  r.editToDisplay = Spread::of(editMs);
  r.active = engine.activeStrategyId().describe();
  r.notices = engine.takeNotices();
  r.notices.push_back(gl ? "display: OpenGL, upload and draw to 1280x720, glFinish: " + gl->description()
                         : "display: CPU stub (" + glWhy + ")");
  if (gl && !gl->fallback().empty()) r.notices.push_back("display: " + gl->fallback());
  if (gl && !gl->interop().empty()) r.notices.push_back(gl->interop());
  g_sink = sink;
  return r;
}

}  // namespace bench
}  // namespace convolab::cli
