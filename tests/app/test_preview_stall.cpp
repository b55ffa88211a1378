// SPDX-License-Identifier: MIT
// The preview's stall mark (issue 35): a frame waiting for a stuck processing thread is marked ("Waiting for
// the processing thread — 1.8 s") and the mark goes when frames flow again; a still never shows it. Also a
// one-frame clip reads as a still in the statistics (issue 33).
#include <QDir>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.hpp"
#include "capture/latest_frame_slot.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_stall_watch.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "stats/stats_panel.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
using namespace std::chrono_literals;

namespace {
/// CONVOLAB_INJECT_FAULT for the life of a scope.
struct InjectedFault {
  explicit InjectedFault(const char* fault) { qputenv("CONVOLAB_INJECT_FAULT", fault); }
  ~InjectedFault() { qunsetenv("CONVOLAB_INJECT_FAULT"); }
};

ProcessedFramePtr someFrame() {
  auto frame = std::make_shared<ProcessedFrame>();
  auto image = std::make_shared<Image>(64, 48);
  frame->original = frame->filtered = image;
  frame->record.sequence = 1;
  return frame;
}
}  // namespace

class PreviewStallTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_preview_stall")); }

  void aWaitLongerThanAFewFramesIsAStall() {
    const auto now = PreviewStallWatch::Clock::now();
    QCOMPARE(PreviewStallWatch::stallText({}, now), QString());  // nothing waits
    QCOMPARE(PreviewStallWatch::stallText(now - 400ms, now), QString());
    QCOMPARE(PreviewStallWatch::stallText(now - 1800ms, now),
             QStringLiteral("Waiting for the processing thread — 1.8 s"));
  }

  void theSlotSaysSinceWhenAFrameWaits() {
    capture::LatestFrameSlot slot;
    QCOMPARE(slot.waitingSince(), capture::Clock::time_point{});
    capture::Frame frame;
    frame.image = std::make_shared<Image>(4, 2);
    slot.put(frame);
    const auto since = slot.waitingSince();
    QVERIFY(since != capture::Clock::time_point{});
    std::this_thread::sleep_for(5ms);
    frame.image = std::make_shared<Image>(4, 2);
    slot.put(frame);  // a newer frame: the consumer is still late since the first
    QCOMPARE(slot.waitingSince(), since);
    QVERIFY(slot.take());
    QCOMPARE(slot.waitingSince(), capture::Clock::time_point{});
  }

  void theMarkIsDrawnWhileAFrameWaitsAndGoesWhenItIsTaken() {
    PreviewWidget preview(nullptr, QStringLiteral("raster"));
    preview.resize(640, 480);
    preview.show();
    preview.setFrame(someFrame());
    auto since = PreviewStallWatch::Clock::time_point{};
    bool still = false;
    auto* watch = new PreviewStallWatch([&] { return since; }, [&] { return still; }, &preview);
    watch->check();
    QTRY_VERIFY(preview.stalePillRect().isNull());
    since = PreviewStallWatch::Clock::now() - 1200ms;
    watch->check();
    QVERIFY2(preview.stallMessage().startsWith(QStringLiteral("Waiting for the processing thread — 1.")),
             qPrintable(preview.stallMessage()));
    QTRY_VERIFY(!preview.stalePillRect().isNull());  // painted
    still = true;  // a still's repeats wait while a change is processed: its picture is not late
    watch->check();
    QCOMPARE(preview.stallMessage(), QString());
    still = false;
    watch->check();
    QVERIFY(!preview.stallMessage().isEmpty());
    since = {};
    watch->check();
    QCOMPARE(preview.stallMessage(), QString());
    QTRY_VERIFY(preview.stalePillRect().isNull());
  }

  void aStuckProcessingThreadIsMarkedUntilFramesFlow() {
    MainWindow window(test::launchOptions(QStringLiteral("pattern:320x240@30")));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    PreviewWidget* preview = window.preview();
    QCOMPARE(preview->stallMessage(), QString());
    {
      InjectedFault stall("stall:processing");  // each pass holds the processing thread 1.5 s
      QTRY_VERIFY_WITH_TIMEOUT(preview->stallMessage().contains(QLatin1String("processing thread")), 5000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(preview->stallMessage(), QString(), 5000);
    // Frames flow: no mark over a second of them.
    for (int i = 0; i < 10; ++i) {
      QTest::qWait(100);
      QCOMPARE(preview->stallMessage(), QString());
    }
  }

  void aStillNeverShowsTheMark() {
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("chelsea.png"))));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    InjectedFault stall("stall:processing");
    // The image source delivers its picture again and again: its repeats wait while a change is processed
    // (this engine's first passes), yet a still's picture is never late.
    for (int i = 0; i < 20; ++i) {
      QTest::qWait(100);
      QCOMPARE(window.preview()->stallMessage(), QString());
    }
  }

  // Issue 33: a one-frame clip showed a live source rate, drops and a frame budget.
  void aOneFrameClipReadsAsAStill() {
    QTemporaryDir dir;
    const QString clip = test::writePatternClip(dir.filePath(QStringLiteral("one.mkv")), 1);
    QVERIFY(!clip.isEmpty());
    MainWindow window(test::launchOptions(clip));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    auto* panel = window.findChild<StatsPanel*>();
    QVERIFY(panel);
    QTRY_COMPARE_WITH_TIMEOUT(panel->valueLabel(QStringLiteral("source"))->text(),
                              QStringLiteral("still image"), 5000);
    QVERIFY2(panel->text().contains(QLatin1String("still image")), qPrintable(panel->text()));
    // Also while a change is processed (the worker not idle): the clip's source, not the worker, says still.
    panel->setProcessingState({}, false);
    StatsSnapshot busy;
    busy.sourceFps = busy.nominalFps = busy.processedFps = 25;
    busy.delivered = 100;
    panel->showStats(busy);
    QCOMPARE(panel->valueLabel(QStringLiteral("source"))->text(), QStringLiteral("still image"));
    QVERIFY2(!panel->text().contains(QLatin1String("25.0 fps (nominal")), qPrintable(panel->text()));
  }
};

CONVOLAB_GUI_TEST_MAIN(PreviewStallTest)
#include "test_preview_stall.moc"
