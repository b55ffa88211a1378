// ProcessingWorker: lives on the processing thread; owns the OpenCL context and Engine; convolves the newest
// frame.
#pragma once

#include <QObject>
#include <QStringList>
#include <chrono>
#include <memory>
#include <mutex>

#include "capture/image_pool.hpp"
#include "capture/latest_frame_slot.hpp"
#include "capture/video_recorder.hpp"
#include "convolab/engine.hpp"
#include "filter_mailbox.hpp"
#include "processed_frame.hpp"

namespace convolab::gui {

/// Slots run on the processing thread (the object is moved there); everything OpenCL happens here, so
/// the GUI never waits on the device. latest() and setRecorder() may be called from any thread.
class ProcessingWorker : public QObject {
  Q_OBJECT

 public:
  ProcessingWorker(std::shared_ptr<capture::LatestFrameSlot> slot, std::shared_ptr<FilterMailbox> filter);
  ~ProcessingWorker() override;

  /// The newest processed frame (null before the first).
  ProcessedFramePtr latest() const;
  /// Frames processed from now on are also queued to `recorder` (null stops).
  void setRecorder(std::shared_ptr<capture::VideoRecorder> recorder);
  /// Counts frames handed to the worker; reset with the statistics.
  std::uint64_t processedCount() const { return m_sequence.load(); }

 public slots:
  /// Lists the OpenCL devices and opens `deviceSpec` (empty: the default) with `strategy`.
  void initialise(const QString& deviceSpec, const QString& strategy);
  /// Takes the newest frame from the slot (if any) and processes it.
  void processPending();
  /// The filter changed: if the source is idle (paused, still), process the last frame again so the
  /// preview follows the edit.
  void filterChanged();
  void setStrategy(const QString& name);
  void setDevice(const QString& spec);
  /// Releases OpenCL objects on this thread before it ends.
  void shutdown();

 signals:
  void frameProcessed(const convolab::gui::FrameRecord& record);
  void devicesListed(const QStringList& labels, const QStringList& specs);
  /// After a device or strategy change took effect.
  void engineReady(const QString& deviceLabel, const QString& deviceSpec, const QString& strategy);
  /// Fallbacks and other things worth a line in the status bar.
  void notice(const QString& message);
  /// Something failed (device could not be opened, a frame could not be processed); once per message.
  void failed(const QString& message);

 private:
  void process(const capture::Frame& frame);
  bool openDevice(const QString& spec);
  void reportFailure(const QString& message);

  std::shared_ptr<capture::LatestFrameSlot> m_slot;
  std::shared_ptr<FilterMailbox> m_filter;
  std::unique_ptr<Engine> m_engine;
  QString m_strategy = QStringLiteral("auto");
  std::uint64_t m_appliedRevision = ~0ull;
  capture::Frame m_lastInput;
  capture::ImagePool m_outputs{8};
  std::atomic<std::uint64_t> m_sequence{0};
  QString m_lastFailure;

  mutable std::mutex m_mutex;  // guards the two below
  ProcessedFramePtr m_latest;
  std::shared_ptr<capture::VideoRecorder> m_recorder;
};

}  // namespace convolab::gui
