// SPDX-License-Identifier: MIT
// File ▸ Export Filtered Video: the job filters every frame like the engine (FFV1 round trip), exports the
// chain the preview runs (switched-off steps skipped, every frame against the chain's CPU reference), runs
// off the GUI thread, keeps a variable-rate clip's duration, and Cancel leaves no output and no temporary.
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "app_test_support.hpp"
#include "chain/step_docks.hpp"
#include "convolab/filter.hpp"
#include "convolab/reference.hpp"
#include "cv/mat_adapter.hpp"
#include "gui_test_main.hpp"
#include "outputs/video_export_dialog.hpp"
#include "outputs/video_export_job.hpp"
#include "processing/pipeline.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

void writeVideo(const QString& path, int w, int h, int frames) {
  cv::VideoWriter writer(path.toStdString(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('F', 'F', 'V', '1'), 25,
                         cv::Size(w, h));
  QVERIFY(writer.isOpened());
  cv::RNG rng(3);
  cv::Mat frame(h, w, CV_8UC3);
  for (int i = 0; i < frames; ++i) {
    rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
    writer.write(frame);
  }
}

/// A filter that swaps nothing but scales each channel differently: out = in/2 (R), in (G), 255 - in (B).
FilterSet channelFilter() {
  ChannelFilter r = ChannelFilter::identity(3), g = ChannelFilter::identity(3),
                b = ChannelFilter::identity(3);
  r.divisor = 2;
  b.matrix[4] = -1;
  b.offset = 255;
  return FilterSet::make({r, g, b});
}

FilterSet square3(std::vector<double> m, double divisor = 1) {
  ChannelFilter c = ChannelFilter::identity(3);
  c.matrix = std::move(m);
  c.divisor = divisor;
  return FilterSet::make({c, c, c});
}

/// Blur, then sharpen, with an edge step between them switched off: two steps run (integer weights and a
/// power-of-two divisor: exact).
FilterChain twoStepsOn() {
  return FilterChain::make({ChainStep::single(square3({1, 2, 1, 2, 4, 2, 1, 2, 1}, 16)),
                            ChainStep::single(square3({-1, -1, -1, -1, 8, -1, -1, -1, -1}), false),
                            ChainStep::single(square3({0, -1, 0, -1, 5, -1, 0, -1, 0}))},
                           "Blur, then sharpen");
}

int entries(const QString& dir) {
  return static_cast<int>(QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size());
}

}  // namespace

class TestVideoExport : public QObject {
  Q_OBJECT

 private slots:
  // 33.7: the progress dialog's title was cut to "Export…voLab" by the window manager.
  void theProgressTitleHasRoom() {
    VideoExportDialog dialog;
    const int title =
        dialog.fontMetrics().horizontalAdvance(dialog.windowTitle() + QStringLiteral(" — ConvoLab"));
    QVERIFY2(dialog.minimumWidth() >= title + 100, qPrintable(QString::number(dialog.minimumWidth())));
  }

  // 33.7: the final message (frames, size, codec, timing, path) went whole to the status bar, cut at 1366.
  // The status bar gets a short line; the whole message is in a box that wraps it within the screen.
  void theFinalMessageFitsAt1366() {
    QWidget window;
    window.resize(1366, 768);
    const QString output =
        QStringLiteral("/home/someone/Videos/ConvoLab/a_rather_long_clip_name_filtered.mkv");
    const QString message =
        QStringLiteral(
            "Wrote 2400 frames (1920×1080, FFV1, 80.00 s at 30 fps; 12 frames were late) to %1 in "
            "95.3 s (25.2 frames/s; the audio is not kept).")
            .arg(output);
    QString line;
    QMessageBox* box = showVideoExportOutcome(&window, true, false, message, output,
                                              [&line](const QString& text) { line = text; });
    QVERIFY(box);
    QCOMPARE(line, QStringLiteral("Exported a_rather_long_clip_name_filtered.mkv"));
    QVERIFY2(window.fontMetrics().horizontalAdvance(line) < 1366 / 2, qPrintable(line));
    QCOMPARE(box->text(), message);
    box->adjustSize();
    QVERIFY2(box->width() <= 1366, qPrintable(QString::number(box->width())));
    box->close();
    // Cancelled: the line only, no box.
    QVERIFY(!showVideoExportOutcome(&window, false, true,
                                    QStringLiteral("Export cancelled; nothing was written."), output,
                                    [&line](const QString& text) { line = text; }));
    QCOMPARE(line, QStringLiteral("Export cancelled; nothing was written."));
  }

