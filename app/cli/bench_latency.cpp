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

namespace {

/// The preview's paint: upload and draw scaled to 1280×720 with OpenGL (EGL, headless), else the CPU stub
/// (always with CONVOLAB_BENCH_DISPLAY=stub). CONVOLAB_BENCH_DISPLAY=gl-<format>[-<transfer>] picks how the
/// frame goes up (GlVariant); the direct variants download the engine's result straight into the pixel buffer
/// the texture is uploaded from.
class LatencyDisplay {
 public:
  explicit LatencyDisplay(const Context* ctx) {
    const char* displayEnv = std::getenv("CONVOLAB_BENCH_DISPLAY");
    if (displayEnv && std::string_view(displayEnv) == "stub") return;
    const auto variant = GlVariant::parse(displayEnv && *displayEnv ? displayEnv : "gl");
    if (!variant)
      throw Error(ErrorKind::Usage, std::string("CONVOLAB_BENCH_DISPLAY=") + displayEnv +
                                        ": expected stub, gl or gl-{rgb,r8}[-{pbo,direct,direct-pinned}]");
    m_gl = GlDisplay::open(m_glWhy, *variant, ctx);
  }

  /// The engine downloads into pixelBuffer() instead of an output image.
  bool direct() const { return m_gl && m_gl->variant().direct(); }
  /// The direct variants' target: the pixel buffer's mapping.
  MutableImageView pixelBuffer(Size size) { return m_gl->target(size.width, size.height); }
  std::uint32_t show(const ImageView& image) {
    return m_gl ? m_gl->show(image) : displayStub(image, m_backing);
  }
  /// Off the timed path, before the next frame: the GPU handed back to the engine's context.
  void kickCompute() {
    if (m_gl) m_gl->kickCompute();
  }
  void release() {
    if (m_gl) m_gl->release();
  }
  void addNotices(std::vector<std::string>& notices) const {
    notices.push_back(m_gl ? "display: OpenGL, upload and draw to 1280x720, glFinish: " + m_gl->description()
                           : "display: CPU stub (" + m_glWhy + ")");
    if (m_gl && !m_gl->fallback().empty()) notices.push_back("display: " + m_gl->fallback());
    if (m_gl && !m_gl->interop().empty()) notices.push_back(m_gl->interop());
  }

 private:
  std::string m_glWhy = "CONVOLAB_BENCH_DISPLAY=stub";
  std::unique_ptr<GlDisplay> m_gl;
  std::vector<std::uint32_t> m_backing;
};

/// Per-frame stage times: fillMs one a produced frame (the producer's), the others one a displayed frame.
struct LatencySamples {
  std::vector<double> fillMs, latency, slotWait, upload, kernels, download, other, stub;
  // CONVOLAB_BENCH_LATENCY_CSV only: before process, process wall, kick enqueue, displayed at.
  std::vector<std::array<double, 4>> perFrame;

  void reserve(std::size_t n) {
    for (auto* v : {&fillMs, &latency, &slotWait, &upload, &kernels, &download, &other, &stub}) v->reserve(n);
  }
  void add(const FrameTimings& t, double total, double waited, double stubbed) {
    latency.push_back(total);
    slotWait.push_back(waited);
    upload.push_back(t.uploadMs);
    kernels.push_back(t.kernelMs);
    download.push_back(t.downloadMs);
    stub.push_back(stubbed);
    other.push_back(total - waited - t.uploadMs - t.kernelMs - t.downloadMs - stubbed);
  }
  /// CONVOLAB_BENCH_LATENCY_CSV=FILE: one line a frame, "engine other" split into the time before process()
  /// (the output's acquisition or the pixel buffer's mapping) and process()'s host time beyond its events.
  void writeCsv(const char* path) const {
    std::FILE* f = std::fopen(path, "w");
    if (!f) return;
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
};

/// --latency-edits: applied between frames; an edit counts as displayed with the first frame processed after
/// it (the engine runs the newest filter on the next frame, as the app's worker does).
class EditSchedule {
 public:
  EditSchedule(const FilterSet& filter, double editEveryMs)
      : m_edits(editEveryMs > 0 ? editStream(filter) : std::vector<std::pair<std::string, FilterSet>>{}),
        m_period(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double, std::milli>(editEveryMs))) {}

