// SPDX-License-Identifier: MIT
// Live edits that never wait for a build: under auto a new filter structure runs on the next frame
// on the provisional strategy (dynamic) while its measurement waits, and a coefficient edit (auto after its
// first filter, codegen) is applied to the live engine between frames instead of going through the engine
// preparer: no frame after such an edit is stale.
#include <QImage>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <random>

#include "app_test_support.hpp"
#include "capture/source_spec.hpp"
#include "convolab/auto_choices.hpp"
#include "convolab/config.hpp"
#include "gui_test_main.hpp"
#include "processing/engine_preparer.hpp"
#include "processing/pipeline.hpp"

using namespace convolab;
using namespace convolab::gui;
using namespace std::chrono_literals;

namespace {

/// A dense K×K filter of random positive weights (a blur: no saturation hides a wrong weight), different in
/// each channel: full rank, no zero taps, a structure no other case leaves behind.
FilterSet randomDense(int k, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  std::array<ChannelFilter, kChannels> channels;
  for (auto& c : channels) {
    c.size = k;
    c.matrix.resize(static_cast<size_t>(k * k));
    double sum = 0;
    for (auto& v : c.matrix) sum += (v = weight(random));
    c.divisor = sum;
  }
  return FilterSet::make(channels, BorderMode::Reflect101, {0, 0, 0}, "random");
}

QString describe(const FrameRecord& r) {
  return QStringLiteral("revision %1%2%3%4 strategy '%5'")
      .arg(r.filterRevision)
      .arg(r.stale ? QStringLiteral(" stale") : QString())
      .arg(r.unfiltered ? QStringLiteral(" unfiltered") : QString())
      .arg(r.error.isEmpty() ? QString() : QStringLiteral(" error: ") + r.error)
      .arg(r.hasTimings ? QString::fromStdString(r.timings.strategy.describe()) : QStringLiteral("-"));
}

/// A pattern source on `strategy`, starting with `filter`; frames as the GUI thread receives them.
class LivePipeline {
 public:
  LivePipeline(const QString& strategy, const FilterSet& filter,
               const std::string& source = "pattern:208x144@30") {
    QObject::connect(&m_pipeline, &Pipeline::frameProcessed, &m_pipeline,
                     [this](const FrameRecord& r) { m_records.push_back(r); });
    QObject::connect(&m_pipeline, &Pipeline::processingStateChanged, &m_pipeline,
                     [this](const QString& preparing, bool) {
                       if (!preparing.isEmpty()) m_preparing << preparing;
                     });
    m_pipeline.setFilter(filter);
    m_pipeline.startEngine(QString(), StrategyId::parse(strategy.toStdString()));
    m_pipeline.openSource(capture::createSource(source));
  }
  const std::vector<FrameRecord>& records() const { return m_records; }
  Pipeline& pipeline() { return m_pipeline; }
  /// "preparing…" messages announced since the last call (the preparer worked longer than its grace).
  QStringList takePreparing() { return std::exchange(m_preparing, {}); }

  /// Waits until a frame made with `revision` arrives, current and filtered; null on timeout.
  ProcessedFramePtr waitForCurrent(std::uint64_t revision, int timeoutMs) {
    (void)QTest::qWaitFor(
        [&] {
          for (const auto& r : m_records)
            if (isCurrent(r, revision)) return true;
          return false;
        },
        timeoutMs);
    const auto frame = m_pipeline.latestFrame();
    return frame && isCurrent(frame->record, revision) ? frame : nullptr;
  }

  /// What followed an edit: the newest frame once one made with the new filter arrived (null on timeout),
  /// the time from the edit to the processing of the first such frame, and the frames processed in between
  /// that were stale or passed through unfiltered (each read the new snapshot but could not show it).
  struct EditResult {
    ProcessedFramePtr frame;
    qint64 ms = -1;
    QStringList late;
  };

  /// Publishes `filter` and waits up to `timeoutMs` for the first frame made with it.
  EditResult edit(const FilterSet& filter, int timeoutMs) {
    m_records.clear();
    const auto t0 = capture::Clock::now();
    const std::uint64_t revision = m_pipeline.setFilter(filter);
    EditResult result;
    (void)QTest::qWaitFor(
        [&] {
          for (const auto& r : m_records)
            if (isCurrent(r, revision)) return true;
          return false;
        },
        timeoutMs);
    for (const auto& r : m_records) {
      if (isCurrent(r, revision)) {
        result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(r.processed - t0).count();
        const auto frame = m_pipeline.latestFrame();
        if (frame && isCurrent(frame->record, revision)) result.frame = frame;
        break;
      }
      if (r.stale || r.unfiltered || !r.error.isEmpty()) result.late << describe(r);
    }
    if (result.ms < 0)
      qWarning("no frame made with revision %llu within %d ms; the newest: %s",
               static_cast<unsigned long long>(revision), timeoutMs,
               m_records.empty() ? "none" : qPrintable(describe(m_records.back())));
    return result;
  }

