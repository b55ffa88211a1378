// SPDX-License-Identifier: MIT
// PreviewView, the one transform both preview back-ends and the mouse use: fit and 1:1 placement, the pixel
// grid at 1:1, widget ↔ frame pixel mapping (the inspector's), pan, and the split divider.
#include <QTest>
#include <cmath>

#include "preview_view.hpp"

using convolab::gui::PreviewView;

namespace {

PreviewView viewOf(QSizeF viewport, QSize image, bool fit) {
  PreviewView v;
  v.setViewportSize(viewport);
  v.setImageSize(image);
  v.setFit(fit);
  return v;
}

}  // namespace

class PreviewViewTest : public QObject {
  Q_OBJECT

 private slots:
  void fitScalesIntoTheMargins() {
    const PreviewView v = viewOf({1000, 600}, {1920, 1080}, true);
    QCOMPARE(v.scale(), std::min(984.0 / 1920, 584.0 / 1080));
    const QRectF r = v.imageRect();
    QCOMPARE(r.center(), QPointF(500, 300));
    QVERIFY(r.top() >= PreviewView::kFitMargin - 1e-9 && r.left() >= PreviewView::kFitMargin - 1e-9);
    QVERIFY(v.smoothSampling());
  }

  // 1:1 in a viewport of odd size: centring alone would put the frame half a pixel off the grid, and every
  // pixel would be blended with its neighbour.
  void fullSizeSitsOnThePixelGrid() {
    PreviewView v = viewOf({401, 290}, {300, 201}, false);
    QCOMPARE(v.scale(), 1.0);
    QVERIFY(!v.smoothSampling());
    for (const QPointF pan : {QPointF(0, 0), QPointF(0.5, -0.5), QPointF(-37, 12)}) {
      v.setPan(pan);
      const QRectF r = v.imageRect();
      QCOMPARE(r.size(), QSizeF(300, 201));
      QCOMPARE(r.left(), std::round(r.left()));
      QCOMPARE(r.top(), std::round(r.top()));
    }
  }

  // The pixel under the cursor, at fit and at 1:1 with pan: the centre of every frame pixel maps back to it.
  void widgetAndFramePixelsRoundTrip() {
    for (const bool fit : {true, false}) {
      PreviewView v = viewOf({640, 480}, {320, 200}, fit);
      v.setPan({13, -7});
      for (const QPoint p : {QPoint(0, 0), QPoint(319, 199), QPoint(160, 77)}) {
        const QPointF at = v.toWidget(QPointF(p) + QPointF(0.5, 0.5));
        QCOMPARE(v.framePixel(at), p);
      }
      QCOMPARE(v.framePixel(v.imageRect().topLeft() - QPointF(1, 1)), QPoint(-1, -1));
    }
  }

  void dividerFollowsTheSplit() {
    PreviewView v = viewOf({800, 600}, {640, 480}, true);
    v.setSplit(0.3);
    QCOMPARE(v.splitAt(v.dividerX()), 0.3);
    QVERIFY(v.nearDivider(QPointF(v.dividerX() + 5, 300), 10));
    QVERIFY(!v.nearDivider(QPointF(v.dividerX() + 15, 300), 10));
    v.setSplit(7);
    QCOMPARE(v.split(), 1.0);
    QCOMPARE(v.splitAt(-100), 0.0);
  }

  void noFrameNoRect() {
    const PreviewView v = viewOf({800, 600}, {}, true);
    QVERIFY(v.imageRect().isEmpty());
    QCOMPARE(v.framePixel({400, 300}), QPoint(-1, -1));
  }
};

QTEST_GUILESS_MAIN(PreviewViewTest)
#include "test_preview_view.moc"
