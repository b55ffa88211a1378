// SPDX-License-Identifier: MIT
// convolab_screenshot: renders the main window (docs/screenshot.png) or, with --lab, a view of the
// strategy lab (docs/GUI.md) to PNG with QWidget::grab(). Usage:
//   convolab_screenshot OUT.png SECONDS [--split] [--vertical] [--zoom FACTOR] [--preset NAME] [--size WxH]
//                       [convolab options…]
//       the window after SECONDS (--vertical: split top / bottom; --zoom: the preview zoomed around its
//       centre, e.g. 8 for 800 % with the pixel grid)
//   convolab_screenshot OUT.png SECONDS --lab compare|analysis|source [--preset NAME] [convolab options…]
//       SECONDS after the first frame made with the preset's filter: compare — the Compare Strategies
//       dialog after a run; analysis — the window with the Analysis dock raised and the pixel inspector's
//       neighbourhood panel (Shift held over the preview); source — the Kernel Source view of the live
//       strategy
//   convolab_screenshot OUT.png SECONDS --camera-menu [--size WxH] [convolab options…]
//       the whole screen (run it under Xvfb) SECONDS after the first frame, with File ▸ Camera open: the
//       cameras listed, V4L2 and PipeWire (docs/screenshot-camera-menu.png: a private PipeWire with a test
//       camera, --source pipewire:testcam)
//   convolab_screenshot OUT.png SECONDS --view-menu [--mirror] [--size WxH] [convolab options…]
//       the same with the View menu open (docs/screenshot-flip-output-1366.png: --mirror --flip-output, the
//       menu showing Mirror Preview and Flip Output checked)
//   convolab_screenshot OUT.png SECONDS --camera-controls [--size WxH] [convolab options…]
//       the window with View ▸ Camera Controls showing the fake V4L2 device (a real UVC camera's controls
//       from tests/data/v4l2), auto exposure switched to manual
//   convolab_screenshot OUT.png SECONDS --custom FILE.json BROKEN.cl [--size WxH] [convolab options…]
//       the Custom OpenCL panel running FILE.json, then showing the compiler's verdict on BROKEN.cl's code
//       (docs/screenshots/custom-opencl-error.png: tests/data/custom_screenshot)
//   convolab_screenshot OUT.png SECONDS --chain FILE.json [--size WxH] [convolab options…]
//       the window after SECONDS with the Chain dock and the statistics raised, running FILE.json's chain
//       (docs/screenshots/chain-dock.png: tests/data/chain_screenshot)
//   convolab_screenshot OUT.png SECONDS --heat-map ROW,COL [--size WxH] [convolab options…]
//       the window after SECONDS with the channels linked, the editor scrolled to the heat map of a large
//       filter (--filter FILE with K > 15) and the pointer over cell (ROW, COL), so its value is read out
//       (docs/screenshots/heatmap-gabor-45.png: tests/data/heatmap_screenshot)
//   convolab_screenshot OUT.png SECONDS --export-video IN.mkv [--size WxH] [convolab options…]
//       the whole screen (run it under Xvfb) when File ▸ Export Filtered Video has exported IN.mkv (to
//       $TMPDIR/IN_filtered.mkv) with the window's filter, SECONDS after the first frame: the outcome's
//       message box over the window, and the status bar's line
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <cstdio>

#include <QCheckBox>
#include "capture/fake_v4l2_device.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "chain/chain_panel.hpp"
#include "sources/camera_controls_dock.hpp"
#include "sources/camera_controls_panel.hpp"

#include "custom/custom_code_editor.hpp"
#include "custom/custom_kernel_controller.hpp"
#include "custom/custom_kernel_dock.hpp"
#include "custom/custom_kernel_panel.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/heat_map_panel.hpp"
#include "editor/kernel_heat_map.hpp"
#include "lab/compare_dialog.hpp"
#include "lab/kernel_source_dialog.hpp"
#include "lab/lab_controller.hpp"
#include "outputs/photo_timer.hpp"
#include "outputs/video_export_dialog.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "screenshot_support.hpp"
#include "window/main_window.hpp"

using namespace convolab;

