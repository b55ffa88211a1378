// SPDX-License-Identifier: MIT
// ProcessingDevice: the OpenCL device the processing worker runs on: its context, the two sibling queues that
// engines run on, the pinned staging that frames are decoded into, and the compute kick after OpenGL frames.
#pragma once

#include <QString>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "capture/staging_storage.hpp"
#include "convolab/compute_kick.hpp"
#include "convolab/context.hpp"

namespace convolab::gui {

/// Opened, used and closed on the processing thread; claimKick() and kicks() may be called from any thread.
class ProcessingDevice {
 public:
  /// `staging`: the cell this device fills with pinned memory of its context; the pipeline's sources allocate
  /// their frames from it.
  explicit ProcessingDevice(std::shared_ptr<capture::StagingStorage> staging);

  /// Opens `spec` (empty: the default device) in place of the current one; throws when it cannot (the
  /// current device stays, unless the pinned staging fails after the switch).
  void open(const QString& spec);
  /// A device is open (false before the first, when none could be opened, and after close()).
  bool isOpen() const { return m_context != nullptr; }
  /// The device's context (null while none is open) and its two siblings (Context::sibling) that engines
  /// run on, so that a preparation never queues in front of live frames.
  const std::shared_ptr<Context>& context() const { return m_context; }
  const std::array<std::shared_ptr<Context>, 2>& queues() const { return m_queues; }

  /// Sources allocate from the heap again: the first step of a shutdown.
  void releaseStaging();
  /// Drops the kick, the queues and the context, once no engine uses them any more.
  void close();

  /// Any thread: true when the caller should queue one runKick() on the processing thread: the device is a
  /// GPU (a CPU device has no GL -> CL switch to hide) and no kick is pending already (coalesced).
  bool claimKick();
  /// The queued half of claimKick(): makes the kick on the first call, enqueues and flushes it.
  void runKick();
  /// Kicks that enqueued work on the device (any thread).
  std::uint64_t kicks() const { return m_kicks.load(); }
  /// Test hook: treat the device as a GPU for claimKick() (PoCL's CPU device in tests).
  static void setTestTreatAsGpu(bool gpu);

 private:
  bool kickWanted() const;

  std::shared_ptr<capture::StagingStorage> m_staging;
  std::shared_ptr<Context> m_context;
  std::array<std::shared_ptr<Context>, 2> m_queues;  // siblings of m_context that engines run on
  std::unique_ptr<ComputeKick> m_kick;               // on m_context, made on the first kick; dropped with it
  std::atomic<bool> m_gpu{false};                    // m_context's device is a GPU
  std::atomic<bool> m_kickPending{false};            // a runKick() is queued
  std::atomic<std::uint64_t> m_kicks{0};
};

}  // namespace convolab::gui
