// SPDX-License-Identifier: MIT
// The pixel inspector: hovering reports the output pixel that the saved frame holds, and the spelled-out
// weighted sum gives the same value.
#include <QDir>
#include <QMouseEvent>
#include <QTest>

#include "app_test_support.hpp"
#include "convolab/filter_io.hpp"
#include "cv/image_codec.hpp"
#include "editor/filter_document.hpp"
#include "lab/lab_controller.hpp"
#include "lab/pixel_inspector.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
namespace lab = convolab::lab;

class LabInspectorTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("lab-inspector-test")); }

  void modifiersPickChannels() {
    QCOMPARE(lab::PixelInspector::channelFor(Qt::NoModifier), -1);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier), 0);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier | Qt::ControlModifier), 1);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier | Qt::AltModifier), 2);
  }

  void outputEqualsTheSavedFramePixel() {
    const QString filterPath = QDir(QDir::homePath()).filePath(QStringLiteral("distinct.json"));
    const FilterSet filter = test::distinctChannelsFilter();
    saveFilterFile(filterPath.toStdString(), filter, true);
    LaunchOptions o;
    o.source = test::dataFile(QStringLiteral("coffee.png"));
    o.filter = filterPath;
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QTRY_VERIFY(window.preview()->frame() != nullptr);
    lab::PixelInspector* inspector = window.lab()->inspector();
    QVERIFY(inspector);

    const QString saved = window.saveFrameNow(QDir::homePath() + QStringLiteral("/frames"));
    QVERIFY(!saved.isEmpty());
    const Image png = opencv::loadImage(saved.toStdString());
    // The saved frame is the full-resolution filter output (a still source: every frame is the same).
    QCOMPARE(png.width, 600);
    QCOMPARE(png.height, 400);
    QCOMPARE(test::maxAbsDiff(png, *window.preview()->frame()->filtered), 0);

    for (const QPoint pos : {QPoint(0, 0), QPoint(123, 45), QPoint(png.width - 1, png.height - 1)}) {
      for (int c = 0; c < 3; ++c) {
        const auto probe = inspector->inspect(pos, c);
        QVERIFY(probe);
        for (int k = 0; k < 3; ++k) QCOMPARE(probe->output[k], int(png.view().row(pos.y())[pos.x() * 3 + k]));
        QVERIFY2(std::abs(probe->expected - probe->output[c]) <= 1,
                 qPrintable(QStringLiteral("%1 vs %2").arg(probe->expected).arg(probe->output[c])));
        QCOMPARE(static_cast<int>(probe->neighbours.size()), filter.size() * filter.size());
      }
    }

    // Hovering the middle of the preview with Shift: status line and the neighbourhood panel.
    PreviewWidget* preview = window.preview();
    const QPointF centre = QRectF(preview->rect()).center();
    const QPoint framePos = preview->framePosition(centre);
    QVERIFY(framePos.x() >= 0);
    QMouseEvent move(QEvent::MouseMove, centre, preview->mapToGlobal(centre), Qt::NoButton, Qt::NoButton,
                     Qt::ShiftModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY(
        inspector->statusText().contains(QStringLiteral("x %1, y %2").arg(framePos.x()).arg(framePos.y())));
    QVERIFY(inspector->lastProbe());
    QCOMPARE(inspector->lastProbe()->channel, 0);
    QVERIFY(!preview->grab().isNull());  // paints the overlay
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(preview, &leave);
    QVERIFY(inspector->statusText().isEmpty());
  }

  // 33.4: the line follows a new frame and a zoom under a still pointer (it kept the last move's values).
  void theLineFollowsNewFramesAndZoomUnderAStillPointer() {
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("coffee.png"))));
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    lab::PixelInspector* inspector = window.lab()->inspector();
    PreviewWidget* preview = window.preview();
    const QPointF at =
        QRectF(preview->rect()).center() + QPointF(preview->width() / 5.0, preview->height() / 6.0);
    QMouseEvent move(QEvent::MouseMove, at, preview->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY(inspector->lastProbe());

    // A new filter (out = in / 2) reaches the screen: the line shows its output without a pointer move.
    ChannelFilter half = ChannelFilter::identity(7);
    half.divisor = 2;
    window.document()->replace(FilterSet::uniform(half, BorderMode::Reflect101, "Half"), QStringLiteral("t"));
    const auto halved = [&] {
      const auto& p = inspector->lastProbe();
      if (!p) return false;
      for (int c = 0; c < 3; ++c)
        if (std::abs(p->output[c] - p->input[c] / 2.0) > 0.5) return false;
      return true;
    };
    QTRY_VERIFY2(halved(), qPrintable(inspector->statusText()));

    // Zoom about the centre: another frame pixel is under the still pointer.
    const QPoint before = preview->framePosition(at);
    preview->setZoom(8.0);
    const QPoint now = preview->framePosition(at);
    QVERIFY(now != before && now.x() >= 0);
    QVERIFY2(inspector->statusText().contains(QStringLiteral("x %1, y %2").arg(now.x()).arg(now.y())),
             qPrintable(inspector->statusText()));
  }
};

QTEST_MAIN(LabInspectorTest)
#include "test_lab_inspector.moc"