namespace {

/// Grabs `w` to `out` and ends the app (exit 3 when the file could not be written).
void save(QWidget* w, const QString& out) {
  const bool ok = w->grab().save(out);
  std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
  QApplication::exit(ok ? 0 : 3);
}

/// Opens the lab view `what` of `window`, then saves it to `out` once it has something to show.
void shootLab(gui::MainWindow& window, const QString& what, const QString& out) {
  if (what == QLatin1String("compare")) {
    lab::CompareDialog* d = window.lab()->compareDialog();
    d->iterationsBox()->setValue(10);
    d->resize(lab::CompareDialog::defaultSize(d->screen()->availableGeometry()));
    QObject::connect(d, &lab::CompareDialog::finished, d,
                     [d, out] { QTimer::singleShot(500, d, [d, out] { save(d, out); }); });
    d->show();
    d->start();
  } else if (what == QLatin1String("source")) {
    lab::KernelSourceDialog* d = window.lab()->kernelSourceDialog();
    d->resize(1100, 800);
    QObject::connect(d, &lab::KernelSourceDialog::refreshed, d,
                     [d, out] { QTimer::singleShot(500, d, [d, out] { save(d, out); }); });
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
    QTimer::singleShot(800, &window, [&window, out] { save(&window, out); });
  }
}

/// Opens `file` in the Custom OpenCL panel, switched on; once it runs, replaces its code with the text of
/// `broken` (a version with a mistake) and saves the window 1.5 s after the compiler's verdict is shown.
void shootCustom(gui::MainWindow& window, const QString& file, const QString& broken, const QString& out) {
  auto* dock = window.findChild<gui::CustomKernelDock*>();
  QFile code(broken);
  if (!dock || !code.open(QIODevice::ReadOnly) || !dock->panel()->openFile(file).isEmpty()) {
    std::fputs("cannot open the custom kernel or its broken version\n", stderr);
    QApplication::exit(4);
    return;
  }
  const QString text = QString::fromUtf8(code.readAll());
  dock->show();
  dock->raise();
  if (auto* stats = window.findChild<QDockWidget*>(QStringLiteral("statsDock")))
    stats->raise();  // its timings
  dock->panel()->onSwitch()->setChecked(true);
  gui::CustomKernelController* controller = dock->controller();
  auto replaced = std::make_shared<bool>(false);
  QObject::connect(
      controller, &gui::CustomKernelController::stateChanged, &window,
      [&window, dock, controller, text, replaced, out] {
        using State = gui::CustomKernelState;
        if (controller->state() == State::Live && !*replaced) {
          *replaced = true;
          QTimer::singleShot(1500, &window, [dock, text] { dock->panel()->editor()->replaceText(text); });
        } else if (*replaced &&
                   (controller->state() == State::BuildFailed || controller->state() == State::Refused)) {
          QTimer::singleShot(1500, &window, [&window, out] { save(&window, out); });
        }
      });
}

/// Opens `file` in the Chain dock, switched on, and raises it beside the statistics (per-step timings).
void showChain(gui::MainWindow& window, const QString& file) {
  auto* dock = window.findChild<gui::ChainDock*>();
  if (!dock || !dock->controller()->openFile(file).isEmpty()) {
    std::fputs("cannot open the chain\n", stderr);
    QApplication::exit(4);
    return;
  }
  dock->show();
  dock->raise();
  dock->panel()->list()->setCurrentRow(0);
  dock->panel()->onSwitch()->setChecked(true);
  if (auto* stats = window.findChild<QDockWidget*>(QStringLiteral("statsDock"))) stats->raise();
}

/// Opens the menu bar's `menuName` menu (and its `submenuName` submenu, if given: File ▸ Camera makes its
/// list as it opens) and saves the whole screen: the popups are windows of their own, which a grab of the
/// main window leaves out.
void shootMenu(gui::MainWindow& window, const QString& menuName, const QString& submenuName,
               const QString& out) {
  QMenu* menu = nullptr;
  QAction* submenu = nullptr;
  for (QAction* top : window.menuBar()->actions())
    if (top->menu() && top->text().remove(QLatin1Char('&')) == menuName) menu = top->menu();
  if (menu && !submenuName.isEmpty())
    for (QAction* a : menu->actions())
      if (a->menu() && a->text().remove(QLatin1Char('&')) == submenuName) submenu = a;
  if (!menu || (!submenuName.isEmpty() && !submenu)) {
    std::fprintf(stderr, "no %s > %s\n", qPrintable(menuName), qPrintable(submenuName));
    QApplication::exit(4);
    return;
  }
  window.menuBar()->setActiveAction(menu->menuAction());
  QTimer::singleShot(300, &window, [&window, menu, submenu, out] {
    if (submenu) menu->setActiveAction(submenu);  // opens the submenu at once
    QTimer::singleShot(
        800, &window, [&window, out] { screenshot::savePixmapAndExit(window.screen()->grabWindow(0), out); });
  });
}

/// Points View ▸ Camera Controls at the fake device, switches auto exposure to manual (the exposure time is
/// freed, white balance stays greyed), and raises the dock.
void showFakeCameraControls(gui::MainWindow& window) {
  QFile file(QStringLiteral(CONVOLAB_TEST_DATA "/v4l2/uvc_camera_ctrls.txt"));
  if (!file.open(QIODevice::ReadOnly)) std::fputs("no tests/data/v4l2/uvc_camera_ctrls.txt\n", stderr);
  auto device = std::make_unique<capture::FakeV4l2Device>(
      capture::FakeV4l2Device::parseListCtrlsMenus(file.readAll().toStdString()));
  device->setValue(0x009a0901, 1);  // exposure_auto: Manual Mode
  window.cameraControls()->panel()->setDevice(
      QStringLiteral("/dev/v4l/by-id/usb-Fake_UVC_Camera-video-index0"), std::move(device));
  window.action(gui::ActionId::CameraControls)->trigger();
}

/// Exports `input` as File ▸ Export Filtered Video does (its progress dialog, then its outcome) and saves the
/// whole screen with the outcome's message box over the window.
void shootExport(gui::MainWindow& window, const QString& input, const QString& out) {
  const QString output =
      QDir(QDir::tempPath()).filePath(QFileInfo(input).completeBaseName() + QStringLiteral("_filtered.mkv"));
  QFile::remove(output);
  auto* dialog = new gui::VideoExportDialog(&window);
  QObject::connect(dialog, &gui::VideoExportDialog::exportFinished, &window,
                   [&window, output, out](bool ok, bool cancelled, const QString& message) {
                     gui::showVideoExportOutcome(
                         &window, ok, cancelled, message, output,
                         [&window](const QString& line) { window.statusBar()->showMessage(line, 10000); });
                     QTimer::singleShot(800, &window, [&window, out] {
                       screenshot::savePixmapAndExit(window.screen()->grabWindow(0), out);
                     });
                   });
  if (!dialog->start(input, output, window.document()->filter(), QString(), QStringLiteral("naive")))
    QApplication::exit(4);
}

/// Scrolls the editor to channel R's heat map and points at cell (row, col) of it.
void pointAtHeatMapCell(gui::MainWindow& window, int row, int col) {
  gui::KernelHeatMap* map = window.editor()->grid(0)->heatMap()->map();
  const auto scrolls = window.editor()->findChildren<QScrollArea*>(Qt::FindDirectChildrenOnly);
  if (!scrolls.isEmpty()) scrolls.first()->ensureWidgetVisible(window.editor()->grid(0)->heatMap(), 0, 0);
  const QPointF at = map->cellRect(row, col).center();
  QMouseEvent move(QEvent::MouseMove, at, map->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(map, &move);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const char* const usage =
      "usage: convolab_screenshot OUT.png SECONDS [--split] [--vertical] [--zoom FACTOR] [--preset NAME] "
      "[--size WxH] "
      "[--lab compare|analysis|source] [--camera-menu] [--view-menu] [--camera-controls] [--mirror] "
      "[--countdown] "
      "[--export-video IN] [--file-dialog] [--custom FILE BROKEN_CODE] [--chain FILE] [--heat-map ROW,COL] "
      "[options]\n";
  const QStringList args = screenshot::startArguments(usage);
  if (args.isEmpty()) return 2;
  const QString out = args[1];
  const double seconds = args[2].toDouble();
  bool split = false, vertical = false, cameraMenu = false, cameraControls = false, mirror = false,
       countdown = false, fileDialog = false, viewMenu = false;
  double zoom = 0;
  QPoint heatCell(-1, -1);
  QString lab, exportInput, customFile, customBroken, chainFile;
  auto own = [&](const QStringList& a, int& i) {
    if (a[i] == QLatin1String("--split")) {
      split = true;
    } else if (a[i] == QLatin1String("--file-dialog")) {
      fileDialog = true;
    } else if (a[i] == QLatin1String("--camera-menu")) {
      cameraMenu = true;
    } else if (a[i] == QLatin1String("--view-menu")) {
      viewMenu = true;
    } else if (a[i] == QLatin1String("--camera-controls")) {
      cameraControls = true;
    } else if (a[i] == QLatin1String("--mirror")) {
      mirror = true;
    } else if (a[i] == QLatin1String("--countdown")) {
      countdown = true;
    } else if (a[i] == QLatin1String("--vertical")) {
      vertical = true;
    } else if (a[i] == QLatin1String("--zoom") && i + 1 < a.size()) {
      zoom = a[++i].toDouble();
    } else if (a[i] == QLatin1String("--export-video") && i + 1 < a.size()) {
      exportInput = a[++i];
    } else if (a[i] == QLatin1String("--custom") && i + 2 < a.size()) {
      customFile = a[++i];
      customBroken = a[++i];
    } else if (a[i] == QLatin1String("--chain") && i + 1 < a.size()) {
      chainFile = a[++i];
    } else if (a[i] == QLatin1String("--heat-map") && i + 1 < a.size()) {
      const QStringList cell = a[++i].split(QLatin1Char(','));
      if (cell.size() == 2) heatCell = QPoint(cell[1].toInt(), cell[0].toInt());
    } else if (a[i] == QLatin1String("--lab") && i + 1 < a.size()) {
      lab = a[++i];
    } else {
      return false;
    }
    return true;
  };
  screenshot::Options options = screenshot::parseOptions(args, 3, QSize(1600, 1000), own);
  if (!lab.isEmpty() && lab != QLatin1String("compare") && lab != QLatin1String("analysis") &&
      lab != QLatin1String("source")) {
    std::fputs(usage, stderr);
    return 2;
  }
  if (const int code = screenshot::parseLaunchOptions(options); code >= 0) return code;
  const auto windowOwner = screenshot::makeMainWindow(app, options.launch, options.size);
  gui::MainWindow& window = *windowOwner;
  if (cameraMenu || viewMenu || !exportInput.isEmpty())
    window.move(0, 0);  // the screen's grab shows the window where it is
  window.show();
  if (split) window.action(gui::ActionId::ViewSplit)->trigger();
  if (window.action(gui::ActionId::SplitVertical)->isChecked() != vertical)
    window.action(gui::ActionId::SplitVertical)->trigger();
  if (zoom > 0) window.preview()->setZoom(zoom);
  screenshot::loadBundledPreset(window, options.preset);
  if (!chainFile.isEmpty()) showChain(window, chainFile);
  const int delayMs = static_cast<int>(seconds * 1000);
  if (countdown)  // a 10 s countdown, shot at its first second
    QTimer::singleShot(std::max(0, delayMs - 300), &window, [&window] { window.photoTimer()->start(10); });
  if (mirror)  // once the source is taken (a new source restores its own choice)
    QTimer::singleShot(delayMs / 2, &window, [&window] {
      if (!window.action(gui::ActionId::MirrorPreview)->isChecked())
        window.action(gui::ActionId::MirrorPreview)->trigger();
    });
  // After the source is running: the dock follows the source (a pattern has no controls) until then.
  if (cameraControls)
    QTimer::singleShot(std::max(0, delayMs - 1500), &window, [&window] { showFakeCameraControls(window); });
  if (heatCell.x() >= 0) {  // linked first: the one card has its header laid out by the time of the shot
    QTimer::singleShot(delayMs / 2, &window, [&window] { window.document()->setLinked(true); });
    QTimer::singleShot(std::max(0, delayMs - 500), &window,
                       [&window, heatCell] { pointAtHeatMapCell(window, heatCell.y(), heatCell.x()); });
  }
  bool started = false;
  if (fileDialog) {
    QTimer::singleShot(delayMs, &window, [&window, out] {
      auto* dialog = new QFileDialog(&window, QStringLiteral("Open Image"), QDir::homePath());
      dialog->setOption(QFileDialog::DontUseNativeDialog);
      dialog->open();
      QTimer::singleShot(800, &window, [&window, out] {
        screenshot::savePixmapAndExit(window.screen()->grabWindow(0), out);
      });
    });
  } else if (!exportInput.isEmpty()) {
    QObject::connect(&window, &gui::MainWindow::frameShown, &window, [&, delayMs](const gui::FrameRecord&) {
      if (started) return;
      started = true;
      QTimer::singleShot(delayMs, &window,
                         [&window, exportInput, out] { shootExport(window, exportInput, out); });
    });
  } else if (cameraMenu || viewMenu) {
    QObject::connect(&window, &gui::MainWindow::frameShown, &window, [&, delayMs](const gui::FrameRecord&) {
      if (started) return;
      started = true;
      QTimer::singleShot(delayMs, &window, [&window, out, viewMenu] {
        if (viewMenu)
          shootMenu(window, QStringLiteral("View"), QString(), out);
        else
          shootMenu(window, QStringLiteral("File"), QStringLiteral("Camera"), out);
      });
    });
  } else if (!customFile.isEmpty()) {
    QTimer::singleShot(delayMs, &window, [&window, customFile, customBroken, out] {
      shootCustom(window, customFile, customBroken, out);
    });
  } else if (lab.isEmpty()) {
    QTimer::singleShot(delayMs, &window, [&window, out] { save(&window, out); });
  } else {
    // The lab view opens once frames made with the preset's filter are on screen (auto may time strategies
    // first).
    QObject::connect(
        &window, &gui::MainWindow::frameShown, &window, [&, delayMs](const gui::FrameRecord& record) {
          if (started || !screenshot::showsLoadedFilter(window, record)) return;
          started = true;
          QTimer::singleShot(delayMs, &window, [&window, lab, out] { shootLab(window, lab, out); });
        });
  }
  return screenshot::runAndShutDown(window);
}
