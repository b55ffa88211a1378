// SPDX-License-Identifier: MIT
// Issue 23, "the app lists testcam", as a person meets it: the main window (offscreen) under a private
// PipeWire with a camera node named testcam and the app's own virtual camera on. File ▸ Camera lists testcam
// (label and spec), never the app's own "convolab" node; choosing the entry opens pipewire:testcam and the
// preview gets the camera's frames (its size and its pixels). Run by run_with_private_pipewire.sh; skipped,
// with the reason, where pipewire, wireplumber or dbus-run-session is missing (label pipewire).
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTest>
#include <chrono>
#include <memory>

#include "app_test_support.hpp"
#include "command_line.hpp"
#include "fake_camera.hpp"
#include "private_pipewire.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

constexpr int kCameraWidth = 320;
constexpr int kCameraHeight = 240;

/// The camera's picture: smooth ramps (the format the camera and the app agree on may be YUY2, which halves
/// the chroma), of a size no other source here has (the app starts on a 64×48 test pattern).
std::shared_ptr<const Image> cameraPicture() {
  auto image = std::make_shared<Image>(kCameraWidth, kCameraHeight);
  for (int y = 0; y < image->height; ++y) {
    std::uint8_t* row = image->mutableView().row(y);
    for (int x = 0; x < image->width; ++x) {
      row[3 * x] = static_cast<std::uint8_t>(x * 255 / (kCameraWidth - 1));
      row[3 * x + 1] = static_cast<std::uint8_t>(y * 255 / (kCameraHeight - 1));
      row[3 * x + 2] = 90;
    }
  }
  return image;
}

/// File ▸ Camera, found as a person finds it: through the menu bar.
QMenu* fileCameraMenu(MainWindow& window) {
  for (QAction* top : window.menuBar()->actions()) {
    if (!top->menu() || top->text().remove(QLatin1Char('&')) != QLatin1String("File")) continue;
    for (QAction* a : top->menu()->actions())
      if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Camera")) return a->menu();
  }
  return nullptr;
}

/// Opens `menu` (its entries are made as it opens), returns what it lists, and closes it.
QList<QAction*> openAndRead(QMenu* menu) {
  menu->popup(QPoint(20, 20));
  QCoreApplication::processEvents();
  const QList<QAction*> entries = menu->actions();
  menu->hide();
  return entries;
}

bool statusBarSays(MainWindow& window, const QString& text) {
  for (const QLabel* label : window.statusBar()->findChildren<QLabel*>())
    if (label->isVisible() && label->text().contains(text)) return true;
  return false;
}

}  // namespace

class CameraMenuTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("camera-menu-test")); }

  void fileCameraListsTheTestCameraAndShowsItsFrames() {
    if (const std::string why = vcam::test::PrivatePipeWire::unavailableReason(); !why.empty())
      QSKIP(why.c_str());
    vcam::test::PrivatePipeWire daemon;
    QVERIFY(daemon.start());
    const auto picture = cameraPicture();
    vcam::test::FakeCamera camera("testcam", picture);

    LaunchOptions options;
    options.source = QStringLiteral("pattern:64x48@30");
    options.strategy = QStringLiteral("naive");
    options.virtualCamera = true;  // our own node, "convolab", is in the graph too: it must not be listed
    MainWindow window(options);
    window.resize(1000, 700);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(statusBarSays(window, QStringLiteral("Virtual camera: no viewer")), 15000);

    QMenu* menu = fileCameraMenu(window);
    QVERIFY2(menu, "no File ▸ Camera");
    // The node registers with the daemon on its own thread: the menu lists it once it is in the graph.
    QAction* entry = nullptr;
    QStringList listed;
    for (const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         !entry && std::chrono::steady_clock::now() < until; QTest::qWait(100)) {
      listed.clear();
      for (QAction* a : openAndRead(menu)) {
        listed << a->text() + QStringLiteral(" [") + a->toolTip() + QStringLiteral("]");
        QVERIFY2(!a->toolTip().contains(QStringLiteral("convolab")),
                 qPrintable(QStringLiteral("our own output is offered as a camera: ") + listed.last()));
        if (a->toolTip() == QLatin1String("pipewire:testcam")) entry = a;
      }
    }
    QVERIFY2(entry, qPrintable(QStringLiteral("File ▸ Camera lists: ") + listed.join(QStringLiteral("; "))));
    QVERIFY2(entry->text().contains(QStringLiteral("testcam")), qPrintable(entry->text()));
    QVERIFY(entry->isEnabled());
    QVERIFY(!entry->isChecked());

    entry->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(window.currentSourceSpec(), QStringLiteral("pipewire:testcam"), 10000);
    const ProcessedFramePtr frame = test::waitForFrameWhere(
        window,
        [](const ProcessedFrame& f) {
          return f.original && f.original->width == kCameraWidth && f.original->height == kCameraHeight;
        },
        15000);
    QVERIFY2(frame, "no frame of the camera's size reached the preview");
    // The camera's pixels, within the conversion's rounding whatever format was negotiated (as
    // pipewire_camera_source_test allows).
    const int difference = test::maxAbsDiff(*frame->original, *picture);
    qInfo("camera frame %dx%d, largest difference from the camera's picture: %d", frame->original->width,
          frame->original->height, difference);
    QVERIFY2(difference >= 0 && difference <= 8, qPrintable(QString::number(difference)));
    QVERIFY(frame->filtered);

    // Opened, the camera is the checked entry when the menu opens again.
    bool checked = false;
    for (QAction* a : openAndRead(menu))
      if (a->toolTip() == QLatin1String("pipewire:testcam")) checked = a->isChecked();
    QVERIFY(checked);
  }
};

QTEST_MAIN(CameraMenuTest)
#include "app_camera_menu_test.moc"
