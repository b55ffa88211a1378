// SPDX-License-Identifier: MIT
// convolab_screenshot_help: renders the "find the lab" views for docs/GUI.md to PNG. Usage:
//   convolab_screenshot_help OUT.png presets|manual|strategy|shortcuts [--size WxH] [--preset NAME]
//                            [--save-preset NAME] [convolab options…]
// presets: the window with the Presets menu open (thumbnails and headings; the popup painted over the
// window's grab where it opened); manual: Help ▸ User Manual; strategy: Help ▸ What Is This Strategy?;
// shortcuts: the F1 list. Each is taken once frames made with the preset's filter are on screen.
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

#include "command_line.hpp"
#include "filter_editor.hpp"
#include "help_dialogs.hpp"
#include "main_window.hpp"
#include "pipeline.hpp"
#include "preset_library.hpp"
#include "preset_thumbnails.hpp"
#include "resources.hpp"
#include "theme.hpp"

using namespace convolab;

namespace {

void finish(const QPixmap& pixmap, const QString& out) {
  const bool ok = pixmap.save(out);
  std::printf("%s %s (%dx%d)\n", ok ? "wrote" : "could not write", qPrintable(out), pixmap.width(),
              pixmap.height());
  QApplication::exit(ok ? 0 : 3);
}

/// The window with `menu` (open) painted where it is on screen.
QPixmap windowWithMenu(QWidget& window, QMenu* menu) {
  QPixmap shot = window.grab();
  QPainter p(&shot);
  const QPoint at = menu->mapToGlobal(QPoint(0, 0)) - window.mapToGlobal(QPoint(0, 0));
  p.drawPixmap(at, menu->grab());
  return shot;
}

/// The dialog opened last under `window` whose name is `name`.
QDialog* dialogNamed(QWidget& window, const QString& name) {
  const auto all = window.findChildren<QDialog*>(name);
  return all.isEmpty() ? nullptr : all.last();
}

void shoot(gui::MainWindow& window, const QString& what, const QString& out) {
  if (what == QLatin1String("presets")) {
    QMenu* menu = window.editor()->presetsMenu();
    gui::PresetThumbnails* thumbs = window.editor()->presetThumbnails();
    auto show = [&window, menu, out] {
      QTimer::singleShot(600, &window, [&window, menu, out] { finish(windowWithMenu(window, menu), out); });
    };
    QObject::connect(thumbs, &gui::PresetThumbnails::ready, &window, show, Qt::SingleShotConnection);
    window.menuBar()->setActiveAction(menu->menuAction());  // opens it: rebuild → thumbnails requested
    return;
  }
  if (what == QLatin1String("manual")) {
    QDialog* d = gui::showManual(&window);
    QTimer::singleShot(600, &window, [d, out] { finish(d->grab(), out); });
    return;
  }
  const gui::ActionId id =
      what == QLatin1String("strategy") ? gui::ActionId::StrategyHelp : gui::ActionId::Shortcuts;
  window.action(id)->trigger();
  const QString name = what == QLatin1String("strategy") ? QStringLiteral("strategyHelpDialog")
                                                         : QStringLiteral("shortcutsDialog");
  QTimer::singleShot(600, &window, [&window, name, out] {
    if (QDialog* d = dialogNamed(window, name))
      finish(d->grab(), out);
    else
      QApplication::exit(4);
  });
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ConvoLabScreenshot"));
  QApplication::setApplicationName(QStringLiteral("convolab"));
  QStringList args = QApplication::arguments();
  const char* const usage =
      "usage: convolab_screenshot_help OUT.png presets|manual|strategy|shortcuts [--size WxH] [--preset "
      "NAME] "
      "[options]\n";
  if (args.size() < 3) {
    std::fputs(usage, stderr);
    return 2;
  }
  const QString out = args[1];
  const QString what = args[2];
  if (!QStringList{"presets", "manual", "strategy", "shortcuts"}.contains(what)) {
    std::fputs(usage, stderr);
    return 2;
  }
  QStringList rest{args[0]};
  QString preset, savePreset;
  QSize size(1366, 768);
  for (int i = 3; i < args.size(); ++i) {
    if (args[i] == QLatin1String("--preset") && i + 1 < args.size()) {
      preset = args[++i];
    } else if (args[i] == QLatin1String("--save-preset") && i + 1 < args.size()) {
      savePreset = args[++i];
    } else if (args[i] == QLatin1String("--size") && i + 1 < args.size()) {
      const QStringList wh = args[++i].split(QLatin1Char('x'));
      size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
    } else {
      rest << args[i];
    }
  }
  const auto parsed = gui::parseCommandLine(rest);
  if (parsed.exitCode >= 0) {
    std::fputs(qPrintable(parsed.message), stderr);
    return parsed.exitCode;
  }
  gui::initResources();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  gui::theme::apply(app);
  gui::MainWindow window(parsed.options);
  window.resize(size);
  window.move(0, 0);  // the whole screen: a popup that moves up to fit stays inside the picture
  window.show();
  if (!preset.isEmpty()) {
    gui::PresetLibrary presets;
    for (const auto& e : presets.bundled())
      if (e.name.compare(preset, Qt::CaseInsensitive) == 0 || QFileInfo(e.path).baseName() == preset)
        window.editor()->loadPreset(e);
  }
  // A user preset (the filter loaded, under this name) so the menu shows "My presets" with an entry.
  if (!savePreset.isEmpty()) window.editor()->savePreset(savePreset, true);
  bool started = false;
  QObject::connect(&window, &gui::MainWindow::frameShown, &window, [&](const gui::FrameRecord& record) {
    if (started || !record.hasTimings || record.filterRevision < window.pipeline()->filterRevision()) return;
    started = true;
    QTimer::singleShot(800, &window, [&window, what, out] { shoot(window, what, out); });
  });
  QTimer::singleShot(60000, &app, [] {
    std::fputs("timed out\n", stderr);
    QApplication::exit(5);
  });
  const int code = QApplication::exec();
  if (!window.pipeline()->shutdown(3000)) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
