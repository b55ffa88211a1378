// SPDX-License-Identifier: MIT
// Engine: frame upload, strategy dispatch with fallback, download, and per-stage profiling timings.
#include "convolab/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "chain_runner.hpp"
#include "convolab/border.hpp"
#include "convolab/config.hpp"
#include "convolab/error.hpp"
#include "convolab/fault_injection.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "strategy_support.hpp"

namespace convolab {

Engine::Engine(std::shared_ptr<Context> context, std::string strategy) : m_context(std::move(context)) {
  setStrategy(strategy);
}

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::setFilter(const FilterSet& filter) {
  m_chain.reset();
  if (filter == m_filter) return;
  m_filter = filter;
  m_dirty = true;
}

void Engine::setStrategy(const std::string& name) {
  requireStrategyName(name);  // throws Error(Usage) listing the names when unknown
  if (name == m_requested && m_strategy) return;
  m_requested = name;
  m_strategy.reset();
  m_activeName.clear();
  m_dirty = true;
}

void Engine::setChain(const FilterChain& chain) {
  if (auto single = chain.singleFilter()) return setFilter(*single);  // runs exactly as one filter
  if (!m_chain) {
    m_chain = std::make_unique<ChainRunner>(m_context);
    m_chain->setFusion(m_fusion);
    m_chain->setProvisional(m_chainProvisional);
    m_chain->setFrameTime(m_frameTime);
  }
  m_chain->setChain(chain);
}

void Engine::setChainFusion(ChainFusion fusion) {
  m_fusion = fusion;
  if (m_chain) m_chain->setFusion(fusion);
}

void Engine::setChainProvisional(bool provisional) {
  m_chainProvisional = provisional;
  if (m_chain) m_chain->setProvisional(provisional);
}

bool Engine::chainPreparesWithoutBuild(const FilterChain& chain, int width, int height) const {
  if (chain.singleFilter()) return false;
  if (m_chain) return m_chain->preparesWithoutBuild(chain, width, height, m_requested);
  // From one filter: a new runner whose every step runs dynamic at once (built once per device).
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  if (m_requested != kAutoStrategy || bytes > m_context->device().maxAllocBytes) return false;
  const std::vector<ChainStep> on = chain.enabledSteps();
  return std::none_of(on.begin(), on.end(),
                      [](const ChainStep& s) { return s.isCustom() || s.isMagnitude(); });
}

FilterChain Engine::chain() const {
  return m_chain ? m_chain->chain() : FilterChain(m_filter);
}

void Engine::setFrameTime(std::optional<double> seconds) {
  m_frameTime = seconds;
  if (m_chain) m_chain->setFrameTime(seconds);
}

std::vector<std::pair<int, KernelDiagnostic>> Engine::customWarnings() const {
  return m_chain ? m_chain->customWarnings() : std::vector<std::pair<int, KernelDiagnostic>>{};
}

std::vector<std::string> Engine::chainStepStrategies() const {
  return m_chain ? m_chain->stepStrategies() : std::vector<std::string>{};
}

StrategyId Engine::activeStrategyId() const {
  if (m_chain) return m_chain->activeId(m_requested);
  return m_strategy ? m_strategy->activeId() : StrategyId{m_requested};
}

void Engine::notice(const std::string& message) {
  if (std::find(m_reported.begin(), m_reported.end(), message) != m_reported.end()) return;
  m_reported.push_back(message);
  m_notices.push_back(message);
}

namespace {
MutableImageView pinnedView(Context& ctx, PinnedBuffer& buffer, int width, int height) {
  const size_t stride = static_cast<size_t>(width) * kBytesPerPixel;
  const size_t bytes = stride * static_cast<size_t>(height);
  if (buffer.size() != bytes) buffer = PinnedBuffer(ctx, bytes);
  return {buffer.data(), width, height, stride};
}
}  // namespace

MutableImageView Engine::stagingInput(int width, int height) {
  return pinnedView(*m_context, m_pinnedIn, width, height);
}

MutableImageView Engine::stagingOutput(int width, int height) {
  return pinnedView(*m_context, m_pinnedOut, width, height);
}

std::vector<std::string> Engine::takeNotices() {
  if (m_chain)
    for (std::string& n : m_chain->takeNotices()) notice(n);
  return std::exchange(m_notices, {});
}

bool Engine::retireActiveStrategy(const std::string& what, int attempt) {
  // A failure while running (e.g. CL_OUT_OF_RESOURCES): stop using this strategy for the session and
  // retry the frame once with a fallback.
  if (attempt > 0 || !m_strategy) return false;
  notice("strategy '" + m_activeName + "' failed while running and is disabled for this session: " + what);
  m_failed.push_back(m_activeName);
  try {
    m_context->queue().finish();
  } catch (const cl::Error&) {
  }
  m_strategy.reset();
  m_dirty = true;
  return true;
}

std::optional<std::string> Engine::prepareCatching(Strategy& strategy, int width, int height) {
  // Any failure of prepare() is a reason to fall back, whatever threw it: our typed errors, a raw
  // cl::Error a strategy let through (e.g. a work-group size the device refuses), or an allocation
  // failure. Only a frame that no strategy can prepare is an error for the caller.
  try {
    if (faultInjected("prepare", strategy.name()))
      throw cl::Error(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel (injected, CONVOLAB_INJECT_FAULT)");
    strategy.prepare(*m_context, m_filter, width, height);
    return std::nullopt;
  } catch (const Cancelled&) {
    throw;  // superseded, not failed: no fallback
  } catch (const Error& e) {
    return std::string(e.what());
  } catch (const cl::Error& e) {
    return ClError(e.what(), e.err()).what();
  } catch (const std::bad_alloc&) {
    return std::string("out of host memory");
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

bool Engine::tryActivate(const std::string& name, int width, int height) {
  if (std::find(m_failed.begin(), m_failed.end(), name) != m_failed.end()) return false;
  auto strategy = createStrategy(name);
  if (auto reason = strategy->unsupportedReason(*m_context, m_filter)) {
    if (name == m_requested) notice("strategy '" + name + "' cannot run here: " + *reason);
    return false;
  }
  if (auto failure = prepareCatching(*strategy, width, height)) {
    notice("strategy '" + name + "' failed to prepare: " + *failure);
    return false;
  }
  if (name != m_requested) notice("using strategy '" + name + "' instead of '" + m_requested + "'");
  m_strategy = std::move(strategy);
  m_activeName = name;
  return true;
}

void Engine::ensurePrepared(int width, int height) {
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  if (width != m_width || height != m_height || !m_input()) {
    if (bytes > m_context->device().maxAllocBytes)
      throw Error(ErrorKind::BadInput, "a " + std::to_string(width) + "x" + std::to_string(height) +
                                           " frame needs " + std::to_string(bytes >> 20) +
                                           " MiB per buffer; the device allows at most " +
                                           std::to_string(m_context->device().maxAllocBytes >> 20) + " MiB");
    try {
      m_input = cl::Buffer(m_context->context(), CL_MEM_READ_ONLY, bytes);
      m_output = cl::Buffer(m_context->context(), CL_MEM_WRITE_ONLY, bytes);
    } catch (const cl::Error& e) {
      throw ClError("clCreateBuffer", e.err(), "frame buffers of " + std::to_string(bytes) + " bytes");
    }
    m_width = width;
    m_height = height;
    m_dirty = true;
  }
  if (!m_dirty) return;
  if (m_strategy && m_activeName == m_requested) {
    // Same strategy, new filter or size: prepare again (cheap when only coefficients changed).
    if (!m_strategy->unsupportedReason(*m_context, m_filter)) {
      auto failure = prepareCatching(*m_strategy, width, height);
      if (!failure) {
        m_dirty = false;
        return;
      }
      notice("strategy '" + m_activeName + "' failed to prepare: " + *failure);
    }
  }
  m_strategy.reset();
  if (tryActivate(m_requested, width, height)) {
    m_dirty = false;
    return;
  }
  for (std::string_view fallback : kFallbackOrder) {
    if (fallback == m_requested) continue;
    if (tryActivate(std::string(fallback), width, height)) {
      m_dirty = false;
      return;
    }
  }
  throw Error(ErrorKind::Device, "no convolution strategy can run on " + m_context->device().describe());
}

bool Engine::preparesWithoutBuild(const FilterSet& filter, int width, int height) const {
  if (m_chain) return false;  // the next filter replaces the chain: its strategy is not prepared
  // Tiled frames are prepared per tile height, which follows the radius: those go the long way.
  return m_strategy && m_activeName == m_requested && width == m_width && height == m_height &&
         static_cast<std::size_t>(width) * height * kBytesPerPixel <= tileBytes() &&
         m_strategy->preparesWithoutBuild(*m_context, filter);
}

std::size_t Engine::tileBytes() const {
  std::size_t bytes = m_tileBytes > 0 ? m_tileBytes : coreConfig().tileBytes;
  if (bytes == 0) {
    // A margin for the strategies' own buffers (image's RGBA copies of the frame; the margin was set for
    // the two-pass float intermediate, ~5x the frame, that separable and lowrank no longer have: they are
    // one launch through local memory), within one allocation of the device, and a bound that keeps device
    // memory use moderate.
    const std::uint64_t byAlloc = m_context->device().maxAllocBytes / 6;
    bytes = static_cast<std::size_t>(std::min<std::uint64_t>(byAlloc, kDefaultTileBytes));
  }
  // Kernels index the frame's bytes with 32-bit ints: an untiled frame of 2 GiB or more came out
  // wrong below row 2^31 / (width·3) (a 30000x30000 frame from row 23860 on, with exit 0).
  return std::clamp<std::size_t>(bytes, 1, kMaxTileBytes);
}

void Engine::prepare(int width, int height) {
  if (width <= 0 || height <= 0) throw Error(ErrorKind::BadInput, "empty frame");
  if (m_chain) return m_chain->prepare(width, height, m_requested);
  // What process() prepares for: the whole frame, or the height of its tiles.
  const std::size_t rowBytes = static_cast<std::size_t>(width) * kBytesPerPixel;
  const std::size_t limitRows = std::max<std::size_t>(tileBytes() / rowBytes, 1);
  const int window =
      static_cast<int>(std::max<std::size_t>(limitRows, static_cast<std::size_t>(2 * m_filter.radius() + 1)));
  const bool whole = static_cast<std::size_t>(height) * rowBytes <= tileBytes() || window >= height;
  ensurePrepared(width, whole ? height : window);
}

FrameTimings Engine::process(const ImageView& in, const MutableImageView& out) {
  if (in.width != out.width || in.height != out.height)
    throw Error(ErrorKind::Usage, "Engine::process: input and output sizes differ");
  if (in.width <= 0 || in.height <= 0) throw Error(ErrorKind::BadInput, "empty frame");
  const auto t0 = std::chrono::steady_clock::now();
  if (m_chain) {  // step by step on the device (chain_runner.hpp); chains do not tile
    FrameTimings t = m_chain->process(in, out, m_requested);
    t.strategy = activeStrategyId();
    t.hostMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return t;
  }
  const std::size_t rowBytes = static_cast<std::size_t>(in.width) * kBytesPerPixel;
  const int r = m_filter.radius();
  // Window rows per tile (the tile's output rows plus a halo of r rows above and below).
  const std::size_t limitRows = std::max<std::size_t>(tileBytes() / rowBytes, 1);
  const int window = static_cast<int>(std::max<std::size_t>(limitRows, static_cast<std::size_t>(2 * r + 1)));
  FrameTimings t;
  if (static_cast<std::size_t>(in.height) * rowBytes <= tileBytes() || window >= in.height) {
    t = processRegion(in, out, 0);
  } else {
    t = processInTiles(in, out, window);
  }
  t.strategy = activeStrategyId();
  t.hostMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

FrameTimings Engine::processInTiles(const ImageView& in, const MutableImageView& out, int window) {
  // Full-width horizontal tiles of `window` rows, all the same height so the strategy is prepared
  // (and auto measures) once. A tile computes `rows` output rows from its window, which holds their
  // halo. Near the top and bottom the window is shifted to stay inside the image; the strategy's own
  // border handling then applies at the true image edge, which is exact for every mode but wrap
  // (wrap reads the far side of the image): there the window is assembled on the host with
  // borderInterpolate. Rows a tile computes from an incomplete halo are never copied out.
  const int height = in.height, r = m_filter.radius();
  const int rows = window - 2 * r;
  const std::size_t rowBytes = static_cast<std::size_t>(in.width) * kBytesPerPixel;
  FrameTimings total;
  for (int y0 = 0;; y0 += rows) {
    y0 = std::min(y0, height - rows);
    const int y1 = y0 + rows;
    ImageView src;
    int outRow = 0;  // the first row of the tile's window that is output row y0
    if (m_filter.border() == BorderMode::Wrap && (y0 - r < 0 || y1 + r > height)) {
      m_tileHost.resize(rowBytes * static_cast<std::size_t>(window));
      for (int i = 0; i < window; ++i) {
        const int sy = borderInterpolate(y0 - r + i, height, BorderMode::Wrap);
        std::copy_n(in.row(sy), rowBytes, m_tileHost.data() + rowBytes * static_cast<std::size_t>(i));
      }
      src = {m_tileHost.data(), in.width, window, rowBytes};
      outRow = r;
    } else {
      const int a = std::clamp(y0 - r, 0, height - window);
      src = {in.row(a), in.width, window, in.stride};
      outRow = y0 - a;
    }
    const MutableImageView dst{out.row(y0), out.width, rows, out.stride};
    const FrameTimings t = processRegion(src, dst, outRow);
    total.uploadMs += t.uploadMs;
    total.kernelMs += t.kernelMs;
    total.downloadMs += t.downloadMs;
    for (const auto& stage : t.stages) {
      auto it = std::find_if(total.stages.begin(), total.stages.end(),
                             [&](const StageTiming& s) { return s.name == stage.name; });
      if (it == total.stages.end())
        total.stages.push_back(stage);
      else
        it->ms += stage.ms;
    }
    ++m_tilesProcessed;
    if (y1 >= height) break;
  }
  return total;
}

FrameTimings Engine::processRegion(const ImageView& in, const MutableImageView& out, int firstRow) {
  const std::size_t rowBytes = static_cast<std::size_t>(in.width) * kBytesPerPixel;
  const std::size_t bytes = rowBytes * static_cast<std::size_t>(in.height);

  for (int attempt = 0;; ++attempt) {
    ensurePrepared(in.width, in.height);
    FrameTimings t;
    try {
      cl::CommandQueue& q = m_context->queue();
      cl::Event up, down;
      const std::array<size_t, 3> origin{0, 0, 0}, region{rowBytes, static_cast<size_t>(in.height), 1};
      if (in.stride == rowBytes)
        q.enqueueWriteBuffer(m_input, CL_FALSE, 0, bytes, in.data, nullptr, &up);
      else
        q.enqueueWriteBufferRect(m_input, CL_FALSE, origin, origin, region, rowBytes, 0, in.stride, 0,
                                 in.data, nullptr, &up);
      FrameBuffers frame{m_input, m_output, in.width, in.height};
      if (faultInjected("run", m_activeName))
        throw ClError("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES, "injected (CONVOLAB_INJECT_FAULT)");
      std::vector<NamedEvent> kernels = m_strategy->enqueue(*m_context, frame, {up});
      std::vector<cl::Event> last{kernels.empty() ? up : kernels.back().event};
      // Rows firstRow .. firstRow + out.height of the device output (all of it unless tiling).
      const std::size_t outBytes = rowBytes * static_cast<std::size_t>(out.height);
      if (firstRow == 0 && out.height == in.height && out.stride == rowBytes) {
        q.enqueueReadBuffer(m_output, CL_FALSE, 0, outBytes, out.data, &last, &down);
      } else {
        const std::array<size_t, 3> deviceOrigin{0, static_cast<size_t>(firstRow), 0},
            outRegion{rowBytes, static_cast<size_t>(out.height), 1};
        q.enqueueReadBufferRect(m_output, CL_FALSE, deviceOrigin, origin, outRegion, rowBytes, 0, out.stride,
                                0, out.data, &last, &down);
      }
      down.wait();
      t.uploadMs = eventMs(up);
      t.stages.push_back({"upload", t.uploadMs});
      for (const auto& k : kernels) {
        const double ms = eventMs(k.event);
        t.kernelMs += ms;
        t.stages.push_back({k.name, ms});
      }
      t.downloadMs = eventMs(down);
      t.stages.push_back({"download", t.downloadMs});
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Device || !retireActiveStrategy(e.what(), attempt)) throw;
      continue;
    } catch (const cl::Error& e) {
      const ClError err(e.what(), e.err());
      if (!retireActiveStrategy(err.what(), attempt)) throw err;
      continue;
    }
    return t;
  }
}

}  // namespace convolab
