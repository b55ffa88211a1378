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
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QTimer>
#include <cstdio>

#include "editor/filter_editor.hpp"
#include "editor/preset_thumbnails.hpp"
#include "editor/presets_menu.hpp"
#include "screenshot_support.hpp"
#include "window/help_dialogs.hpp"
#include "window/main_window.hpp"

using namespace convolab;

namespace {

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
    gui::PresetThumbnails* thumbs = window.editor()->presetsMenu()->thumbnails();
    auto show = [&window, menu, out] {
      QTimer::singleShot(600, &window, [&window, menu, out] {
        screenshot::savePixmapAndExit(windowWithMenu(window, menu), out);
      });
    };
    QObject::connect(thumbs, &gui::PresetThumbnails::ready, &window, show, Qt::SingleShotConnection);
    window.menuBar()->setActiveAction(menu->menuAction());  // opens it: rebuild → thumbnails requested
    return;
  }
  if (what == QLatin1String("manual")) {
    QDialog* d = gui::showManual(&window);
    QTimer::singleShot(600, &window, [d, out] { screenshot::savePixmapAndExit(d->grab(), out); });
    return;
  }
  const gui::ActionId id =
      what == QLatin1String("strategy") ? gui::ActionId::StrategyHelp : gui::ActionId::Shortcuts;
  window.action(id)->trigger();
  const QString name = what == QLatin1String("strategy") ? QStringLiteral("strategyHelpDialog")
                                                         : QStringLiteral("shortcutsDialog");
  QTimer::singleShot(600, &window, [&window, name, out] {
    if (QDialog* d = dialogNamed(window, name))
      screenshot::savePixmapAndExit(d->grab(), out);
    else
      QApplication::exit(4);
  });
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const char* const usage =
      "usage: convolab_screenshot_help OUT.png presets|manual|strategy|shortcuts [--size WxH] [--preset "
      "NAME] "
      "[options]\n";
  const QStringList args = screenshot::startArguments(usage);
  if (args.isEmpty()) return 2;
  const QString out = args[1];
  const QString what = args[2];
  if (!QStringList{"presets", "manual", "strategy", "shortcuts"}.contains(what)) {
    std::fputs(usage, stderr);
    return 2;
  }
  QString savePreset;
  auto own = [&savePreset](const QStringList& a, int& i) {
    if (a[i] != QLatin1String("--save-preset") || i + 1 >= a.size()) return false;
    savePreset = a[++i];
    return true;
  };
  screenshot::Options options = screenshot::parseOptions(args, 3, QSize(1366, 768), own);
  if (const int code = screenshot::parseLaunchOptions(options); code >= 0) return code;
  const auto windowOwner = screenshot::makeMainWindow(app, options.launch, options.size);
  gui::MainWindow& window = *windowOwner;
  window.move(0, 0);  // the whole screen: a popup that moves up to fit stays inside the picture
  window.show();
  screenshot::loadBundledPreset(window, options.preset);
  // A user preset (the filter loaded, under this name) so the menu shows "My presets" with an entry.
  if (!savePreset.isEmpty()) window.editor()->presetsMenu()->savePreset(savePreset, true);
  bool started = false;
  QObject::connect(&window, &gui::MainWindow::frameShown, &window, [&](const gui::FrameRecord& record) {
    if (started || !screenshot::showsLoadedFilter(window, record)) return;
    started = true;
    QTimer::singleShot(800, &window, [&window, what, out] { shoot(window, what, out); });
  });
  QTimer::singleShot(60000, &app, [] {
    std::fputs("timed out\n", stderr);
    QApplication::exit(5);
  });
  return screenshot::runAndShutDown(window);
}
