// SPDX-License-Identifier: MIT
// Processing ▸ Limit Frame Rate: the cap's schedule on synthetic timestamps (15 and 24 on 30 fps, jitter, a
// pause), and end to end: a 15 fps cap on the 30 fps test pattern gives processed_fps ≈ 15 in --stats, saying
// frames were dropped before upload.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "gui_test_main.hpp"
#include "processing/frame_rate_cap.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// Frames admitted out of `seconds` of a `sourceFps` stream with ±`jitterMs` alternating jitter.
int admitted(double limit, double sourceFps, double seconds, double jitterMs = 0) {
  FrameRateCap cap;
  cap.setLimit(limit);
  const auto start = capture::Clock::now();
  int n = 0;
  const int frames = static_cast<int>(sourceFps * seconds);
  for (int i = 0; i < frames; ++i) {
    const double ms = i * 1000.0 / sourceFps + ((i % 2) ? jitterMs : -jitterMs);
    if (cap.admit(start + std::chrono::microseconds(static_cast<long long>(ms * 1000)))) ++n;
  }
  return n;
}

}  // namespace

class FrameRateCapTest : public QObject {
  Q_OBJECT

 private slots:
  void scheduleKeepsToTheLimit() {
    QVERIFY(qAbs(admitted(15, 30, 10) - 150) <= 1);
    QVERIFY(qAbs(admitted(24, 30, 10) - 240) <= 2);
    QVERIFY(qAbs(admitted(15, 30, 10, 3) - 150) <= 2);  // jittery timestamps
    QCOMPARE(admitted(60, 30, 10), 300);                // a limit above the source drops nothing
    QCOMPARE(admitted(0, 30, 10), 300);                 // off
  }

  // Issue 34.12: a frame up to a tenth of a period early is on schedule (sources jitter), one later than that
  // waits for the next slot. A cap at the source's own rate: every third frame arrives `earlyMs` before its
  // slot (times exact to the nanosecond, so no rounding decides it).
  void aFrameATenthOfAPeriodEarlyIsOnSchedule() {
    const auto run = [](double fps, double earlyMs) {
      FrameRateCap cap;
      cap.setLimit(fps);
      const auto start = capture::Clock::now();
      int n = 0;
      for (int k = 0; k < 300; ++k) {
        const double ms = k * 1000.0 / fps - (k % 3 == 1 ? earlyMs : 0.0);
        n += cap.admit(start + std::chrono::nanoseconds(std::llround(ms * 1e6)));
      }
      return n;
    };
    QCOMPARE(run(30, 0), 300);  // on their slots: all
    QCOMPARE(run(30, 2), 300);  // 2 ms early of 33.3: on schedule
    QCOMPARE(run(15, 6), 300);  // 6 ms early of 66.7
    QCOMPARE(run(30, 5), 200);  // 5 ms early of 33.3: beyond a tenth, dropped
  }

  void fifteenFpsCapOnThirtyFpsPatternInStats() {
    QTemporaryDir dir;
    const QString stats = dir.filePath(QStringLiteral("stats.json"));
    QProcess app;
    app.start(QStringLiteral(CONVOLAB_APP),
              {QStringLiteral("--source"), QStringLiteral("pattern:320x240@30"),
               QStringLiteral("--fps-limit"), QStringLiteral("15"), QStringLiteral("--frames"),
               QStringLiteral("30"), QStringLiteral("--stats"), stats});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 0);
    QFile file(stats);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(file.readAll()).object();
    const double source = j.value(QLatin1String("source_fps")).toDouble();
    const double processed = j.value(QLatin1String("processed_fps")).toDouble();
    QVERIFY2(source > 25, qPrintable(QString::number(source)));
    QVERIFY2(processed > 13.5 && processed < 16.5, qPrintable(QString::number(processed)));
    const QJsonObject cap = j.value(QLatin1String("frame_rate_cap")).toObject();
    QCOMPARE(cap.value(QLatin1String("limit_fps")).toDouble(), 15.0);
    QCOMPARE(cap.value(QLatin1String("method")).toString(), QStringLiteral("drop before upload"));
    QVERIFY(cap.value(QLatin1String("dropped")).toInt() > 10);
  }
};

CONVOLAB_GUI_TEST_MAIN(FrameRateCapTest)
#include "test_frame_rate_cap.moc"
