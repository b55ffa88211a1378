// SPDX-License-Identifier: MIT
// PreviewView, the one transform both preview back-ends and the mouse use: fit and 1:1 placement, the pixel
// grid at 1:1, widget ↔ frame pixel mapping (the inspector's), pan, and the split divider.
#include <QTest>
#include <cmath>

#include "gui_test_main.hpp"
#include "preview/preview_overlays.hpp"
#include "preview/preview_view.hpp"

using convolab::gui::placePill;
using convolab::gui::PreviewView;
using convolab::gui::splitSidesInView;

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
  // 33.8: at 600–1200 % the divider leaves the view; the side that is gone loses its pill.
  void aSplitSideOutOfViewHasNoPill() {
    for (const bool vertical : {false, true}) {
      PreviewView v = viewOf({800, 600}, {600, 400}, true);
      v.setSplitVertical(vertical);
      v.setSplit(0.5);
      auto sides = splitSidesInView(v, v.visibleRect());
      QVERIFY(sides.original && sides.filtered);                        // fitted: both
      v.zoomAt(8.0, vertical ? QPointF(400, 150) : QPointF(150, 300));  // near the original's far edge
      sides = splitSidesInView(v, v.visibleRect());
      QVERIFY(sides.original && !sides.filtered);
      v.setFit(true);
      v.zoomAt(8.0, vertical ? QPointF(400, 450) : QPointF(650, 300));  // near the filtered side's far edge
      sides = splitSidesInView(v, v.visibleRect());
      QVERIFY(!sides.original && sides.filtered);
    }
  }

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
    QCOMPARE(v.splitAt(QPointF(v.dividerX(), 0)), 0.3);
    QVERIFY(v.nearDivider(QPointF(v.dividerX() + 5, 300), 10));
    QVERIFY(!v.nearDivider(QPointF(v.dividerX() + 15, 300), 10));
    v.setSplit(7);
    QCOMPARE(v.split(), 1.0);
    QCOMPARE(v.splitAt(QPointF(-100, 0)), 0.0);
  }

  // The wheel's zoom keeps the frame point under the cursor where it is (within half a widget pixel: the
  // corner snaps to the pixel grid), all the way up to 32× and back down to below fit.
  void zoomKeepsThePointUnderTheCursor() {
    for (const QPointF anchor : {QPointF(320, 240), QPointF(250, 190), QPointF(401.5, 287.25)}) {
      PreviewView v = viewOf({640, 480}, {320, 200}, true);
      const QPointF at = v.toFrame(anchor);
      QVERIFY(v.imageRect().contains(anchor));
      double last = v.scale();
      while (v.scale() < PreviewView::kMaxZoom) {
        v.zoomIn(anchor);
        QVERIFY2(v.scale() > last, qPrintable(QString::number(v.scale())));
        last = v.scale();
        const QPointF back = v.toWidget(at);
        QVERIFY2(std::abs(back.x() - anchor.x()) <= 0.5 && std::abs(back.y() - anchor.y()) <= 0.5,
                 qPrintable(QStringLiteral("zoom %1: %2, %3").arg(v.scale()).arg(back.x()).arg(back.y())));
      }
      QCOMPARE(v.scale(), PreviewView::kMaxZoom);
      v.zoomIn(anchor);
      QCOMPARE(v.scale(), PreviewView::kMaxZoom);
      for (int i = 0; i < 14; ++i) {
        v.zoomOut(anchor);
        const QPointF back = v.toWidget(at);
        // Below fit the frame is smaller than the view and the anchor may be outside it: clamped then.
        if (v.scale() >= v.fitScale())
          QVERIFY2(std::abs(back.x() - anchor.x()) <= 0.5 && std::abs(back.y() - anchor.y()) <= 0.5,
                   qPrintable(QStringLiteral("zoom %1: %2, %3").arg(v.scale()).arg(back.x()).arg(back.y())));
      }
      QVERIFY(v.scale() < v.fitScale());
    }
  }

  // Fit, 100 % (Ctrl+1 zooms around the centre: from fit that is the frame's centre), and the steps.
  void fitAndFullSizeAndSteps() {
    PreviewView v = viewOf({1000, 600}, {1920, 1080}, true);
    const double fit = v.fitScale();
    QCOMPARE(v.scale(), fit);
    QCOMPARE(v.zoomText(), QStringLiteral("Fit 51.2 %"));  // 984 / 1920
    v.zoomAt(1.0, QPointF(500, 300));
    QVERIFY(!v.fit());
    QCOMPARE(v.scale(), 1.0);
    QVERIFY(!v.smoothSampling());
    QCOMPARE(v.imageRect(), QRectF(500 - 960, 300 - 540, 1920, 1080));
    QCOMPARE(v.zoomText(), QStringLiteral("100 %"));
    v.zoomIn(QPointF(500, 300));
    QCOMPARE(v.scale(), 1.5);
    v.zoomAt(4, QPointF(500, 300));
    QCOMPARE(v.zoomText(), QStringLiteral("400 %"));
    v.setFit(true);
    QCOMPARE(v.scale(), fit);
    QVERIFY(v.pan().isNull());
    // The first step from fit is the next one above it (0.5 → 2/3), not a jump to 100 %.
    v.zoomIn(QPointF(500, 300));
    QCOMPARE(v.scale(), 2.0 / 3);
    QVERIFY(v.smoothSampling());
  }

  // However far it is dragged, part of the frame stays in view (kKeepVisible pixels, or all of a smaller
  // frame) on both axes.
  void panKeepsTheFrameInView() {
    for (const double zoom : {1.0, 8.0, 32.0}) {
      PreviewView v = viewOf({640, 480}, {300, 200}, true);
      v.zoomAt(zoom, QPointF(320, 240));
      for (const QPointF pan : {QPointF(1e6, 1e6), QPointF(-1e6, 3), QPointF(-5, -1e6), QPointF(1e6, -1e6)}) {
        v.setPan(pan);
        const QRectF shown = v.visibleRect();
        const double keepX = std::min(PreviewView::kKeepVisible, 300 * zoom);
        const double keepY = std::min(PreviewView::kKeepVisible, 200 * zoom);
        QVERIFY2(
            shown.width() >= keepX - 0.5 && shown.height() >= keepY - 0.5,
            qPrintable(QStringLiteral("zoom %1: %2×%3").arg(zoom).arg(shown.width()).arg(shown.height())));
        QVERIFY2(shown.width() <= keepX + 1 || shown.height() <= keepY + 1,
                 "clamped to the limit, not before it");
      }
      v.setPan({10, -10});
      QCOMPARE(v.pan(), QPointF(10, -10));  // within the limits: as asked
    }
  }

  // The inspector's mapping at every zoom (fit, below 100 %, 100 %, 150 %, 800 %, 3200 %), panned, in both
  // split orientations: the centre and the corners of every sampled frame pixel map back to it, and each
  // pixel covers scale × scale widget pixels.
  void inspectorCoordinatesAtEveryZoom() {
    for (const double zoom : {0.0, 1.0 / 3, 1.0, 1.5, 8.0, 32.0})
      for (const int split : {-1, 0, 1}) {
        PreviewView v = viewOf({640, 480}, {320, 200}, true);
        if (split >= 0) v.setSplitVertical(split == 1), v.setSplit(0.4);
        if (zoom > 0) {
          v.zoomAt(zoom, QPointF(300, 200));
          v.setPan(v.pan() + QPointF(7, -3));
        }
        int checked = 0;
        for (int y = 0; y < 200; y += 7)
          for (int x = 0; x < 320; x += 11) {
            const QPoint p(x, y);
            const QRectF r = v.pixelRect(p);
            QCOMPARE(r.width(), v.scale());
            if (!QRectF(0, 0, 640, 480).contains(r.center())) continue;
            ++checked;
            const QString where =
                QStringLiteral("zoom %1 split %2 pixel %3,%4").arg(zoom).arg(split).arg(x).arg(y);
            QVERIFY2(v.framePixel(r.center()) == p, qPrintable(where));
            QVERIFY2(v.framePixel(r.topLeft() + QPointF(0.01, 0.01)) == p, qPrintable(where));
            QVERIFY2(v.framePixel(r.bottomRight() - QPointF(0.01, 0.01)) == p, qPrintable(where));
          }
        QVERIFY(checked > 0);
      }
    // At 800 % a frame pixel is an 8×8 block of widget pixels on the widget's pixel grid.
    PreviewView v = viewOf({641, 479}, {320, 200}, true);
    v.zoomAt(8, QPointF(300.3, 200.7));
    const QRectF r = v.pixelRect({100, 50});
    QCOMPARE(r.size(), QSizeF(8, 8));
    QCOMPARE(r.left(), std::round(r.left()));
    QCOMPARE(r.top(), std::round(r.top()));
  }

  void gridFrom800Percent() {
    PreviewView v = viewOf({640, 480}, {32, 20}, true);
    QVERIFY(v.fitScale() > 8);  // a tiny frame fitted: no grid (fit draws smooth)
    QVERIFY(!v.gridVisible());
    v.zoomAt(6, {320, 240});
    QVERIFY(!v.gridVisible());
    v.zoomIn({320, 240});
    QCOMPARE(v.scale(), 8.0);
    QVERIFY(v.gridVisible());
    v.zoomAt(32, {320, 240});
    QVERIFY(v.gridVisible());
  }

  void verticalDividerFollowsTheSplit() {
    PreviewView v = viewOf({800, 600}, {640, 480}, true);
    v.setSplitVertical(true);
    v.setSplit(0.3);
    const QRectF r = v.imageRect();
    QCOMPARE(v.dividerY(), r.top() + 0.3 * r.height());
    QCOMPARE(v.divider(), QLineF(r.left(), v.dividerY(), r.right(), v.dividerY()));
    QCOMPARE(v.splitAt(QPointF(123, v.dividerY())), 0.3);
    QVERIFY(v.nearDivider(QPointF(400, v.dividerY() - 5), 10));
    QVERIFY(!v.nearDivider(QPointF(400, v.dividerY() + 15), 10));
    QVERIFY(!v.nearDivider(QPointF(r.left() - 5, v.dividerY()), 10));
  }

  // A pill wider than the preview keeps its left edge (where its text starts) in view.
  void pillsStayInside() {
    const QRectF bounds(4, 4, 312, 232);
    const QRectF normal = placePill({100, 24}, {300, 200}, Qt::AlignRight, bounds);
    QCOMPARE(normal.right(), 300.0);
    const QRectF wide = placePill({400, 24}, {300, 200}, Qt::AlignRight, bounds);
    QCOMPARE(wide.left(), 4.0);
    const QRectF low = placePill({100, 24}, {10, 230}, Qt::AlignLeft, bounds);
    QCOMPARE(low.bottom(), 236.0);
  }

  void noFrameNoRect() {
    const PreviewView v = viewOf({800, 600}, {}, true);
    QVERIFY(v.imageRect().isEmpty());
    QCOMPARE(v.framePixel({400, 300}), QPoint(-1, -1));
  }
};

CONVOLAB_GUI_TEST_GUILESS_MAIN(PreviewViewTest)
#include "test_preview_view.moc"
