// SPDX-License-Identifier: MIT
// View ▸ Flip Output (issue 32 item 2): what leaves the app — Save Frame, Copy Frame, the photo timer,
// Record, every sink of the output door (the virtual camera and the v4l2 loopback are such sinks) and
// --snapshot — is flipped left to right while it is on, and none of it while only Mirror Preview is on
// ("mirror does not change the saved file, and flip does"). Both choices are remembered per camera and
// validated on load; the pixel inspector reads the pixel under the pointer with either flip on.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "capture/frame_source.hpp"
#include "capture/source_spec.hpp"
#include "cv/image_codec.hpp"
#include "gui_test_main.hpp"
#include "lab/lab_controller.hpp"
#include "lab/pixel_inspector.hpp"
#include "output/flip.hpp"
#include "output/output_door.hpp"
#include "outputs/flip_output.hpp"
#include "outputs/frame_saver.hpp"
#include "outputs/photo_timer.hpp"
#include "preview/mirror_preview.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "recording_sink.hpp"
#include "window/action_table.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

Image flipped(const Image& image) {
  return output::flippedLeftRight(image.view());
}

Image fromQImage(const QImage& qimage) {
  const QImage rgb = qimage.convertToFormat(QImage::Format_RGB888);
  Image image(rgb.width(), rgb.height());
  for (int y = 0; y < rgb.height(); ++y)
    std::memcpy(image.mutableView().row(y), rgb.constScanLine(y), std::size_t(rgb.width()) * kBytesPerPixel);
  return image;
}

void wipeSettings() {
  QSettings().clear();
  QSettings().sync();
}

bool filteredNow(const ProcessedFrame& f) {
  return !f.record.unfiltered && !f.record.stale && !f.record.bypassed && f.record.error.isEmpty();
}

LaunchOptions stillImage(const QString& name = QStringLiteral("chelsea.png")) {
  return test::launchOptions(test::dataFile(name));
}

Image savedNow(MainWindow& window, const QString& dir) {
  const QString path = window.saveFrameNow(dir);
  return path.isEmpty() ? Image() : opencv::loadImage(path.toStdString());
}

int runApp(const QStringList& args) {
  QProcess app;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  app.setProcessEnvironment(env);
  app.start(QStringLiteral(CONVOLAB_APP), args);
  if (!app.waitForStarted() || !app.waitForFinished(60000)) return -1;
  return app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -2;
}

const QString kCameraA = QStringLiteral("/dev/v4l/by-id/usb-Vendor_Camera_A-video-index0");
const QString kCameraB = QStringLiteral("/dev/v4l/by-id/usb-Vendor_Camera_B-video-index0");

}  // namespace

class FlipOutputWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_flip_output")); }
  void init() { wipeSettings(); }

  // The test: mirror does not change the saved file, and flip does.
  void mirrorLeavesTheSavedFileAsComputedAndFlipFlipsIt() {
    MainWindow window(stillImage());
    window.resize(900, 700);
    window.show();
    QVERIFY(test::waitForFrameWhere(window, filteredNow));
    const Image computed = *window.pipeline()->latestFrame()->filtered;
    QVERIFY(test::maxAbsDiff(computed, flipped(computed)) > 0);  // the picture is not symmetric
    QTemporaryDir dir;
    QAction* mirror = window.action(ActionId::MirrorPreview);
    QAction* flip = window.action(ActionId::FlipOutput);
    QVERIFY(!mirror->isChecked() && !flip->isChecked());  // a file: neither by default

    mirror->trigger();
    QVERIFY(window.preview()->mirrored());
    QCOMPARE(test::maxAbsDiff(savedNow(window, dir.path()), computed), 0);  // mirror: as computed

    flip->trigger();
    QVERIFY(flip->isChecked() && window.pipeline()->outputDoor()->flipped());
    QCOMPARE(test::maxAbsDiff(savedNow(window, dir.path()), flipped(computed)), 0);  // both: flipped
    mirror->trigger();
    QVERIFY(!window.preview()->mirrored());
    QCOMPARE(test::maxAbsDiff(savedNow(window, dir.path()), flipped(computed)), 0);  // flip alone
    // The preview's frame stays as computed: Flip Output changes only what leaves.
    QCOMPARE(test::maxAbsDiff(*window.preview()->frame()->filtered, computed), 0);

    flip->trigger();
    QVERIFY(!window.pipeline()->outputDoor()->flipped());
    QCOMPARE(test::maxAbsDiff(savedNow(window, dir.path()), computed), 0);
  }

  void copyAndThePhotoTimerGetTheFlippedFrame() {
    MainWindow window(stillImage());
    window.resize(900, 700);
    window.show();
    QVERIFY(test::waitForFrameWhere(window, filteredNow));
    const Image computed = *window.pipeline()->latestFrame()->filtered;
    window.action(ActionId::FlipOutput)->trigger();

    window.action(ActionId::CopyFrame)->trigger();
    QCOMPARE(test::maxAbsDiff(fromQImage(QApplication::clipboard()->image()), flipped(computed)), 0);

    // Save after Countdown (no delay here) and a burst: as Save Frame.
    QTemporaryDir dir;
    window.photoTimer()->setDirectory(dir.path());
    QSignalSpy finished(window.photoTimer(), &PhotoTimer::finished);
    window.photoTimer()->start(0, 1);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);  // no delay: it may finish within start()
    const QStringList paths = finished.first().first().toStringList();
    QCOMPARE(paths.size(), 1);
    QCOMPARE(test::maxAbsDiff(opencv::loadImage(paths.first().toStdString()), flipped(computed)), 0);
  }

  // Save after Countdown takes what Save takes (Pipeline::frameThatMayLeave): it took the newest frame, so a
  // bypassed (unfiltered) frame could be saved. Now it waits for a filtered one.
  void thePhotoTimerSavesNoBypassedFrame() {
    MainWindow window(stillImage());
    window.resize(900, 700);
    window.show();
    QVERIFY(test::waitForFrameWhere(window, filteredNow));
    window.action(ActionId::Bypass)->trigger();
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.bypassed; }));
    QTemporaryDir dir;
    window.photoTimer()->setDirectory(dir.path());
    QSignalSpy saved(window.photoTimer(), &PhotoTimer::saved);
    window.photoTimer()->start(0, 1);
    QTest::qWait(500);
    QCOMPARE(saved.count(), 0);
    window.action(ActionId::Bypass)->trigger();  // the filter back: the frame made with it is saved
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 20000);
    const Image file = opencv::loadImage(saved.first().first().toString().toStdString());
    QCOMPARE(test::maxAbsDiff(file, *window.pipeline()->frameThatMayLeave()->filtered), 0);
  }

  // The door's sinks (the virtual camera, the loopback and the recorder are sinks of this door) and a real
  // recording read back from its file.
  void everySinkAndTheRecordingGetTheFlippedFrame() {
    MainWindow window(stillImage(QStringLiteral("coffee.png")));  // 600×400: recorded at its own size
    window.resize(900, 700);
    window.show();
    QVERIFY(test::waitForFrameWhere(window, filteredNow));
    const Image computed = *window.pipeline()->latestFrame()->filtered;
    auto sink = std::make_shared<test::RecordingSink>(/*wantsRepeats=*/true);
    window.pipeline()->outputDoor()->add(sink);
    QTRY_VERIFY_WITH_TIMEOUT(sink->count() >= 2, 10000);
    QCOMPARE(test::maxAbsDiff(*sink->frames().back().image, computed), 0);  // off: as computed

    window.action(ActionId::FlipOutput)->trigger();
    const std::size_t from = sink->count() + 1;  // a frame on its way meanwhile may be either
    QTRY_VERIFY_WITH_TIMEOUT(sink->count() >= from + 3, 10000);
    const auto frames = sink->frames();
    for (std::size_t i = from; i < frames.size(); ++i)
      QCOMPARE(test::maxAbsDiff(*frames[i].image, flipped(computed)), 0);

    // Record with Flip Output on. MJPG is lossy (a mean difference of about 9 from the frame it was given,
    // here), so the first recorded frame must be much nearer the flip than the frame as computed (about 48
    // from it).
    window.action(ActionId::Record)->trigger();
    QVERIFY(window.pipeline()->isRecording());
    const QString path = QString::fromStdString(window.pipeline()->recorder()->path().string());
    QTRY_VERIFY_WITH_TIMEOUT(window.pipeline()->recorder()->written() >= 5, 10000);
    window.action(ActionId::Record)->trigger();
    QVERIFY(!window.pipeline()->isRecording());
    window.pipeline()->outputDoor()->remove(sink);
    auto video = capture::createSource(path.toStdString());
    video->open();
    capture::Frame first;
    QVERIFY(video->read(first));
    const double toFlipped = test::meanAbsDiff(*first.image, flipped(computed));
    const double toComputed = test::meanAbsDiff(*first.image, computed);
    QVERIFY2(toFlipped >= 0 && toFlipped < 16 && toComputed > 3 * toFlipped,
             qPrintable(QStringLiteral("mean difference to the flip %1, to the frame %2")
                            .arg(toFlipped)
                            .arg(toComputed)));
  }

  // --snapshot with --flip-output is the flip of the --snapshot without it.
  void snapshotIsFlippedWithTheFlipOutputOption() {
    QTemporaryDir dir;
    const QString plain = dir.filePath(QStringLiteral("plain.png")),
                  flip = dir.filePath(QStringLiteral("flip.png"));
    const QStringList run = {QStringLiteral("--source"),   test::dataFile(QStringLiteral("chelsea.png")),
                             QStringLiteral("--strategy"), QStringLiteral("naive"),
                             QStringLiteral("--frames"),   QStringLiteral("2")};
    QCOMPARE(runApp(run + QStringList{QStringLiteral("--snapshot"), plain}), 0);
    QCOMPARE(runApp(run + QStringList{QStringLiteral("--snapshot"), flip, QStringLiteral("--flip-output")}),
             0);
    const Image a = opencv::loadImage(plain.toStdString()), b = opencv::loadImage(flip.toStdString());
    QVERIFY(test::maxAbsDiff(a, flipped(a)) > 0);
    QCOMPARE(test::maxAbsDiff(b, flipped(a)), 0);
  }

  // Both choices per camera, by its stable id: camera A flipped and mirrored, camera B neither, after a
  // restart too; a camera is mirrored by default and not flipped.
  void bothChoicesAreRememberedPerCamera() {
    QString spec = kCameraA;
    const auto traits = [] {
      capture::SourceTraits t;
      t.waitsForDevice = true;  // a camera
      return t;
    };
    const auto make = [&](AppSettings& settings, QAction& flipAction, QAction& mirrorAction,
                          std::shared_ptr<output::OutputDoor> door, PreviewWidget& preview, bool onForRun) {
      flipAction.setCheckable(true);
      mirrorAction.setCheckable(true);
      auto flip = std::make_unique<FlipOutput>(
          FlipOutput::Parts{&flipAction, door, &settings, [&] { return spec; }}, onForRun, nullptr);
      auto mirror = std::make_unique<MirrorPreview>(
          MirrorPreview::Parts{&mirrorAction, &preview, &settings, traits, [&] { return spec; }}, nullptr);
      return std::make_pair(std::move(flip), std::move(mirror));
    };
    PreviewWidget preview(nullptr, QStringLiteral("raster"));
    {
      AppSettings settings;
      QAction flipAction, mirrorAction;
      auto door = std::make_shared<output::OutputDoor>();
      auto [flip, mirror] = make(settings, flipAction, mirrorAction, door, preview, false);
      flip->sourceChanged();
      mirror->sourceChanged();
      QVERIFY(!flipAction.isChecked() && !door->flipped());     // a camera: not flipped by default
      QVERIFY(mirrorAction.isChecked() && preview.mirrored());  // but mirrored
      flipAction.trigger();
      QVERIFY(door->flipped());
      spec = kCameraB;
      flip->sourceChanged();
      mirror->sourceChanged();
      QVERIFY(!flipAction.isChecked() && !door->flipped());
      mirrorAction.trigger();  // B: not mirrored
      QVERIFY(!preview.mirrored());
      spec = kCameraA;
      flip->sourceChanged();
      mirror->sourceChanged();
      QVERIFY(flipAction.isChecked() && door->flipped());
      QVERIFY(mirrorAction.isChecked() && preview.mirrored());
    }
    {  // a restart
      AppSettings settings;
      QVERIFY(settings.notes().isEmpty());
      QAction flipAction, mirrorAction;
      auto door = std::make_shared<output::OutputDoor>();
      auto [flip, mirror] = make(settings, flipAction, mirrorAction, door, preview, false);
      for (const auto& [camera, on] : {std::pair{kCameraA, true}, std::pair{kCameraB, false}}) {
        spec = camera;
        flip->sourceChanged();
        mirror->sourceChanged();
        QCOMPARE(door->flipped(), on);
        QCOMPARE(flipAction.isChecked(), on);
        QCOMPARE(preview.mirrored(), on);
      }
    }
    {  // --flip-output: on for every source of the run, and not remembered
      AppSettings settings;
      QAction flipAction, mirrorAction;
      auto door = std::make_shared<output::OutputDoor>();
      auto [flip, mirror] = make(settings, flipAction, mirrorAction, door, preview, true);
      QVERIFY(door->flipped());
      spec = kCameraB;
      flip->sourceChanged();
      QVERIFY(door->flipped() && flipAction.isChecked());
      QVERIFY(
          !settings.value(AppSettings::kFlipOutput).toStringList().join(QLatin1Char(' ')).contains(kCameraB));
    }
  }

  void rememberedChoicesAreValidatedOnLoad() {
    {
      QSettings disk;
      QStringList tooMany;
      for (int i = 0; i < 100; ++i) tooMany << QStringLiteral("/dev/video%1\t1").arg(i);
      disk.setValue(AppSettings::kMirror, tooMany);
      disk.setValue(AppSettings::kFlipOutput, QStringList{kCameraA + QStringLiteral("\tyes")});
    }
    {
      AppSettings settings;
      QVERIFY(settings.rejectedKeys().contains(AppSettings::kMirror));
      QVERIFY(settings.rejectedKeys().contains(AppSettings::kFlipOutput));
      QCOMPARE(settings.notes().size(), 2);
      QVERIFY(!settings.value(AppSettings::kFlipOutput).isValid());
    }
    {
      QSettings disk;
      disk.setValue(AppSettings::kMirror, QStringList{kCameraA + QStringLiteral("\t1")});  // one entry
      disk.setValue(AppSettings::kFlipOutput,
                    QStringList{kCameraA + QStringLiteral("\t0"), kCameraB + QStringLiteral("\t1")});
    }
    AppSettings settings;
    QVERIFY2(settings.notes().isEmpty(), qPrintable(settings.notes().join(QLatin1Char('\n'))));
  }

  // With Mirror Preview and Flip Output on, the inspector reads the pixel under the pointer: the frame's
  // pixel there, which the saved (flipped) file holds at the flipped column.
  void theInspectorReadsThePixelUnderThePointerWithEitherFlip() {
    MainWindow window(stillImage(QStringLiteral("coffee.png")));
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::waitForFrameWhere(window, filteredNow));
    QTRY_VERIFY(window.preview()->frame() != nullptr);
    lab::PixelInspector* inspector = window.lab()->inspector();
    QVERIFY(inspector);
    window.action(ActionId::MirrorPreview)->trigger();
    window.action(ActionId::FlipOutput)->trigger();
    QTemporaryDir dir;
    const Image saved = savedNow(window, dir.path());
    QVERIFY(saved.width > 0);
    PreviewWidget* preview = window.preview();
    const QRectF image = preview->view().imageRect();
    for (const double t : {0.2, 0.7}) {
      const QPointF at(image.left() + t * image.width(), image.center().y());
      const QPoint pixel = preview->framePosition(at);
      QVERIFY(pixel.x() >= 0);
      QCOMPARE(pixel, preview->view().framePixel(at));  // the mirrored view's mapping
      QMouseEvent move(QEvent::MouseMove, at, preview->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                       Qt::NoModifier);
      QApplication::sendEvent(preview, &move);
      const auto& probe = inspector->lastProbe();
      QVERIFY(probe);
      QCOMPARE(QPoint(probe->x, probe->y), pixel);
      const Image& shown = *preview->frame()->filtered;
      const int savedX = output::flippedColumn(pixel.x(), saved.width);
      for (int c = 0; c < 3; ++c) {
        QCOMPARE(probe->output[c], int(shown.view().row(pixel.y())[pixel.x() * 3 + c]));
        QCOMPARE(probe->output[c], int(saved.view().row(pixel.y())[savedX * 3 + c]));
      }
    }
  }

  void flipOutputIsInTheViewMenuAndTheF1List() {
    MainWindow window(stillImage());
    QAction* flip = window.action(ActionId::FlipOutput);
    QCOMPARE(flip->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QVERIFY(flip->isCheckable());
    for (QAction* other : window.findChildren<QAction*>())
      if (other != flip) QVERIFY2(!other->shortcuts().contains(flip->shortcut()), qPrintable(other->text()));
    const QString f1 = window.findChild<ActionTable*>()->shortcutListHtml();
    QVERIFY(f1.contains(QStringLiteral("Flip Output")));
    QVERIFY(f1.contains(flip->shortcut().toString(QKeySequence::NativeText)));
    bool inView = false;
    for (QAction* menu : window.menuBar()->actions())
      if (menu->text().remove(QLatin1Char('&')) == QLatin1String("View") && menu->menu())
        inView = menu->menu()->actions().contains(flip) &&
                 menu->menu()->actions().indexOf(flip) ==
                     menu->menu()->actions().indexOf(window.action(ActionId::MirrorPreview)) + 1;
    QVERIFY(inView);
  }
};

CONVOLAB_GUI_TEST_MAIN(FlipOutputWindowTest)
#include "test_flip_output.moc"
