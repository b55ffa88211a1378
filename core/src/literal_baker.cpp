// SPDX-License-Identifier: MIT
// Pause-then-bake for literal-coefficient kernels: generic kernel while editing, one build per pause.
#include "literal_baker.hpp"

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
std::atomic<bool> g_budgetNoted{false};

int literalLimit() {
  return coreConfig().literalPrograms;
}

/// True while literal programs may still be built in this process.
bool literalBudgetLeft() {
  const int limit = literalLimit();
  return limit <= 0 || g_literalBuilt.load() < limit;
}

/// Counts one literal build; false (nothing counted) when the budget is spent, unless `force` (no fallback).
bool takeLiteralBudget(bool force) {
  const int limit = literalLimit();
  int n = g_literalBuilt.load();
  while (force || limit <= 0 || n < limit)
    if (g_literalBuilt.compare_exchange_weak(n, n + 1)) return true;
  if (!g_budgetNoted.exchange(true))
    logMessage(
        LogLevel::Note,
        std::to_string(limit) +
            " literal-coefficient programs built in this session (driver memory is not returned): new "
            "coefficients under codegen and sliding now run the generic kernel (CONVOLAB_LITERAL_PROGRAMS "
            "raises the limit)");
  return false;
}
}  // namespace

int literalProgramsBuilt() {
  return g_literalBuilt.load();
}
void resetLiteralProgramCountForTesting() {
  g_literalBuilt = 0;
  g_budgetNoted = false;
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
}

void LiteralBaker::prepare(Context& ctx, const FilterSet& filter, BakeRequest request,
                           bool backgroundBuilds) {
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
  // Past the literal budget every new filter runs the generic kernel (poll never bakes it).
  const bool generic = (sameStructure && !backgroundBuilds) || !literalBudgetLeft();
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
      takeLiteralBudget(true);  // counted even past the limit: nothing else runs this filter
      BakedKernel b = request.build(ctx);
      b.key = request.key;
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

std::string LiteralBaker::note() const {
  if (!m_genericActive) return {};
  return literalBudgetLeft() ? "generic kernel until edits pause" : "generic kernel: literal limit";
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
  if (m_cache.emplace(key, std::move(b)).second) m_order.push_back(key);
  while (m_order.size() > m_maxKernels) {
    const std::uint64_t oldest = m_order.front();
    m_order.pop_front();
    if (m_active && m_active->key == oldest)
      m_order.push_back(oldest);  // the running kernel stays
    else
      m_cache.erase(oldest);
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
  // Past the budget: the generic kernel keeps running (a background-mode target without one is built anyway).
  if (!takeLiteralBudget(!m_genericActive)) return;
  m_buildingKey = m_target->key;
  const int delay = g_buildDelayMs.load();
  m_building = std::async(std::launch::async, [&ctx, build = m_target->build, key = m_target->key, delay] {
    if (delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    BakedKernel b = build(ctx);
    b.key = key;
    return b;
  });
}

}  // namespace convolab
