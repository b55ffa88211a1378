// SPDX-License-Identifier: MIT
// ChainRunner: step by step on the device, intermediate images never leave it.
#include "chain_runner.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/percentile.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "strategy_support.hpp"

namespace convolab {

namespace {
/// What a filter step runs at once in a provisional chain under auto (auto's own provisional strategy).
constexpr std::string_view kProvisionalChainStrategy = "dynamic";
}  // namespace

void ChainRunner::setFusion(ChainFusion fusion) {
  if (fusion == m_fusion) return;
  m_fusion = fusion;
  m_fused.reset();  // chosen again on the next frame
}

void ChainRunner::setProvisional(bool provisional) {
  if (provisional == m_provisional) return;
  m_provisional = provisional;
  m_fused.reset();  // chosen again on the next frame
  if (provisional || m_requested != kAutoStrategy) return;
  for (Step& s : m_steps)  // the steps that run dynamic for auto get their auto instance
    if (s.strategy && s.strategy->name() != kAutoStrategy) s.strategy.reset(), s.dirty = true;
}

bool ChainRunner::preparesWithoutBuild(const FilterChain& chain, int width, int height,
                                       const std::string& requested) const {
  if (requested != m_requested || width != m_width || height != m_height || !m_buffers[0]()) return false;
  const std::vector<ChainStep> on = chain.enabledSteps();
  for (size_t i = 0; i < on.size(); ++i) {
    const ChainStep& next = on[i];
    const bool have = i < m_steps.size();
    if (have && m_steps[i].step == next && !m_steps[i].dirty) continue;  // unchanged and prepared
    if (next.isCustom() || next.isMagnitude()) return false;
    const Strategy* strategy = have && !m_steps[i].step.isCustom() && !m_steps[i].step.isMagnitude()
                                   ? m_steps[i].strategy.get()
                                   : nullptr;
    if (strategy ? !strategy->preparesWithoutBuild(*m_context, next.filter) : requested != kAutoStrategy)
      return false;
  }
  return true;
}

void ChainRunner::setChain(const FilterChain& chain) {
  if (!(chain == m_chain)) m_fused.reset();  // chosen (and measured) again on the next frame
  m_chain = chain;
  const std::vector<ChainStep> on = chain.enabledSteps();
  m_steps.resize(on.size());
  for (size_t i = 0; i < on.size(); ++i) {
    Step& s = m_steps[i];
    if (s.step == on[i] && (s.strategy || s.magnitude || s.custom)) continue;
    if (s.step.isMagnitude() != on[i].isMagnitude() || s.step.isCustom() != on[i].isCustom())
      s.strategy.reset(), s.magnitude.reset(), s.custom.reset();
    s.step = on[i];
    s.dirty = true;
  }
}

void ChainRunner::notice(const std::string& message) {
  if (std::find(m_reported.begin(), m_reported.end(), message) != m_reported.end()) return;
  m_reported.push_back(message);
  m_notices.push_back(message);
}

void ChainRunner::ensureBuffers(int width, int height) {
  if (width == m_width && height == m_height && m_buffers[0]()) return;
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  if (bytes > m_context->device().maxAllocBytes)
    throw Error(ErrorKind::BadInput, "a " + std::to_string(width) + "x" + std::to_string(height) +
                                         " frame is larger than the device's largest buffer; chains do not "
                                         "run in tiles");
  try {
    for (cl::Buffer& b : m_buffers) b = cl::Buffer(m_context->context(), CL_MEM_READ_WRITE, bytes);
  } catch (const cl::Error& e) {
    throw ClError("clCreateBuffer", e.err(), "chain buffers of " + std::to_string(bytes) + " bytes");
  }
  m_width = width;
  m_height = height;
  for (Step& s : m_steps) s.dirty = true;
}

bool ChainRunner::tryStrategy(Step& s, const std::string& name, int width, int height,
                              const std::string& requested) {
  auto strategy = s.strategy && s.strategy->name() == name ? std::move(s.strategy) : createStrategy(name);
  if (auto reason = strategy->unsupportedReason(*m_context, s.step.filter)) {
    if (name == requested) notice("strategy '" + name + "' cannot run a chain step here: " + *reason);
    return false;
  }
  try {
    strategy->prepare(*m_context, s.step.filter, width, height);
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    notice("strategy '" + name + "' failed to prepare a chain step: " + e.what());
    return false;
  }
  if (name != requested)
    notice("using strategy '" + name + "' instead of '" + requested + "' for a chain step");
  s.strategy = std::move(strategy);
  return true;
}

void ChainRunner::prepareStep(Step& s, int width, int height, const std::string& requested) {
  if (s.step.isCustom()) {
    if (!s.custom) s.custom = std::make_unique<CustomStep>();
    try {
      s.custom->prepare(*m_context, s.step);  // no fallback: another strategy cannot run the user's code
    } catch (const CustomKernelError& e) {
      s.custom.reset();  // built again when the step changes or on the next frame
      throw;
    }
  } else if (s.step.isMagnitude()) {
    if (!s.magnitude) s.magnitude = std::make_unique<MagnitudeStep>();
    s.magnitude->prepare(*m_context, s.step.filter, *s.step.other);
  } else if (m_provisional && requested == kAutoStrategy &&
             (!s.strategy || s.strategy->name() == kProvisionalChainStrategy)) {
    // Live and provisional: the step runs dynamic at once; auto's choice comes with a prepared engine.
    if (!tryStrategy(s, std::string(kProvisionalChainStrategy), width, height,
                     std::string(kProvisionalChainStrategy)) &&
        !tryStrategy(s, requested, width, height, requested))
      throw Error(ErrorKind::Device,
                  "no convolution strategy can run a chain step on " + m_context->device().describe());
  } else if (!tryStrategy(s, requested, width, height, requested)) {
    bool ran = false;
    for (std::string_view fallback : kFallbackOrder)
      if (fallback != requested && (ran = tryStrategy(s, std::string(fallback), width, height, requested)))
        break;
    if (!ran)
      throw Error(ErrorKind::Device,
                  "no convolution strategy can run a chain step on " + m_context->device().describe());
  }
  s.dirty = false;
}

void ChainRunner::prepare(int width, int height, const std::string& requested) {
  ensureBuffers(width, height);
  if (requested != m_requested) {
    for (Step& s : m_steps) s.strategy.reset(), s.dirty = true;
    m_requested = requested;
    m_fused.reset();  // fusion is chosen per requested strategy
  }
  for (Step& s : m_steps)
    if (s.dirty) prepareStep(s, width, height, requested);
  if (!m_fused) chooseFusion(requested);
}

void ChainRunner::chooseFusion(const std::string& requested) {
  m_useFused = m_measureFusion = false;
  m_fused = std::make_unique<FusedChain>();
  if (m_provisional) return;  // step by step; fusion is chosen off the live path
  const bool autoMeasures =
      requested == kAutoStrategy && coreConfig().autoMeasure != CoreConfig::AutoMeasure::Off;
  if (m_fusion == ChainFusion::StepByStep || (m_fusion == ChainFusion::Auto && !autoMeasures)) return;
  if (auto reason = FusedChain::unsupportedReason(*m_context, m_chain)) {
    if (m_fusion == ChainFusion::Fused) notice("the chain runs step by step: fused " + *reason);
    return;
  }
  try {
    m_fused->prepare(*m_context, m_chain);
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    notice(std::string("the chain runs step by step: fused failed to prepare: ") + e.what());
    return;
  }
  m_useFused = m_fusion == ChainFusion::Fused;
  m_measureFusion = m_fusion == ChainFusion::Auto;
}

int ChainRunner::enqueueSteps(std::vector<std::pair<std::string, cl::Event>>& kernels,
                              std::vector<cl::Event> wait, int width, int height) {
  int cur = 0;
  for (size_t i = 0; i < m_steps.size(); ++i) {
    const int next = cur == 1 ? 2 : 1;  // never the buffer the step reads
    const FrameBuffers frame{m_buffers[cur], m_buffers[next], width, height};
    Step& s = m_steps[i];
    const auto events = s.custom      ? s.custom->enqueue(*m_context, frame, wait, frameTime())
                        : s.magnitude ? s.magnitude->enqueue(*m_context, frame, wait)
                                      : s.strategy->enqueue(*m_context, frame, wait);
    for (const NamedEvent& e : events)
      kernels.emplace_back("step " + std::to_string(i + 1) + ": " + e.name, e.event);
    if (!events.empty()) wait = {events.back().event};
    cur = next;
  }
  return cur;
}

int ChainRunner::enqueueFused(std::vector<std::pair<std::string, cl::Event>>& kernels,
                              const std::vector<cl::Event>& wait, int width, int height) {
  for (const NamedEvent& e : m_fused->enqueue(*m_context, {m_buffers[0], m_buffers[1], width, height}, wait))
    kernels.emplace_back(e.name, e.event);
  return 1;
}

void ChainRunner::measureFusion(int width, int height, const std::vector<cl::Event>& wait) {
  m_measureFusion = false;
  std::vector<double> fused, steps;
  for (int run = 0; run < 3; ++run)
    for (bool isFused : {true, false}) {
      std::vector<std::pair<std::string, cl::Event>> kernels;
      isFused ? enqueueFused(kernels, wait, width, height) : enqueueSteps(kernels, wait, width, height);
      kernels.back().second.wait();
      double ms = 0;
      for (const auto& k : kernels) ms += eventMs(k.second);
      (isFused ? fused : steps).push_back(ms);
    }
  const double f = median(fused), s = median(steps);
  m_useFused = f < s;
  char line[160];  // three significant digits: "fused 0.0594 ms, step by step 6.61 ms", as a person reads it
  std::snprintf(line, sizeof line, "chain of %zu steps: fused %.3g ms, step by step %.3g ms: runs %s",
                m_steps.size(), f, s, m_useFused ? "fused" : "step by step");
  notice(line);
}

FrameTimings ChainRunner::process(const ImageView& in, const MutableImageView& out,
                                  const std::string& requested) {
  prepare(in.width, in.height, requested);
  const size_t rowBytes = static_cast<size_t>(in.width) * kBytesPerPixel;
  FrameTimings t;
  try {
    cl::CommandQueue& q = m_context->queue();
    cl::Event up, down;
    const std::array<size_t, 3> origin{0, 0, 0}, region{rowBytes, static_cast<size_t>(in.height), 1};
    q.enqueueWriteBufferRect(m_buffers[0], CL_FALSE, origin, origin, region, rowBytes, 0, in.stride, 0,
                             in.data, nullptr, &up);
    std::vector<std::pair<std::string, cl::Event>> kernels;
    std::vector<cl::Event> wait{up};
    if (m_measureFusion) measureFusion(in.width, in.height, wait);
    const int cur = m_useFused ? enqueueFused(kernels, wait, in.width, in.height)
                               : enqueueSteps(kernels, wait, in.width, in.height);
    if (!kernels.empty()) wait = {kernels.back().second};
    q.enqueueReadBufferRect(m_buffers[cur], CL_FALSE, origin, origin, region, rowBytes, 0, out.stride, 0,
                            out.data, &wait, &down);
    down.wait();
    t.uploadMs = eventMs(up);
    t.stages.push_back({"upload", t.uploadMs});
    for (const auto& [name, event] : kernels) {
      const double ms = eventMs(event);
      t.kernelMs += ms;
      t.stages.push_back({name, ms});
    }
    t.downloadMs = eventMs(down);
    t.stages.push_back({"download", t.downloadMs});
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "running a chain");
  }
  return t;
}

