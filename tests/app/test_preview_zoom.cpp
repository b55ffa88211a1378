// SPDX-License-Identifier: MIT
// The preview's zoom tools on the widget and in the window: the wheel zooms around the cursor, drags pan, the
// pixel grid shows from 800 % (and not below), the split view can run top / bottom, the keys Ctrl+0 / Ctrl+1
// / Ctrl++ / Ctrl+- act and are listed under F1, the pixel inspector reads the right pixel at 800 % in both
// split views, the stale pill stays inside a narrow preview, and a file dialog leaves the picture in view.
#include <QFileDialog>
#include <QMainWindow>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "lab/lab_controller.hpp"
#include "lab/pixel_inspector.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/action_table.hpp"
#include "window/main_window.hpp"
#include "window/theme.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

std::shared_ptr<Image> solidImage(int w, int h, QRgb colour) {
  auto image = std::make_shared<Image>(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = image->pixels.data() + static_cast<std::size_t>(y) * image->stride + 3 * x;
      p[0] = static_cast<std::uint8_t>(qRed(colour));
      p[1] = static_cast<std::uint8_t>(qGreen(colour));
      p[2] = static_cast<std::uint8_t>(qBlue(colour));
    }
  return image;
}

ProcessedFramePtr zoomFrameOf(std::shared_ptr<Image> filtered, std::shared_ptr<Image> original) {
  auto frame = std::make_shared<ProcessedFrame>();
  frame->record.sequence = 1;
  frame->record.filterRevision = 1;
  frame->filtered = std::move(filtered);
  frame->original = std::move(original);
  return frame;
}

const QRgb kRed = qRgb(220, 30, 30);
const QRgb kBlue = qRgb(30, 30, 220);

QImage pixels(PreviewWidget& preview) {
  return preview.canvas()->grab().toImage().convertToFormat(QImage::Format_RGB32);
}

