// SPDX-License-Identifier: MIT
// The preparer thread: a running preparation that a request for another strategy made pointless stops at
// its next cancellation point; one that only a filter edit followed runs to its end; auto's synchronous
// measurements stop between candidates, and in the default (background) mode it measures nothing there.
#include <QScopeGuard>
#include <QTest>
#include <condition_variable>
#include <mutex>

#include "app_test_support.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "convolab/engine.hpp"
#include "convolab/progress.hpp"
#include "convolab/registry.hpp"
#include "gui_test_main.hpp"
#include "processing/engine_preparer.hpp"

using namespace convolab;
using namespace convolab::gui;
using Clock = std::chrono::steady_clock;

namespace {

FilterSet box(int k) {
  ChannelFilter c;
  c.size = k;
  c.matrix.assign(static_cast<size_t>(k * k), 1.0);
  c.divisor = k * k;
  return FilterSet::uniform(c);
}

/// Collects the preparer's results on its thread; waits for them on the test's.
struct Results {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<std::shared_ptr<PrepareResult>, Clock::time_point>> done;

  void add(std::shared_ptr<PrepareResult> r) {
    std::lock_guard lock(mutex);
    done.emplace_back(std::move(r), Clock::now());
    changed.notify_all();
  }
  bool waitFor(size_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, timeout, [&] { return done.size() >= count; });
  }
};

}  // namespace

class EnginePreparerTest : public QObject {
  Q_OBJECT

  std::shared_ptr<Context> m_context;

