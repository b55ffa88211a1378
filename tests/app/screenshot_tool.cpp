// convolab_screenshot: runs the main window for a while and saves QWidget::grab() as PNG (for
// docs/screenshot.png). Usage: convolab_screenshot OUT.png SECONDS [convolab options…]; extra: --split,
// --preset NAME, --size WxH.
#include <QApplication>
#include <QDir>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

#include "command_line.hpp"
#include "filter_document.hpp"
#include "filter_editor.hpp"
#include "main_window.hpp"
#include "pipeline.hpp"
#include "preset_library.hpp"
#include "resources.hpp"
#include "theme.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ConvoLabScreenshot"));
  QApplication::setApplicationName(QStringLiteral("convolab"));
  QStringList args = QApplication::arguments();
  if (args.size() < 3) {
    std::fprintf(
        stderr,
        "usage: convolab_screenshot OUT.png SECONDS [--split] [--preset NAME] [--size WxH] [options]\n");
    return 2;
  }
  const QString out = args[1];
  const double seconds = args[2].toDouble();
  QStringList rest{args[0]};
  bool split = false;
  QString preset;
  QSize size(1600, 1000);
  for (int i = 3; i < args.size(); ++i) {
    if (args[i] == QLatin1String("--split")) {
      split = true;
    } else if (args[i] == QLatin1String("--preset") && i + 1 < args.size()) {
      preset = args[++i];
    } else if (args[i] == QLatin1String("--size") && i + 1 < args.size()) {
      const QStringList wh = args[++i].split(QLatin1Char('x'));
      size = QSize(wh.value(0).toInt(), wh.value(1).toInt());
    } else {
      rest << args[i];
    }
  }
  const auto parsed = convolab::gui::parseCommandLine(rest);
  if (parsed.exitCode >= 0) {
    std::fputs(qPrintable(parsed.message), stderr);
    return parsed.exitCode;
  }
  convolab::gui::initResources();
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/convolab.svg")));
  convolab::gui::theme::apply(app);
  convolab::gui::MainWindow window(parsed.options);
  window.resize(size);
  window.show();
  if (split) window.action(convolab::gui::ActionId::ViewSplit)->trigger();
  if (!preset.isEmpty()) {
    convolab::gui::PresetLibrary presets;
    for (const auto& e : presets.bundled())
      if (e.name.compare(preset, Qt::CaseInsensitive) == 0 || QFileInfo(e.path).baseName() == preset)
        window.editor()->loadPreset(e);
  }
  QTimer::singleShot(static_cast<int>(seconds * 1000), &window, [&] {
    const bool ok = window.grab().save(out);
    std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
    QApplication::exit(ok ? 0 : 3);
  });
  const int code = QApplication::exec();
  if (!window.pipeline()->shutdown(3000)) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
