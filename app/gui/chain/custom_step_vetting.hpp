// SPDX-License-Identifier: MIT
// CustomStepVetting: the Chain dock's custom OpenCL steps are tried in convolab-measure --trial (as the
// Custom OpenCL dock's are) before a chain holding them runs: a chain file's code is as untrusted as typed
// code.
#pragma once

#include <QObject>
#include <QPointer>
#include <QSize>
#include <QThread>
#include <deque>
#include <functional>
#include <vector>

#include "convolab/custom_trial.hpp"
#include "convolab/filter_chain.hpp"

namespace convolab::gui {

class CustomStepVetting : public QObject {
  Q_OBJECT

 public:
  /// Tries a step on a frame of `size` (blocks; called on a worker thread). Default: trialCustomStep on the
  /// device last set with setDeviceSpec.
  using Trial = std::function<TrialOutcome(const ChainStep& step, QSize size)>;

  explicit CustomStepVetting(QObject* parent = nullptr);
  ~CustomStepVetting() override;

  /// The step's program passed a trial (parameter values are arguments: they need none).
  bool passed(const ChainStep& step) const;
  /// Queues a trial of `step` unless it passed or waits already; judged() tells the outcome.
  void vet(const ChainStep& step);

  /// The live engine's device; the default trial waits for it (the ICD loader's first use is not safe from
  /// two threads at once, so trials start after the processing thread opened its device).
  void setDeviceSpec(const QString& spec);
  void setFrameSizeProvider(std::function<QSize()> provider) { m_frameSize = std::move(provider); }
  void setTrial(Trial trial) { m_trial = std::move(trial); }

 signals:
  /// A trial ended: `why` says what was wrong when it did not pass.
  void judged(const convolab::ChainStep& step, bool passed, const QString& why);

 private:
  void startNext();

  std::vector<ChainStep> m_passed;  // with parameter values cleared: the program's identity
  std::deque<ChainStep> m_queue;
  bool m_running = false;
  QString m_deviceSpec;
  std::function<QSize()> m_frameSize;
  Trial m_trial;
  QPointer<QThread> m_thread;
};

}  // namespace convolab::gui