  PrepareJob job(const std::string& strategy, const FilterSet& filter, std::uint64_t id) {
    PrepareJob j;
    j.context = m_context;
    j.queues = {m_context->sibling(), m_context->sibling()};
    j.strategy = StrategyId{strategy};
    j.chain = filter;
    j.width = 64;
    j.height = 48;
    j.id = id;
    return j;
  }

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("engine-preparer-test"));
    m_context = std::make_shared<Context>();
  }

  void cleanup() { EnginePreparer::setTestDelay(std::chrono::milliseconds(0)); }

  void anotherStrategyCancelsTheRunningPreparation() {
    Results results;
    EnginePreparer preparer({}, [&](std::shared_ptr<PrepareResult> r) { results.add(std::move(r)); });
    EnginePreparer::setTestDelay(std::chrono::milliseconds(4000));  // stands for a long measurement
    preparer.request(job("naive", box(3), 1));
    QTRY_VERIFY_WITH_TIMEOUT(preparer.busy(), 2000);
    QTest::qWait(200);  // job 1 has started
    EnginePreparer::setTestDelay(std::chrono::milliseconds(0));
    const auto asked = Clock::now();
    preparer.request(job("constant", box(3), 2));
    QVERIFY(results.waitFor(2, std::chrono::milliseconds(20000)));
    std::lock_guard lock(results.mutex);
    QCOMPARE(results.done[0].first->job.id, std::uint64_t{1});
    QVERIFY(results.done[0].first->cancelled);
    QVERIFY(!results.done[0].first->engine);
    QVERIFY(results.done[0].first->error.empty());  // not a failure to report
    // Stopped at once, not after its 4 s.
    const auto cancelMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(results.done[0].second - asked).count();
    QVERIFY2(cancelMs < 1500, qPrintable(QString::number(cancelMs)));
    QCOMPARE(results.done[1].first->job.id, std::uint64_t{2});
    QVERIFY(results.done[1].first->engine);
    QCOMPARE(QString::fromStdString(results.done[1].first->engine->activeStrategyId().name),
             QStringLiteral("constant"));
  }

  void aFilterEditLetsTheRunningPreparationFinish() {
    Results results;
    EnginePreparer preparer({}, [&](std::shared_ptr<PrepareResult> r) { results.add(std::move(r)); });
    EnginePreparer::setTestDelay(std::chrono::milliseconds(1000));
    preparer.request(job("naive", box(3), 1));
    QTRY_VERIFY_WITH_TIMEOUT(preparer.busy(), 2000);
    QTest::qWait(200);
    preparer.request(job("naive", box(5), 2));  // same strategy: job 1's engine is still worth adopting
    QVERIFY(results.waitFor(2, std::chrono::milliseconds(20000)));
    std::lock_guard lock(results.mutex);
    QVERIFY(!results.done[0].first->cancelled);
    QVERIFY(results.done[0].first->engine);
    QVERIFY(results.done[1].first->engine);
  }

  void autoStopsBetweenMeasurements() {
    // A structure auto has no stored choice for, measured synchronously (CONVOLAB_AUTO_MEASURE=now: the
    // bench's mode, and the app's when that is set); the check cancels after the first progress report. The
    // engine must not fall back to another strategy: it throws Cancelled. (Since auto measures in the
    // background by default, its prepare() no longer measures on the preparer's thread: see
    // autoPreparesProvisionallyWithoutMeasuring.)
    const CoreConfig saved = coreConfig();
    CoreConfig config = saved;
    config.autoMeasure = CoreConfig::AutoMeasure::Now;
    setCoreConfig(config);
    const auto restore = qScopeGuard([&] { setCoreConfig(saved); });
    const FilterSet filter = box(7);
    const int width = 96, height = 40;
    const std::string key = autoChoiceKey(*m_context, filter, width, height);
    AutoChoiceCache::instance().find(m_context->programCache(), key);  // loads the stored choices first
    AutoChoiceCache::instance().forget(key);
    bool reported = false;
    const auto previousProgress =
        setThreadProgressCallback([&](const std::string&, int, int) { reported = true; });
    const auto previousCheck = setThreadCancelCheck([&] { return reported; });
    Engine engine(m_context, "auto");
    engine.setFilter(filter);
    bool cancelled = false;
    try {
      engine.prepare(width, height);
    } catch (const Cancelled&) {
      cancelled = true;
    }
    setThreadCancelCheck(previousCheck);
    setThreadProgressCallback(previousProgress);
    QVERIFY(reported);
    QVERIFY(cancelled);
  }

  // The app's mode (background measurement, the default): a structure auto has no stored choice for costs the
  // preparer no measurement. prepare() runs the provisional strategy and returns; the candidates are measured
  // on auto's own thread (not this one: no progress here), once edits pause.
  void autoPreparesProvisionallyWithoutMeasuring() {
    const CoreConfig saved = coreConfig();
    CoreConfig config = saved;
    config.autoMeasure = CoreConfig::AutoMeasure::Background;
    config.autoQuietMs = 10 * 60 * 1000;  // the measurement never starts while the test runs
    setCoreConfig(config);
    const auto restore = qScopeGuard([&] {
      stopAutoMeasurements();
      setCoreConfig(saved);
    });
    const FilterSet filter = box(9);
    const int width = 96, height = 40;
    const std::string key = autoChoiceKey(*m_context, filter, width, height);
    AutoChoiceCache::instance().find(m_context->programCache(), key);
    AutoChoiceCache::instance().forget(key);
    bool reported = false;
    const auto previousProgress =
        setThreadProgressCallback([&](const std::string&, int, int) { reported = true; });
    Engine engine(m_context, "auto");
    engine.setFilter(filter);
    engine.prepare(width, height);
    setThreadProgressCallback(previousProgress);
    QVERIFY(!reported);
    const StrategyId id = engine.activeStrategyId();
    QCOMPARE(QString::fromStdString(id.name), QStringLiteral("dynamic"));
    QVERIFY(id.viaAuto);
    QVERIFY2(QString::fromStdString(id.note).contains(QStringLiteral("provisional")), id.describe().c_str());
  }
};

CONVOLAB_GUI_TEST_GUILESS_MAIN(EnginePreparerTest)
#include "test_engine_preparer.moc"
