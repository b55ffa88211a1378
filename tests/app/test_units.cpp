// SPDX-License-Identifier: MIT
// Unit tests of the app's plain logic: statistics, reports, command line, filter resizing, pattern specs.
#include <QTest>
#include <nlohmann/json.hpp>

#include "capture/latest_frame_slot.hpp"
#include "capture/test_pattern_source.hpp"
#include "command_line.hpp"
#include "convolab/log.hpp"
#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"
#include "log_categories.hpp"
#include "stats/stats_collector.hpp"
#include "stats/stats_report.hpp"

using namespace convolab;
using namespace convolab::gui;
using std::chrono::milliseconds;

class UnitsTest : public QObject {
  Q_OBJECT

 private slots:
  void coreLogGoesToTheQtCategory() {
    struct Line {
      QtMsgType type;
      QString category, text;
    };
    static std::vector<Line> lines;
    lines.clear();
    const auto previous =
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& c, const QString& m) {
          lines.push_back({type, QString::fromUtf8(c.category ? c.category : ""), m});
        });
    routeCoreLogToQt();
    logMessage(LogLevel::Note, "a note");
    logMessage(LogLevel::Warning, "a warning");
    logMessage(LogLevel::Debug, "a debug line");  // off by default (QT_LOGGING_RULES / CONVOLAB_VERBOSE)
    qInstallMessageHandler(previous);
    setLogSink({});
    QCOMPARE(lines.size(), size_t{2});
    QCOMPARE(lines[0].type, QtInfoMsg);
    QCOMPARE(lines[0].category, QStringLiteral("convolab.core"));
    QCOMPARE(lines[0].text, QStringLiteral("a note"));
    QCOMPARE(lines[1].type, QtWarningMsg);
    QCOMPARE(lines[1].text, QStringLiteral("a warning"));
  }

  void statsFromSyntheticFrames() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 40; ++i) {
      FrameRecord r;
      r.sequence = static_cast<std::uint64_t>(i + 1);
      r.processed = t0 + milliseconds(i * 25);  // 40 fps
      r.hasTimings = true;
      r.timings.stages = {{"upload", 1.0}, {"convolve", 10.0 + (i % 20)}, {"download", 2.0}};
      stats.addProcessed(r);
      stats.addDisplayed(r.processed);
      stats.sampleSource(r.processed, static_cast<std::uint64_t>(2 * i), static_cast<std::uint64_t>(i), 80);
    }
    const auto s = stats.snapshot(t0 + milliseconds(39 * 25), milliseconds(1000));
    QVERIFY(std::abs(s.processedFps - 40.0) < 1.0);
    QVERIFY(std::abs(s.displayedFps - 40.0) < 1.0);
    QVERIFY(std::abs(s.sourceFps - 80.0) < 3.0);
    QCOMPARE(s.stages.size(), size_t{3});
    QCOMPARE(QString::fromStdString(s.stages[1].name), QStringLiteral("convolve"));
    QCOMPARE(s.stages[1].current, 10.0 + 39 % 20);
    QVERIFY(s.stages[1].p95 >= 28.0 && s.stages[1].p95 <= 29.0);
    QVERIFY(std::abs(s.budgetMs - 12.5) < 1e-9);
    QCOMPARE(s.dropped, std::uint64_t{39});

    const auto run = stats.runSummary();
    const auto j = nlohmann::json::parse(statsJson(run, "dev", "auto", 40));
    for (const char* key :
         {"source_fps", "processed_fps", "displayed_fps", "dropped_frames", "stages", "device", "strategy"})
      QVERIFY2(j.contains(key), key);
    for (const char* stage : {"upload", "convolve", "download"}) {
      QVERIFY(j["stages"].contains(stage));
      QVERIFY(j["stages"][stage].contains("mean_ms"));
      QVERIFY(j["stages"][stage].contains("p95_ms"));
    }
    QCOMPARE(j["stages"]["upload"]["mean_ms"].get<double>(), 1.0);
    QVERIFY(std::abs(j["processed_fps"].get<double>() - 40.0) < 0.5);
    QCOMPARE(j["device"].get<std::string>(), std::string("dev"));
    QVERIFY(QString::fromStdString(statsText(s, "dev", "auto")).contains(QStringLiteral("dropped")));
  }

  // The longest freeze of the preview reaches --stats (issue 35): frames 25 ms apart, then one 300 ms late.
  void maxDisplayGapReachesTheStats() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    for (int at : {0, 25, 50, 350, 375}) stats.addDisplayed(t0 + std::chrono::milliseconds(at));
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 5));
    QCOMPARE(j["max_display_gap_ms"].get<double>(), 300.0);
  }

  // --stats cuts the run into 5 s windows (issue 35: "≥ 90 % of the source's frames over every 5 s window").
  // A 25 fps source (the slot's counter sampled every 200 ms), frames painted every 40 ms, none strictly
  // between 11 s and 13 s (a 2 s freeze in the third window), every 80 ms after 15 s, the run ending at 17.6
  // s.
  void runWindowsShowAFreezeInTheThird() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    stats.sampleSource(t0, 0, 0, 25);
    FrameRecord r;
    r.processed = t0;  // the run starts at its first processed frame
    stats.addProcessed(r);
    for (int at = 0; at <= 17600; at += 40) {
      if (at % 200 == 0)
        stats.sampleSource(t0 + milliseconds(at), static_cast<std::uint64_t>(at / 40), 0, 25);
      const bool frozen = at > 11000 && at < 13000, sparse = at >= 15000 && (at - 15000) % 80 != 0;
      if (at < 17600 && !frozen && !sparse) stats.addDisplayed(t0 + milliseconds(at));
    }
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 1));
    QCOMPARE(j.value("window_s", 0), 5);
    QCOMPARE(j["max_display_gap_ms"].get<double>(), 2000.0);
    QVERIFY2(j.contains("windows") && j["windows"].size() == 4, qPrintable(QString::fromStdString(j.dump())));
    checkWindow(j["windows"][0], 0, 5, 125, 125, 1.0, 40, false);
    checkWindow(j["windows"][1], 5, 5, 125, 125, 1.0, 40, false);
    checkWindow(j["windows"][2], 10, 5, 125, 76, 0.608, 2000, false);
    checkWindow(j["windows"][3], 15, 2.6, 65, 33, 0.508, 80, true);
    // The partial last window (0.508) is listed but not in the minimum: the third window is.
    QCOMPARE(j["min_window_displayed_ratio"].get<double>(), 0.608);
  }

  // A run shorter than one window: its one window is partial, and it is the minimum. A 40 fps source sampled
  // every 250 ms for 3 s, frames every 25 ms but none between 1.0 and 1.5 s; the frame painted at the run's
  // end (3.0 s, the last sample) counts in it.
  void runWindowsOfARunShorterThanAWindow() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    stats.sampleSource(t0, 0, 0, 40);
    FrameRecord r;
    r.processed = t0;
    stats.addProcessed(r);
    for (int at = 0; at <= 3000; at += 25) {
      if (at % 250 == 0)
        stats.sampleSource(t0 + milliseconds(at), static_cast<std::uint64_t>(at / 25), 0, 40);
      if (at <= 1000 || at >= 1500) stats.addDisplayed(t0 + milliseconds(at));
    }
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 1));
    QVERIFY2(j.contains("windows") && j["windows"].size() == 1, qPrintable(QString::fromStdString(j.dump())));
    checkWindow(j["windows"][0], 0, 3, 120, 102, 0.85, 500, true);
    QCOMPARE(j["min_window_displayed_ratio"].get<double>(), 0.85);
  }

  // Frames and gaps on window boundaries: a frame painted at 5.000 s is the second window's; a gap that ends
  // on a boundary is only the window's before it, one that starts on it only the window's after, and one
  // across a boundary is in both. The source (30 fps) is sampled every 300 ms: its count at 5 s and 10 s is
  // interpolated, at 15 s sampled. The run ends on a boundary (20 s): four complete windows, none partial.
  void runWindowsOnTheirBoundaries() {
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    auto sample = [&](int at) {
      stats.sampleSource(t0 + milliseconds(at), static_cast<std::uint64_t>(at * 3 / 100), 0, 30);
    };
    sample(0);
    FrameRecord r;
    r.processed = t0;
    stats.addProcessed(r);
    for (int at = 300; at < 20000; at += 300) sample(at);
    sample(20000);
    std::vector<int> shown;
    for (int at = 0; at <= 4600; at += 50) shown.push_back(at);       // then 400 ms to 5.000 s
    for (int at = 5000; at <= 10000; at += 50) shown.push_back(at);   // then 450 ms from 10.000 s
    for (int at = 10450; at <= 14900; at += 50) shown.push_back(at);  // then 400 ms across 15 s
    for (int at = 15300; at <= 19950; at += 50) shown.push_back(at);
    for (int at : shown) stats.addDisplayed(t0 + milliseconds(at));
    const auto j = nlohmann::json::parse(statsJson(stats.runSummary(), "dev", "auto", 1));
    QVERIFY2(j.contains("windows") && j["windows"].size() == 4, qPrintable(QString::fromStdString(j.dump())));
    checkWindow(j["windows"][0], 0, 5, 150, 93, 0.62, 400, false);
    checkWindow(j["windows"][1], 5, 5, 150, 100, 0.667, 50, false);
    checkWindow(j["windows"][2], 10, 5, 150, 91, 0.607, 450, false);
    checkWindow(j["windows"][3], 15, 5, 150, 94, 0.627, 400, false);
    QCOMPARE(j["min_window_displayed_ratio"].get<double>(), 0.607);
  }

  // A stand-in kernel is never hidden. The strategy's note (codegen past the literal limit, auto
  // while provisional) reaches --stats as the core's StrategyId carries it.
  void strategyNoteReachesTheStats() {
    StatsSnapshot s;
    s.strategyId = StrategyId("codegen");
    s.strategyId.note = "generic kernel: literal limit";
    s.strategy = s.strategyId.toString();
    const auto j = nlohmann::json::parse(statsJson(s, "dev", "codegen", 1));
    QCOMPARE(j["active_strategy"].get<std::string>(), std::string("codegen"));
    QCOMPARE(j["strategy_note"].get<std::string>(), std::string("generic kernel: literal limit"));
    s.strategyId.note.clear();
    QVERIFY(!nlohmann::json::parse(statsJson(s, "dev", "codegen", 1)).contains("strategy_note"));
  }

  // A still image is processed once per change: a second later the window holds no frame. Its figures are
  // those of the last pass, marked so, with the strategy that ran it, not an empty table and "auto".
  void aStillKeepsTheLastPassFigures() {
    StatsCollector stats;
    const auto t0 = std::chrono::steady_clock::now();
    FrameRecord r;
    r.sequence = 1;
    r.processed = t0;
    r.hasTimings = true;
    r.timings.stages = {{"upload", 1.0}, {"convolve_vector", 4.0}, {"download", 2.0}};
    r.timings.strategy = StrategyId("vector", "", true);
    stats.addProcessed(r);
    stats.addDisplayed(t0 + milliseconds(5), t0 - milliseconds(20));
    const auto live = stats.snapshot(t0 + milliseconds(10));
    QVERIFY(!live.lastPass);
    const auto idle = stats.snapshot(t0 + milliseconds(3000));  // nothing processed or painted since
    QVERIFY(idle.lastPass);
    QCOMPARE(idle.stages.size(), size_t{3});
    QCOMPARE(idle.total.current, 7.0);
    QCOMPARE(idle.total.mean, 7.0);
    QCOMPARE(idle.strategyId, StrategyId("vector", "", true));
    QCOMPARE(idle.latency.samples, 1);
    QCOMPARE(idle.latency.current, 25.0);
    QVERIFY(QString::fromStdString(statsText(idle, "dev", "auto")).contains(QStringLiteral("last pass")));
    // A pass without timings (bypass) is the newest: no older timings stand for it.
    FrameRecord bypass = r;
    bypass.sequence = 2;
    bypass.processed = t0 + milliseconds(4000);
    bypass.hasTimings = false;
    bypass.bypassed = true;
    stats.addProcessed(bypass);
    QVERIFY(stats.snapshot(t0 + milliseconds(8000)).stages.empty());
  }

  // A stage that no longer runs drops out once the window has passed it; on a still it stayed for good with
  // 0.00 (convolve_dynamic after switching to a custom step: docs/screenshots/custom-opencl-error.png).
  void aStageThatNoLongerRunsDropsOut() {
    StatsCollector stats;
    const auto t0 = std::chrono::steady_clock::now();
    FrameRecord r;
    r.sequence = 1;
    r.processed = t0;
    r.hasTimings = true;
    r.timings.stages = {{"upload", 1.0}, {"convolve_dynamic", 4.0}, {"download", 2.0}};
    stats.addProcessed(r);
    r.sequence = 2;
    r.processed = t0 + milliseconds(200);
    r.timings.stages = {{"upload", 1.0}, {"custom_step", 3.0}, {"download", 2.0}};
    stats.addProcessed(r);
    const auto names = [](const StatsSnapshot& s) {
      QStringList out;
      for (const auto& st : s.stages) out << QString::fromStdString(st.name);
      return out.join(QLatin1Char(','));
    };
    // Live, within the window: both, the old one's current 0.
    QCOMPARE(names(stats.snapshot(t0 + milliseconds(300))),
             QStringLiteral("upload,convolve_dynamic,custom_step,download"));
    // A still's last pass a while later: only what ran it.
    const auto idle = stats.snapshot(t0 + milliseconds(5000));
    QVERIFY(idle.lastPass);
    QCOMPARE(names(idle), QStringLiteral("upload,custom_step,download"));
  }

  // A still delivered again while the worker is busy replaces an identical frame: nothing was lost.
  void reDeliveriesOfAStillAreNotDrops() {
    capture::LatestFrameSlot slot;
    auto still = std::make_shared<const Image>(4, 4);
    for (int i = 0; i < 5; ++i) slot.put(capture::Frame{still, i, capture::Clock::now()});
    QCOMPARE(slot.delivered(), std::uint64_t{5});
    QCOMPARE(slot.dropped(), std::uint64_t{0});
    slot.put(capture::Frame{std::make_shared<const Image>(4, 4), 5, capture::Clock::now()});
    QCOMPARE(slot.dropped(), std::uint64_t{1});  // another image replaced the waiting one: a drop
  }

  // --stats: every pass is a counted delivery, a warm-up delivery or a repeat, and the counted ones never
  // outnumber delivered − dropped (processed_frames once exceeded delivered_frames with 0 dropped: 10/9).
  void runCountsAddUp() {
    capture::LatestFrameSlot slot;
    StatsCollector stats;
    stats.setKeepRun(true);
    const auto t0 = std::chrono::steady_clock::now();
    slot.setCounting(false);  // as the worker does until its engine is ready
    std::uint64_t passes = 0;
    auto pass = [&](int i, bool repeat) {
      FrameRecord r;
      r.sequence = ++passes;
      r.processed = t0 + milliseconds(33 * i);
      r.hasTimings = true;
      r.timings.stages = {{"convolve", 1.0}};
      if (repeat) {
        r.repeat = true;
      } else {
        slot.put(capture::Frame{std::make_shared<const Image>(4, 4), i, r.processed});
        bool counted = false;
        QVERIFY(slot.take(&counted).has_value());
        r.counted = counted;
      }
      stats.addProcessed(r);
      slot.setCounting(true);
      // The panel samples the counters a few times a second, not at every frame.
      if (i % 4 == 3) stats.sampleSource(r.processed, slot.delivered(), slot.dropped(), 30);
    };
    for (int i = 0; i < 10; ++i) pass(i, false);
    pass(10, true);  // an edit shown on the last frame again
    stats.sampleSource(t0 + milliseconds(400), slot.delivered(), slot.dropped(), 30);
    const auto run = stats.runSummary();
    QCOMPARE(run.counted + run.warmUp + run.repeated, passes);
    QCOMPARE(run.warmUp, std::uint64_t{1});
    QCOMPARE(run.repeated, std::uint64_t{1});
    QVERIFY2(run.counted <= run.delivered - run.dropped,
             qPrintable(QStringLiteral("%1 counted, %2 delivered").arg(run.counted).arg(run.delivered)));
    const auto j = nlohmann::json::parse(statsJson(run, "dev", "auto", passes));
    QCOMPARE(j["processed_frames"].get<std::uint64_t>(), j["counted_frames"].get<std::uint64_t>() +
                                                             j["warmup_frames"].get<std::uint64_t>() +
                                                             j["repeated_frames"].get<std::uint64_t>());
    QVERIFY(j["counted_frames"].get<std::uint64_t>() <=
            j["delivered_frames"].get<std::uint64_t>() - j["dropped_frames"].get<std::uint64_t>());
  }

  void commandLine() {
    auto p =
        parseCommandLine({"convolab", "--source", "pattern", "--filter", "f.json", "--strategy", "naive",
                          "--device", "cpu", "--frames", "12", "--snapshot", "s.png", "--stats", "s.json"});
    QCOMPARE(p.exitCode, -1);
    QCOMPARE(p.options.source, QStringLiteral("pattern"));
    QCOMPARE(p.options.filter, QStringLiteral("f.json"));
    QCOMPARE(p.options.strategy, QStringLiteral("naive"));
    QCOMPARE(p.options.device, QStringLiteral("cpu"));
    QCOMPARE(p.options.frames, 12);
    QCOMPARE(p.options.snapshot, QStringLiteral("s.png"));
    QCOMPARE(p.options.stats, QStringLiteral("s.json"));
    QCOMPARE(parseCommandLine({"convolab", "--frames", "zero"}).exitCode, 2);
    QCOMPARE(parseCommandLine({"convolab", "--bogus"}).exitCode, 2);
    QCOMPARE(parseCommandLine({"convolab", "--help"}).exitCode, 0);
    QCOMPARE(parseCommandLine({"convolab", "clip.mp4"}).options.source, QStringLiteral("clip.mp4"));
  }

  void filtersAreCentredIntoTheEditor() {
    const FilterSet small = FilterSet::uniform(ChannelFilter{3, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 45, 1});
    const FilterSet big = toEditorSize(small);
    QCOMPARE(big.size(), 7);
    QCOMPARE(big.channel(0).at(2, 2), 1.0);
    QCOMPARE(big.channel(0).at(4, 4), 9.0);
    QCOMPARE(big.channel(0).at(0, 0), 0.0);
    QCOMPARE(big.channel(0).divisor, 45.0);
    QCOMPARE(big.resizedTo(3), small);  // shrinking keeps the centre
  }

  void patternSpecs() {
    auto o = capture::TestPatternOptions::parse("pattern:1920x1080@60,fail=5,recover=2");
    QVERIFY(o.has_value());
    QCOMPARE(o->width, 1920);
    QCOMPARE(o->height, 1080);
    QCOMPARE(o->fps, 60.0);
    QCOMPARE(o->failAfter, 5);
    QCOMPARE(o->recoverAfter, 2);
    QVERIFY(!capture::TestPatternOptions::parse("patterns.png").has_value());
    QVERIFY_THROWS_EXCEPTION(capture::SourceError, capture::TestPatternOptions::parse("pattern:10x"));
  }

 private:
  // One entry of --stats' windows, checked field by field.
  static void checkWindow(const nlohmann::json& w, double startS, double seconds, int delivered,
                          int displayed, double ratio, double gapMs, bool partial) {
    const QByteArray text = QByteArray::fromStdString(w.dump());
    QVERIFY2(w.is_object(), text);
    QCOMPARE(w.value("start_s", -1.0), startS);
    QCOMPARE(w.value("seconds", -1.0), seconds);
    QCOMPARE(w.value("delivered_frames", -1), delivered);
    QCOMPARE(w.value("displayed_frames", -1), displayed);
    QVERIFY2(w.contains("displayed_ratio") && w["displayed_ratio"].is_number(), text);
    QCOMPARE(w["displayed_ratio"].get<double>(), ratio);
    QCOMPARE(w.value("max_display_gap_ms", -1.0), gapMs);
    QCOMPARE(w.value("partial", false), partial);
  }
};

CONVOLAB_GUI_TEST_GUILESS_MAIN(UnitsTest)
#include "test_units.moc"
