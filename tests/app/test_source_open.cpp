// SPDX-License-Identifier: MIT
// Opening sources: automated runs end on a bad source (exit 3), a failed Open keeps the working source,
// the loading state, Open Recent, the seek bar, and the image size limit read from the header.
#include <sys/stat.h>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QTest>
#include <opencv2/imgcodecs.hpp>

#include "app_settings.hpp"
#include "app_test_support.hpp"
#include "capture/source_spec.hpp"
#include "capture/video_file_source.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_widget.hpp"
#include "preview/seek_bar.hpp"
#include "processing/pipeline.hpp"
#include "sources/recent_sources_menu.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

QString homeFile(const QString& name) {
  return QDir(QDir::homePath()).filePath(name);
}

/// A PNG of `w`×`h` from the bundled test image's pixels (scaled), written to HOME.
QString writePng(const QString& name, int w, int h) {
  cv::Mat bgr(h, w, CV_8UC3);
  cv::randu(bgr, 0, 255);
  const QString path = homeFile(name);
  cv::imwrite(path.toStdString(), bgr);
  return path;
}

/// A valid PNG signature and IHDR declaring `w`×`h`, followed by garbage: decoding it would fail with
/// another message (or cost gigabytes); only a header check refuses it as too large.
QString writeHugeHeaderPng(const QString& name, std::uint32_t w, std::uint32_t h) {
  QByteArray bytes("\x89PNG\r\n\x1a\n", 8);
  bytes += QByteArray("\x00\x00\x00\x0dIHDR", 8);
  for (std::uint32_t v : {w, h}) {
    bytes += char(v >> 24);
    bytes += char(v >> 16);
    bytes += char(v >> 8);
    bytes += char(v);
  }
  bytes += QByteArray("\x08\x00\x00\x00\x00", 5);  // 8-bit grey
  bytes += QByteArray(4, '\0');                    // CRC (wrong, never checked by the header reader)
  bytes += QByteArray(900, 'x');
  const QString path = homeFile(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(bytes);
  return path;
}

QString writeClip(const QString& name, int frames) {
  return test::writePatternClip(homeFile(name), frames);
}

}  // namespace

class SourceOpenTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("source-open-test")); }

  // 13.2: an automated run whose source cannot open ends with exit 3 instead of running forever.
  void automatedRunEndsWhenTheSourceCannotOpen() {
    const QString fifo = homeFile(QStringLiteral("fifo"));
    QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    const QString corrupt = homeFile(QStringLiteral("corrupt.png"));
    {
      QFile f(corrupt);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("not a png at all");
    }
    for (const QString& source :
         {QStringLiteral("missing.gif"), fifo, QStringLiteral("/dev/zero"), corrupt}) {
      LaunchOptions o = test::launchOptions(source);
      o.frames = 5;
      MainWindow window(o);
      QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 10000);
      QCOMPARE(window.exitCode(), 3);
    }
    // --snapshot / --stats make a run automated too.
    LaunchOptions o = test::launchOptions(QStringLiteral("missing.gif"));
    o.snapshot = homeFile(QStringLiteral("never.png"));
    MainWindow window(o);
    QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 10000);
    QCOMPARE(window.exitCode(), 3);
    QVERIFY(!QFile::exists(o.snapshot));
  }

  void automatedRunEndsWhenTheSourceNeverComesBack() {
    LaunchOptions o = test::launchOptions(QStringLiteral("pattern:32x32@60,fail=3"));  // never recovers
    o.frames = 1000;
    MainWindow window(o);
    QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 20000);
    QCOMPARE(window.exitCode(), 3);
  }

  void theAppItselfExits3WithTheMessage() {
    for (const QString& source : {QStringLiteral("missing.gif"), QStringLiteral("/dev/zero")}) {
      QProcess app;
      app.start(QStringLiteral(CONVOLAB_APP),
                {QStringLiteral("--source"), source, QStringLiteral("--frames"), QStringLiteral("5"),
                 QStringLiteral("--strategy"), QStringLiteral("naive")});
      QVERIFY(app.waitForStarted());
      if (!app.waitForFinished(60000)) {
        app.kill();
        app.waitForFinished();
        QFAIL(qPrintable(QStringLiteral("convolab --source %1 --frames 5 did not exit").arg(source)));
      }
      QCOMPARE(app.exitCode(), 3);
      QVERIFY2(app.readAllStandardError().contains(source.toUtf8()), "the message names the source");
    }
  }

  // 13.8: --stats and --snapshot without --frames are written when the window closes.
  void statsAndSnapshotWithoutFramesAreWrittenOnClose() {
    LaunchOptions o = test::launchOptions(QStringLiteral("pattern:64x48@30"));
    o.stats = homeFile(QStringLiteral("run-stats.json"));
    o.snapshot = homeFile(QStringLiteral("run-snapshot.png"));
    MainWindow window(o);
    window.show();
    // A frame made with the filter: --snapshot never writes an unfiltered one (RELIABILITY.md, "Nothing
    // leaves unfiltered"), and the first frames of an interactive run are unfiltered until the engine is
    // ready.
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QVERIFY(!QFile::exists(o.stats));
    window.close();
    QVERIFY(QFile::exists(o.snapshot));
    QFile stats(o.stats);
    QVERIFY(stats.open(QIODevice::ReadOnly));
    QVERIFY(QJsonDocument::fromJson(stats.readAll()).isObject());
    QCOMPARE(window.exitCode(), 0);
  }

  // --stats / --snapshot never replace something that is not a regular file (a FIFO here; a device node
  // such as /dev/full as root), and a bad --filter names why.
  void outputsNeverReplaceSpecialFiles() {
    const QString fifo = homeFile(QStringLiteral("stats-fifo"));
    QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    LaunchOptions o = test::launchOptions(QStringLiteral("pattern:32x32@30"));
    o.frames = 2;
    o.stats = fifo;
    MainWindow window(o);
    QTRY_VERIFY_WITH_TIMEOUT(window.runFinished(), 60000);
    QCOMPARE(window.exitCode(), 3);
    struct stat st {};
    QVERIFY(::stat(fifo.toLocal8Bit().constData(), &st) == 0 && S_ISFIFO(st.st_mode));

    QProcess app;
    app.start(QStringLiteral(CONVOLAB_APP),
              {QStringLiteral("--filter"), fifo, QStringLiteral("--source"), QStringLiteral("pattern:32x32"),
               QStringLiteral("--frames"), QStringLiteral("1"), QStringLiteral("--strategy"),
               QStringLiteral("naive")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 3);
    const QString err = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("stats-fifo")), qPrintable(err));
  }

  // 12.3: a failed Open keeps the working source and says why; only sources that opened are remembered.
  void failedOpenKeepsTheWorkingSource() {
    MainWindow window(test::launchOptions(QStringLiteral("pattern:96x64@30")));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    QTRY_COMPARE_WITH_TIMEOUT(window.settings().value(AppSettings::kSource).toString(),
                              QStringLiteral("pattern:96x64@30"), 5000);
    const QString corrupt = homeFile(QStringLiteral("corrupt-open.png"));
    {
      QFile f(corrupt);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("definitely not a png");
    }
    QVERIFY(window.openSourceSpec(corrupt));  // accepted: opens off the GUI thread
    QTRY_VERIFY_WITH_TIMEOUT(!window.isLoadingSource(), 10000);
    QCOMPARE(window.currentSourceSpec(), QStringLiteral("pattern:96x64@30"));
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Could not open")));
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("corrupt-open.png")));
    QVERIFY(!window.preview()->placeholderVisible());
    QTRY_VERIFY_WITH_TIMEOUT(window.preview()->frame(), 5000);
    // Frames keep coming from the pattern.
    const auto before = window.pipeline()->latestFrame()->record.sequence;
    QVERIFY(test::waitForFrameWhere(window,
                                    [&](const ProcessedFrame& f) { return f.record.sequence > before + 2; }));
    QCOMPARE(window.pipeline()->latestFrame()->record.width, 96);
    // A missing file fails at once, the same way.
    QVERIFY(!window.openSourceSpec(homeFile(QStringLiteral("gone.png"))));
    QCOMPARE(window.currentSourceSpec(), QStringLiteral("pattern:96x64@30"));
    QVERIFY(!window.preview()->placeholderVisible());
    // Neither failure became the start-up source or a recent entry.
    QCOMPARE(window.settings().value(AppSettings::kSource).toString(), QStringLiteral("pattern:96x64@30"));
    QVERIFY(!window.settings().recentSources().contains(corrupt));
  }

  // 12.4: a new source shows "loading" at once, not the old picture.
  void loadingStateAtOnce() {
    const QString image = writePng(QStringLiteral("still.png"), 120, 90);
    MainWindow window(test::launchOptions(QStringLiteral("pattern:64x48@30")));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    QTRY_VERIFY_WITH_TIMEOUT(window.preview()->frame(), 5000);
    QVERIFY(window.openSourceSpec(image));
    QVERIFY(window.isLoadingSource());
    QVERIFY(!window.preview()->frame());  // the old picture is gone at once
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.width == 120; }));
    QTRY_VERIFY_WITH_TIMEOUT(window.preview()->frame() && window.preview()->frame()->record.width == 120,
                             10000);
    QCOMPARE(window.currentSourceSpec(), image);
  }

  // 12.3: Open Recent lists sources that opened, newest first; missing files are greyed out.
  void openRecent() {
    const QString a = writePng(QStringLiteral("recent-a.png"), 40, 30);
    const QString b = writePng(QStringLiteral("recent-b.png"), 50, 30);
    MainWindow window(test::launchOptions(a));
    window.show();
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.width == 40; }));
    QVERIFY(window.openSourceSpec(b));
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.width == 50; }));
    QCOMPARE(window.settings().recentSources().mid(0, 2), (QStringList{b, a}));
    auto* menu = window.findChild<RecentSourcesMenu*>(QStringLiteral("recentMenu"));
    QVERIFY(menu);
    QVERIFY(QFile::remove(a));
    menu->rebuild();
    QAction* entryA = nullptr;
    QAction* entryB = nullptr;
    for (QAction* act : menu->actions()) {
      if (act->data().toString() == a) entryA = act;
      if (act->data().toString() == b) entryB = act;
    }
    QVERIFY(entryA && entryB);
    QVERIFY(!entryA->isEnabled());
    QVERIFY(entryA->text().contains(QStringLiteral("missing")));
    QVERIFY(entryB->isEnabled());
    // Choosing an entry opens it.
    QVERIFY(window.openSourceSpec(QStringLiteral("pattern:32x32@30")));
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.width == 32; }));
    entryB->trigger();
    QVERIFY(test::waitForFrameWhere(window, [](const ProcessedFrame& f) { return f.record.width == 50; }));
  }

  // 12.3: a seek bar and a frame counter for videos; seeking while paused shows the frame sought.
  void seekBarAndFrameCounter() {
    const QString clip = writeClip(QStringLiteral("seek.avi"), 12);
    // The source itself: seek(7) then read delivers what the 8th sequential read delivers.
    capture::VideoFileSource sequential(clip.toStdString());
    sequential.open();
    QCOMPARE(sequential.frameCount(), std::int64_t{12});
    capture::Frame f;
    for (int i = 0; i < 8; ++i) QVERIFY(sequential.read(f));
    QCOMPARE(sequential.position(), std::int64_t{7});
    const auto eighth = f.image;
    capture::VideoFileSource seeking(clip.toStdString());
    seeking.open();
    QVERIFY(seeking.read(f));
    seeking.seek(7);
    QVERIFY(seeking.read(f));
    QCOMPARE(seeking.position(), std::int64_t{7});
    QCOMPARE(test::maxAbsDiff(*f.image, *eighth), 0);

    MainWindow window(test::launchOptions(clip));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    auto* bar = window.findChild<SeekBar*>(QStringLiteral("seekBar"));
    QVERIFY(bar);
    QTRY_VERIFY_WITH_TIMEOUT(bar->isVisible() && bar->slider()->maximum() == 400, 5000);  // ms
    window.action(ActionId::Pause)->setChecked(true);
    QTest::qWait(200);
    bar->seekToMs(7 * 1000.0 / 30 + 1);  // inside the 8th frame's interval (30 fps)
    QVERIFY(test::waitForFrameWhere(
        window, [&](const ProcessedFrame& p) { return test::maxAbsDiff(*p.original, *eighth) == 0; }, 10000));
    bar->refresh();
    QCOMPARE(bar->counterText(), QStringLiteral("0:00.2 / 0:00.4"));  // 234 ms of 400 ms
    // Not a video: the bar goes away.
    QVERIFY(window.openSourceSpec(QStringLiteral("pattern:32x32@30")));
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 5000);
  }

  // 13.4: the header is read first; images over the limit are refused with the reason, before decoding.
  void imageSizeLimitFromTheHeader() {
    // (The header reader and the codec's refusal themselves: tests/cv, ImageCodec.*.)
    const QString huge = writeHugeHeaderPng(QStringLiteral("huge.png"), 30000, 30000);
    // As a source: refused with the codec's reason, as a SourceError.
    try {
      capture::createSource(huge.toStdString(), 100'000'000)->open();
      QFAIL("a 900 MP image was accepted");
    } catch (const capture::SourceError& e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.contains(QStringLiteral("huge.png is 30000×30000")) &&
                   message.contains(QStringLiteral("above the limit")),
               qPrintable(message));
    }
    // In the app: refused with the reason, the working source stays.
    MainWindow window(test::launchOptions(QStringLiteral("pattern:64x48@30")));
    window.show();
    QVERIFY(test::waitForFrame(window, 0));
    QVERIFY(window.openSourceSpec(huge));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isLoadingSource(), 10000);
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("above the limit")),
             qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(window.currentSourceSpec(), QStringLiteral("pattern:64x48@30"));
    // The limit is a setting: a 2 MP image is refused under a 1 MP limit.
    QSettings().setValue(AppSettings::kMaxPixels, 1'000'000);
    const QString twoMp = writePng(QStringLiteral("two-mp.png"), 2000, 1000);
    {
      MainWindow limited(test::launchOptions(twoMp));
      QCOMPARE(limited.settings().maxPixels(), std::int64_t{1'000'000});
      QTRY_VERIFY_WITH_TIMEOUT(limited.preview()->placeholderVisible(), 10000);
    }
    QSettings().remove(AppSettings::kMaxPixels);
    // A pattern over the limit is refused too.
    QVERIFY_THROWS_EXCEPTION(capture::SourceError, capture::createSource("pattern:20000x20000", 100'000'000));
  }
};

CONVOLAB_GUI_TEST_MAIN(SourceOpenTest)
#include "test_source_open.moc"
