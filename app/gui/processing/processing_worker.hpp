// SPDX-License-Identifier: MIT
// ProcessingWorker: lives on the processing thread; runs passes over the newest frame with the live engine
// (EngineHandOver) on its device (ProcessingDevice) and publishes the results (ResultPublisher).
#pragma once

#include <QObject>
#include <QStringList>
#include <atomic>
#include <chrono>
#include <memory>

#include "capture/latest_frame_slot.hpp"
#include "convolab/strategy_id.hpp"
#include "output/output_door.hpp"
#include "processing/engine_hand_over.hpp"
#include "processing/filter_mailbox.hpp"
#include "processing/frame_rate_cap.hpp"
#include "processing/processed_frame.hpp"
#include "processing/processing_device.hpp"
#include "processing/result_publisher.hpp"

namespace convolab::gui {

/// Slots run on the processing thread (the object is moved there); everything OpenCL happens here or on the
/// preparer's thread, so the GUI never waits on the device. latest() and setAutomated() may be called from
/// any thread. Every processed frame goes to the output door (`door`) here, on this thread.
///
/// A change of filter, strategy, device or frame size is prepared on a second thread (EnginePreparer): auto's
/// measurements and codegen's builds take seconds on a CPU device. Meanwhile frames keep being processed by
/// the live engine with the filter it was built for (the record says which revision: the GUI marks the frame
/// stale), or, when no live engine fits the frame size, passed through unfiltered. The prepared engine
/// replaces the live one when ready. In automated runs (--frames) every frame is processed with the newest
/// filter instead, waiting for the preparation, so counted frames and snapshots are never stale.
class ProcessingWorker : public QObject {
  Q_OBJECT

 public:
  /// `staging`: the cell this worker fills with pinned memory of the device it opens; the pipeline's sources
  /// allocate their frames from it, and so do the worker's results. `door`: where frames leave the app.
  ProcessingWorker(std::shared_ptr<capture::LatestFrameSlot> slot, std::shared_ptr<FilterMailbox> filter,
                   std::shared_ptr<capture::StagingStorage> staging,
                   std::shared_ptr<output::OutputDoor> door = std::make_shared<output::OutputDoor>());
  ~ProcessingWorker() override;

  /// The newest processed frame (null before the first).
  ProcessedFramePtr latest() const { return m_results.latest(); }
  /// Automated run (--frames): prepare synchronously and process a still image on every delivery.
  void setAutomated(bool automated) { m_automated = automated; }

  /// Test hook: every processed frame takes at least this much longer (a slow device).
  static void setTestFrameDelay(std::chrono::milliseconds delay);

  /// Any thread (the GUI's, after each frame the OpenGL preview presented): asks this thread for one
  /// ComputeKick on the device's context, so the next frame's Engine::process does not pay the GL -> CL
  /// switch (~0.15 ms on NVIDIA, docs/BENCHMARKS.md). Coalesced: at most one is pending. Nothing is asked
  /// (no event posted) while the device is not a GPU: a CPU device (PoCL) has no switch to hide.
  void requestComputeKick();
  /// Kicks that enqueued work on the device (any thread).
  std::uint64_t computeKicks() const { return m_device.kicks(); }
  /// Test hook: treat the device as a GPU for requestComputeKick() (PoCL's CPU device in tests).
  static void setTestTreatDeviceAsGpu(bool gpu) { ProcessingDevice::setTestTreatAsGpu(gpu); }
  /// Processing ▸ Limit Frame Rate's gate (frame_rate_cap.hpp); set from any thread.
  std::shared_ptr<FrameRateCap> frameRateCap() const { return m_cap; }

 public slots:
  /// Lists the OpenCL devices and opens `deviceSpec` (empty: the default) with `strategy`.
  void initialise(const QString& deviceSpec, const convolab::StrategyId& strategy);
  /// A frame waits in the slot: schedules a processing pass.
  void processPending();
  /// The filter changed: schedules a pass that processes the newest frame, or, when the source is idle
  /// (paused, still), the last frame again so the preview follows the edit.
  void filterChanged();
  /// filterChanged() for a change made at `when` (the GUI's edit time: a repeated pass's latency starts
  /// there).
  void filterChangedAt(capture::Clock::time_point when);
  void setStrategy(const convolab::StrategyId& strategy);
  /// How a chain of several steps runs (Compare's "Make live": fused, or step by step); Auto by default.
  void setChainFusion(convolab::ChainFusion fusion);
  void setDevice(const QString& spec);
  /// Releases OpenCL objects on this thread before it ends.
  void shutdown();

 signals:
  void frameProcessed(const convolab::gui::FrameRecord& record);
  void devicesListed(const QStringList& labels, const QStringList& specs);
  /// After a device or strategy change took effect.
  void engineReady(const QString& deviceLabel, const QString& deviceSpec,
                   const convolab::StrategyId& strategy);
  /// Fallbacks and other things worth a line in the status bar.
  void notice(const QString& message);
  /// Something failed (device could not be opened, a frame could not be processed); once per message.
  void failed(const QString& message);
  /// `preparing`: what the next engine waits on ("measuring strategies 3/10…", "building kernel…"), empty
  /// when the live engine is current. `stillIdle`: an unchanged still image is not being re-processed.
  void stateChanged(const QString& preparing, bool stillIdle);

 private:
  /// Queues one runPass() unless one is queued already: any number of requests make one pass.
  void schedulePass();
  void runPass();
  /// Delivered: the source's newest frame, counted in the slot's delivered(). WarmUp: the same, delivered
  /// while the slot was not counting. Repeat: the last input again, to show a change (an edit, a new engine)
  /// while the source is idle (a still between deliveries, a paused video).
  enum class Pass { Delivered, WarmUp, Repeat };
  /// One pass over `frame`: skipped for an unchanged still, else filtered (or passed through) and published
  /// (the newest frame, the output door, frameProcessed).
  void process(const capture::Frame& frame, Pass pass);
  /// Filters `frame` into `result` with the live engine when one fits its size, else marks it unfiltered.
  /// Returns EngineHandOver::bringUpToDate()'s answer.
  bool filterWithEngine(const capture::Frame& frame, const FilterSnapshot& snapshot, ProcessedFrame& result);
  bool openDevice(const QString& spec);
  void reportFailure(const QString& message);
  void setStillIdle(bool idle);
  bool repeatStills() const;

  std::shared_ptr<capture::LatestFrameSlot> m_slot;
  std::shared_ptr<FrameRateCap> m_cap = std::make_shared<FrameRateCap>();
  std::shared_ptr<FilterMailbox> m_filter;
  ProcessingDevice m_device;
  ResultPublisher m_results;
  EngineHandOver m_engines;  // after m_device, which it runs engines on

  /// What a pass was made from: the input image, the filter revision and EngineHandOver::state(). A
  /// delivery with the stamp of the last pass (a still image delivered again) shows nothing new.
  struct PassStamp {
    std::shared_ptr<const Image> input;
    std::uint64_t revision = ~0ull;
    std::uint64_t engineState = ~0ull;
    bool operator==(const PassStamp&) const = default;
  };
  capture::Frame m_lastInput;  // processed again when the filter changes while the source is idle
  PassStamp m_lastPass;
  bool m_stillIdle = false;                  // published through stateChanged (Pipeline::stillIdle)
  bool m_passQueued = false;                 // a runPass() is queued (schedulePass)
  bool m_filterDirty = false;                // the filter changed since the last pass
  capture::Clock::time_point m_changedAt{};  // when the change m_filterDirty stands for was made
  std::atomic<bool> m_automated{false};
  QString m_lastFailure;
};

}  // namespace convolab::gui
