// SPDX-License-Identifier: MIT
// Pipeline: the GUI thread's handle on capture and processing; starts and stops both threads, forwards edits.
#pragma once

#include <QObject>
#include <QThread>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include "capture/capture_thread.hpp"
#include "capture/frame_source.hpp"
#include "capture/staging_storage.hpp"
#include "capture/video_recorder.hpp"
#include "convolab/engine.hpp"
#include "convolab/strategy_id.hpp"
#include "output/output_door.hpp"
#include "processing/filter_mailbox.hpp"
#include "processing/processed_frame.hpp"

namespace convolab::gui {

class FrameRateCap;
class ProcessingWorker;

/// Owns the capture thread (one per source), the processing QThread and its worker, and the filter
/// mailbox. Every method is called on the GUI thread and returns without waiting on the camera or OpenCL.
class Pipeline : public QObject {
  Q_OBJECT

 public:
  explicit Pipeline(QObject* parent = nullptr);
  /// Stops both threads, waiting as long as it takes (see shutdown()).
  ~Pipeline() override;

  /// Stops capture and recording and asks the processing thread to finish; waits at most `timeoutMs`.
  /// False when the processing thread is still busy (e.g. auto timing strategies): the caller may then
  /// exit the process without waiting for it.
  bool shutdown(int timeoutMs);

  /// Starts the processing thread: lists devices, opens `deviceSpec` with `strategy`.
  void startEngine(const QString& deviceSpec, const StrategyId& strategy);
  /// Replaces the source; frames flow as soon as it opens. `retryInterval`: reconnect attempts.
  void openSource(std::unique_ptr<capture::FrameSource> source,
                  std::chrono::milliseconds retryInterval = std::chrono::milliseconds(1000));
  void closeSource();
  bool hasSource() const { return m_capture != nullptr; }
  /// The current source's capture thread (seek, file position), or null; replaced by openSource().
  capture::CaptureThread* captureThread() const { return m_capture.get(); }

  /// The editor's filter: publishes a new immutable snapshot (its one-step chain) unless a chain replaces
  /// it (setChain); the next frame uses it. Returns the newest revision.
  std::uint64_t setFilter(const FilterSet& filter);
  /// A chain that runs instead of the editor's filter (the Custom OpenCL or the Chain dock, whichever is
  /// switched on: PreviewChainChoice); nullopt gives the filter back. Publishes; returns the
  /// revision.
  std::uint64_t setChain(std::optional<FilterChain> chain);
  bool runsChain() const { return m_chain.has_value(); }
  std::uint64_t setBypass(bool bypass);
  const FilterSet& filter() const { return m_filter; }
  /// What runs: the chain set by setChain, else the filter as a one-step chain.
  FilterChain chain() const { return m_chain ? *m_chain : FilterChain(m_filter); }
  bool bypass() const { return m_bypass; }
  std::uint64_t filterRevision() const { return m_mailbox->current()->revision; }

  /// Sets the chain fusion back to Auto too.
  void setStrategy(const StrategyId& strategy);
  /// How a chain of several steps runs: Auto (auto measures fused against step by step, any other strategy
  /// runs step by step), or as Compare's "Make live" asks: Fused, or StepByStep with the strategy.
  void setChainFusion(ChainFusion fusion);
  ChainFusion chainFusion() const { return m_fusion; }
  void setDevice(const QString& spec);
  /// An automated run (--frames): every counted frame is processed with the newest filter (preparations
  /// are waited for) and a still image is processed on every delivery.
  void setAutomated(bool automated);
  /// An unchanged still image is being delivered and not processed again, as this (the GUI) thread has seen
  /// it: every frame processed before the worker went idle has been delivered here (frameProcessed) first.
  bool stillIdle() const;
  /// FrameRecord::sequence of the newest frame whose frameProcessed has reached this (the GUI) thread;
  /// latestFrame() can be ahead of it (it is read from the worker directly).
  std::uint64_t deliveredSequence() const { return m_deliveredSequence; }

  void setPaused(bool paused);
  void step();

