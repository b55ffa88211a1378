// SPDX-License-Identifier: MIT
// View ▸ Mirror Preview: the view maps pointer positions through the mirror (the pixel inspector reads the
// right pixel), the preview draws the frame flipped, and a saved frame is the frame as computed, not flipped.
#include <QAction>
#include <QTemporaryDir>
#include <QTest>

#include "app_test_support.hpp"
#include "cv/image_codec.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_view.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

class MirrorPreviewTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("test_mirror_preview")); }

  void viewMapsPointerPositionsThroughTheMirror() {
    PreviewView view;
    view.setViewportSize(QSizeF(400, 200));
    view.setImageSize(QSize(4, 2));
    const QRectF r = view.imageRect();
    const QPointF nearLeft(r.left() + 1, r.top() + 1);
    QCOMPARE(view.framePixel(nearLeft), QPoint(0, 0));
    view.setMirrored(true);
    QCOMPARE(view.framePixel(nearLeft), QPoint(3, 0));  // the left edge shows the frame's last column
    QVERIFY(qAbs(view.pixelRect(QPoint(0, 0)).right() - r.right()) < 1e-6);
    const QPointF p(r.left() + r.width() * 0.3, r.top() + r.height() * 0.6);
    QVERIFY((view.toWidget(view.toFrame(p)) - p).manhattanLength() < 1e-6);
    view.setSplit(0.25);
    QVERIFY(qAbs(view.dividerX() - (r.right() - 0.25 * r.width())) < 1e-6);
    QVERIFY(qAbs(view.splitAt(QPointF(view.dividerX(), r.center().y())) - 0.25) < 1e-6);
  }

  void previewFlipsWhatIsShownButSavedFramesAreNot() {
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("chelsea.png"))));
    window.resize(900, 700);
    window.show();
    // A frame computed with the filter (Save takes no other: nothing leaves unfiltered).
    const ProcessedFramePtr frame = test::waitForFrameWhere(window, [](const ProcessedFrame& f) {
      return !f.record.unfiltered && !f.record.stale && !f.record.bypassed && f.record.error.isEmpty();
    });
    QVERIFY(frame);
    QAction* mirror = window.action(ActionId::MirrorPreview);
    QVERIFY(!mirror->isChecked());  // an image: not mirrored by default
    mirror->trigger();
    QVERIFY(window.preview()->mirrored());
    QVERIFY(window.preview()->view().mirrored());
    // The saved file is the frame as computed, not its mirror image.
    QTemporaryDir dir;
    const QString path = window.saveFrameNow(dir.path());
    QVERIFY(!path.isEmpty());
    const Image saved = opencv::loadImage(path.toStdString());
    const ProcessedFramePtr latest = window.pipeline()->latestFrame();
    QVERIFY(latest);
    QCOMPARE(test::maxAbsDiff(saved, *latest->filtered), 0);
    // What is shown is flipped: the preview's left edge shows the frame's right column.
    const QRectF r = window.preview()->view().imageRect();
    QCOMPARE(window.preview()->view().framePixel(QPointF(r.left() + 0.5, r.top() + 0.5)).x(),
             latest->filtered->width - 1);
  }
};

CONVOLAB_GUI_TEST_MAIN(MirrorPreviewTest)
#include "test_mirror_preview.moc"
