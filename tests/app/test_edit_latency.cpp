// SPDX-License-Identifier: MIT
// Edit → screen: the bookkeeping (commits, superseded edits, stale and unfiltered frames, strategy requests,
// bypass) and its wiring into the window's statistics panel.
#include <QLabel>
#include <QTest>

#include "app_test_support.hpp"
#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "stats/edit_latency.hpp"
#include "stats/edit_tracker.hpp"
#include "stats/stats_panel.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
using std::chrono::milliseconds;

namespace {

const auto t0 = std::chrono::steady_clock::now();

FrameRecord frame(std::uint64_t revision) {
  FrameRecord r;
  r.filterRevision = revision;
  r.hasTimings = true;
  r.timings.strategy = StrategyId("naive");
  r.processed = t0;
  return r;
}

FrameRecord ran(StrategyId strategy, milliseconds processedAt) {
  FrameRecord r = frame(1);
  r.timings.strategy = std::move(strategy);
  r.processed = t0 + processedAt;
  return r;
}

using Reached = std::vector<std::pair<EditLatency::Ticket, double>>;

}  // namespace

class EditLatencyTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("edit-latency-test")); }

  void aFilterEditReachesTheScreenWithTheFirstCurrentFrame() {
    EditLatency edits;
    const auto ticket = edits.commitRevision(5, EditKind::Filter, t0);
    QCOMPARE(edits.painted(frame(4), t0 + milliseconds(10)), Reached{});  // older filter
    FrameRecord stale = frame(5);
    stale.stale = true;
    QCOMPARE(edits.painted(stale, t0 + milliseconds(20)), Reached{});
    FrameRecord unfiltered = frame(5);
    unfiltered.unfiltered = true;
    QCOMPARE(edits.painted(unfiltered, t0 + milliseconds(25)), Reached{});
    FrameRecord failed = frame(5);
    failed.error = QStringLiteral("CL_OUT_OF_RESOURCES");
    QCOMPARE(edits.painted(failed, t0 + milliseconds(27)), Reached{});
    FrameRecord bypassed = frame(5);
    bypassed.bypassed = true;  // shows the input, not the edited filter
    QCOMPARE(edits.painted(bypassed, t0 + milliseconds(28)), Reached{});
    QCOMPARE(edits.pending(), std::size_t{1});
    QCOMPARE(edits.painted(frame(5), t0 + milliseconds(40)), (Reached{{ticket, 40.0}}));
    QCOMPARE(edits.pending(), std::size_t{0});
    QCOMPARE(edits.painted(frame(6), t0 + milliseconds(50)), Reached{});  // counted once
    const EditLatencySummary s = edits.summary();
    QCOMPARE(s.samples, 1);
    QCOMPARE(s.lastMs, 40.0);
    QCOMPARE(s.maxMs, 40.0);
    QCOMPARE(s.meanMs, 40.0);
  }

  void aSupersededEditReachesTheScreenWithTheNewerOne() {
    EditLatency edits;
    const auto first = edits.commitRevision(6, EditKind::Filter, t0);
    const auto second = edits.commitRevision(7, EditKind::Filter, t0 + milliseconds(10));
    FrameRecord stale = frame(6);  // made with 6 after 7 was published: stale, shows neither
    stale.stale = true;
    QCOMPARE(edits.painted(stale, t0 + milliseconds(50)), Reached{});
    QCOMPARE(edits.painted(frame(7), t0 + milliseconds(100)), (Reached{{first, 100.0}, {second, 90.0}}));
    const EditLatencySummary s = edits.summary();
    QCOMPARE(s.samples, 2);
    QCOMPARE(s.lastMs, 90.0);  // the newest edit's
    QCOMPARE(s.maxMs, 100.0);
    QCOMPARE(s.meanMs, 95.0);
  }

  void anOlderEditReachesTheScreenOnItsOwnFrame() {
    EditLatency edits;
    const auto first = edits.commitRevision(8, EditKind::Filter, t0);
    const auto second = edits.commitRevision(9, EditKind::Filter, t0 + milliseconds(10));
    QCOMPARE(edits.painted(frame(8), t0 + milliseconds(20)), (Reached{{first, 20.0}}));
    QCOMPARE(edits.pending(), std::size_t{1});
    QCOMPARE(edits.painted(frame(9), t0 + milliseconds(45)), (Reached{{second, 35.0}}));
  }

  void bypassEditsAcceptBypassedFrames() {
    EditLatency edits;
    const auto on = edits.commitRevision(10, EditKind::Bypass, t0);
    FrameRecord bypassed = frame(10);
    bypassed.bypassed = true;
    QCOMPARE(edits.painted(bypassed, t0 + milliseconds(15)), (Reached{{on, 15.0}}));
    // A filter edit made while bypassed waits for bypass to go off; that edit's frame includes it.
    const auto edit = edits.commitRevision(11, EditKind::Filter, t0 + milliseconds(20));
    bypassed.filterRevision = 11;
    QCOMPARE(edits.painted(bypassed, t0 + milliseconds(30)), Reached{});
    const auto off = edits.commitRevision(12, EditKind::Bypass, t0 + milliseconds(40));
    QCOMPARE(edits.painted(frame(12), t0 + milliseconds(60)), (Reached{{edit, 40.0}, {off, 20.0}}));
  }

  void aStrategyRequestReachesTheScreenWithAFrameItRan() {
    EditLatency edits;
    const auto codegen = edits.commitStrategy("codegen", t0 + milliseconds(100));
    // Another strategy; codegen processed before the request; auto's codegen: not what was asked for.
    QCOMPARE(edits.painted(ran(StrategyId("naive"), milliseconds(150)), t0 + milliseconds(160)), Reached{});
    QCOMPARE(edits.painted(ran(StrategyId("codegen"), milliseconds(90)), t0 + milliseconds(170)), Reached{});
    QCOMPARE(edits.painted(ran(StrategyId("codegen", "", true), milliseconds(150)), t0 + milliseconds(180)),
             Reached{});
    FrameRecord noTimings = ran(StrategyId("codegen"), milliseconds(150));
    noTimings.hasTimings = false;
    QCOMPARE(edits.painted(noTimings, t0 + milliseconds(185)), Reached{});
    QCOMPARE(
        edits.painted(ran(StrategyId("codegen", "b4x2-wg16x8"), milliseconds(190)), t0 + milliseconds(200)),
        (Reached{{codegen, 100.0}}));
  }

  // A --script strategy action with a variant ("tiled/b4x2-wg16x8") was compared as text with the name that
  // ran, never matched, and --stats reported it as null (issue 33.6).
  void aStrategyWithAVariantReachesTheScreenWithThatVariant() {
    EditLatency edits;
    const auto tiled = edits.commitStrategy("tiled/b4x2-wg16x8", t0);
    QCOMPARE(edits.painted(ran(StrategyId("tiled", "b1x1-wg8x8"), milliseconds(5)), t0 + milliseconds(10)),
             Reached{});
    QCOMPARE(edits.painted(ran(StrategyId("tiled", "b4x2-wg16x8"), milliseconds(20)), t0 + milliseconds(25)),
             (Reached{{tiled, 25.0}}));
  }

  // A request the engine could not run (it fell back) never shows; --stats says why beside its null.
  void aFallbackSaysWhyItNeverShowed() {
    QCOMPARE(strategyNotShownReason("separable", StrategyId("naive")),
             std::string("not on screen: the engine ran naive instead (a fallback)"));
    QCOMPARE(strategyNotShownReason("tiled/b4x2-wg16x8", StrategyId("tiled", "b4x2-wg16x8")), std::string());
    QCOMPARE(strategyNotShownReason("auto", StrategyId("tiled", "", true)), std::string());
  }

  void autoIsOnScreenWhateverItChose() {
    EditLatency edits;
    const auto first = edits.commitStrategy("auto", t0);
    QCOMPARE(edits.painted(ran(StrategyId("tiled"), milliseconds(5)), t0 + milliseconds(10)), Reached{});
    QCOMPARE(edits.painted(ran(StrategyId("auto"), milliseconds(20)), t0 + milliseconds(30)),
             (Reached{{first, 30.0}}));  // before it chose
    const auto second = edits.commitStrategy("auto", t0 + milliseconds(40));
    QCOMPARE(edits.painted(ran(StrategyId("tiled", "", true), milliseconds(50)), t0 + milliseconds(70)),
             (Reached{{second, 30.0}}));
  }

  void strategyRequestsSupersedeEachOtherNotFilterEdits() {
    EditLatency edits;
    const auto constant = edits.commitStrategy("constant", t0);
    const auto filter = edits.commitRevision(3, EditKind::Filter, t0 + milliseconds(5));
    const auto naive = edits.commitStrategy("naive", t0 + milliseconds(10));
    FrameRecord r = ran(StrategyId("naive"), milliseconds(20));
    r.filterRevision = 2;  // an older filter: the strategy is on screen, the filter edit is not
    QCOMPARE(edits.painted(r, t0 + milliseconds(30)), (Reached{{constant, 30.0}, {naive, 20.0}}));
    r.filterRevision = 3;
    QCOMPARE(edits.painted(r, t0 + milliseconds(45)), (Reached{{filter, 40.0}}));
  }

  void resetForgetsTheFiguresNotThePendingEdits() {
    EditLatency edits;
    edits.commitRevision(1, EditKind::Filter, t0);
    edits.painted(frame(1), t0 + milliseconds(500));
    const auto pending = edits.commitRevision(2, EditKind::Filter, t0 + milliseconds(600));
    edits.reset();
    QCOMPARE(edits.summary().samples, 0);
    QCOMPARE(edits.summary().maxMs, 0.0);
    QCOMPARE(edits.painted(frame(2), t0 + milliseconds(610)), (Reached{{pending, 10.0}}));
    QCOMPARE(edits.summary().samples, 1);
    QCOMPARE(edits.summary().maxMs, 10.0);
    QCOMPARE(edits.summary().meanMs, 10.0);
  }

  void pendingEditsAreBounded() {
    EditLatency edits;
    for (std::uint64_t r = 1; r <= EditLatency::kMaxPending + 50; ++r)
      edits.commitRevision(r, EditKind::Filter, t0);
    QCOMPARE(edits.pending(), EditLatency::kMaxPending);
    QCOMPARE(edits.painted(frame(EditLatency::kMaxPending + 50), t0).size(), EditLatency::kMaxPending);
  }

  // Issue 34.11: scripted edits (kept) outlive the bound: 1,500 of them, each reported when the screen shows
  // them (beyond 1,000 they came out as null in --stats); typed ones around them stay bounded.
  void keptEditsOutliveTheBound() {
    EditLatency edits;
    for (std::uint64_t r = 1; r <= 1500; ++r) {
      edits.keep(edits.commitRevision(2 * r - 1, EditKind::Filter, t0));
      edits.commitRevision(2 * r, EditKind::Filter, t0);  // typed
    }
    QCOMPARE(edits.pending(), std::size_t{1500} + EditLatency::kMaxPending);
    const auto reached = edits.painted(frame(3000), t0 + milliseconds(5));
    QCOMPARE(reached.size(), std::size_t{1500} + EditLatency::kMaxPending);
    QCOMPARE(reached.front().first, EditLatency::Ticket{1});  // the first scripted edit is still there
  }

  // The window: an edit in the editor is measured and shown in the panel; the start-up filter is no edit;
  // Reset clears the row.
  void theWindowShowsEditToScreen() {
    MainWindow window(test::launchOptions(QStringLiteral("pattern:96x64@30")));
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QTest::qWait(200);
    QCOMPARE(window.edits()->summary().samples, 0);
    QLabel* row = window.statsPanel()->valueLabel(QStringLiteral("edit_to_screen"));
    QVERIFY(row);
    window.document()->setCell(0, 3, 3, 0.5);
    QTRY_COMPARE_WITH_TIMEOUT(window.edits()->summary().samples, 1, 30000);
    QVERIFY2(row->text().contains(QStringLiteral("ms")) && row->text().contains(QStringLiteral("max")),
             qPrintable(row->text()));
    window.setStrategy(QStringLiteral("constant"));
    QTRY_COMPARE_WITH_TIMEOUT(window.edits()->summary().samples, 2, 60000);
    window.action(ActionId::ResetStats)->trigger();
    QCOMPARE(window.edits()->summary().samples, 0);
    QVERIFY2(!row->text().contains(QStringLiteral("max")), qPrintable(row->text()));
  }
};

CONVOLAB_GUI_TEST_MAIN(EditLatencyTest)
#include "test_edit_latency.moc"