  void exportsEveryFrameWithTheFilter() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in.mkv"), out = dir.filePath("out.mkv");
    writeVideo(in, 32, 24, 8);
    VideoExportDialog dialog;
    QSignalSpy done(&dialog, &VideoExportDialog::exportFinished);
    QVERIFY(dialog.start(in, out, channelFilter(), QString(), QStringLiteral("naive")));
    QVERIFY(done.wait(120000));
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(2).toString()));
    cv::VideoCapture a(in.toStdString(), cv::CAP_FFMPEG), b(out.toStdString(), cv::CAP_FFMPEG);
    cv::Mat fa, fb;
    int frames = 0;
    while (a.read(fa)) {
      QVERIFY(b.read(fb));
      // BGR planes: blue = 255 - in, green = in, red = in / 2 (±1 for rounding).
      std::vector<cv::Mat> pa, pb;
      cv::split(fa, pa);
      cv::split(fb, pb);
      cv::Mat wantB = 255 - pa[0], wantR;
      pa[2].convertTo(wantR, CV_8U, 0.5);
      double e0 = 0, e1 = 0, e2 = 0;
      cv::minMaxLoc(cv::abs(pb[0] - wantB) + cv::abs(wantB - pb[0]), nullptr, &e0);
      cv::minMaxLoc(cv::abs(pb[1] - pa[1]) + cv::abs(pa[1] - pb[1]), nullptr, &e1);
      cv::minMaxLoc(cv::abs(pb[2] - wantR) + cv::abs(wantR - pb[2]), nullptr, &e2);
      QVERIFY2(e0 <= 1 && e1 <= 1 && e2 <= 1,
               qPrintable(QStringLiteral("frame %1: %2 %3 %4").arg(frames).arg(e0).arg(e1).arg(e2)));
      ++frames;
    }
    QCOMPARE(frames, 8);
    QCOMPARE(entries(dir.path()), 2);
  }

  // Issue 30: the export takes the chain the preview runs (Pipeline::chain()), not the editor's filter, and
  // skips its switched-off step as live; every frame equals the CPU reference of the chain.
  void exportsTheChainThePreviewRuns() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in.mkv"), out = dir.filePath("out.mkv");
    writeVideo(in, 33, 25, 5);  // odd: padded to 34×26 on writing
    Pipeline pipeline;
    pipeline.setFilter(channelFilter());  // the editor's filter: replaced by the chain
    pipeline.setChain(twoStepsOn());
    QString told;
    const FilterChain chain = filterForVideoExport(pipeline, [&told](const QString& m) { told = m; });
    QCOMPARE(chain, twoStepsOn());
    QCOMPARE(told, QStringLiteral("Exporting the chain as the preview runs it: 2 of 3 steps on"));
    VideoExportDialog dialog;
    QSignalSpy done(&dialog, &VideoExportDialog::exportFinished);
    QVERIFY(dialog.start(in, out, chain, QString(), QStringLiteral("naive")));
    QVERIFY(done.wait(120000));
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(2).toString()));
    cv::VideoCapture a(in.toStdString(), cv::CAP_FFMPEG), b(out.toStdString(), cv::CAP_FFMPEG);
    cv::Mat fa, fb;
    int frames = 0;
    while (a.read(fa)) {
      QVERIFY(b.read(fb));
      Image input, written, want(fa.cols, fa.rows);
      opencv::imageFromMat(fa, input);
      opencv::imageFromMat(fb(cv::Rect(0, 0, fa.cols, fa.rows)), written);
      referenceChain(input.view(), want.mutableView(), twoStepsOn());
      const double diff = cv::norm(opencv::asMat(written), opencv::asMat(want), cv::NORM_INF);
      QVERIFY2(diff == 0, qPrintable(QStringLiteral("frame %1: %2").arg(frames).arg(diff)));
      ++frames;
    }
    QCOMPARE(frames, 5);
  }

  void keepsTheDurationOfAVariableRateClip() {
    // 20 frames over 3.0 s at a nominal 10 fps (tests/data/video/README.md): 30 frames at 10 fps, in order.
    QTemporaryDir dir;
    const QString in = convolab::test::dataFile(QStringLiteral("video/variable_rate.mkv"));
    const QString out = dir.filePath("out.mkv");
    VideoExportDialog dialog;
    QSignalSpy done(&dialog, &VideoExportDialog::exportFinished);
    QVERIFY(dialog.start(in, out, channelFilter(), QString(), QStringLiteral("naive")));
    QVERIFY(done.wait(120000));
    const QString message = done.first().at(2).toString();
    QVERIFY2(done.first().at(0).toBool(), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("3.00 s at 10 fps")) &&
                 message.contains(QStringLiteral("decoded 20 of 30")),
             qPrintable(message));
    cv::VideoCapture a(in.toStdString(), cv::CAP_FFMPEG), b(out.toStdString(), cv::CAP_FFMPEG);
    QCOMPARE(b.get(cv::CAP_PROP_FPS), 10.0);
    std::vector<std::pair<double, cv::Mat>> input;
    cv::Mat f;
    while (a.read(f)) input.emplace_back(a.get(cv::CAP_PROP_POS_MSEC), f.clone());
    int k = 0;
    std::size_t shown = 0;
    while (b.read(f)) {
      while (shown + 1 < input.size() && std::llround(input[shown + 1].first / 100.0) <= k) ++shown;
      std::vector<cv::Mat> pin, pout;
      cv::split(input[shown].second, pin);
      cv::split(f, pout);
      double e = 0;
      cv::minMaxLoc(cv::abs(pout[1] - pin[1]) + cv::abs(pin[1] - pout[1]), nullptr, &e);  // green: identity
      QVERIFY2(e <= 1,
               qPrintable(QStringLiteral("output frame %1 should show input frame %2").arg(k).arg(shown)));
      ++k;
    }
    QCOMPARE(k, 30);
  }

  void cancelLeavesNoPartialFile() {
    QTemporaryDir dir;
    const QString in = dir.filePath("long.mkv"), out = dir.filePath("out.mkv");
    writeVideo(in, 160, 120, 1500);
    VideoExportDialog dialog;
    QSignalSpy done(&dialog, &VideoExportDialog::exportFinished);
    bool cancelled = false;
    connect(dialog.job(), &VideoExportJob::progress, &dialog, [&](qint64 n, qint64) {
      if (n >= 3 && !cancelled) {
        cancelled = true;
        emit dialog.canceled();  // what the Cancel button does
      }
    });
    QVERIFY(dialog.start(in, out, channelFilter(), QString(), QStringLiteral("naive")));
    QVERIFY(done.wait(120000));
    QVERIFY(cancelled);
    QCOMPARE(done.first().at(0).toBool(), false);
    QCOMPARE(done.first().at(1).toBool(), true);
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(entries(dir.path()), 1);  // the input only: no hidden temporary
  }
};

CONVOLAB_GUI_TEST_MAIN(TestVideoExport)
#include "test_video_export.moc"
