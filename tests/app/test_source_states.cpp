// SPDX-License-Identifier: MIT
// Source states: a source failing mid-stream shows "disconnected — waiting…" and recovers; no camera shows
// its panel.
#include <QDir>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "app_test_support.hpp"
#include "capture/capture_thread.hpp"
#include "capture/test_pattern_source.hpp"
#include "capture/video_file_source.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// The entries File ▸ Camera Mode shows now (it is filled when it is about to show).
QStringList cameraModeEntries(MainWindow& window) {
  for (auto* menu : window.findChildren<QMenu*>()) {
    if (menu->title() != QStringLiteral("Camera &Mode")) continue;
    emit menu->aboutToShow();
    QStringList entries;
    for (QAction* a : menu->actions()) entries << a->text();
    return entries;
  }
  return {QStringLiteral("(no Camera Mode menu)")};
}

}  // namespace

class SourceStatesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("source-states-test")); }

  void failingSourceShowsDisconnectedAndReconnects() {
    LaunchOptions o;
    // Fails after 8 frames; the first two reconnect attempts fail too, the third succeeds.
    o.source = QStringLiteral("pattern:320x240@30,fail=8,recover=2");
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    PreviewWidget* preview = window.preview();
    QTRY_VERIFY_WITH_TIMEOUT(!preview->disconnectedMessage().isEmpty(), 10000);
    QCOMPARE(preview->disconnectedMessage(), QStringLiteral("Test pattern disconnected — waiting…"));
    QVERIFY(preview->frame());  // the last frame stays (dimmed)
    QVERIFY(!preview->placeholderVisible());
    // The UI stays responsive while the source is away: edits still re-process the last frame.
    const auto before = window.pipeline()->latestFrame()->record.sequence;
    const std::uint64_t revision = window.pipeline()->setFilter(test::distinctChannelsFilter());
    const auto reprocessed = test::waitForFrame(window, revision, 20000);
    QVERIFY(reprocessed);
    QVERIFY(reprocessed->record.sequence > before);
    // It comes back by itself.
    QTRY_VERIFY_WITH_TIMEOUT(preview->disconnectedMessage().isEmpty(), 15000);
  }

  void missingCameraShowsTheNoCameraPanel() {
    LaunchOptions o;
    o.source = QStringLiteral("/dev/video63");  // no such camera
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.show();
    PreviewWidget* preview = window.preview();
    QTRY_VERIFY_WITH_TIMEOUT(preview->placeholderVisible(), 10000);
    QCOMPARE(preview->placeholderTitle(), QStringLiteral("No camera found"));
    QVERIFY(preview->openImageButton()->isVisible());
    QVERIFY(preview->openVideoButton()->isVisible());
    QVERIFY(preview->testPatternButton()->isVisible());
    QCOMPARE(window.currentSourceSpec(), QStringLiteral("/dev/video63"));  // nothing else was picked silently
    // What the window does with a camera comes from what the source says it can do: a device is remembered
    // only once it delivers, it has modes to list (none here), and Step means "the next frame".
    QVERIFY(window.settings().value(AppSettings::kSource).toString() != QStringLiteral("/dev/video63"));
    QCOMPARE(cameraModeEntries(window), QStringList{QStringLiteral("(the driver lists no modes)")});
    QVERIFY(window.action(ActionId::Step)->isEnabled());
    QTest::mouseClick(preview->testPatternButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window.currentSourceSpec(), QStringLiteral("pattern"), 10000);
    QVERIFY(test::waitForFrame(window, 0));
    QTRY_VERIFY_WITH_TIMEOUT(!preview->placeholderVisible(), 10000);
    QCOMPARE(cameraModeEntries(window), QStringList{QStringLiteral("(the source is not a camera)")});
    QCOMPARE(window.settings().value(AppSettings::kSource).toString(), QStringLiteral("pattern"));
    QVERIFY(!window.settings().recentSources().contains(QStringLiteral("pattern")));  // not a file
  }

  void unreadableFileShowsWhy() {
    MainWindow window(test::launchOptions(QStringLiteral("/nonexistent/clip.mp4")));
    window.show();
    QVERIFY(window.preview()->placeholderVisible());
    QCOMPARE(window.preview()->placeholderTitle(), QStringLiteral("Cannot open this source"));
  }

  void videoFilesLoopPauseAndStep() {
    // A 12-frame clip, written with the app's own recorder.
    const QString clip =
        test::writePatternClip(QDir(QDir::homePath()).filePath(QStringLiteral("clip.avi")), 12);
    QVERIFY(!clip.isEmpty());
    capture::VideoFileSource direct(clip.toStdString());
    direct.open();
    capture::Frame f;
    for (int i = 0; i < 30; ++i) QVERIFY2(direct.read(f), "the clip loops at its end");
    QCOMPARE(f.index, std::int64_t{29});

    MainWindow window(test::launchOptions(clip));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    QTRY_VERIFY_WITH_TIMEOUT(window.pipeline()->latestFrame()->record.sourceIndex > 14, 20000);  // looped
    window.action(ActionId::Pause)->setChecked(true);
    QTest::qWait(300);
    const auto paused = window.pipeline()->latestFrame()->record.sourceIndex;
    QTest::qWait(300);
    QCOMPARE(window.pipeline()->latestFrame()->record.sourceIndex, paused);
    window.action(ActionId::Step)->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(window.pipeline()->latestFrame()->record.sourceIndex, paused + 1, 10000);
    window.action(ActionId::Pause)->setChecked(false);
    QTRY_VERIFY_WITH_TIMEOUT(window.pipeline()->latestFrame()->record.sourceIndex > paused + 3, 10000);
  }

  void captureThreadDropsOldFramesAndCountsThem() {
    auto slot = std::make_shared<capture::LatestFrameSlot>();
    std::atomic<int> wakeups{0};
    std::vector<capture::CaptureState> states;
    std::mutex m;
    {
      capture::TestPatternOptions opt;
      opt.width = 64;
      opt.height = 48;
      opt.fps = 200;
      capture::CaptureThread thread(
          std::make_unique<capture::TestPatternSource>(opt), slot, [&] { ++wakeups; },
          [&](const capture::CaptureStatus& s) {
            std::lock_guard lock(m);
            states.push_back(s.state);
          });
      QTest::qWait(300);  // nobody takes frames: all but the newest are dropped
    }
    QVERIFY(slot->delivered() > 10);
    QCOMPARE(slot->dropped(), slot->delivered() - 1);
    QCOMPARE(wakeups.load(), 1);  // the consumer is woken once per empty→full
    auto frame = slot->take();
    QVERIFY(frame.has_value());
    QCOMPARE(frame->index, static_cast<std::int64_t>(slot->delivered() - 1));
    QVERIFY(states.size() >= 2);
    QCOMPARE(states[0], capture::CaptureState::Opening);
    QCOMPARE(states[1], capture::CaptureState::Running);
  }
};

CONVOLAB_GUI_TEST_MAIN(SourceStatesTest)
#include "test_source_states.moc"
