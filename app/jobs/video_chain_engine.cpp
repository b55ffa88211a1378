// SPDX-License-Identifier: MIT
// VideoChainEngine: a chain's frames through Engine::setChain; the measurement (per-step choices with
// measureAutoChoice, then fused against step by step as ChainRunner compares them: medians of three frames'
// kernel times) runs on a sibling queue and hands back a prepared engine.
#include "video_chain_engine.hpp"

#include <iomanip>
#include <opencv2/imgproc.hpp>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "bgr_order.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/percentile.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "cv/mat_adapter.hpp"

namespace convolab::jobs {
namespace {

/// Whether measuring repays itself within this job, as for one filter (video_device_stage.cpp): a measured
/// choice saves about 40% of the provisional kernel time, and each measurement (a step's strategies, or the
/// fused-against-step-by-step comparison) costs up to auto's budget on a CPU device and about 3 s on a GPU.
bool measuringRepays(const DeviceInfo& device, std::int64_t frames, double kernelMs, int measurements) {
  const double costMs = (device.isGpu ? 3000.0 : coreConfig().autoBudgetMs) * measurements;
  return measurements > 0 && frames > 0 && 0.4 * static_cast<double>(frames) * kernelMs > costMs;
}

/// The filter steps' structures (autoChoiceKey) that have no stored choice yet, each once.
std::vector<FilterSet> unmeasuredSteps(Context& ctx, const FilterChain& chain, cv::Size size) {
  std::vector<FilterSet> steps;
  std::set<std::string> keys;
  for (const ChainStep& s : chain.enabledSteps()) {
    if (s.isMagnitude() || s.isCustom()) continue;
    const std::string key = autoChoiceKey(ctx, s.filter, size.width, size.height);
    if (keys.insert(key).second && !AutoChoiceCache::instance().find(ctx.programCache(), key))
      steps.push_back(s.filter);
  }
  return steps;
}

/// Whether fused against step by step is worth comparing: two switched-on steps or more, none custom
/// (FusedChain declines custom code; it says itself why it declines anything else).
bool mayFuse(const FilterChain& chain) {
  return chain.enabledSteps().size() >= 2 && !chain.hasCustomStep();
}

/// One warm-up frame (PoCL compiles a kernel at its first launch), then the median kernel time of three.
double medianKernelMs(Engine& engine, const Image& sample) {
  Image out(sample.width, sample.height);
  engine.process(sample.view(), out.mutableView());
  std::vector<double> ms;
  for (int run = 0; run < 3; ++run) {
    throwIfCancelled();
    ms.push_back(engine.process(sample.view(), out.mutableView()).kernelMs);
  }
  return median(ms);
}

std::unique_ptr<Engine> chainEngine(std::shared_ptr<Context> ctx, const FilterChain& chain,
                                    ChainFusion fusion) {
  auto engine = std::make_unique<Engine>(std::move(ctx), std::string(kAutoStrategy));
  engine->setChainFusion(fusion);
  engine->setChain(chain);
  return engine;
}

/// Measures each unmeasured step's strategies (stored, so the engines below run the winners), then times the
/// chain step by step and fused on `sample` and keeps the faster engine. Runs on the measurement's thread.
MeasuredChain measureChain(const std::shared_ptr<Context>& ctx, const FilterChain& chain,
                           const Image& sample) {
  for (const FilterSet& f : unmeasuredSteps(*ctx, chain, {sample.width, sample.height})) {
    throwIfCancelled();
    measureAutoChoice(*ctx, f, sample.width, sample.height, strategyCandidates());
  }
  throwIfCancelled();
  MeasuredChain m;
  m.engine = chainEngine(ctx, chain, ChainFusion::StepByStep);
  m.stepsMs = medianKernelMs(*m.engine, sample);
  if (!mayFuse(chain)) return m;
  throwIfCancelled();
  std::unique_ptr<Engine> fused = chainEngine(ctx, chain, ChainFusion::Fused);
  const double fusedMs = medianKernelMs(*fused, sample);
  if (fused->chainStepStrategies() != std::vector<std::string>{"fused"}) return m;  // it declined here
  m.fusedMs = fusedMs;
  if (fusedMs < m.stepsMs) m.engine = std::move(fused);
  return m;
}

std::string msText(double ms) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << ms << " ms";
  return s.str();
}

}  // namespace

