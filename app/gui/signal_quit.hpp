// SPDX-License-Identifier: MIT
// SignalQuit: SIGINT/SIGTERM end the app the way closing its window does, and never leave a save's temporary.
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include "jobs/signal_guard.hpp"

namespace convolab::gui {

/// Installs SIGINT/SIGTERM/SIGHUP handling for the app (SignalGuard, shared with the CLI). The first signal
/// closes `window` as the user would (a recording is finished, --stats and --snapshot are written, a save in
/// progress completes) and ends the event loop; a second one removes the temporaries of files being written
/// and exits at once. Either way the exit status is jobs::kExitInterrupted (130).
class SignalQuit : public QObject {
 public:
  explicit SignalQuit(QWidget* window);

  /// What the first signal prints in the app.
  static constexpr const char* kMessage =
      "\nconvolab: stopping (signal again to quit at once, discarding files being written)\n";

  /// True once a signal asked the app to stop.
  static bool requested() { return jobs::SignalGuard::stopRequested(); }
  /// For main() after the event loop: removes what is still being written (a worker's export) when a signal
  /// stopped the app, and returns the exit status to use instead of `code`.
  static int finish(int code);

 private:
  jobs::SignalGuard m_guard;
  QPointer<QWidget> m_window;
  QTimer m_poll;
};

}  // namespace convolab::gui
