// convolab_lab_screenshot: screenshots of the strategy lab for docs/GUI.md. Usage:
//   convolab_lab_screenshot compare OUT.png [convolab options…]   the Compare Strategies dialog after a run
//   convolab_lab_screenshot analysis OUT.png [--preset NAME] [convolab options…]   the window with the
//       Analysis dock raised and the pixel inspector's neighbourhood panel (Shift held over the preview)
//   convolab_lab_screenshot source OUT.png [convolab options…]    the Kernel Source view of the live strategy
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMouseEvent>
#include <QSpinBox>
#include <QTimer>
#include <cstdio>
#include <cstdlib>

#include "command_line.hpp"
#include "filter_editor.hpp"
#include "lab/compare_dialog.hpp"
#include "lab/kernel_source_dialog.hpp"
#include "lab/lab_controller.hpp"
#include "main_window.hpp"
#include "pipeline.hpp"
#include "preset_library.hpp"
#include "preview_widget.hpp"
#include "resources.hpp"
#include "theme.hpp"

using namespace convolab;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ConvoLabScreenshot"));
  QApplication::setApplicationName(QStringLiteral("convolab"));
  QStringList args = QApplication::arguments();
  if (args.size() < 3) {
    std::fprintf(
        stderr, "usage: convolab_lab_screenshot compare|analysis|source OUT.png [--preset NAME] [options]\n");
    return 2;
  }
  const QString what = args[1], out = args[2];
  QStringList rest{args[0]};
  QString preset;
  for (int i = 3; i < args.size(); ++i) {
    if (args[i] == QLatin1String("--preset") && i + 1 < args.size())
      preset = args[++i];
    else
      rest << args[i];
  }
  const auto parsed = gui::parseCommandLine(rest);
  if (parsed.exitCode >= 0) {
    std::fputs(qPrintable(parsed.message), stderr);
    return parsed.exitCode;
  }
  gui::initResources();
  gui::theme::apply(app);
  gui::MainWindow window(parsed.options);
  window.resize(1600, 1000);
  window.show();
  if (!preset.isEmpty()) {
    gui::PresetLibrary presets;
    for (const auto& e : presets.bundled())
      if (e.name.compare(preset, Qt::CaseInsensitive) == 0 || QFileInfo(e.path).baseName() == preset)
        window.editor()->loadPreset(e);
  }
  auto save = [&](QWidget* w) {
    const bool ok = w->grab().save(out);
    std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
    QApplication::exit(ok ? 0 : 3);
  };
  // Start once frames made with the preset's filter are on screen (auto may time strategies first).
  bool started = false;
  auto begin = [&] {
    if (what == QLatin1String("compare")) {
      lab::CompareDialog* d = window.lab()->compareDialog();
      d->iterationsBox()->setValue(10);
      d->resize(1400, 900);
      QObject::connect(d, &lab::CompareDialog::finished, d,
                       [&, d] { QTimer::singleShot(500, d, [&, d] { save(d); }); });
      d->show();
      d->start();
    } else if (what == QLatin1String("source")) {
      lab::KernelSourceDialog* d = window.lab()->kernelSourceDialog();
      d->resize(1100, 800);
      QObject::connect(d, &lab::KernelSourceDialog::refreshed, d,
                       [&, d] { QTimer::singleShot(500, d, [&, d] { save(d); }); });
      d->show();
      d->refresh();
    } else {
      window.lab()->analysisDock()->show();
      window.lab()->analysisDock()->raise();
      gui::PreviewWidget* preview = window.preview();
      const QPointF at =
          QRectF(preview->rect()).center() + QPointF(preview->width() * 0.18, preview->height() * 0.12);
      QMouseEvent move(QEvent::MouseMove, at, preview->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                       Qt::ShiftModifier);
      QApplication::sendEvent(preview, &move);
      QTimer::singleShot(800, &window, [&] { save(&window); });
    }
  };
  QObject::connect(&window, &gui::MainWindow::frameShown, &window, [&](const gui::FrameRecord& record) {
    if (started || !record.hasTimings || record.filterRevision < window.pipeline()->filterRevision()) return;
    started = true;
    QTimer::singleShot(1500, &window, begin);
  });
  const int code = QApplication::exec();
  if (!window.pipeline()->shutdown(3000)) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
