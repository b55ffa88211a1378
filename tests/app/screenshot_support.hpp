// SPDX-License-Identifier: MIT
// What the screenshot tools (convolab_screenshot, convolab_screenshot_help) share: the application's names,
// the options both take (--preset NAME, --size WxH, the rest for convolab's own command line), the main
// window made as the app makes it, a bundled preset loaded by name, the test for frames made with the loaded
// filter, writing a PNG, and the run and shutdown.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

#include "command_line.hpp"

class QApplication;
class QPixmap;

namespace convolab::gui {
class MainWindow;
struct FrameRecord;
}  // namespace convolab::gui

namespace convolab::screenshot {

/// Names the application, so that its settings live apart from the user's ("ConvoLabScreenshot"), and returns
/// its arguments; empty, with `usage` printed, when OUT.png and the second argument are missing.
QStringList startArguments(const char* usage);

struct Options {
  QString preset;             ///< --preset NAME: a bundled preset, by name or file name
  QSize size;                 ///< --size WxH: the window's
  QStringList rest;           ///< the others, for convolab's own command line (args[0] first)
  gui::LaunchOptions launch;  ///< parseLaunchOptions(): `rest` parsed
};
/// Takes a tool's own option at args[i] (advancing i past its value); false when args[i] is not one.
using OwnOption = std::function<bool(const QStringList& args, int& i)>;
/// Reads args[first] on: the tool's own options through `own`, --preset and --size, the rest into
/// `options.rest`.
Options parseOptions(const QStringList& args, int first, QSize defaultSize, const OwnOption& own);
/// `options.rest` parsed as convolab's command line into `options.launch`: -1 to go on, else the exit code,
/// its message printed (--help: 0, a usage error: 2).
int parseLaunchOptions(Options& options);

/// The main window as the app makes it (resources, icon, theme), resized to `size`; not shown.
std::unique_ptr<gui::MainWindow> makeMainWindow(QApplication& app, const gui::LaunchOptions& launch,
                                                QSize size);
/// Loads the bundled preset called `name` (its name, any case, or its file's base name); none when empty.
void loadBundledPreset(gui::MainWindow& window, const QString& name);
/// Whether `record` is a timed frame made with the filter loaded last.
bool showsLoadedFilter(gui::MainWindow& window, const gui::FrameRecord& record);
/// Saves `pixmap` to `out`, says so with its size, and ends the app (exit 3 when the file could not be
/// written).
void savePixmapAndExit(const QPixmap& pixmap, const QString& out);
/// Runs the app; its exit code. A pipeline that does not shut down in 3 s is left (std::_Exit).
int runAndShutDown(gui::MainWindow& window);

}  // namespace convolab::screenshot