VideoChainEngine::VideoChainEngine(const VideoJobOptions& options, cv::Size size, std::int64_t declaredFrames)
    : m_options(options),
      m_size(size),
      m_declaredFrames(declaredFrames),
      m_convertColours(!forBgr(options.chain)),
      m_chain(forBgr(options.chain).value_or(options.chain)),
      m_engine(std::make_unique<Engine>(options.context, options.strategy)) {
  // As live: step by step at once; fusion is chosen by the measurement, or at the first frame when the user
  // asked auto to measure before it runs (CONVOLAB_AUTO_MEASURE=now).
  m_engine->setChainFusion(
      coreConfig().autoMeasure == CoreConfig::AutoMeasure::Now ? ChainFusion::Auto : ChainFusion::StepByStep);
  m_engine->setChain(m_chain);
}

VideoChainEngine::~VideoChainEngine() {
  m_cancelled = true;
}

cv::Mat VideoChainEngine::filter(const TimedFrame& frame) {
  if (!m_firstFrame) switchToMeasuredEngine();
  Engine& engine = *m_engine;
  const MutableImageView in = engine.stagingInput(m_size.width, m_size.height);
  const MutableImageView out = engine.stagingOutput(m_size.width, m_size.height);
  cv::Mat staged = opencv::asMat(in);  // the same size as the frame: checked by the decoder
  if (m_convertColours)
    cv::cvtColor(frame.image, staged, cv::COLOR_BGR2RGB);
  else
    frame.image.copyTo(staged);
  engine.setFrameTime(frame.seconds);
  const FrameTimings timings = engine.process(in, out);
  for (const auto& n : engine.takeNotices()) m_options.tell(n);
  cv::Mat done;
  if (m_convertColours)
    cv::cvtColor(opencv::asMat(out), done, cv::COLOR_RGB2BGR);
  else
    done = opencv::asMat(out).clone();
  ++m_frames;
  if (m_firstFrame) {
    m_firstFrame = false;
    m_strategy = m_last = engine.activeStrategyId().describe();
    startMeasurementIfItRepays(timings.kernelMs, in);
  }
  return done;
}

std::string VideoChainEngine::strategy() const {
  // Auto's steps may also switch by themselves (measuring in the background: the app).
  const std::string now = m_engine->activeStrategyId().describe();
  return now == m_last ? m_strategy : m_strategy + " -> " + now;
}

void VideoChainEngine::startMeasurementIfItRepays(double firstKernelMs, const ImageView& firstInput) {
  Context& context = *m_options.context;
  if (m_options.strategy != kAutoStrategy || coreConfig().autoMeasure == CoreConfig::AutoMeasure::Now) return;
  const int measurements =
      static_cast<int>(unmeasuredSteps(context, m_chain, m_size).size()) + mayFuse(m_chain);
  if (!(measuringRepays(context.device(), m_declaredFrames, firstKernelMs, measurements) ||
        (m_options.measureAndWaitForTesting && measurements > 0)))
    return;
  m_options.tell("auto: measuring the chain's strategies" +
                 std::string(mayFuse(m_chain) ? " and fusion" : "") + " while the video runs on " +
                 m_strategy);
  auto sample = std::make_shared<Image>(firstInput.width, firstInput.height);
  opencv::asMat(firstInput).copyTo(opencv::asMat(*sample));  // the frame as the engine saw it
  m_measurement = std::async(std::launch::async,
                             [ctx = context.sibling(), chain = m_chain, sample, &cancelled = m_cancelled] {
                               setThreadCancelCheck([&cancelled] { return cancelled.load(); });
                               return measureChain(ctx, chain, *sample);
                             });
}

/// Between frames: the measured engine (prepared and warmed up on its own queue) runs the next frames.
void VideoChainEngine::switchToMeasuredEngine() {
  if (!m_measurement.valid()) return;
  if (m_options.measureAndWaitForTesting) m_measurement.wait();
  if (m_measurement.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  MeasuredChain measured;
  try {
    measured = m_measurement.get();
  } catch (const Cancelled&) {
    return;
  } catch (const std::exception& e) {
    m_options.tell(std::string("auto: measuring the chain failed, it goes on as it ran: ") + e.what());
    return;
  }
  m_engine = std::move(measured.engine);
  for (const auto& n : m_engine->takeNotices()) m_options.tell(n);
  const std::string next = m_engine->activeStrategyId().describe();
  m_options.tell("auto: the chain measured step by step " + msText(measured.stepsMs) +
                 (measured.fusedMs < 0 ? std::string(" (it cannot run fused here)")
                                       : ", fused " + msText(measured.fusedMs)) +
                 " a frame: " + (next == m_last ? "runs on " : "switched to ") + next + " from frame " +
                 std::to_string(m_frames + 1));
  if (next != m_last) m_strategy += " -> " + next;
  m_last = next;
}

}  // namespace convolab::jobs
