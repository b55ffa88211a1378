// SPDX-License-Identifier: MIT
// SignalQuit: polls the signal flag on the GUI thread (the handler itself only sets it) and closes the
// window.
#include "signal_quit.hpp"

#include <QCoreApplication>

#include "convolab/atomic_file.hpp"

namespace convolab::gui {

SignalQuit::SignalQuit(QWidget* window) : m_guard(kMessage), m_window(window) {
  m_poll.setInterval(100);
  connect(&m_poll, &QTimer::timeout, this, [this] {
    if (!requested()) return;
    m_poll.stop();
    if (m_window) m_window->close();
    QCoreApplication::exit(jobs::kExitInterrupted);
  });
  m_poll.start();
}

int SignalQuit::finish(int code) {
  if (!requested()) return code;
  convolab::removePendingTemporaries();
  return jobs::kExitInterrupted;
}

}  // namespace convolab::gui
