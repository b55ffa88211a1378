// SPDX-License-Identifier: MIT
// CustomKernelController: the Custom OpenCL panel's logic, no widgets. Code edits are tried (convolab-measure
// --trial, off the GUI thread, newest wins) before they go live; the last good kernel keeps running
// meanwhile.
#pragma once

#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <QThread>
#include <QTimer>
#include <functional>
#include <optional>
#include <vector>

#include "convolab/custom_trial.hpp"
#include "convolab/filter_chain.hpp"

namespace convolab::gui {

/// What the panel shows about the newest version of the code.
enum class CustomKernelState {
  Empty,        ///< no code
  Editing,      ///< typed, waiting for the pause (or Ctrl+Enter)
  Trying,       ///< on trial in convolab-measure
  Live,         ///< the newest version passed its trial and runs (while the switch is on)
  BuildFailed,  ///< the compiler refused it: diagnostics on its lines
  Refused,      ///< built, but too slow, endless, crashed or wrote outside its output
  Invalid,      ///< not even tried: blank code, a bad parameter
};

class CustomKernelController : public QObject {
  Q_OBJECT

 public:
  /// Tries a step on a frame of `size` (blocks; called on a worker thread). Default: trialCustomStep on the
  /// device last set with setDeviceSpec.
  using Trial = std::function<TrialOutcome(const ChainStep& step, QSize size)>;
  /// The pause of typing after which the code is tried.
  static constexpr int kDebounceMs = 600;

  explicit CustomKernelController(QObject* parent = nullptr);
  ~CustomKernelController() override;

  // --- the draft: what the panel shows (edits of it are tried before they go live)
  void setCode(const QString& code);  ///< restarts the pause timer
  QString code() const { return m_code; }
  const std::vector<CustomParam>& params() const { return m_params; }
  BorderMode border() const { return m_border; }
  /// Replaces code, parameters and border (an example, a file, the settings) and tries them at once.
  void load(const ChainStep& step);
  /// Adds or replaces (at `index`, -1: adds) a parameter. Returns why not (empty: done). A new name or a
  /// new parameter is tried (the code sees it); a new range or value of the same name goes live at once.
  QString setParam(int index, const CustomParam& param);
  void removeParam(int index);
  /// A slider moved: the live kernel takes the value at once (same code, no trial).
  void setParamValue(int index, double value);
  void setBorder(BorderMode border);  ///< tried (the border is built into the program)
  /// The draft as a step (throws Error(BadInput) when it is not valid: blank code, a bad parameter).
  ChainStep draftStep() const;

  // --- what runs
  /// Tries the draft now (Ctrl+Enter, or the pause of typing).
  void tryNow();
  /// The switch: while on, the last good kernel replaces the matrix filter (chainChanged).
  void setOn(bool on);
  bool isOn() const { return m_on; }
  /// The last version that passed its trial, with the newest parameter values; nullopt before one did.
  const std::optional<ChainStep>& liveStep() const { return m_live; }
  /// What the preview should run: the live step while on, else nullopt (the matrix filter).
  std::optional<FilterChain> liveChain() const;

  CustomKernelState state() const { return m_state; }
  /// One line for a person: what happened to the newest version, and what runs.
  QString message() const { return m_message; }
  /// The newest judged version's errors and warnings (lines of the draft).
  const std::vector<KernelDiagnostic>& diagnostics() const { return m_diagnostics; }
  /// A trial is running or waiting.
  bool busy() const { return m_trialRunning || m_pending.has_value(); }

  // --- inputs
  /// The live engine's device (Pipeline::engineReady). The default trial waits for the first: until the
  /// processing thread has opened its device, another thread's first OpenCL call can find no platform (the
  /// ICD loader initialises lazily, and not safely from two threads at once).
  void setDeviceSpec(const QString& spec);
  /// The live frame's size (trials run at it); an empty size means 640×480.
  void setFrameSizeProvider(std::function<QSize()> provider) { m_frameSize = std::move(provider); }
  void setTrial(Trial trial) { m_trial = std::move(trial); }

 signals:
  /// What the preview should run changed (Pipeline::setChain).
  void liveChainChanged(const std::optional<convolab::FilterChain>& chain);
  /// state(), message() or diagnostics() changed.
  void stateChanged();
  /// The parameter list changed in structure (added, removed, renamed, new range) or was replaced.
  void paramsChanged();
  /// load() replaced the code (the editor shows the new text).
  void codeReplaced(const QString& code);
  /// Something worth remembering changed (the draft or the switch): AppSettings saves it.
  void draftChanged();
  /// The switch changed (setOn).
  void onChanged(bool on);

 private:
  void setState(CustomKernelState state, const QString& message);
  /// A new version of the draft (code, parameter set, border): tried after the pause, or at once.
  void newVersion(bool atOnce);
  void startTrial(const ChainStep& step, std::uint64_t version);
  void trialDone(const TrialOutcome& outcome, const ChainStep& step, std::uint64_t version);
  /// The live step with the draft's parameter values, when the parameter names are the same.
  bool takeValuesOnLive();
  void emitLive();

  QString m_code;
  std::vector<CustomParam> m_params;
  BorderMode m_border = BorderMode::Reflect101;
  bool m_on = false;
  std::optional<ChainStep> m_live;
  CustomKernelState m_state = CustomKernelState::Empty;
  QString m_message;
  std::vector<KernelDiagnostic> m_diagnostics;

  QTimer m_pause;
  std::uint64_t m_version = 0;  // grows with every edit that needs a trial
  std::uint64_t m_settled = 0;  // trials of versions older than this are not shown (the draft went back)
  bool m_trialRunning = false;
  std::optional<std::pair<ChainStep, std::uint64_t>> m_pending;  // newest wins: the next to try
  QString m_deviceSpec;
  bool m_deviceKnown = false;
  std::function<QSize()> m_frameSize;
  Trial m_trial;
  // The default trial's device (made on the trial thread, kept for the next while the spec is the same).
  std::shared_ptr<Context> m_context;
  QString m_contextSpec;
  QPointer<QThread> m_thread;  // the running trial
};

}  // namespace convolab::gui
