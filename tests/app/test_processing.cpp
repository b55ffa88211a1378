// SPDX-License-Identifier: MIT
// Live processing tests: an edit changes the next frame, bypass, and strategy/device switches while running.
#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <opencv2/videoio.hpp>

#include "app_test_support.hpp"
#include "editor/channel_grid.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

class ProcessingTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> m_window;

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("processing-test"));
    m_window =
        std::make_unique<MainWindow>(test::launchOptions(test::dataFile(QStringLiteral("chelsea.png"))));
    m_window->show();
    QVERIFY(test::waitForFrame(*m_window, 0));
  }

  void cleanupTestCase() { m_window.reset(); }

  void editingACellChangesTheNextFrame() {
    m_window->document()->resetToIdentity();  // a first start opens Emboss; this edit starts from identity
    FilterEditor* editor = m_window->editor();
    editor->grid(0)->table()->item(3, 4)->setText(
        QStringLiteral("1"));  // red: blend with the right neighbour
    editor->grid(2)->table()->item(3, 3)->setText(QStringLiteral("-1"));  // blue: negated (→ 0)
    const std::uint64_t revision = m_window->pipeline()->filterRevision();
    const auto frame = test::waitForFrame(*m_window, revision);
    QVERIFY(frame);
    QCOMPARE(frame->record.filterRevision, revision);
    const FilterSet& f = m_window->document()->filter();
    QCOMPARE(f.channel(0).at(3, 4), 1.0);
    const Image expected = test::referenceResult(*frame->original, f);
    QVERIFY(test::maxAbsDiff(*frame->filtered, expected) <= 1);
    // And it really differs from the input: the blue channel is black.
    QCOMPARE(frame->filtered->view().row(10)[10 * 3 + 2], std::uint8_t{0});
  }

  void everyEditReachesThePreview() {
    const FilterSet target = test::distinctChannelsFilter();
    m_window->document()->replace(target, QStringLiteral("distinct"));
    const auto frame = test::waitForFrame(*m_window, m_window->pipeline()->filterRevision());
    QVERIFY(frame);
    QVERIFY(test::maxAbsDiff(*frame->filtered, test::referenceResult(*frame->original, target)) <= 1);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->preview()->frame() &&
            m_window->preview()->frame()->record.filterRevision >= frame->record.filterRevision,
        5000);
  }

  void bypassShowsTheInput() {
    m_window->action(ActionId::Bypass)->trigger();
    auto frame =
        test::waitForFrameWhere(*m_window, [](const ProcessedFrame& f) { return f.record.bypassed; });
    QVERIFY(frame);
    QCOMPARE(test::maxAbsDiff(*frame->filtered, *frame->original), 0);
    m_window->action(ActionId::Bypass)->trigger();
    frame = test::waitForFrameWhere(
        *m_window, [](const ProcessedFrame& f) { return !f.record.bypassed && f.record.hasTimings; });
    QVERIFY(frame);
  }

  void strategySwitchWhileRunning() {
    QSignalSpy ready(m_window->pipeline(), &Pipeline::engineReady);
    for (const char* name : {"constant", "naive"}) {
      m_window->setStrategy(QString::fromLatin1(name));
      QVERIFY(ready.wait(30000));
      QCOMPARE(ready.last().at(2).value<StrategyId>(), StrategyId{name});
      // Frames keep coming, correct, whichever strategy (or fallback) ran them.
      const std::uint64_t revision = m_window->pipeline()->setFilter(m_window->document()->filter());
      const auto frame = test::waitForFrame(*m_window, revision);
      QVERIFY(frame);
      QVERIFY(frame->record.hasTimings);
      QVERIFY(!frame->record.timings.strategy.name.empty());
      QVERIFY(test::maxAbsDiff(*frame->filtered,
                               test::referenceResult(*frame->original, m_window->document()->filter())) <= 1);
    }
    QCOMPARE(m_window->requestedStrategy(), QStringLiteral("naive"));
  }

  void deviceSwitchWhileRunning() {
    QSignalSpy ready(m_window->pipeline(), &Pipeline::engineReady);
    QSignalSpy failed(m_window->pipeline(), &Pipeline::processingFailed);
    m_window->setDevice(QStringLiteral("0:0"));
    QVERIFY(ready.wait(30000));
    QCOMPARE(ready.last().at(1).toString(), QStringLiteral("0:0"));
    const std::uint64_t revision = m_window->pipeline()->setFilter(m_window->document()->filter());
    QVERIFY(test::waitForFrame(*m_window, revision));
    // A device that does not exist: a message, and processing carries on with the device it had.
    m_window->setDevice(QStringLiteral("no-such-device-xyz"));
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.last().at(0).toString().contains(QStringLiteral("no-such-device-xyz")));
    const std::uint64_t again = m_window->pipeline()->setFilter(m_window->document()->filter());
    QVERIFY(test::waitForFrame(*m_window, again));
  }

  void recordingWritesAVideo() {
    QAction* record = m_window->action(ActionId::Record);
    record->setChecked(true);
    QVERIFY(m_window->pipeline()->isRecording());
    const QString path = QString::fromStdString(m_window->pipeline()->recorder()->path().string());
    QVERIFY(path.startsWith(QStandardPaths::writableLocation(QStandardPaths::MoviesLocation)));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->pipeline()->recorder()->written() >= 5, 20000);
    record->setChecked(false);
    QVERIFY(!m_window->pipeline()->isRecording());
    cv::VideoCapture video(path.toStdString());
    QVERIFY(video.isOpened());
    QVERIFY(video.get(cv::CAP_PROP_FRAME_COUNT) >= 5);
    QCOMPARE(static_cast<int>(video.get(cv::CAP_PROP_FRAME_WIDTH)),
             (m_window->pipeline()->latestFrame()->filtered->width + 1) &
                 ~1);  // 451 wide: padded to even, never cropped
  }

  void statisticsAreCollected() {
    QTRY_VERIFY_WITH_TIMEOUT(m_window->stats().processedTotal() > 3, 20000);
    const auto s =
        m_window->stats().snapshot(std::chrono::steady_clock::now(), std::chrono::milliseconds(10000));
    QVERIFY(!s.stages.empty());
    QCOMPARE(QString::fromStdString(s.stages.front().name), QStringLiteral("upload"));
    QCOMPARE(QString::fromStdString(s.stages.back().name), QStringLiteral("download"));
    QVERIFY(s.total.mean > 0);
  }
};

CONVOLAB_GUI_TEST_MAIN(ProcessingTest)
#include "test_processing.moc"