 private:
  static bool isCurrent(const FrameRecord& r, std::uint64_t revision) {
    return r.filterRevision == revision && !r.stale && !r.unfiltered && r.error.isEmpty() && r.hasTimings;
  }

  Pipeline m_pipeline;
  std::vector<FrameRecord> m_records;
  QStringList m_preparing;
};

}  // namespace

class AutoLiveTest : public QObject {
  Q_OBJECT

  QTemporaryDir m_cache;

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("auto-live-test"));
    QVERIFY(m_cache.isValid());
    CoreConfig config = CoreConfig::fromEnvironment();
    // A cache of its own: auto has no stored choice for any structure here (the suite's shared cache may hold
    // one, and a stored choice is built behind the provisional strategy instead of measured).
    config.cacheDir = m_cache.path().toStdString();
    // The app's mode, whatever the environment says: a new structure runs provisionally, measured behind.
    config.autoMeasure = CoreConfig::AutoMeasure::Background;
    // The measurement waits for a pause in the edits longer than the test: it never ends while the test
    // looks, as a slow measurement on a CPU device (and it compiles nothing that would load the cores).
    config.autoQuietMs = 10 * 60 * 1000;
    setCoreConfig(config);
  }

  void cleanup() { EnginePreparer::setTestDelay(0ms); }

  // A still shows auto's choice once it is ready (issue 35: "provisional, measuring soon" stayed for minutes
  // on a still although the winner was known): the worker processes the still again when the engine has a
  // change of its own (Engine::changePending), without a new frame or an edit.
  void stillReprocessesWithTheWinner() {
    const CoreConfig saved = coreConfig();
    CoreConfig config = saved;
    config.autoQuietMs = 0;  // the stored choice is built at once, behind the provisional strategy
    setCoreConfig(config);
    const auto restore = qScopeGuard([&] { setCoreConfig(saved); });
    const QString still = m_cache.filePath(QStringLiteral("still.png"));
    QImage image(64, 48, QImage::Format_RGB888);
    image.fill(QColor(90, 140, 200));
    QVERIFY(image.save(still));
    // Two structures of one K (the second has a zero tap), so the edit is applied on the live engine; the
    // second has a stored choice, which auto builds behind the provisional strategy and then swaps in.
    const FilterSet first = randomDense(5, 11);
    auto channels = first.channels();
    for (auto& c : channels) c.matrix[12] = 0;
    const FilterSet second = FilterSet::make(channels, first.border(), {0, 0, 0}, "holed");
    {
      Context ctx;  // the key names the device and driver
      AutoChoiceCache::instance().store(ctx.programCache(), autoChoiceKey(ctx, second, 64, 48),
                                        {"constant", "", 1.0});
    }
    LivePipeline live(QStringLiteral("auto"), first, still.toStdString());
    QVERIFY(live.waitForCurrent(live.pipeline().filterRevision(), 60000));
    const auto edit = live.edit(second, 5000);
    QVERIFY(edit.frame);
    const bool winnerShown = QTest::qWaitFor(
        [&] {
          for (const auto& r : live.records())
            if (r.hasTimings && r.timings.strategy.name == "constant" && r.timings.strategy.note.empty())
              return true;
          return false;
        },
        15000);
    QVERIFY2(winnerShown, qPrintable(describe(live.pipeline().latestFrame()->record)));
  }

  // A new structure under auto, its measurement pending: a frame made with it, on the provisional strategy,
  // follows at once.
  void newStructureRunsProvisionallyWhileTheMeasurementWaits() {
    LivePipeline live(QStringLiteral("auto"), randomDense(5, 1));
    QVERIFY(live.waitForCurrent(live.pipeline().filterRevision(), 60000));
    // A K change goes through the preparer (Engine::preparesWithoutBuild asks for the same K), whose spare
    // engine starts the structure on the provisional strategy too: a stale frame or two may come first. A
    // new structure of the same K (here: a zero tap in the middle) is applied on the live engine: the next
    // frame shows it.
    FilterSet holed = randomDense(15, 4);
    auto channels = holed.channels();
    for (auto& c : channels) {
      c.divisor -= c.matrix[112];
      c.matrix[112] = 0;  // the centre of 15x15: the outer ring stays, so does K
    }
    holed = FilterSet::make(channels, holed.border(), {0, 0, 0}, "holed");
    const std::vector<std::pair<FilterSet, bool>> steps = {
        {randomDense(9, 2), false}, {randomDense(15, 3), false}, {holed, true}};
    for (const auto& [filter, onLive] : steps) {
      const auto edit = live.edit(filter, 2000);
      qInfo("K=%d%s: first frame made with it %lld ms after the edit; %lld stale before it", filter.size(),
            onLive ? " (same K)" : "", static_cast<long long>(edit.ms),
            static_cast<long long>(edit.late.size()));
      QVERIFY2(edit.frame, qPrintable(QStringLiteral("K=%1").arg(filter.size())));
      QVERIFY2(edit.ms < 2000, qPrintable(QString::number(edit.ms)));
      if (onLive) QVERIFY2(edit.late.isEmpty(), qPrintable(edit.late.join(QStringLiteral("; "))));
      const ProcessedFramePtr& frame = edit.frame;
      const StrategyId& id = frame->record.timings.strategy;
      const QString text = QString::fromStdString(id.describe());
      QCOMPARE(QString::fromStdString(id.name), QStringLiteral("dynamic"));
      QVERIFY2(id.viaAuto, qPrintable(text));
      QVERIFY2(QString::fromStdString(id.note).contains(QStringLiteral("provisional")), qPrintable(text));
      const int difference =
          test::maxAbsDiff(*frame->filtered, test::referenceResult(*frame->original, filter));
      QVERIFY2(difference >= 0 && difference <= 1, qPrintable(QString::number(difference)));
    }
  }

  void coefficientEditRunsOnTheLiveEngine_data() {
    QTest::addColumn<QString>("strategy");
    QTest::newRow("auto") << QStringLiteral("auto");
    QTest::newRow("codegen") << QStringLiteral("codegen");
  }

  // A coefficient edit builds nothing (Engine::preparesWithoutBuild): the processing thread applies it to the
  // live engine between frames. The preparer is made slower than the test's bound: any edit that went
  // through it would show stale frames for 5 s. (The bound leaves room for codegen's first coefficient edit,
  // which builds the generic kernel on the processing thread when no engine of the process built it yet:
  // ~350 ms on PoCL, 2 idle cores.)
  void coefficientEditRunsOnTheLiveEngine() {
    QFETCH(QString, strategy);
    FilterSet filter = randomDense(7, 10);
    LivePipeline live(strategy, filter);
    QVERIFY(live.waitForCurrent(live.pipeline().filterRevision(), 60000));
    QTest::qWait(200);  // past the preparer's announcement grace: what it said for the first engine is out
    live.takePreparing();
    EnginePreparer::setTestDelay(5000ms);
    for (int i = 0; i < 4; ++i) {
      auto channels = filter.channels();
      auto& c = channels[static_cast<size_t>(i % kChannels)];
      c.matrix[static_cast<size_t>(24 + i)] += 2.0;  // about the centre; the divisor stays
      filter = FilterSet::make(channels, filter.border(), {0, 0, 0}, "random");
      const auto edit = live.edit(filter, 1500);
      qInfo("%s, edit %d: first frame made with it %lld ms after the edit; %lld stale before it",
            qPrintable(strategy), i, static_cast<long long>(edit.ms),
            static_cast<long long>(edit.late.size()));
      QVERIFY2(edit.frame, qPrintable(QStringLiteral("edit %1").arg(i)));
      QVERIFY2(edit.ms < 1500, qPrintable(QString::number(edit.ms)));
      QVERIFY2(edit.late.isEmpty(), qPrintable(edit.late.join(QStringLiteral("; "))));
      const ProcessedFramePtr& frame = edit.frame;
      const int difference =
          test::maxAbsDiff(*frame->filtered, test::referenceResult(*frame->original, filter));
      QVERIFY2(difference >= 0 && difference <= 1, qPrintable(QString::number(difference)));
    }
    QTest::qWait(300);  // a preparation asked for would be announced after 150 ms
    const QStringList preparing = live.takePreparing();
    QVERIFY2(preparing.isEmpty(), qPrintable(preparing.join(QStringLiteral("; "))));
  }
};

CONVOLAB_GUI_TEST_MAIN(AutoLiveTest)
#include "test_auto_live.moc"
