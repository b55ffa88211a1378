// SPDX-License-Identifier: MIT
// convolab: the desktop app's entry point — command line, theme, main window.
#include <QApplication>
#include <QIcon>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "command_line.hpp"
#include "convolab/registry.hpp"
#include "lab/compare_command.hpp"
#include "log_categories.hpp"
#include "processing/pipeline.hpp"
#include "resources.hpp"
#include "signal_quit.hpp"
#include "window/main_window.hpp"
#include "window/theme.hpp"

int main(int argc, char** argv) {
  // SIGINT, SIGTERM and SIGHUP: blocked in every thread from this line on, taken by one sigwait() thread
  // (jobs/signal_guard.hpp), and a stop request from the start (SignalQuit acts on it once the window runs).
  std::optional<convolab::jobs::SignalGuard> early(std::in_place, convolab::gui::SignalQuit::kMessage);
  convolab::jobs::SignalGuard::takeSignals("\nconvolab: stopped by a signal\n");
  // --compare opens no window: let it run without a display.
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--compare", 9) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
      qputenv("QT_QPA_PLATFORM", "offscreen");
  // The command line is read before any window system is touched: --help, --version and usage errors print
  // and exit anywhere, also without a display (a QApplication aborts in the xcb plugin there).
  auto identify = [] {
    QCoreApplication::setOrganizationName(QStringLiteral("ConvoLab"));
    QCoreApplication::setApplicationName(QStringLiteral("convolab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CONVOLAB_VERSION));
  };
  convolab::gui::ParsedCommandLine parsed;
  {
    QCoreApplication core(argc, argv);
    identify();
    parsed = convolab::gui::parseCommandLine(QCoreApplication::arguments());
    if (parsed.exitCode >= 0) {
      std::fputs(qPrintable(parsed.message), parsed.exitCode == 0 ? stdout : stderr);
      return parsed.exitCode;
    }
  }
  QApplication app(argc, argv);
  convolab::gui::routeCoreLogToQt();
  identify();
  QApplication::setApplicationDisplayName(QStringLiteral("ConvoLab"));
  QApplication::setDesktopFileName(
      QStringLiteral("io.github.convolab.ConvoLab"));  // the installed .desktop id

  if (!parsed.options.compare.isEmpty()) {
    early.reset();  // --compare does not poll the stop flag: a signal ends it at once
    if (convolab::jobs::SignalGuard::stopRequested()) return convolab::jobs::kExitInterrupted;
    return convolab::lab::runCompareCommand(parsed.options);
  }
  convolab::gui::initResources();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  convolab::gui::theme::apply(app);

  convolab::gui::MainWindow window(parsed.options);
  window.show();
  const convolab::gui::SignalQuit signalQuit(&window);  // SIGINT/SIGTERM: close, leave no temporary, 130
  int code = QApplication::exec();
  // A run without --frames wrote --snapshot / --stats as its window closed: a failure there is exit 3.
  if (code == 0) code = window.exitCode();
  code = convolab::gui::SignalQuit::finish(code);
  // The processing thread may be in the middle of a long OpenCL call (auto timing strategies, a
  // program build), or a source may still be decoding. Settings are already on disk: do not keep a
  // closed window's process alive for either.
  if (!window.pipeline()->shutdown(3000) || window.openerBusy()) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  convolab::stopAutoMeasurements();  // no driver compile in flight while static destructors run
  return code;
}
