// SPDX-License-Identifier: MIT
// AutomationRun: a command-line driven run of the app (--frames N, --snapshot, --stats, --script): counts
// processed frames, plays the script, writes the outputs, ends the app with the run's exit code, and ends it
// early on failure.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <optional>

#include "automation/script_player.hpp"
#include "command_line.hpp"
#include "stats/edit_latency.hpp"

namespace convolab::gui {

class Pipeline;
class StatsCollector;
struct FrameRecord;

class AutomationRun : public QObject {
  Q_OBJECT

 public:
  /// What the --stats file reports besides the collector's figures (asked for when it is written).
  struct Facts {
    double sourceFps = 0;
    QString deviceLabel;
    QString strategy;
    EditLatencySummary edits;               ///< edit → screen
    std::optional<double> firstFilteredMs;  ///< first picture → first filtered frame on screen
  };

  /// `stats` keeps the whole run when --stats is asked for; the pipeline is told whether frames are counted.
  AutomationRun(LaunchOptions options, Pipeline* pipeline, StatsCollector* stats,
                std::function<Facts()> facts, QObject* parent = nullptr);

  /// Any of --frames, --snapshot, --stats, --compare: a source that cannot open ends the run with exit 3.
  bool automated() const { return m_options.automated(); }
  /// --frames N: the app quits after N processed frames (and leaves the remembered settings alone).
  bool counting() const { return m_options.frames > 0; }
  /// --script: edits are played from the first painted frame; the run ends once they are on screen.
  bool scripted() const { return m_options.editScript != nullptr; }
  /// --frames and --script runs do not change the remembered settings.
  bool leavesSettingsAlone() const { return counting() || scripted(); }
  /// A --script run starts its player on `targets` (nothing otherwise).
  void startScript(const ScriptTargets& targets);
  /// 0 ok, 3 bad input (a source did not open, an output could not be written), 4 no frame processed.
  int exitCode() const { return m_exitCode; }
  /// The run has ended (its outputs written or its failure reported); the app is quitting.
  bool finished() const { return m_finishing; }

  /// Counts a processed frame; the N-th ends a --frames run.
  void frameProcessed(const FrameRecord& record);
  /// Ends the run now: prints `message`, exit 3.
  void fail(const QString& message);
  /// The input was bad (e.g. --filter did not load): exit 3 at the end of an automated run.
  void markBadInput();
  /// Processing of a frame failed: a --frames run says so on stderr.
  void processingFailed(const QString& message);
  /// The source delivers (again).
  void sourceRunning() { ++m_disconnects; }
  /// The source stopped delivering: an automated run ends (exit 3) unless it is back within a few seconds.
  void sourceDisconnected(const QString& description, const QString& why);
  /// Writes --snapshot / --stats now (once); false when one failed.
  bool writeOutputs();
  /// The window closes: a run without --frames writes its outputs now.
  void windowClosing();

 private:
  void finish();

  LaunchOptions m_options;
  Pipeline* m_pipeline;
  StatsCollector* m_stats;
  std::function<Facts()> m_facts;
  ScriptPlayer* m_player = nullptr;  // --script
  std::uint64_t m_framesThisRun = 0;
  std::uint64_t m_framesWithoutError = 0;
  std::uint64_t m_disconnects = 0;
  bool m_outputsWritten = false;
  bool m_finishing = false;
  int m_exitCode = 0;
};

}  // namespace convolab::gui
