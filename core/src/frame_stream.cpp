// SPDX-License-Identifier: MIT
// FrameStream: upload (transfer queue 0) → kernels (main queue) → download (transfer queue 1), chained
// by events, over a ring of pinned host buffers and device buffers.
#include "convolab/frame_stream.hpp"

#include <chrono>

#include "convolab/error.hpp"
#include "convolab/registry.hpp"

namespace convolab {

FrameStream::FrameStream(std::shared_ptr<Context> context, const StrategyId& strategy,
                         const FilterSet& filter, int width, int height, int depth)
    : m_context(std::move(context)), m_width(width), m_height(height) {
  m_strategy = createStrategy(strategy.name);
  if (auto reason = m_strategy->unsupportedReason(*m_context, filter))
    throw Error(ErrorKind::Device, "strategy '" + strategy.name + "' cannot run here: " + *reason);
  m_strategy->setTuningVariant(strategy.variant);
  m_strategy->prepare(*m_context, filter, width, height);
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kBytesPerPixel;
  try {
    for (int i = 0; i < depth; ++i) {
      Slot s{PinnedBuffer(*m_context, bytes),
             PinnedBuffer(*m_context, bytes),
             cl::Buffer(m_context->context(), CL_MEM_READ_ONLY, bytes),
             cl::Buffer(m_context->context(), CL_MEM_WRITE_ONLY, bytes),
             {},
             false};
      m_slots.push_back(std::move(s));
    }
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "allocating stream buffers");
  }
}

MutableImageView FrameStream::nextInput() {
  Slot& s = m_slots[static_cast<size_t>(m_next)];
  if (s.busy) wait(m_next);
  return {s.hostIn.data(), m_width, m_height, static_cast<size_t>(m_width) * kBytesPerPixel};
}

int FrameStream::submit() {
  const int index = m_next;
  Slot& s = m_slots[static_cast<size_t>(index)];
  if (s.busy) wait(index);
  const size_t bytes = s.hostIn.size();
  try {
    cl::Event up;
    m_context->transferQueue(0).enqueueWriteBuffer(s.deviceIn, CL_FALSE, 0, bytes, s.hostIn.data(), nullptr,
                                                   &up);
    FrameBuffers frame{s.deviceIn, s.deviceOut, m_width, m_height};
    auto kernels = m_strategy->enqueue(*m_context, frame, {up});
    std::vector<cl::Event> last{kernels.back().event};
    m_context->transferQueue(1).enqueueReadBuffer(s.deviceOut, CL_FALSE, 0, bytes, s.hostOut.data(), &last,
                                                  &s.done);
    // Flush all three so the device starts now rather than when someone waits.
    m_context->transferQueue(0).flush();
    m_context->queue().flush();
    m_context->transferQueue(1).flush();
  } catch (const cl::Error& e) {
    throw ClError(e.what(), e.err(), "streaming a frame");
  }
  s.busy = true;
  m_next = (m_next + 1) % static_cast<int>(m_slots.size());
  return index;
}

ImageView FrameStream::wait(int slot) {
  Slot& s = m_slots[static_cast<size_t>(slot)];
  if (s.busy) {
    s.done.wait();
    s.busy = false;
  }
  return {s.hostOut.data(), m_width, m_height, static_cast<size_t>(m_width) * kBytesPerPixel};
}

void FrameStream::finish() {
  for (size_t i = 0; i < m_slots.size(); ++i) wait(static_cast<int>(i));
}

double FrameStream::measureThroughput(int frames) {
  for (size_t i = 0; i < m_slots.size(); ++i) submit();  // warm-up: first launches, lazy allocations
  finish();
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) submit();
  finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s > 0 ? frames / s : 0.0;
}

}  // namespace convolab
