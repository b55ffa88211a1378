// SPDX-License-Identifier: MIT
// Pause-then-bake for literal-coefficient kernels: generic kernel while editing, one build per pause.
#include "literal_baker.hpp"

#include "convolab/beside_live_frames.hpp"
#include "first_launch_in_child.hpp"

#include <atomic>
#include <thread>

#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/log.hpp"
#include "strategy_support.hpp"

namespace convolab {

std::unique_ptr<Strategy> makeDynamicStrategy();  // strategies/dynamic.cpp: the generic kernel

namespace {
/// Tests: the quiet period before a bake (negative: coreConfig().autoQuietMs, the product's one rule that
/// background compiles wait until edits pause: on PoCL a compile stalls the live frames).
std::atomic<int> g_quietMs{-1};
int quietMs() {
  const int ms = g_quietMs.load();
  return ms >= 0 ? ms : coreConfig().autoQuietMs;
}
std::atomic<int> g_buildDelayMs{0};
std::atomic<int> g_literalBuilt{0};
/// Literal kernels the bakers of this process hold now: the cache CONVOLAB_LITERAL_PROGRAMS bounds.
std::atomic<int> g_literalHeld{0};

/// The process's literal-program cache is over its capacity: the baker that adds one evicts its oldest.
bool literalCacheFull() {
  const int limit = coreConfig().literalPrograms;
  return limit > 0 && g_literalHeld.load() > limit;
}
}  // namespace

int literalProgramsBuilt() {
  return g_literalBuilt.load();
}
int literalProgramsHeld() {
  return g_literalHeld.load();
}
void resetLiteralProgramCountForTesting() {
  g_literalBuilt = 0;
}

void setLiteralBakeQuietPeriodForTesting(int milliseconds) {
  g_quietMs = milliseconds;
}
void setLiteralBakeBuildDelayForTesting(int milliseconds) {
  g_buildDelayMs = milliseconds;
}

LiteralBaker::LiteralBaker(std::string eventName, std::size_t maxKernels)
    : m_eventName(std::move(eventName)), m_maxKernels(maxKernels) {}

LiteralBaker::~LiteralBaker() {
  if (m_building.valid()) m_building.wait();
  g_literalHeld -= static_cast<int>(m_cache.size());
}

void LiteralBaker::prepare(Context& ctx, const FilterSet& filter, BakeRequest request, int width, int height,
                           bool backgroundBuilds) {
  if (width > 0 && height > 0) m_frameWidth = width, m_frameHeight = height;
  m_preparedSize = filter.size();
  m_preparedBorder = filter.border();
  poll(ctx, false);
  if (m_active && m_active->key == request.key) {  // same program: offsets and border values are arguments
    m_active->offset = request.offset;
    m_active->border = request.border;
    m_target.reset();
    m_genericActive = false;
    return;
  }
  if (auto it = m_cache.find(request.key); it != m_cache.end()) {  // built before: switch at once
    activate(request, it->second);
    m_target.reset();
    return;
  }
  const bool sameStructure = m_active && m_activeStructure == request.structureKey;
  m_lastEdit = std::chrono::steady_clock::now();
  const bool generic = sameStructure && !backgroundBuilds;
  if (generic) {
    prepareGeneric(ctx, filter);
    m_target = std::move(request);  // baked once edits pause (poll)
    m_genericActive = true;
    poll(ctx, false);
    return;
  }
  if (!sameStructure || !backgroundBuilds) {
    if (m_building.valid() && m_buildingKey == request.key) {
      poll(ctx, true);  // the same program is already building: wait for it instead of building twice
    } else {
      ++g_literalBuilt;
      BakedKernel b = request.build(ctx);
      b.key = request.key;
      // A preparation beside live frames (the app's): the first launch, which stalls every queue on PoCL,
      // in a child first (first_launch_in_child.hpp).
      if (BesideLiveFrames::active() && m_frameWidth > 0 && firstLaunchesGoToChild(ctx))
        firstLaunchInChildProcess(ctx, b.kernel, b.global(m_frameWidth, m_frameHeight), b.local, m_frameWidth,
                                  m_frameHeight);
      remember(std::move(b));
    }
    activate(request, m_cache.at(request.key));
    m_target.reset();
    return;
  }
  m_target = std::move(request);  // keep running the current kernel until this one is built
  poll(ctx, false);
}

std::vector<NamedEvent> LiteralBaker::enqueue(Context& ctx, const FrameBuffers& frame,
                                              const std::vector<cl::Event>& waitFor) {
  m_frameWidth = frame.width;
  m_frameHeight = frame.height;
  poll(ctx, false);
  if (m_genericActive) {
    auto events = m_generic->enqueue(ctx, frame, waitFor);
    for (auto& e : events) e.name = m_eventName;
    return events;
  }
  if (!m_active) throw Error(ErrorKind::Device, m_eventName + ": enqueue before prepare");
  BakedKernel& b = *m_active;
  setArgs(b.kernel, frame.input, frame.output, frame.width, frame.height, b.offset, b.border);
  return {launch2d(ctx, b.kernel, m_eventName, b.global(frame.width, frame.height), b.local, waitFor)};
}

bool LiteralBaker::changePending() const {
  if (m_building.valid()) return m_building.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  return m_target && std::chrono::steady_clock::now() - m_lastEdit >= std::chrono::milliseconds(quietMs());
}

std::string LiteralBaker::note() const {
  return m_genericActive ? "generic kernel until edits pause" : std::string();
}

void LiteralBaker::prepareGeneric(Context& ctx, const FilterSet& filter) {
  if (!m_generic) m_generic = makeDynamicStrategy();
  m_generic->prepare(ctx, filter, 0, 0);  // the program once per device; then only the weights
}

void LiteralBaker::activate(const BakeRequest& r, const BakedKernel& b) {
  m_active = b;
  m_active->offset = r.offset;
  m_active->border = r.border;
  m_activeStructure = r.structureKey;
  m_genericActive = false;
}

void LiteralBaker::remember(BakedKernel b) {
  const std::uint64_t key = b.key;
  if (m_cache.emplace(key, std::move(b)).second) {
    m_order.push_back(key);
    ++g_literalHeld;
  }
  // An LRU per baker, and the process's cache as a whole: the oldest kernel goes (never the running one,
  // nor the one just built), so a new filter always gets its literal kernel.
  while (m_order.size() > m_maxKernels || (literalCacheFull() && m_order.size() > 1)) {
    const std::uint64_t oldest = m_order.front();
    if (oldest == key || (m_active && m_active->key == oldest)) {
      if (m_order.size() <= 2) break;  // only the running kernel and the new one are left
      m_order.pop_front();
      m_order.push_back(oldest);
      continue;
    }
    m_order.pop_front();
    m_cache.erase(oldest);
    --g_literalHeld;
  }
}

void LiteralBaker::poll(Context& ctx, bool wait) {
  if (m_building.valid() &&
      (wait || m_building.wait_for(std::chrono::seconds(0)) == std::future_status::ready)) {
    BakedKernel b = m_building.get();  // rethrows a build failure
    const std::uint64_t key = b.key;
    remember(std::move(b));
    if (m_target && m_target->key == key) {
      activate(*m_target, m_cache.at(key));
      m_target.reset();
    }
  }
  if (!m_target || m_building.valid()) return;
  // Bake (or build in the background) only once edits have paused: one program per pause, not per edit.
  if (std::chrono::steady_clock::now() - m_lastEdit < std::chrono::milliseconds(quietMs())) return;
  if (auto it = m_cache.find(m_target->key); it != m_cache.end()) {
    activate(*m_target, it->second);
    m_target.reset();
    return;
  }
  ++g_literalBuilt;
  m_buildingKey = m_target->key;
  const int delay = g_buildDelayMs.load();
  const int w = m_frameWidth, h = m_frameHeight;
  m_building =
      std::async(std::launch::async, [&ctx, build = m_target->build, key = m_target->key, delay, w, h] {
        if (delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
        BakedKernel b = build(ctx);  // clBuildProgram: other queues keep running
        b.key = key;
        // The first launch is what stalls every queue on PoCL: made in a child, it is a cache hit here.
        if (w > 0 && firstLaunchesGoToChild(ctx))
          firstLaunchInChildProcess(ctx, b.kernel, b.global(w, h), b.local, w, h);
        return b;
      });
}

}  // namespace convolab