  /// Before a frame: the next edit once its time since `start` has come (an edit not displayed yet is
  /// superseded).
  void applyDue(Engine& engine, Clock::time_point start, LatencyReport& r) {
    if (m_next >= m_edits.size() || Clock::now() < start + m_period * static_cast<long>(m_next + 1)) return;
    if (m_pending) r.edits.emplace_back(m_edits[m_next - 1].first, std::nullopt);  // superseded
    engine.setFilter(m_edits[m_next].second);
    m_pending = Clock::now();
    ++m_next;
  }
  /// A frame was displayed at `displayed`: the pending edit's time to display.
  void frameDisplayed(Clock::time_point displayed, LatencyReport& r) {
    if (!m_pending) return;
    m_editMs.push_back(msBetween(*m_pending, displayed));
    r.edits.emplace_back(m_edits[m_next - 1].first, m_editMs.back());
    m_pending.reset();
  }
  /// After the run: an edit never displayed, and the spread.
  void finish(LatencyReport& r) const {
    if (m_pending) r.edits.emplace_back(m_edits[m_next - 1].first, std::nullopt);
    r.editToDisplay = Spread::of(m_editMs);
  }

 private:
  const std::vector<std::pair<std::string, FilterSet>> m_edits;
  const Clock::duration m_period;
  std::size_t m_next = 0;
  std::optional<Clock::time_point> m_pending;
  std::vector<double> m_editMs;
};

/// The capture thread's and the worker's hand-over: the newest-wins slot and the wake-ups around it.
struct HandOver {
  LatestFrameSlot slot;
  std::mutex mutex;
  std::condition_variable wake;  // consumer: a frame waits, or the producer is done
  std::condition_variable stopProducer;
  bool ready = false, producerDone = false, stop = false;
  std::exception_ptr failure;
};

/// One `bench --latency` run: the pools, the display, the engine, and the producer and consumer threads.
class LatencyRun {
 public:
  LatencyRun(const std::shared_ptr<Context>& ctx, const StrategyId& strategy, const FilterSet& filter,
             Size size, double seconds, double fps, double editEveryMs)
      : m_size(size),
        // As the processing worker does when it opens a device (CONVOLAB_PINNED_STAGING=0: the heap, to
        // compare).
        m_staging(pinnedStagingWanted() ? std::make_shared<PinnedPixelStorage>(ctx) : nullptr),
        // The capture pools' and the worker's sizes.
        m_inputs(capture::fixedStorage(m_staging), 6),
        m_outputs(capture::fixedStorage(m_staging), 8),
        m_source(randomFrame({2 * size.width, size.height})),
        m_display(ctx.get()),
        m_engine(ctx, strategy.name),
        m_csvPath(std::getenv("CONVOLAB_BENCH_LATENCY_CSV")),
        m_edits(filter, editEveryMs),
        m_period(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / fps))),
        m_duration(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))) {
    m_report.strategy = strategy.toString();
    m_report.size = size.label();
    m_report.width = size.width;
    m_report.height = size.height;
    m_report.fps = fps;
    m_report.seconds = seconds;
    m_report.pinnedStaging = m_staging != nullptr;
    m_engine.setFilter(filter);
    m_engine.prepare(size.width, size.height);
    m_samples.reserve(std::min<std::size_t>(static_cast<std::size_t>(seconds * fps) + 16, 1 << 20));
  }

  LatencyReport measure() {
    showUntimedFrame();
    m_report.active = m_engine.activeStrategy();
    m_start = m_lastDisplayed = Clock::now();
    std::thread producer([this] { produce(); });
    // The consumer runs on this thread, where the untimed frame was shown: a GL context made current on a new
    // thread costs its first frame ~30 ms on NVIDIA's driver, which no frame of the app's GUI thread pays.
    consume();
    producer.join();
    if (m_handOver.failure) std::rethrow_exception(m_handOver.failure);
    if (m_csvPath && *m_csvPath) m_samples.writeCsv(m_csvPath);
    finishReport();
    g_sink = m_sink;
    return m_report;
  }

 private:
  static bool pinnedStagingWanted() {
    const char* pinnedEnv = std::getenv("CONVOLAB_PINNED_STAGING");
    return !(pinnedEnv && std::string_view(pinnedEnv) == "0");
  }

  /// Prepared before timing: builds (auto's measurements), buffers, and one untimed frame end to end.
  void showUntimedFrame() {
    auto in = m_inputs.acquire(m_size.width, m_size.height);
    fill(*in, m_source, 0);
    auto out = m_outputs.acquire(m_size.width, m_size.height);
    const MutableImageView dst = m_display.direct() ? m_display.pixelBuffer(m_size) : out->mutableView();
    m_engine.process(in->view(), dst);
    m_sink += m_display.show(dst);
    m_display.kickCompute();
  }

  /// The capture thread: paced at `fps` (after a stall it does not catch up, as CaptureThread), decodes into
  /// a pool image, stamps it captured and puts it in the slot, waking the consumer when the slot was empty.
  void produce() {
    HandOver& h = m_handOver;
    const auto end = m_start + m_duration;
    auto due = m_start;
    std::int64_t index = 1;
    for (;;) {
      if (due >= end) break;
      {
        std::unique_lock lock(h.mutex);
        h.stopProducer.wait_until(lock, due, [&] { return h.stop; });
        if (h.stop) break;
      }
      due += m_period;
      if (Clock::now() > due + m_period) due = Clock::now() + m_period;
      const auto t0 = Clock::now();
      auto image = m_inputs.acquire(m_size.width, m_size.height);
      fill(*image, m_source, index);
      Frame frame;
      frame.image = std::move(image);
      frame.index = index++;
      frame.captured = Clock::now();
      m_samples.fillMs.push_back(msBetween(t0, frame.captured));
      if (h.slot.put(std::move(frame))) {
        std::lock_guard lock(h.mutex);
        h.ready = true;
        h.wake.notify_one();
      }
    }
    std::lock_guard lock(h.mutex);
    h.producerDone = true;
    h.wake.notify_one();
  }

  /// The processing worker: newest frame, engine from pinned input to a pinned output, then the display.
  /// The result shown stays held until the next one (as the worker's latest frame and the preview hold it).
  void consume() {
    HandOver& h = m_handOver;
    std::shared_ptr<Image> shown;
    try {
      for (;;) {
        bool done = false;
        {
          std::unique_lock lock(h.mutex);
          h.wake.wait(lock, [&] { return h.ready || h.producerDone; });
          h.ready = false;
          done = h.producerDone;
        }
        std::optional<Frame> frame = h.slot.take();
        if (!frame) {
          if (done) break;
          continue;
        }
        m_edits.applyDue(m_engine, m_start, m_report);
        shown = processAndShow(*frame);
        frame.reset();  // the input goes back to its pool, as the worker lets go of it
      }
      m_display.release();
    } catch (...) {
      std::lock_guard lock(h.mutex);
      h.failure = std::current_exception();
      h.stop = true;
      h.stopProducer.notify_all();
    }
  }

  /// One frame through the engine and the display, timed; returns the output image shown (null when direct).
  std::shared_ptr<Image> processAndShow(const Frame& frame) {
    const auto taken = Clock::now();
    std::shared_ptr<Image> out;
    MutableImageView dst;
    if (m_display.direct()) {
      dst = m_display.pixelBuffer(m_size);
    } else {
      out = m_outputs.acquire(m_size.width, m_size.height);
      dst = out->mutableView();
    }
    const auto processStart = Clock::now();
    const FrameTimings t = m_engine.process(frame.image->view(), dst);
    const auto stubStart = Clock::now();
    m_sink += m_display.show(dst);
    const auto displayed = Clock::now();
    m_display.kickCompute();
    if (m_csvPath)
      m_samples.perFrame.push_back({msBetween(taken, processStart), t.hostMs,
                                    msBetween(displayed, Clock::now()), msBetween(m_start, displayed)});
    m_edits.frameDisplayed(displayed, m_report);
    m_samples.add(t, msBetween(frame.captured, displayed), msBetween(frame.captured, taken),
                  msBetween(stubStart, displayed));
    m_lastDisplayed = displayed;
    return out;
  }

  void finishReport() {
    LatencyReport& r = m_report;
    const LatencySamples& s = m_samples;
    r.durationS = std::chrono::duration<double>(m_lastDisplayed - m_start).count();
    r.produced = m_handOver.slot.delivered();
    r.dropped = m_handOver.slot.dropped();
    r.processed = s.latency.size();
    r.pinnedBuffers = m_staging ? m_staging->liveBuffers() : 0;
    r.latency = Spread::of(s.latency);
    r.stages = {{"fill", Spread::of(s.fillMs)},       {"slot_wait", Spread::of(s.slotWait)},
                {"upload", Spread::of(s.upload)},     {"kernels", Spread::of(s.kernels)},
                {"download", Spread::of(s.download)}, {"engine_other", Spread::of(s.other)},
                {"display", Spread::of(s.stub)}};
    m_edits.finish(r);
    r.active = m_engine.activeStrategyId().describe();
    r.notices = m_engine.takeNotices();
    m_display.addNotices(r.notices);
  }

  const Size m_size;
  const std::shared_ptr<PinnedPixelStorage> m_staging;
  capture::ImagePool m_inputs, m_outputs;
  const Image m_source;
  LatencyDisplay m_display;
  Engine m_engine;
  const char* const m_csvPath;
  EditSchedule m_edits;
  const Clock::duration m_period, m_duration;
  LatencyReport m_report;
  LatencySamples m_samples;
  std::uint32_t m_sink = 0;
  Clock::time_point m_start, m_lastDisplayed;
  HandOver m_handOver;
};

}  // namespace

LatencyReport runLatency(const std::shared_ptr<Context>& ctx, const StrategyId& strategy,
                         const FilterSet& filter, Size size, double seconds, double fps, double editEveryMs) {
  return LatencyRun(ctx, strategy, filter, size, seconds, fps, editEveryMs).measure();
}

}  // namespace bench
}  // namespace convolab::cli