  /// The newest processed frame (images shared, not copied); null before the first.
  ProcessedFramePtr latestFrame() const;
  /// latestFrame() when it may leave the app (Save, Copy, the photo timer, --snapshot): computed with the
  /// filter set now (output::OutputDoor::mayLeave, and no newer filter published since); else null and `why`
  /// says why. Its `filtered` is the picture as it leaves: flipped left to right while Flip Output is on
  /// (OutputDoor::leaving; one copy per frame, kept for the next call), `original` as captured.
  ProcessedFramePtr frameThatMayLeave(QString* why = nullptr) const;
  /// Processing ▸ Limit Frame Rate's gate in the worker (frames over the limit are dropped before upload).
  std::shared_ptr<FrameRateCap> frameRateCap() const;
  /// Frames the source delivered, and how many of them were replaced by a newer one before processing.
  std::uint64_t framesDelivered() const { return m_slot->delivered(); }
  std::uint64_t framesDropped() const { return m_slot->dropped(); }
  /// Since when the newest frame has waited for the processing thread (epoch: none waits).
  capture::Clock::time_point frameWaitingSince() const { return m_slot->waitingSince(); }
  void resetCounters() { m_slot->resetCounters(); }

  /// After each frame the OpenGL preview presented (QOpenGLWidget::frameSwapped; MainWindow connects it only
  /// while the GL path paints): the processing thread puts a little OpenCL work on its device's context
  /// (ProcessingWorker::requestComputeKick: coalesced, a GPU device only), so the next frame does not pay the
  /// GL -> CL switch. Never touches OpenCL on this thread.
  void requestComputeKick();
  /// Kicks the processing thread has enqueued so far.
  std::uint64_t computeKicks() const;

  /// The one door for frames out: sinks added here are fed on the processing thread (docs/ARCHITECTURE.md,
  /// "Adding an output"). Shared, so a sink's owner can remove it whatever is destroyed first.
  const std::shared_ptr<output::OutputDoor>& outputDoor() const { return m_door; }
  /// Every sink's figures (the statistics' list).
  std::vector<output::SinkFigures> sinkFigures() const { return m_door->figures(); }

  /// Records processed frames to `path` (MJPG .avi): a sink of the output door. Throws capture::SourceError.
  void startRecording(const std::filesystem::path& path, int width, int height, double fps);
  void stopRecording();
  bool isRecording() const { return m_recorder != nullptr; }
  const capture::VideoRecorder* recorder() const { return m_recorder.get(); }

 signals:
  void frameProcessed(const convolab::gui::FrameRecord& record);
  void captureStatusChanged(const convolab::capture::CaptureStatus& status);
  void devicesListed(const QStringList& labels, const QStringList& specs);
  void engineReady(const QString& deviceLabel, const QString& deviceSpec,
                   const convolab::StrategyId& strategy);
  void notice(const QString& message);
  void processingFailed(const QString& message);
  /// What the next engine waits on ("measuring strategies 3/10…", empty when none) and whether an unchanged
  /// still image is idle.
  void processingStateChanged(const QString& preparing, bool stillIdle);
  /// A new filter snapshot was published (frames made with an older revision are stale from now on).
  void filterPublished(std::uint64_t revision);
  /// setStrategy(strategy) was called: frames computed with it follow once its engine is prepared.
  void strategyRequested(const convolab::StrategyId& strategy);

 private:
  std::shared_ptr<capture::LatestFrameSlot> m_slot;
  std::shared_ptr<FilterMailbox> m_mailbox;
  std::shared_ptr<output::OutputDoor> m_door;
  mutable ProcessedFramePtr m_flippedFrom, m_flipped;  // frameThatMayLeave's last flip, and of which frame
  std::shared_ptr<capture::StagingStorage> m_staging;  // filled by the worker, read by the sources' pools
  QThread m_thread;
  ProcessingWorker* m_worker = nullptr;   // lives on m_thread; deleted when it finishes
  bool m_stillIdle = false;               // the worker's state as last delivered to this thread
  std::uint64_t m_deliveredSequence = 0;  // FrameRecord::sequence of the newest frameProcessed delivered here
  std::unique_ptr<capture::CaptureThread> m_capture;
  std::shared_ptr<capture::VideoRecorder> m_recorder;
  std::uint64_t m_sourceGeneration = 0;  // status from a replaced source is ignored
  /// Publishes chain() with the bypass flag and tells the worker.
  std::uint64_t publish();

  FilterSet m_filter;
  std::optional<FilterChain> m_chain;  // replaces m_filter while set
  bool m_bypass = false;
  ChainFusion m_fusion = ChainFusion::Auto;
  bool m_paused = false;
  bool m_shuttingDown = false;
};

}  // namespace convolab::gui

Q_DECLARE_METATYPE(convolab::capture::CaptureStatus)
