// SPDX-License-Identifier: MIT
// A chain under auto never waits for its preparation (issue 30 "Live"): the Chain dock's chain, and every
// step edit, toggle and new step after it, run on the live engine on the next frame, step by step with
// dynamic for new steps, while the preparer makes auto's per-step choices and the fused-or-not choice behind
// it (EnginePreparer::setTestDelay makes that preparation take 20 s here: a frame waiting for it fails).
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.hpp"
#include "capture/source_spec.hpp"
#include "chain_test_support.hpp"
#include "convolab/config.hpp"
#include "convolab/reference.hpp"
#include "gui_test_main.hpp"
#include "processing/engine_preparer.hpp"
#include "processing/pipeline.hpp"

using namespace convolab;
using namespace convolab::gui;
using namespace std::chrono_literals;

namespace {

/// The chain dock tests' 3x3 sharpen (chain_test_support.hpp) with another centre weight, or switched off.
ChainStep sharpenStep(double centre = 5, bool enabled = true) {
  ChainStep s = test::step3x3("sharpen", {0, -1, 0, -1, centre, -1, 0, -1, 0});
  s.enabled = enabled;
  return s;
}
ChainStep emboss() {
  return test::step3x3("emboss", {-2, -1, 0, -1, 1, 1, 0, 1, 2});
}

/// The newest processed frame when it was made with `revision`, current, and equal (±1) to the reference
/// chain of its input.
bool showsChain(Pipeline& pipeline, std::uint64_t revision, const FilterChain& chain) {
  const ProcessedFramePtr f = pipeline.latestFrame();
  if (!f || !f->record.hasTimings || f->record.stale || f->record.unfiltered || !f->record.error.isEmpty() ||
      f->record.filterRevision != revision)
    return false;
  Image expected(f->original->width, f->original->height);
  referenceChain(f->original->view(), expected.mutableView(), chain);
  return test::maxAbsDiff(*f->filtered, expected) <= 1;
}

QString newest(Pipeline& pipeline) {
  const ProcessedFramePtr f = pipeline.latestFrame();
  if (!f) return QStringLiteral("no frame");
  return QStringLiteral("revision %1 (asked %2)%3%4 '%5'")
      .arg(f->record.filterRevision)
      .arg(pipeline.filterRevision())
      .arg(f->record.stale ? QStringLiteral(" stale") : QString())
      .arg(f->record.error.isEmpty() ? QString() : QStringLiteral(" error: ") + f->record.error)
      .arg(QString::fromStdString(f->record.timings.strategy.describe()));
}

}  // namespace

class ChainAutoLiveTest : public QObject {
  Q_OBJECT

  QTemporaryDir m_cache;

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("chain-auto-live-test"));
    QVERIFY(m_cache.isValid());
    CoreConfig config = CoreConfig::fromEnvironment();
    config.cacheDir = m_cache.path().toStdString();            // no stored choice from other tests
    config.autoMeasure = CoreConfig::AutoMeasure::Background;  // the app's mode, whatever the environment
    config.autoQuietMs = 10 * 60 * 1000;  // per-step measurements never start while the test looks
    setCoreConfig(config);
  }

  void cleanup() { EnginePreparer::setTestDelay(0ms); }

  void everyChainEditShowsWithoutWaitingForItsPreparation() {
    Pipeline pipeline;
    pipeline.setFilter(test::blur().filter);
    pipeline.startEngine(QString(), StrategyId::parse("auto"));
    pipeline.openSource(capture::createSource("pattern:96x64@30"));
    QVERIFY2(QTest::qWaitFor(
                 [&] { return showsChain(pipeline, pipeline.filterRevision(), test::blur().filter); }, 60000),
             qPrintable(newest(pipeline)));
    // From here every preparation takes 20 s: only what the live engine takes shows within the deadline.
    EnginePreparer::setTestDelay(20000ms);
    constexpr int kDeadlineMs = 5000;  // the next frame, on a loaded PoCL machine
    const auto shows = [&](const FilterChain& chain, const char* what) {
      const std::uint64_t revision = pipeline.setChain(chain);
      const bool shown = QTest::qWaitFor([&] { return showsChain(pipeline, revision, chain); }, kDeadlineMs);
      if (!shown)
        qWarning("%s: not on the screen within %d ms; newest %s", what, kDeadlineMs,
                 qPrintable(newest(pipeline)));
      return shown;
    };
    QVERIFY(shows(FilterChain::make({test::blur(), sharpenStep(), emboss()}), "the chain switched on"));
    QVERIFY(shows(FilterChain::make({test::blur(), sharpenStep(7), emboss()}), "a step's weight"));
    QVERIFY(shows(FilterChain::make({test::blur(), sharpenStep(7, false), emboss()}), "a step switched off"));
    QVERIFY(shows(FilterChain::make({test::blur(), sharpenStep(7), emboss(), test::blur()}), "a step added"));
    QVERIFY(shows(FilterChain::make({sharpenStep(7), emboss(), test::blur()}), "a step removed"));
  }

  void thePreparedChainSwapsInBehind() {
    const CoreConfig saved = coreConfig();
    CoreConfig config = saved;
    config.autoQuietMs = 200;  // the pause after which the chain is prepared fully
    setCoreConfig(config);
    const auto restore = qScopeGuard([&] { setCoreConfig(saved); });
    Pipeline pipeline;
    pipeline.setFilter(test::blur().filter);
    pipeline.startEngine(QString(), StrategyId::parse("auto"));
    pipeline.openSource(capture::createSource("pattern:96x64@30"));
    QVERIFY2(QTest::qWaitFor(
                 [&] { return showsChain(pipeline, pipeline.filterRevision(), test::blur().filter); }, 60000),
             qPrintable(newest(pipeline)));
    const FilterChain chain = FilterChain::make({test::blur(), sharpenStep(), emboss()});
    const std::uint64_t revision = pipeline.setChain(chain);
    // First step by step on dynamic ("chain: 1 dynamic, …"), then the preparer's engine: auto per step, or
    // fused ("chain: 1 auto:dynamic, …" or "chain: 1 fused").
    const bool prepared = QTest::qWaitFor(
        [&] {
          const ProcessedFramePtr f = pipeline.latestFrame();
          if (!showsChain(pipeline, revision, chain)) return false;
          const std::string& note = f->record.timings.strategy.note;
          return note.find("fused") != std::string::npos || note.find("1 auto:") != std::string::npos;
        },
        60000);
    QVERIFY2(prepared, qPrintable(newest(pipeline)));
  }
};

CONVOLAB_GUI_TEST_MAIN(ChainAutoLiveTest)
#include "test_chain_auto_live.moc"