std::vector<std::string> ChainRunner::stepStrategies() const {
  if (m_useFused) return {"fused"};
  std::vector<std::string> names;
  for (const Step& s : m_steps)
    names.push_back(s.custom      ? "custom"
                    : s.magnitude ? "magnitude"
                    : s.strategy  ? s.strategy->activeId().toString()
                                  : m_requested);
  return names;
}

double ChainRunner::frameTime() const {
  if (m_time) return *m_time;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
}

std::vector<std::pair<int, KernelDiagnostic>> ChainRunner::customWarnings() const {
  std::vector<std::pair<int, KernelDiagnostic>> out;
  for (size_t i = 0; i < m_steps.size(); ++i)
    if (m_steps[i].custom)
      for (const KernelDiagnostic& d : m_steps[i].custom->warnings())
        out.emplace_back(static_cast<int>(i + 1), d);
  return out;
}

StrategyId ChainRunner::activeId(const std::string& requested) const {
  StrategyId id(requested);
  id.note = "chain:";
  const std::vector<std::string> names = stepStrategies();
  for (size_t i = 0; i < names.size(); ++i)
    id.note += (i ? ", " : " ") + std::to_string(i + 1) + " " + names[i];
  if (names.empty()) id.note += " every step off";
  return id;
}

}  // namespace convolab
