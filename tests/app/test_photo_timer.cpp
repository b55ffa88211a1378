// SPDX-License-Identifier: MIT
// The photo timer: a 3 s countdown saves one file 3 s ± 0.2 s later and shows the seconds over the preview;
// Esc cancels it (no file); a burst of 5 gives 5 distinct numbered files, and a second burst overwrites none.
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "outputs/photo_timer.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// A new 8×8 frame on every call (a live source), its first byte counting up.
PhotoTimer::FrameProvider freshFrames() {
  return [n = 0]() mutable {
    auto image = std::make_shared<Image>(8, 8);
    image->pixels[0] = static_cast<std::uint8_t>(++n);
    auto frame = std::make_shared<ProcessedFrame>();
    frame->filtered = image;
    frame->original = image;
    return ProcessedFramePtr(frame);
  };
}

QStringList pngs(const QString& dir) {
  return QDir(dir).entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name);
}

}  // namespace

class PhotoTimerTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_photo_timer")); }

  void threeSecondTimerSavesOneFileThreeSecondsLater() {
    QTemporaryDir dir;
    QWidget preview;
    preview.resize(640, 480);
    PhotoTimer timer(&preview, freshFrames());
    timer.setDirectory(dir.path());
    QSignalSpy saved(&timer, &PhotoTimer::saved);
    QElapsedTimer clock;
    clock.start();
    timer.start(3);
    QVERIFY(timer.overlay()->isVisibleTo(&preview));
    QCOMPARE(timer.overlay()->text(), QStringLiteral("3"));
    QVERIFY(saved.wait(5000));
    const qint64 ms = clock.elapsed();
    QVERIFY2(ms >= 2800 && ms <= 3200, qPrintable(QString::number(ms)));
    QVERIFY(!timer.overlay()->isVisibleTo(&preview));
    QCOMPARE(pngs(dir.path()).size(), 1);
  }

  void escapeCancelsTheCountdown() {
    QTemporaryDir dir;
    QWidget preview;
    PhotoTimer timer(&preview, freshFrames());
    timer.setDirectory(dir.path());
    QSignalSpy cancelled(&timer, &PhotoTimer::cancelled);
    timer.start(1);
    QTest::qWait(200);
    QTest::keyClick(&preview, Qt::Key_Escape);
    QCOMPARE(cancelled.size(), 1);
    QVERIFY(!timer.active());
    QVERIFY(!timer.overlay()->isVisibleTo(&preview));
    QTest::qWait(900);  // past the moment it would have saved
    QCOMPARE(pngs(dir.path()).size(), 0);
  }

  void burstOfFiveGivesFiveNumberedFilesAndOverwritesNone() {
    QTemporaryDir dir;
    QWidget preview;
    PhotoTimer timer(&preview, freshFrames());
    timer.setDirectory(dir.path());
    QSignalSpy finished(&timer, &PhotoTimer::finished);
    timer.start(0, 5, 30);
    QVERIFY(finished.wait(3000));
    const QStringList first = finished.takeFirst().at(0).toStringList();
    QCOMPARE(first.size(), 5);
    QCOMPARE(pngs(dir.path()).size(), 5);
    for (int i = 0; i < 5; ++i)
      QVERIFY2(first[i].endsWith(QStringLiteral("-%1.png").arg(i + 1)), qPrintable(first[i]));
    timer.start(0, 5, 30);  // the same second: the numbers go on, nothing is overwritten
    QVERIFY(finished.wait(3000));
    QCOMPARE(pngs(dir.path()).size(), 10);
  }
};

CONVOLAB_GUI_TEST_MAIN(PhotoTimerTest)
#include "test_photo_timer.moc"