void zoomWheel(QWidget& w, const QPointF& at, int delta) {
  QWheelEvent e(at, w.mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
  QApplication::sendEvent(&w, &e);
}

void mouse(QWidget& w, QEvent::Type type, const QPointF& at, Qt::MouseButton button,
           Qt::MouseButtons buttons) {
  QMouseEvent e(type, at, w.mapToGlobal(at), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(&w, &e);
}

void drag(QWidget& w, const QPointF& from, const QPointF& to, Qt::MouseButton button) {
  mouse(w, QEvent::MouseButtonPress, from, button, button);
  mouse(w, QEvent::MouseMove, to, Qt::NoButton, button);
  mouse(w, QEvent::MouseButtonRelease, to, button, Qt::NoButton);
}

}  // namespace

class PreviewZoomTest : public QObject {
  Q_OBJECT

  // A raster preview of `size` showing `frame`.
  std::unique_ptr<PreviewWidget> previewOf(const QSize& size, const ProcessedFramePtr& frame) {
    auto p = std::make_unique<PreviewWidget>(nullptr, QStringLiteral("raster"));
    p->resize(size);
    p->setFrame(frame);
    p->setCurrentRevision(1);
    p->show();
    if (!QTest::qWaitForWindowExposed(p.get())) return nullptr;
    return p;
  }

  std::unique_ptr<MainWindow> windowWithCoffee() {
    auto window =
        std::make_unique<MainWindow>(test::launchOptions(test::dataFile(QStringLiteral("coffee.png"))));
    window->resize(1366, 740);
    window->show();
    window->activateWindow();
    if (!QTest::qWaitForWindowActive(window.get())) return nullptr;
    if (!test::waitForFrame(*window, window->pipeline()->filterRevision())) return nullptr;
    return window;
  }

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("preview-zoom-test")); }

  // One notch up zooms one step around the cursor: the frame point under it stays (within the half pixel of
  // the snap to the pixel grid); small touchpad deltas add up to a step; a notch down zooms out.
  void wheelZoomsAroundTheCursor() {
    auto p = previewOf({400, 300}, zoomFrameOf(solidImage(200, 150, kRed), solidImage(200, 150, kBlue)));
    QVERIFY(p);
    QSignalSpy zoomed(p.get(), &PreviewWidget::zoomChanged);
    const QPointF at(151.5, 118.25);
    const double fit = p->view().scale();
    const QPointF under = p->view().toFrame(at);
    zoomWheel(*p, at, 120);
    QVERIFY(!p->fitToWindow());
    QVERIFY(p->view().scale() > fit);
    QCOMPARE(zoomed.count(), 1);
    for (int i = 0; i < 3; ++i) zoomWheel(*p, at, 120);
    QVERIFY(p->view().scale() >= 4);
    const QPointF back = p->view().toWidget(under);
    QVERIFY2(std::abs(back.x() - at.x()) <= 0.5 && std::abs(back.y() - at.y()) <= 0.5,
             qPrintable(QStringLiteral("%1, %2").arg(back.x()).arg(back.y())));
    const double before = p->view().scale();
    zoomWheel(*p, at, 40);
    zoomWheel(*p, at, 40);
    QCOMPARE(p->view().scale(), before);
    zoomWheel(*p, at, 40);
    QVERIFY(p->view().scale() > before);
    zoomWheel(*p, at, -120);
    QCOMPARE(p->view().scale(), before);
  }

  // Zoomed, a left drag pans (in split view too, where fitted a click moves the divider), and so does a
  // middle drag; a fitted split view still moves its divider on a click.
  void dragsPan() {
    auto p = previewOf({400, 300}, zoomFrameOf(solidImage(200, 150, kRed), solidImage(200, 150, kBlue)));
    QVERIFY(p);
    p->setViewMode(ViewMode::Split);
    drag(*p, {120, 150}, {120, 150}, Qt::LeftButton);
    QVERIFY2(p->splitPosition() < 0.4, qPrintable(QString::number(p->splitPosition())));
    p->setSplitPosition(0.5);
    p->setZoom(4);
    QCOMPARE(p->view().pan(), QPointF());
    drag(*p, {120, 150}, {90, 130}, Qt::LeftButton);
    QCOMPARE(p->view().pan(), QPointF(-30, -20));
    QCOMPARE(p->splitPosition(), 0.5);
    drag(*p, {200, 200}, {210, 205}, Qt::MiddleButton);
    QCOMPARE(p->view().pan(), QPointF(-20, -15));
  }

  // Lines between the frame pixels from 800 % on, one widget pixel wide on each frame pixel's first column:
  // none at 600 %, exactly one per pixel boundary in view at 800 %.
  void gridFrom800Percent() {
    auto p = previewOf({400, 300}, zoomFrameOf(solidImage(40, 30, kRed), solidImage(40, 30, kRed)));
    QVERIFY(p);
    const auto gridColumns = [&](int y) {
      const QImage image = pixels(*p);
      QList<int> xs;
      for (int x = 0; x < image.width(); ++x)
        if (p->view().imageRect().contains(QPointF(x + 0.5, y + 0.5)) && image.pixel(x, y) != kRed) xs << x;
      return xs;
    };
    p->setZoom(6);
    QVERIFY(!p->view().gridVisible());
    QCOMPARE(gridColumns(200), QList<int>());
    p->setZoom(8);
    QVERIFY(p->view().gridVisible());
    const QRectF r = p->view().imageRect();
    QCOMPARE(r.size(), QSizeF(320, 240));
    QList<int> expected;
    for (int i = 1; i < 40; ++i) expected << static_cast<int>(r.left()) + 8 * i;
    QCOMPARE(gridColumns(200), expected);
    // The theme's grid colour over the frame.
    const QRgb line = pixels(*p).pixel(expected.first(), 200);
    const QColor grid = theme::pixelGrid();
    const double a = grid.alphaF();
    QVERIFY2(std::abs(qGreen(line) - (grid.green() * a + qGreen(kRed) * (1 - a))) <= 2,
             qPrintable(QString::number(line, 16)));
  }

  // Split top / bottom: the original above the divider, the filtered frame below (left / right otherwise).
  void verticalSplitPutsTheOriginalOnTop() {
    auto p = previewOf({400, 300}, zoomFrameOf(solidImage(200, 150, kBlue), solidImage(200, 150, kRed)));
    QVERIFY(p);
    p->setViewMode(ViewMode::Split);
    p->setSplitPosition(0.5);
    const QRectF r = p->view().imageRect();
    const QPoint topRight(static_cast<int>(r.left() + r.width() * 0.75),
                          static_cast<int>(r.top() + r.height() * 0.3));
    const QPoint bottomLeft(static_cast<int>(r.left() + r.width() * 0.25),
                            static_cast<int>(r.top() + r.height() * 0.8));
    QCOMPARE(pixels(*p).pixel(topRight), kBlue);  // left / right: right of the divider, filtered
    QCOMPARE(pixels(*p).pixel(bottomLeft), kRed);
    p->setSplitVertical(true);
    QCOMPARE(pixels(*p).pixel(topRight), kRed);  // above the divider: the original
    QCOMPARE(pixels(*p).pixel(bottomLeft), kBlue);
    QCOMPARE(p->view().dividerY(), r.top() + r.height() / 2);
  }

  // The stale pill (stale frame + what the engine waits on) in a 320-pixel preview: inside it, elided.
  void stalePillStaysInsideANarrowPreview() {
    auto p = previewOf({320, 240}, zoomFrameOf(solidImage(200, 150, kRed), solidImage(200, 150, kRed)));
    QVERIFY(p);
    p->setCurrentRevision(2);
    p->setPreparing(QStringLiteral("measuring strategies 3/10 (tiled, separable, local-memory)…"));
    QTRY_VERIFY(p->isDimmed());
    (void)pixels(*p);
    const QRectF pill = p->stalePillRect();
    QVERIFY(!pill.isEmpty());
    QVERIFY2(pill.left() >= 0 && pill.right() <= p->width(),
             qPrintable(QStringLiteral("%1 … %2").arg(pill.left()).arg(pill.right())));
  }

  // The keys act and the F1 list names them: Ctrl+1 100 %, Ctrl++ / Ctrl+= in, Ctrl+- out, Ctrl+0 fit; Fit
  // and 100 % are checked only at their zoom; Alt+4 splits top / bottom and is remembered.
  void shortcutsZoomAndAreListed() {
    auto window = windowWithCoffee();
    QVERIFY(window);
    PreviewWidget* p = window->preview();
    QVERIFY(p->fitToWindow());
    QAction* fit = window->action(ActionId::Fit);
    QAction* actual = window->action(ActionId::ActualSize);
    QTest::keyClick(window.get(), Qt::Key_1, Qt::ControlModifier);
    QVERIFY(!p->fitToWindow());
    QCOMPARE(p->view().zoom(), 1.0);
    QVERIFY(actual->isChecked() && !fit->isChecked());
    QTest::keyClick(window.get(), Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(p->view().zoom(), 1.5);
    QVERIFY(!actual->isChecked() && !fit->isChecked());
    QTest::keyClick(window.get(), Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(p->view().zoom(), 2.0);
    QTest::keyClick(window.get(), Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(p->view().zoom(), 1.5);
    QTest::keyClick(window.get(), Qt::Key_0, Qt::ControlModifier);
    QVERIFY(p->fitToWindow());
    QVERIFY(fit->isChecked() && !actual->isChecked());
    // A second Fit keeps its check (the group allows none checked).
    fit->trigger();
    QVERIFY(fit->isChecked());
    QTest::keyClick(window.get(), Qt::Key_3, Qt::AltModifier);
    QCOMPARE(p->viewMode(), ViewMode::Split);
    QVERIFY(!p->splitVertical());
    QTest::keyClick(window.get(), Qt::Key_4, Qt::AltModifier);
    QVERIFY(p->splitVertical());
    QVERIFY(QSettings().value(QStringLiteral("view/splitVertical")).toBool());

    QMainWindow other;
    QUndoStack undo;
    const QString list = ActionTable(&other, &undo).shortcutListHtml();
    for (const QKeySequence& key : {QKeySequence(QKeySequence::ZoomIn), QKeySequence(QKeySequence::ZoomOut),
                                    QKeySequence(Qt::CTRL | Qt::Key_0), QKeySequence(Qt::CTRL | Qt::Key_1),
                                    QKeySequence(Qt::ALT | Qt::Key_4)})
      QVERIFY2(list.contains(key.toString(QKeySequence::NativeText)), qPrintable(key.toString()));
    for (const char* text : {"Zoom In", "Zoom Out", "Split Top / Bottom"})
      QVERIFY2(list.contains(QLatin1String(text)), text);
  }

  // The split orientation comes back in a new window; the zoom does not (every start is fitted, also
  // over an older version's view/fit = false).
  void splitOrientationIsRememberedTheZoomIsNot() {
    {
      auto window = windowWithCoffee();
      QVERIFY(window);
      window->preview()->setZoom(8);
      window->action(ActionId::SplitVertical)->setChecked(true);
    }
    QSettings().setValue(QStringLiteral("view/fit"), false);
    auto window = windowWithCoffee();
    QVERIFY(window);
    QVERIFY(window->preview()->splitVertical());
    QVERIFY(window->action(ActionId::SplitVertical)->isChecked());
    QVERIFY(window->preview()->fitToWindow());
    QVERIFY(window->action(ActionId::Fit)->isChecked());
    window->action(ActionId::SplitVertical)->setChecked(false);
  }

  // At 800 % in both split views the inspector reads the pixel under the pointer: each frame pixel is an
  // 8×8 block, and its values are the frame's.
  void inspectorAt800PercentInSplitViews() {
    auto window = windowWithCoffee();
    QVERIFY(window);
    PreviewWidget* p = window->preview();
    lab::PixelInspector* inspector = window->lab()->inspector();
    QVERIFY(inspector);
    window->action(ActionId::ViewSplit)->trigger();
    const ProcessedFramePtr frame = p->frame();
    QVERIFY(frame);
    for (const bool vertical : {false, true}) {
      p->setSplitVertical(vertical);
      p->setFitToWindow(true);
      p->setZoom(8);
      const QPoint centre = p->view().framePixel(QRectF(p->rect()).center());
      for (const QPoint d : {QPoint(0, 0), QPoint(-7, 3), QPoint(12, -9), QPoint(-20, -20)}) {
        const QPoint q = centre + d;
        const QRectF cell = p->view().pixelRect(q);
        QCOMPARE(cell.size(), QSizeF(8, 8));
        QCOMPARE(cell.topLeft() - p->view().pixelRect(centre).topLeft(), QPointF(d) * 8);
        const QPointF at = cell.topLeft() + QPointF(6.5, 1.5);
        QMouseEvent move(QEvent::MouseMove, at, p->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(p, &move);
        const QString expected = QStringLiteral("x %1, y %2").arg(q.x()).arg(q.y());
        QVERIFY2(inspector->statusText().contains(expected),
                 qPrintable(inspector->statusText() + " vs " + expected));
        const std::uint8_t* px = frame->filtered->pixels.data() +
                                 static_cast<std::size_t>(q.y()) * frame->filtered->stride + 3 * q.x();
        QCOMPARE(inspector->lastProbe()->output[1], int(px[1]));
      }
    }
  }

  // A file dialog over the window leaves most of the picture in view, and the preview keeps drawing it. (It
  // opened centred: at 1366×768 it covered the whole picture, dark and frameless without a window manager,
  // which read as a blanked preview; the canvas itself never stopped drawing.)
  void fileDialogLeavesThePictureInView() {
    auto window = windowWithCoffee();
    QVERIFY(window);
    PreviewWidget* p = window->preview();
    const QImage before = pixels(*p);
    const QRectF shown = p->view().visibleRect();
    const QRect picture(p->mapToGlobal(shown.topLeft().toPoint()), shown.size().toSize());
    QString seen;
    double covered = -1;
    bool same = false;
    QTimer::singleShot(300, window.get(), [&] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      seen = QStringLiteral("%1,%2 %3×%4")
                 .arg(dialog->frameGeometry().left())
                 .arg(dialog->frameGeometry().top())
                 .arg(dialog->frameGeometry().width())
                 .arg(dialog->frameGeometry().height());
      const QRect both = dialog->frameGeometry().intersected(picture);
      covered = double(both.width()) * both.height() / (double(picture.width()) * picture.height());
      same = pixels(*p) == before;
      dialog->reject();
    });
    window->action(ActionId::OpenImage)->trigger();
    QVERIFY2(covered >= 0, "no file dialog");
    QVERIFY2(covered < 0.5,
             qPrintable(QStringLiteral("dialog at %1 covers %2 of the picture").arg(seen).arg(covered)));
    QVERIFY(same);
  }
};

CONVOLAB_GUI_TEST_MAIN(PreviewZoomTest)
#include "test_preview_zoom.moc"
