// SPDX-License-Identifier: MIT
// `convolab --snapshot` writes the filtered frame: its pixels equal the CPU reference of the filter on the
// source image (±1), and differ from the source. Checking only that the file exists would pass a snapshot of
// the unfiltered frame.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "cv/image_codec.hpp"
#include "gui_test_main.hpp"

using namespace convolab;

class TestSnapshotPixels : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_snapshot_pixels")); }

  void theSnapshotIsTheFilteredFrame() {
    QTemporaryDir dir;
    const QString filterPath = dir.filePath(QStringLiteral("filter.json"));
    const QString out = dir.filePath(QStringLiteral("snap.png"));
    const FilterSet filter = test::distinctChannelsFilter();
    saveFilterFile(filterPath.toStdString(), filter, false);
    const QString source = test::dataFile(QStringLiteral("chelsea.png"));

    QProcess app;
    app.start(QStringLiteral(CONVOLAB_APP),
              {QStringLiteral("--source"), source, QStringLiteral("--filter"), filterPath,
               QStringLiteral("--strategy"), QStringLiteral("constant"), QStringLiteral("--frames"),
               QStringLiteral("3"), QStringLiteral("--snapshot"), out});
    QVERIFY(app.waitForStarted());
    if (!app.waitForFinished(120000)) {
      app.kill();
      app.waitForFinished();
      QFAIL("convolab --snapshot did not exit");
    }
    QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());

    const Image input = opencv::loadImage(source.toStdString());
    const Image snapshot = opencv::loadImage(out.toStdString());
    const Image expected = test::referenceResult(input, filter);
    QCOMPARE(snapshot.width, input.width);
    QCOMPARE(snapshot.height, input.height);
    const int diff = test::maxAbsDiff(snapshot, expected);
    QVERIFY2(diff <= 1, qPrintable(QStringLiteral("snapshot differs from the reference by %1").arg(diff)));
    QVERIFY2(test::maxAbsDiff(snapshot, input) > 10, "the snapshot is the unfiltered frame");
  }
};

CONVOLAB_GUI_TEST_MAIN(TestSnapshotPixels)
#include "test_snapshot_pixels.moc"
