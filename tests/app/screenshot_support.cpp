// SPDX-License-Identifier: MIT
// The screenshot tools' shared set-up (screenshot_support.hpp).
#include "screenshot_support.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <cstdio>
#include <cstdlib>

#include "editor/filter_editor.hpp"
#include "editor/preset_library.hpp"
#include "editor/presets_menu.hpp"
#include "processing/pipeline.hpp"
#include "processing/processed_frame.hpp"
#include "resources.hpp"
#include "window/main_window.hpp"
#include "window/theme.hpp"

namespace convolab::screenshot {

QStringList startArguments(const char* usage) {
  QApplication::setOrganizationName(QStringLiteral("ConvoLabScreenshot"));
  QApplication::setApplicationName(QStringLiteral("convolab"));
  QStringList args = QApplication::arguments();
  if (args.size() < 3) {
    std::fputs(usage, stderr);
    return {};
  }
  return args;
}

Options parseOptions(const QStringList& args, int first, QSize defaultSize, const OwnOption& own) {
  Options options;
  options.rest = QStringList{args[0]};
  options.size = defaultSize;
  for (int i = first; i < args.size(); ++i) {
    if (own(args, i)) {
      continue;
    } else if (args[i] == QLatin1String("--preset") && i + 1 < args.size()) {
      options.preset = args[++i];
    } else if (args[i] == QLatin1String("--size") && i + 1 < args.size()) {
      const QStringList wh = args[++i].split(QLatin1Char('x'));
      options.size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
    } else {
      options.rest << args[i];
    }
  }
  return options;
}

int parseLaunchOptions(Options& options) {
  auto parsed = gui::parseCommandLine(options.rest);
  if (parsed.exitCode >= 0) {
    std::fputs(qPrintable(parsed.message), stderr);
    return parsed.exitCode;
  }
  options.launch = std::move(parsed.options);
  return -1;
}

std::unique_ptr<gui::MainWindow> makeMainWindow(QApplication& app, const gui::LaunchOptions& launch,
                                                QSize size) {
  gui::initResources();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  gui::theme::apply(app);
  auto window = std::make_unique<gui::MainWindow>(launch);
  window->resize(size);
  return window;
}

void loadBundledPreset(gui::MainWindow& window, const QString& name) {
  if (name.isEmpty()) return;
  gui::PresetLibrary presets;
  for (const auto& e : presets.bundled())
    if (e.name.compare(name, Qt::CaseInsensitive) == 0 || QFileInfo(e.path).baseName() == name)
      window.editor()->presetsMenu()->loadPreset(e);
}

bool showsLoadedFilter(gui::MainWindow& window, const gui::FrameRecord& record) {
  return record.hasTimings && record.filterRevision >= window.pipeline()->filterRevision();
}

void savePixmapAndExit(const QPixmap& pixmap, const QString& out) {
  const bool ok = pixmap.save(out);
  std::printf("%s %s (%dx%d)\n", ok ? "wrote" : "could not write", qPrintable(out), pixmap.width(),
              pixmap.height());
  QApplication::exit(ok ? 0 : 3);
}

int runAndShutDown(gui::MainWindow& window) {
  const int code = QApplication::exec();
  if (!window.pipeline()->shutdown(3000)) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

}  // namespace convolab::screenshot
