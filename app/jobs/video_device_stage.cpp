// SPDX-License-Identifier: MIT
// VideoDeviceStage: frames stay in OpenCV's BGR order; the filter's channels are reversed instead of
// converting colours.
#include "video_device_stage.hpp"

#include "bgr_order.hpp"
#include "convolab/config.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "cv/mat_adapter.hpp"
#include "elapsed_ms.hpp"

namespace convolab::jobs {
namespace {

constexpr int kInFlight = 3;  // frames on the device at once

/// Whether measuring auto's candidates repays itself within this job. A measured winner saves about 40% of
/// the provisional strategy's kernel time (PoCL, 1080p dense 7×7: dynamic 15 ms, codegen 9 ms); a measurement
/// costs up to its budget on a CPU device (compiles; 30 s) and about 3 s on a GPU. So a 120-frame 1080p video
/// (0.7 s to gain on PoCL) runs on the provisional strategy, and a two-hour one measures.
bool measuringRepays(const DeviceInfo& device, std::int64_t frames, double kernelMs) {
  const double costMs = device.isGpu ? 3000.0 : coreConfig().autoBudgetMs;
  return frames > 0 && 0.4 * static_cast<double>(frames) * kernelMs > costMs;
}

/// What `auto` starts on in this job: codegen where its build repays (codegenBuildRepays), there is no stored
/// choice for the structure and codegen runs the filter; else auto itself (its provisional strategy, dynamic:
/// the shortest build). A measurement that repays still runs behind it (startMeasurementIfItRepays).
std::string startingStrategy(const VideoJobOptions& o, cv::Size size, std::int64_t frames,
                             const FilterSet& filter) {
  const std::string asked = o.strategy;
  if (asked != kAutoStrategy || !o.chain.singleFilter() || o.measureAndWaitForTesting || !o.context)
    return asked;
  Context& ctx = *o.context;
  if (!codegenBuildRepays(ctx.device(), frames, size, filter.trimmedToSupport().size())) return asked;
  if (AutoChoiceCache::instance()
          .find(ctx.programCache(), autoChoiceKey(ctx, filter, size.width, size.height))
          .has_value())
    return asked;  // auto runs the stored choice
  const auto codegen = createStrategy("codegen");
  if (!codegen || codegen->unsupportedReason(ctx, filter)) return asked;
  return "codegen";
}

/// Copies a decoded frame (the same size: checked by the decoder) into a device staging view.
void copyRows(const cv::Mat& src, const MutableImageView& dst) {
  cv::Mat view = opencv::asMat(dst);
  src.copyTo(view);
}

}  // namespace

bool codegenBuildRepays(const DeviceInfo& device, std::int64_t frames, cv::Size size, int trimmedK) {
  const double pixels = static_cast<double>(frames) * size.width * size.height;
  return !device.isGpu && frames > 0 && trimmedK >= 5 && pixels >= kCodegenRepaysPixels;
}

VideoDeviceStage::VideoDeviceStage(const VideoJobOptions& options, cv::Size size, std::int64_t declaredFrames,
                                   BoundedQueue<TimedFrame>& filtered)
    : m_options(options),
      m_filter(forBgr(options.chain.singleFilter().value_or(FilterSet()))),
      m_size(size),
      m_declaredFrames(declaredFrames),
      m_filtered(filtered),
      m_engine(options.context, startingStrategy(options, size, declaredFrames, m_filter)) {
  m_codegenByRule = m_engine.requestedStrategy() != options.strategy;
  if (options.chain.singleFilter())
    m_engine.setFilter(m_filter);  // one filter runs exactly as it always has
  else
    m_chain = std::make_unique<VideoChainEngine>(options, size, declaredFrames);
}

VideoDeviceStage::~VideoDeviceStage() {
  cancelMeasurement();
}

void VideoDeviceStage::cancelMeasurement() {
  m_measurementCancelled = true;
  if (m_chain) m_chain->cancelMeasurement();
}

void VideoDeviceStage::process(const TimedFrame& frame) {
  const auto started = Clock::now();
  if (m_chain) {
    cv::Mat done = m_chain->filter(frame);
    m_busyMs += msSince(started);
    m_filtered.push({std::move(done), frame.copies, frame.seconds});
    return;
  }
  if (m_firstFrame || !m_stream) {
    processOnEngine(frame, started);
    return;
  }
  switchToMeasuredWinner();
  copyRows(frame.image, m_stream->nextInput());
  m_inFlight.emplace_back(m_stream->submit(), frame.copies);
  m_busyMs += msSince(started);
  if (static_cast<int>(m_inFlight.size()) == kInFlight) drainOne();
}

void VideoDeviceStage::finish(const std::function<bool()>& keepGoing) {
  while (!m_inFlight.empty() && keepGoing()) drainOne();
  if (m_stream) m_stream->finish();
  cancelMeasurement();  // the video is done: a measurement still running has nothing to repay
}

std::string VideoDeviceStage::strategy() const {
  if (m_chain) return m_chain->strategy();
  return m_strategy.empty() ? m_engine.activeStrategy() : m_strategy;
}

/// The first frame, and every frame when no stream could be made: one at a time through the engine.
void VideoDeviceStage::processOnEngine(const TimedFrame& frame, Clock::time_point started) {
  const MutableImageView in = m_engine.stagingInput(m_size.width, m_size.height);
  const MutableImageView out = m_engine.stagingOutput(m_size.width, m_size.height);
  copyRows(frame.image, in);
  const FrameTimings timings = m_engine.process(in, out);
  for (const auto& n : m_engine.takeNotices()) m_options.tell(n);
  cv::Mat done = copyOut(out);
  m_busyMs += msSince(started);
  m_filtered.push({std::move(done), frame.copies});
  if (!m_firstFrame) return;
  m_firstFrame = false;
  StrategyId ran = m_engine.activeStrategyId();
  if (m_codegenByRule) {
    ran.viaAuto = true;  // auto chose it, by the rule, not by a measurement
    m_options.tell("auto: no stored choice for this filter on " + m_options.context->device().name +
                   ": codegen from the first frame (its build repays over " +
                   std::to_string(m_declaredFrames) + " frames)");
  }
  m_strategy = ran.toString();
  startStream(timings.kernelMs);
}

void VideoDeviceStage::startStream(double firstKernelMs) {
  try {
    m_stream = std::make_unique<FrameStream>(m_options.context, m_engine.activeStrategyId(), m_filter,
                                             m_size.width, m_size.height, kInFlight);
  } catch (const std::exception& e) {
    m_options.tell(std::string("frames go one at a time (no pipelining): ") + e.what());
  }
  startMeasurementIfItRepays(firstKernelMs);
}

void VideoDeviceStage::startMeasurementIfItRepays(double firstKernelMs) {
  Context& context = *m_options.context;
  const bool stored =
      AutoChoiceCache::instance()
          .find(context.programCache(), autoChoiceKey(context, m_filter, m_size.width, m_size.height))
          .has_value();
  if (!m_stream || m_options.strategy != kAutoStrategy || stored ||
      !(measuringRepays(context.device(), m_declaredFrames, firstKernelMs) ||
        m_options.measureAndWaitForTesting))
    return;
  m_options.tell("auto: measuring the strategies while the video runs on " + m_strategy);
  m_measurement = std::async(std::launch::async, [ctx = context.sibling(), filter = m_filter, size = m_size,
                                                  &cancelled = m_measurementCancelled] {
    setThreadCancelCheck([&cancelled] { return cancelled.load(); });
    return measureAutoChoice(*ctx, filter, size.width, size.height, strategyCandidates());
  });
}

/// Between frames: the frames in flight finish on the old stream, the rest run on the winner.
void VideoDeviceStage::switchToMeasuredWinner() {
  if (m_options.measureAndWaitForTesting && m_measurement.valid()) m_measurement.wait();
  if (!m_measurement.valid() || m_measurement.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return;
  const AutoChoice winner = m_measurement.get();
  const StrategyId next(winner.strategy, winner.variant, true);
  if (next.toString() == m_strategy) return;
  while (!m_inFlight.empty()) drainOne();
  m_stream->finish();
  m_stream = std::make_unique<FrameStream>(m_options.context, next, m_filter, m_size.width, m_size.height,
                                           kInFlight);
  m_strategy += " -> " + next.toString();
  m_options.tell("auto: switched to " + next.toString() + " between frames");
}

/// A Mat of its own for the encoder thread (one it let go of, when there is one).
cv::Mat VideoDeviceStage::copyOut(const ImageView& v) {
  cv::Mat out = m_outputs.take(m_size, CV_8UC3);
  opencv::asMat(v).copyTo(out);
  return out;
}

void VideoDeviceStage::drainOne() {
  const auto started = Clock::now();
  cv::Mat out = copyOut(m_stream->wait(m_inFlight.front().first));
  m_busyMs += msSince(started);
  m_filtered.push({std::move(out), m_inFlight.front().second});
  m_inFlight.pop_front();
}

}  // namespace convolab::jobs
