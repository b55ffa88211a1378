// SPDX-License-Identifier: MIT
// Nothing leaves unfiltered (issue 34.1): every frame the output door hands a sink, from the first on, was
// computed with the filter the user set, for a still image, a video and a pattern, on auto and naive; and
// nothing leaves while the filter is bypassed (Save and Copy refuse then too).
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.hpp"
#include "capture/source_spec.hpp"
#include "gui_test_main.hpp"
#include "processing/pipeline.hpp"
#include "recording_sink.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

// Every output pixel is 255 whatever the input: a frame that is not all white did not come from it (the
// input, an unfiltered pass, the identity filter the pipeline starts with, a failed frame).
FilterSet whiteFilter() {
  ChannelFilter c;
  c.matrix = {0.0};
  c.offset = 255;
  return FilterSet::uniform(c);
}

bool allWhite(const Image& image) {
  for (int y = 0; y < image.height; ++y) {
    const std::uint8_t* row = image.view().row(y);
    for (int x = 0; x < image.width * 3; ++x)
      if (row[x] != 255) return false;
  }
  return true;
}

}  // namespace

class OutputPrivacyTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_output_privacy")); }

  void everyFrameOutIsFilteredFromTheFirst_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("frames");  // frames to see leave (a still leaves once per change)
    const QString still = test::dataFile(QStringLiteral("chelsea.png"));
    const QString video = test::writePatternClip(m_dir.filePath(QStringLiteral("clip.avi")), 40);
    const QString pattern = QStringLiteral("pattern:96x64@30");
    for (const char* strategy : {"auto", "naive"}) {
      QTest::addRow("still-%s", strategy) << still << strategy << 1;
      QTest::addRow("video-%s", strategy) << video << strategy << 4;
      QTest::addRow("pattern-%s", strategy) << pattern << strategy << 4;
    }
  }

  void everyFrameOutIsFilteredFromTheFirst() {
    QFETCH(QString, source);
    QFETCH(QString, strategy);
    QFETCH(int, frames);
    Pipeline pipeline;
    auto sink = std::make_shared<test::RecordingSink>();
    pipeline.outputDoor()->add(sink);
    pipeline.setFilter(whiteFilter());
    pipeline.startEngine(QString(), StrategyId{strategy.toStdString()});
    pipeline.openSource(capture::createSource(source.toStdString()));
    QTRY_VERIFY_WITH_TIMEOUT(sink->count() >= static_cast<std::size_t>(frames), 30000);
    for (const output::OutputFrame& f : sink->frames()) {
      QVERIFY2(allWhite(*f.image),
               qPrintable(QStringLiteral("a frame (revision %1, source index %2) left unfiltered")
                              .arg(f.filterRevision)
                              .arg(f.sourceIndex)));
      QCOMPARE(f.filterRevision, pipeline.filterRevision());
    }
    QVERIFY(pipeline.frameThatMayLeave());  // Save and Copy have a frame

    // Bypass: the preview shows the input; nothing of it leaves, and Save and Copy refuse.
    QSignalSpy processed(&pipeline, &Pipeline::frameProcessed);
    pipeline.setBypass(true);
    QTRY_VERIFY_WITH_TIMEOUT(pipeline.latestFrame() && pipeline.latestFrame()->record.bypassed, 10000);
    QString why;
    QVERIFY(!pipeline.frameThatMayLeave(&why));
    QVERIFY(!why.isEmpty());
    QTest::qWait(150);  // a stream's next frames, bypassed too
    for (const output::OutputFrame& f : sink->frames()) QVERIFY(allWhite(*f.image));
    QVERIFY(pipeline.shutdown(10000));
  }
};

CONVOLAB_GUI_TEST_MAIN(OutputPrivacyTest)
#include "test_output_privacy.moc"
