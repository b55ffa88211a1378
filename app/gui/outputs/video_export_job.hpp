// SPDX-License-Identifier: MIT
// VideoExportJob: runs the VideoJob (jobs/, shared with the CLI) (decode → engine → encode) for the app on a
// thread of its own, with its own OpenCL context and engine, reporting progress and the outcome through Qt
// signals.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

class VideoExportJob : public QObject {
  Q_OBJECT

 public:
  explicit VideoExportJob(QObject* parent = nullptr);
  /// Cancels and waits for the thread.
  ~VideoExportJob() override;

  /// Starts filtering `input` into `output` (replacing it: the file dialog asked) with `chain` (one filter,
  /// or a chain: the video job runs either). Returns false while a job runs.
  bool start(const QString& input, const QString& output, const FilterChain& chain, const QString& deviceSpec,
             const QString& strategy);
  /// Asks the job to stop; it discards the output and emits finished(false, cancelled = true).
  void cancel();
  bool running() const { return m_thread.joinable() && !m_done; }

 signals:
  /// Frames written and the total (≤ 0 when unknown). Queued to the GUI thread.
  void progress(qint64 done, qint64 total);
  /// The job ended: `ok` with a summary, or the error / cancellation in `message`.
  void finished(bool ok, bool cancelled, const QString& message);

 private:
  std::thread m_thread;
  std::atomic<bool> m_stop{false};
  std::atomic<bool> m_done{false};
};

}  // namespace convolab::gui
